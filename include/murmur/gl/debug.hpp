#pragma once
// KHR_debug output: one callback that counts and logs GL errors, and scoped debug groups.
#include <cstddef>
#include <string>
#include <vector>

#include "murmur/gl/gl.hpp"

namespace murmur::gl {

// Installs a debug-message callback on the current context (synchronous output). Errors are
// counted and kept; other messages of medium or high severity are logged to stderr when
// `verbose` is set. One instance per context; uninstalls on destruction.
class DebugMessenger {
 public:
  explicit DebugMessenger(bool verbose = false);
  ~DebugMessenger();
  DebugMessenger(const DebugMessenger&) = delete;
  DebugMessenger& operator=(const DebugMessenger&) = delete;

  std::size_t error_count() const { return errors_.size(); }
  const std::vector<std::string>& errors() const { return errors_; }
  void clear() { errors_.clear(); }

 private:
  static void GLAPIENTRY callback(GLenum source, GLenum type, GLuint id, GLenum severity,
                                  GLsizei length, const GLchar* message, const void* user);
  bool verbose_;
  std::vector<std::string> errors_;
};

// Names a span of GL work in debuggers and captures (glPushDebugGroup / glPopDebugGroup).
class DebugGroup {
 public:
  explicit DebugGroup(const char* name);
  ~DebugGroup();
  DebugGroup(const DebugGroup&) = delete;
  DebugGroup& operator=(const DebugGroup&) = delete;
};

}  // namespace murmur::gl
