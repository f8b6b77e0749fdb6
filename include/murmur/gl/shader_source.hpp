#pragma once
// Shader sources: embedded at build time (cmake/embed_shaders.cmake), with `#include "x"`
// resolved here and `#line` emitted so that driver messages can be mapped back to file:line.
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace murmur::gl {

// Every file under shaders/, keyed by file name (generated).
const std::map<std::string, std::string_view>& embedded_shader_files();

struct ShaderSource {
  std::string text;                // ready for glShaderSource
  std::vector<std::string> files;  // `#line L N` refers to files[N]
};

// Expands `#include "name"` (each file once) from `files`, inserts `defines` (lines of
// `#define ...`) after the #version line, and emits `#line` so every line maps back to its
// file. Throws GpuError for a missing file or include cycle, naming the including file:line.
ShaderSource preprocess_shader(const std::string& name,
                               const std::map<std::string, std::string_view>& files,
                               const std::string& defines = {});

// Rewrites a driver info log so that `N:L(C)` (Mesa) and `N(L)` (NVIDIA) locations read
// `file:L`, and appends the numbered source lines around each located error.
std::string format_shader_log(const std::string& log, const ShaderSource& source);

}  // namespace murmur::gl
