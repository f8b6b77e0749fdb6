#pragma once
// GL context providers behind one small interface. This issue has the headless EGL provider;
// the GLFW window provider (viewer) implements the same interface.
#include <memory>
#include <string>

namespace murmur::gl {

struct ContextInfo {
  std::string platform;  // "EGL device", "EGL surfaceless", "GLFW"
  std::string vendor;    // GL_VENDOR
  std::string renderer;  // GL_RENDERER
  std::string version;   // GL_VERSION
};

class Context {
 public:
  virtual ~Context() = default;
  virtual void make_current() = 0;
  const ContextInfo& info() const { return info_; }

 protected:
  ContextInfo info_;
};

struct HeadlessOptions {
  bool debug = false;  // request a debug context (KHR_debug output is synchronous then)
};

// OpenGL 4.5 core through EGL with no window and no X server: the EGL device platform first
// (what works on NVIDIA servers; a hardware device is preferred over a software one), then
// Mesa's surfaceless platform. Loads GL through glad and makes the context current.
// Throws GpuError with one line saying what was tried and why it failed.
std::unique_ptr<Context> create_headless_context(const HeadlessOptions& options = {});

}  // namespace murmur::gl
