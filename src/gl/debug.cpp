// KHR_debug output. Output is synchronous so that an error is reported inside the GL call that
// caused it: a breakpoint in the callback then shows the culprit on the stack.
#include "murmur/gl/debug.hpp"

#include <cstdio>
#include <string>

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

}  // namespace

DebugMessenger::DebugMessenger(bool verbose) : verbose_(verbose) {
  glEnable(GL_DEBUG_OUTPUT);
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback(&DebugMessenger::callback, this);
  // Notifications (buffer placement hints, shader stats) are chatter, never a fault; turning
  // them off at the source also spares the driver formatting them.
  glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DEBUG_SEVERITY_NOTIFICATION, 0, nullptr,
                        GL_FALSE);
}

DebugMessenger::~DebugMessenger() {
  glDebugMessageCallback(nullptr, nullptr);
  glDisable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
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
  if (type == GL_DEBUG_TYPE_ERROR) self->errors_.push_back(line);
  const bool loggable = severity == GL_DEBUG_SEVERITY_HIGH || severity == GL_DEBUG_SEVERITY_MEDIUM ||
                        type == GL_DEBUG_TYPE_ERROR;
  if (self->verbose_ && loggable) std::fprintf(stderr, "%s\n", line.c_str());
}

DebugGroup::DebugGroup(const char* name) {
  // Length -1: `name` is NUL-terminated.
  glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, name);
}

DebugGroup::~DebugGroup() { glPopDebugGroup(); }

}  // namespace murmur::gl
