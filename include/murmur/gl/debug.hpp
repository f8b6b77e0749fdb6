#pragma once
// KHR_debug output: one callback that counts and logs GL errors, the check that turns them into
// a GpuError, and scoped debug groups.
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "murmur/gl/gl.hpp"

namespace murmur::gl {

// Installs a debug-message callback on the current context. Errors are kept; other messages of
// medium or high severity are logged to stderr when `verbose` is set. With `synchronous` the
// callback runs inside the faulty GL call (a breakpoint there shows the culprit), which costs
// the driver its pipelining; without it the driver may report later, from another thread, and
// throw_if_errors still sees every error through glGetError. Messengers nest: destruction puts
// back the callback that was installed before (a test's messenger over its context's own).
class DebugMessenger {
 public:
  explicit DebugMessenger(bool verbose = false, bool synchronous = true);
  ~DebugMessenger();
  DebugMessenger(const DebugMessenger&) = delete;
  DebugMessenger& operator=(const DebugMessenger&) = delete;

  std::size_t error_count() const;
  std::vector<std::string> errors() const;
  void clear();

  // Throws GpuError when the context saw a GL error since the last check (a message through
  // the callback, or a flag left for glGetError): "GL error during <during>: <the driver's
  // first message> (and N more)". Forgets the errors it reports, so the next check starts clean.
  void throw_if_errors(std::string_view during);

  // For a context that is no longer current: the destructor then makes no GL calls (they would
  // reach whichever context is current instead).
  void forget_context() { owns_context_ = false; }

 private:
  static void GLAPIENTRY callback(GLenum source, GLenum type, GLuint id, GLenum severity,
                                  GLsizei length, const GLchar* message, const void* user);
  bool verbose_;
  // The callback may run on a driver thread when output is not synchronous.
  mutable std::mutex mutex_;
  std::vector<std::string> errors_;
  // What this messenger replaced, put back on destruction.
  GLDEBUGPROC previous_callback_ = nullptr;
  const void* previous_user_ = nullptr;
  bool previous_output_ = false;
  bool previous_synchronous_ = false;
  bool owns_context_ = true;
};

// Names a span of GL work in debuggers and captures (glPushDebugGroup / glPopDebugGroup).
class DebugGroup {
 public:
  explicit DebugGroup(const char* name);
  ~DebugGroup();
  DebugGroup(const DebugGroup&) = delete;
  DebugGroup& operator=(const DebugGroup&) = delete;
};

// Test aid (docs/gpu.md, "Planting a GL error"): the step index at which every GpuFlock makes
// one deliberately invalid GL call, from MURMUR_TEST_GL_ERROR_AT_STEP; empty when it is unset.
// A value that is not a step index is an InputError naming the variable.
std::optional<std::uint64_t> planted_gl_error_step();
// The deliberately invalid call: a storage binding past GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS,
// which every driver rejects with GL_INVALID_VALUE and changes nothing else.
void make_planted_gl_error();

}  // namespace murmur::gl
