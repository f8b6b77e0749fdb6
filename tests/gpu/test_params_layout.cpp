// The generated per-species record (src/paramgen): the std430 offsets the generator computed,
// which the C++ record's static_asserts hold it to, are the offsets the GL driver gives the
// GLSL Species struct. A wrong layout rule in the generator fails here.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <string_view>

#include "gpu_test_support.hpp"
#include "murmur/gl/gl.hpp"
#include "murmur/gl/program.hpp"
#include "murmur/gl/shader_source.hpp"
#include "murmur/flock/gpu/gpu_types.hpp"

using namespace murmur;

namespace {

// A compute shader that reads every field of Species, so that none is optimised away and
// each is an active buffer variable the driver reports an offset for.
std::string probe_shader() {
  std::string reads;
  for (const gpu::SpeciesField& field : gpu::kSpeciesFields) {
    reads += "  total += float(species[0]." + std::string(field.name) + ");\n";
  }
  return "#version 450\n#include \"common/common.glsl\"\nlayout(local_size_x = 1) in;\n"
         "layout(std430, binding = 0) readonly buffer SpeciesBlock { Species species[]; };\n"
         "layout(std430, binding = 1) writeonly buffer Out { float total_out; };\n"
         "void main() {\n  float total = 0.0;\n" +
         reads + "  total_out = total;\n}\n";
}

GLint resource_property(GLuint program, const std::string& name, GLenum property) {
  const GLuint index = glGetProgramResourceIndex(program, GL_BUFFER_VARIABLE, name.c_str());
  if (index == GL_INVALID_INDEX) return -1;
  GLint value = -1;
  glGetProgramResourceiv(program, GL_BUFFER_VARIABLE, index, 1, &property, 1, nullptr, &value);
  return value;
}

}  // namespace

TEST_CASE("the generated Species record has the driver's std430 offsets and stride") {
  test::gl_context();
  const std::string probe = probe_shader();
  std::map<std::string, std::string_view> files = gl::embedded_shader_files();
  files["params_layout_probe.comp"] = probe;
  const gl::Program program = gl::Program::compute("params_layout_probe.comp", {}, files);
  for (const gpu::SpeciesField& field : gpu::kSpeciesFields) {
    INFO("Species." << field.name);
    const std::string name = "species[0]." + std::string(field.name);
    CHECK(resource_property(program.id(), name, GL_OFFSET) == static_cast<GLint>(field.offset));
    CHECK(resource_property(program.id(), name, GL_TOP_LEVEL_ARRAY_STRIDE) ==
          static_cast<GLint>(sizeof(gpu::Species)));
  }
}
