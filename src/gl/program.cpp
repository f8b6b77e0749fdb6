// Compiles and links programs from shader files, turning driver info logs into errors that
// name file:line (see format_shader_log).
#include "murmur/gl/program.hpp"

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "murmur/base/errors.hpp"

namespace murmur::gl {
namespace {

// Owns a shader object for the span of a build; programs keep what they need after linking.
class Shader {
 public:
  explicit Shader(GLenum stage) : id_(glCreateShader(stage)) {}
  ~Shader() { glDeleteShader(id_); }
  Shader(const Shader&) = delete;
  Shader& operator=(const Shader&) = delete;
  GLuint id() const { return id_; }

 private:
  GLuint id_;
};

std::string shader_log(GLuint shader) {
  GLint length = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<std::size_t>(std::max(length, 1)), '\0');
  glGetShaderInfoLog(shader, length, nullptr, log.data());
  log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));
  return log;
}

std::string program_log(GLuint program) {
  GLint length = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<std::size_t>(std::max(length, 1)), '\0');
  glGetProgramInfoLog(program, length, nullptr, log.data());
  log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));
  return log;
}

// The error message's first line must be the first error (drivers may list warnings first):
// promote it when it is not already in front.
std::string error_first(const std::string& formatted, const std::string& fallback_headline) {
  std::size_t start = 0;
  while (start < formatted.size()) {
    std::size_t end = formatted.find('\n', start);
    if (end == std::string::npos) end = formatted.size();
    const std::string line = formatted.substr(start, end - start);
    if (line.find(": error") != std::string::npos && line.rfind("> ", 0) != 0 &&
        line.rfind("  ", 0) != 0) {
      return start == 0 ? formatted : line + '\n' + formatted;
    }
    start = end + 1;
  }
  return fallback_headline + '\n' + formatted;
}

// Compiles the shader and returns the text it was given.
std::string compile(const Shader& shader, const std::string& file, const std::string& defines,
                    const std::map<std::string, std::string_view>& files) {
  const ShaderSource source = preprocess_shader(file, files, defines);
  const char* text = source.text.c_str();
  glShaderSource(shader.id(), 1, &text, nullptr);
  glCompileShader(shader.id());
  GLint compiled = GL_FALSE;
  glGetShaderiv(shader.id(), GL_COMPILE_STATUS, &compiled);
  if (compiled != GL_TRUE) {
    const std::string formatted = format_shader_log(shader_log(shader.id()), source);
    throw GpuError(error_first(formatted, source.files.front() + ": error: shader did not compile"));
  }
  return source.text;
}

GLuint link(const std::vector<const Shader*>& shaders, const std::string& what) {
  const GLuint program = glCreateProgram();
  for (const Shader* shader : shaders) glAttachShader(program, shader->id());
  glLinkProgram(program);
  for (const Shader* shader : shaders) glDetachShader(program, shader->id());
  GLint linked = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (linked != GL_TRUE) {
    const std::string log = program_log(program);
    glDeleteProgram(program);
    throw GpuError(what + ": error: program did not link\n" + log);
  }
  // Debug output and captures then name the program by its files.
  glObjectLabel(GL_PROGRAM, program, -1, what.c_str());
  return program;
}

// How a file reads in messages: the name preprocess_shader gives it.
std::string shown_name(const std::string& file,
                       const std::map<std::string, std::string_view>& files) {
  return &files == &embedded_shader_files() ? "shaders/" + file : file;
}

}  // namespace

Program Program::compute(const std::string& file, const std::string& defines,
                         const std::map<std::string, std::string_view>& files) {
  Shader shader(GL_COMPUTE_SHADER);
  Program program;
  program.sources_ = compile(shader, file, defines, files);
  program.name_ = shown_name(file, files);
  program.handle_ = Handle<delete_program>(link({&shader}, program.name_));
  return program;
}

Program Program::graphics(const std::string& vertex_file, const std::string& fragment_file,
                          const std::string& defines,
                          const std::map<std::string, std::string_view>& files) {
  Shader vertex(GL_VERTEX_SHADER);
  Shader fragment(GL_FRAGMENT_SHADER);
  Program program;
  program.sources_ = compile(vertex, vertex_file, defines, files) +
                     compile(fragment, fragment_file, defines, files);
  program.name_ = shown_name(vertex_file, files) + " + " + shown_name(fragment_file, files);
  program.handle_ = Handle<delete_program>(link({&vertex, &fragment}, program.name_));
  return program;
}

void Program::use() const { glUseProgram(id()); }

GLint Program::uniform_if_declared(const char* name) const {
  const GLint location = glGetUniformLocation(id(), name);
  if (location >= 0) return location;
  // Declared: `uniform TYPE NAME` then `;`, `[` or `=`.
  const std::string declared = std::string(R"(uniform\s+\w+\s+)") + name + R"(\s*[;\[=])";
  if (std::regex_search(sources_, std::regex(declared))) return location;
  throw GpuError(name_ + ": no uniform '" + name + "' declared in its sources (misspelt?)");
}

GLint Program::uniform(const char* name) const {
  const GLint location = glGetUniformLocation(id(), name);
  if (location < 0) {
    throw GpuError(name_ + ": no active uniform '" + name +
                   "' (misspelt, or unused by the shaders so the linker removed it)");
  }
  return location;
}

void Uniform::set(float value) const { glProgramUniform1f(program_, location_, value); }

void Uniform::set(std::uint32_t value) const { glProgramUniform1ui(program_, location_, value); }

void Uniform::set(bool value) const { glProgramUniform1i(program_, location_, value ? 1 : 0); }

void Uniform::set(glm::vec2 value) const {
  glProgramUniform2f(program_, location_, value.x, value.y);
}

void Uniform::set(glm::uvec2 value) const {
  glProgramUniform2ui(program_, location_, value.x, value.y);
}

void Uniform::set(glm::ivec2 value) const {
  glProgramUniform2i(program_, location_, value.x, value.y);
}

void Uniform::set(glm::vec3 value) const {
  glProgramUniform3f(program_, location_, value.x, value.y, value.z);
}

void Uniform::set(glm::vec4 value) const {
  glProgramUniform4f(program_, location_, value.x, value.y, value.z, value.w);
}

void Uniform::set(const glm::mat4& value) const {
  glProgramUniformMatrix4fv(program_, location_, 1, GL_FALSE, &value[0][0]);
}

void Uniform::set(std::span<const float> values) const {
  glProgramUniform1fv(program_, location_, static_cast<GLsizei>(values.size()), values.data());
}

void Uniform::set(std::span<const glm::vec3> values) const {
  glProgramUniform3fv(program_, location_, static_cast<GLsizei>(values.size()), &values.data()->x);
}

void Uniform::set(std::span<const glm::vec4> values) const {
  glProgramUniform4fv(program_, location_, static_cast<GLsizei>(values.size()), &values.data()->x);
}

void Uniform::set(std::span<const std::uint32_t> values) const {
  glProgramUniform1uiv(program_, location_, static_cast<GLsizei>(values.size()), values.data());
}

}  // namespace murmur::gl
