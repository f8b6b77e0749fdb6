// KHR_debug output, and the check points that turn a reported GL error into a GpuError.
#include "murmur/gl/debug.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "murmur/base/errors.hpp"

namespace murmur::gl {
namespace {

const char* source_name(GLenum source) {
  switch (source) {
    case GL_DEBUG_SOURCE_API: return "API";
    case GL_DEBUG_SOURCE_WINDOW_SYSTEM: return "window system";
    case GL_DEBUG_SOURCE_SHADER_COMPILER: return "shader compiler";
    case GL_DEBUG_SOURCE_THIRD_PARTY: return "third party";
    case GL_DEBUG_SOURCE_APPLICATION: return "application";
    default: return "other";
  }
}

const char* type_name(GLenum type) {
  switch (type) {
    case GL_DEBUG_TYPE_ERROR: return "error";
    case GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR: return "deprecated";
    case GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR: return "undefined behaviour";
    case GL_DEBUG_TYPE_PORTABILITY: return "portability";
    case GL_DEBUG_TYPE_PERFORMANCE: return "performance";
    case GL_DEBUG_TYPE_MARKER: return "marker";
    case GL_DEBUG_TYPE_PUSH_GROUP: return "push group";
    case GL_DEBUG_TYPE_POP_GROUP: return "pop group";
    default: return "other";
  }
}

const char* severity_name(GLenum severity) {
  switch (severity) {
    case GL_DEBUG_SEVERITY_HIGH: return "high";
    case GL_DEBUG_SEVERITY_MEDIUM: return "medium";
    case GL_DEBUG_SEVERITY_LOW: return "low";
    default: return "notification";
  }
}

const char* error_code_name(GLenum code) {
  switch (code) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
    case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
    case GL_CONTEXT_LOST: return "GL_CONTEXT_LOST";
    default: return "unknown GL error code";
  }
}

// GL keeps at most one flag per error kind; a lost context may report itself on every call,
// so draining stops after as many reads as there are kinds.
constexpr int kMaxErrorFlags = 8;

// The error flags glGetError holds, cleared as they are read.
std::vector<GLenum> take_error_flags() {
  std::vector<GLenum> flags;
  for (int read = 0; read < kMaxErrorFlags; ++read) {
    const GLenum code = glGetError();
    if (code == GL_NO_ERROR) break;
    flags.push_back(code);
  }
  return flags;
}

constexpr const char* kPlantedErrorEnv = "MURMUR_TEST_GL_ERROR_AT_STEP";

}  // namespace

DebugMessenger::DebugMessenger(bool verbose, bool synchronous) : verbose_(verbose) {
  GLvoid* previous_callback = nullptr;
  GLvoid* previous_user = nullptr;
  glGetPointerv(GL_DEBUG_CALLBACK_FUNCTION, &previous_callback);
  glGetPointerv(GL_DEBUG_CALLBACK_USER_PARAM, &previous_user);
  previous_callback_ = reinterpret_cast<GLDEBUGPROC>(previous_callback);
  previous_user_ = previous_user;
  previous_output_ = glIsEnabled(GL_DEBUG_OUTPUT) == GL_TRUE;
  previous_synchronous_ = glIsEnabled(GL_DEBUG_OUTPUT_SYNCHRONOUS) == GL_TRUE;

  glEnable(GL_DEBUG_OUTPUT);
  if (synchronous) {
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  } else {
    glDisable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  }
  glDebugMessageCallback(&DebugMessenger::callback, this);
  // Notifications (buffer placement hints, shader stats) are chatter, never a fault; turning
  // them off at the source also spares the driver formatting them.
  glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DEBUG_SEVERITY_NOTIFICATION, 0, nullptr,
                        GL_FALSE);
}

DebugMessenger::~DebugMessenger() {
  if (!owns_context_) return;
  glDebugMessageCallback(previous_callback_, previous_user_);
  if (previous_synchronous_) {
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  } else {
    glDisable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  }
  if (!previous_output_) glDisable(GL_DEBUG_OUTPUT);
}

std::size_t DebugMessenger::error_count() const {
  const std::lock_guard lock(mutex_);
  return errors_.size();
}

std::vector<std::string> DebugMessenger::errors() const {
  const std::lock_guard lock(mutex_);
  return errors_;
}

void DebugMessenger::clear() {
  const std::lock_guard lock(mutex_);
  errors_.clear();
}

void DebugMessenger::throw_if_errors(std::string_view during) {
  // glGetError first: a threaded driver finishes the calls before it, so their messages are in.
  const std::vector<GLenum> flags = take_error_flags();
  std::vector<std::string> messages;
  {
    const std::lock_guard lock(mutex_);
    messages.swap(errors_);
  }
  if (messages.empty() && flags.empty()) return;
  // The driver's own words where it gave them; otherwise the bare error code.
  std::string report = "during " + std::string(during) + ": ";
  report += !messages.empty() ? messages.front()
                              : std::string("GL error ") + error_code_name(flags.front()) +
                                    " (no debug message from the driver)";
  const std::size_t more = std::max(messages.size(), flags.size()) - 1;
  if (more > 0) report += " (and " + std::to_string(more) + " more)";
  throw GpuError(report);
}

void GLAPIENTRY DebugMessenger::callback(GLenum source, GLenum type, GLuint id, GLenum severity,
                                         GLsizei length, const GLchar* message, const void* user) {
  auto* self = static_cast<DebugMessenger*>(const_cast<void*>(user));
  if (severity == GL_DEBUG_SEVERITY_NOTIFICATION) return;
  const std::string text = length >= 0 ? std::string(message, static_cast<std::size_t>(length))
                                       : std::string(message);
  const std::string line = std::string("GL ") + type_name(type) + " (" + source_name(source) +
                           ", id " + std::to_string(id) + ", " + severity_name(severity) +
                           "): " + text;
  if (type == GL_DEBUG_TYPE_ERROR) {
    const std::lock_guard lock(self->mutex_);
    self->errors_.push_back(line);
  }
  const bool loggable = severity == GL_DEBUG_SEVERITY_HIGH || severity == GL_DEBUG_SEVERITY_MEDIUM ||
                        type == GL_DEBUG_TYPE_ERROR;
  if (self->verbose_ && loggable) std::fprintf(stderr, "%s\n", line.c_str());
}

DebugGroup::DebugGroup(const char* name) {
  // Length -1: `name` is NUL-terminated.
  glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, name);
}

DebugGroup::~DebugGroup() { glPopDebugGroup(); }

std::optional<std::uint64_t> planted_gl_error_step() {
  const char* value = std::getenv(kPlantedErrorEnv);
  if (value == nullptr || *value == '\0') return std::nullopt;
  const std::string_view text(value);
  std::uint64_t step = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), step);
  if (error != std::errc() || end != text.data() + text.size()) {
    throw InputError(std::string(kPlantedErrorEnv) + "='" + std::string(text) +
                     "' is not a step index: use an integer in [0, 2^64-1] (or leave it unset)");
  }
  return step;
}

void make_planted_gl_error() {
  GLint bindings = 0;
  glGetIntegerv(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &bindings);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, static_cast<GLuint>(bindings), 0);
}

}  // namespace murmur::gl
