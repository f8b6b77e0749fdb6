#pragma once
// GL context providers behind one small interface. This issue has the headless EGL provider;
// the GLFW window provider (viewer) implements the same interface.
#include <memory>
#include <string>
#include <string_view>

namespace murmur::gl {

class DebugMessenger;

struct ContextInfo {
  std::string platform;  // "EGL device", "EGL surfaceless", "GLFW"
  std::string vendor;    // GL_VENDOR
  std::string renderer;  // GL_RENDERER
  std::string version;   // GL_VERSION
};

// Every context comes with KHR_debug output on (docs/gpu.md, "Debug output"), so that a GL
// error is never lost: check_gl_errors() turns it into a GpuError at the caller's check points.
class Context {
 public:
  virtual ~Context();
  virtual void make_current() = 0;
  const ContextInfo& info() const { return info_; }

  // Throws GpuError (exit 4) with the driver's message when a GL error happened on this
  // context since the last check. Commands call it after each batch of steps and before any
  // output is made final, so an error never leaves output that looks complete.
  void check_gl_errors(std::string_view during);

 protected:
  Context();
  // Providers install debug output once GL is loaded, with the context current, and remove it
  // first thing in their destructor, while the context still exists. `context_is_current`
  // false: the messenger goes without GL calls, which would reach another context.
  void install_debug_output(bool synchronous);
  void remove_debug_output(bool context_is_current);

  ContextInfo info_;

 private:
  std::unique_ptr<DebugMessenger> debug_output_;
};

struct HeadlessOptions {
  // Request a debug context, with synchronous debug output (a breakpoint in the callback shows
  // the faulty call); tests use it. Without it, output is asynchronous and as cheap as the
  // driver makes it, and errors are still caught at the check points.
  bool debug = false;
};

// OpenGL 4.5 core through EGL with no window and no X server: the EGL device platform first
// (what works on NVIDIA servers; a hardware device is preferred over a software one), then
// Mesa's surfaceless platform. Loads GL through glad and makes the context current.
// Throws GpuError with one line saying what was tried and why it failed.
std::unique_ptr<Context> create_headless_context(const HeadlessOptions& options = {});

}  // namespace murmur::gl
