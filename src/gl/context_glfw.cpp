// The GLFW context provider (a window with an OpenGL 4.5 core context) for the viewer.
#include "murmur/gl/gl.hpp"  // glad first: GLFW must not pull in the system GL header
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cstdlib>
#include <string>

#include "murmur/base/errors.hpp"
#include "murmur/gl/window.hpp"

namespace murmur::gl {
namespace {

constexpr int kRequiredMajor = 4;
constexpr int kRequiredMinor = 5;

// GLFW reports errors through a callback; the last one explains a failed call in our message.
std::string& last_glfw_error() {
  static std::string error;
  return error;
}

void record_glfw_error(int code, const char* description) {
  last_glfw_error() = std::string(description != nullptr ? description : "unknown error") +
                      " (GLFW error " + std::to_string(code) + ")";
}

std::string take_glfw_error() {
  std::string error = last_glfw_error().empty() ? "no reason given" : last_glfw_error();
  last_glfw_error().clear();
  return error;
}

// glfwInit/glfwTerminate are process-wide: terminate only when the last window closes.
int& live_windows() {
  static int count = 0;
  return count;
}

}  // namespace

bool display_available() {
  const char* display = std::getenv("DISPLAY");
  return display != nullptr && display[0] != '\0';
}

void require_display() {
  if (!display_available()) {
    throw GpuError(
        "no display: $DISPLAY is not set, so no window can open (murmur record renders "
        "headless)");
  }
}

Window::~Window() {
  remove_debug_output(window_ != nullptr && glfwGetCurrentContext() == window_);
  if (window_ != nullptr) glfwDestroyWindow(window_);
  if (--live_windows() == 0) glfwTerminate();
}

void Window::make_current() { glfwMakeContextCurrent(window_); }

bool Window::should_close() const { return glfwWindowShouldClose(window_) != 0; }

void Window::request_close() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }

void Window::swap_buffers() { glfwSwapBuffers(window_); }

void Window::set_title(const std::string& title) { glfwSetWindowTitle(window_, title.c_str()); }

void Window::set_vsync(bool on) {
  vsync_ = on;
  glfwSwapInterval(on ? 1 : 0);
}

void Window::show() { glfwShowWindow(window_); }

void Window::framebuffer_size(int& width, int& height) const {
  glfwGetFramebufferSize(window_, &width, &height);
}

void Window::set_fullscreen(bool on) {
  if (on == fullscreen_) return;
  if (on) {
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode* mode = monitor != nullptr ? glfwGetVideoMode(monitor) : nullptr;
    if (mode == nullptr) return;  // no monitor to fill (some virtual servers): stay windowed
    glfwGetWindowPos(window_, &windowed_x_, &windowed_y_);
    glfwGetWindowSize(window_, &windowed_width_, &windowed_height_);
    glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
  } else {
    glfwSetWindowMonitor(window_, nullptr, windowed_x_, windowed_y_, windowed_width_,
                         windowed_height_, GLFW_DONT_CARE);
  }
  fullscreen_ = on;
  // Some drivers reset the swap interval when the window changes monitor.
  set_vsync(vsync_);
}

std::unique_ptr<Window> create_window(const WindowOptions& options) {
  require_display();
  glfwSetErrorCallback(record_glfw_error);
  if (live_windows() == 0 && glfwInit() != GLFW_TRUE) {
    throw GpuError("cannot open a window on display " + std::string(std::getenv("DISPLAY")) +
                   ": " + take_glfw_error());
  }
  std::unique_ptr<Window> window(new Window());
  ++live_windows();  // from here the destructor balances glfwInit

  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, kRequiredMajor);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, kRequiredMinor);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, options.debug ? GLFW_TRUE : GLFW_FALSE);
  // The renderer has its own HDR target; the window only receives a blit and the panel.
  glfwWindowHint(GLFW_DEPTH_BITS, 0);
  glfwWindowHint(GLFW_STENCIL_BITS, 0);
  glfwWindowHint(GLFW_VISIBLE, options.visible ? GLFW_TRUE : GLFW_FALSE);

  GLFWmonitor* monitor = options.fullscreen ? glfwGetPrimaryMonitor() : nullptr;
  int width = options.width, height = options.height;
  if (monitor != nullptr) {
    if (const GLFWvidmode* mode = glfwGetVideoMode(monitor)) {
      width = mode->width;
      height = mode->height;
    }
  }
  window->window_ = glfwCreateWindow(width, height, options.title.c_str(), monitor, nullptr);
  if (window->window_ == nullptr) {
    throw GpuError("cannot open an OpenGL " + std::to_string(kRequiredMajor) + "." +
                   std::to_string(kRequiredMinor) + " core window: " + take_glfw_error());
  }
  window->fullscreen_ = monitor != nullptr;
  window->windowed_width_ = options.width;
  window->windowed_height_ = options.height;
  glfwMakeContextCurrent(window->window_);
  if (gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress)) == 0) {
    throw GpuError("gladLoadGL found no OpenGL entry points in the GLFW context");
  }
  window->set_vsync(options.vsync);

  auto text = [](GLenum name) {
    const auto* value = reinterpret_cast<const char*>(glGetString(name));
    return std::string(value != nullptr ? value : "");
  };
  window->info_.platform = "GLFW";
  window->info_.vendor = text(GL_VENDOR);
  window->info_.renderer = text(GL_RENDERER);
  window->info_.version = text(GL_VERSION);
  window->install_debug_output(/*synchronous=*/options.debug);
  return window;
}

void poll_window_events() { glfwPollEvents(); }

void wait_window_events(double seconds) { glfwWaitEventsTimeout(seconds); }

double window_clock_seconds() { return glfwGetTime(); }

}  // namespace murmur::gl
