#pragma once
// A linked GL program built from embedded shader files.
#include <string>

#include "murmur/gl/objects.hpp"
#include "murmur/gl/shader_source.hpp"

namespace murmur::gl {

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
  // Location of a uniform; -1 (ignored by glProgramUniform) if the linker removed it.
  GLint uniform(const char* name) const;

 private:
  Handle<delete_program> handle_;
};

}  // namespace murmur::gl
