#pragma once
// A linked GL program built from embedded shader files, and its uniforms resolved at load.
#include <cstdint>
#include <span>
#include <string>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>

#include "murmur/gl/objects.hpp"
#include "murmur/gl/shader_source.hpp"

namespace murmur::gl {

// The #define that builds a shader for a 3D world: 48-byte Boid records and the model over vec3
// (shaders/common/common.glsl). The simulation's passes and the renderer's 3D passes add it to
// their defines.
inline constexpr const char* kVolumeDefine = "#define MURMUR_3D\n";

class Program {
 public:
  Program() = default;
  // Both throw GpuError on compile or link failure: the message names file:line (through
  // format_shader_log) and shows the numbered source. `files` defaults to the embedded set.
  static Program compute(const std::string& file, const std::string& defines = {},
                         const std::map<std::string, std::string_view>& files = embedded_shader_files());
  static Program graphics(const std::string& vertex_file, const std::string& fragment_file,
                          const std::string& defines = {},
                          const std::map<std::string, std::string_view>& files = embedded_shader_files());

  GLuint id() const { return handle_.id(); }
  void use() const;
  // Location of an active uniform. A name the program lacks (misspelt, or never read by the
  // shaders so the linker dropped it) is a GpuError naming the program and the uniform: GL
  // would take -1 and silently ignore every value set. Look uniforms up once, at load.
  GLint uniform(const char* name) const;
  // The same for a uniform that a specialised build of the program may have compiled out (a
  // shader variant, e.g. one colour mode of render_colour.glsl): -1, which GL ignores when set,
  // where the name is declared as a uniform in the program's sources but not active; a name
  // declared nowhere is still a GpuError.
  GLint uniform_if_declared(const char* name) const;

  // The program's files as messages name them ("shaders/render/heads.vert + shaders/render/heads.frag").
  const std::string& name() const { return name_; }

 private:
  Handle<delete_program> handle_;
  std::string name_;
  std::string sources_;  // every stage's preprocessed text, for uniform_if_declared
};

// One uniform of a program, looked up when the program is loaded (a missing one throws
// GpuError there, see Program::uniform), then set by location with glProgramUniform*.
class Uniform {
 public:
  Uniform(const Program& program, const char* name)
      : program_(program.id()), location_(program.uniform(name)) {}
  // A uniform some variants of the program compile out (Program::uniform_if_declared).
  struct MayBeCompiledOut {};
  Uniform(const Program& program, const char* name, MayBeCompiledOut)
      : program_(program.id()), location_(program.uniform_if_declared(name)) {}

  void set(float value) const;
  void set(std::uint32_t value) const;
  void set(bool value) const;  // a GLSL bool, set as an int
  void set(glm::vec2 value) const;
  void set(glm::uvec2 value) const;
  void set(glm::ivec2 value) const;
  void set(glm::vec3 value) const;
  void set(glm::vec4 value) const;
  void set(const glm::mat4& value) const;  // column by column, as GLSL reads it
  // A whole array uniform from its first element.
  void set(std::span<const float> values) const;
  void set(std::span<const glm::vec3> values) const;
  void set(std::span<const glm::vec4> values) const;
  void set(std::span<const std::uint32_t> values) const;

 private:
  GLuint program_;
  GLint location_;
};

}  // namespace murmur::gl
