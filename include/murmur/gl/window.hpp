#pragma once
// The GLFW context provider: an OpenGL 4.5 core context with a window, for the viewer. It
// implements the same gl::Context interface as the headless EGL provider, so everything that
// draws (GpuFlock, Renderer) is indifferent to which one made the context.
#include <memory>
#include <string>

#include "murmur/gl/context.hpp"

struct GLFWwindow;

namespace murmur::gl {

struct WindowOptions {
  int width = 1280;   // client area in screen coordinates, >= 1
  int height = 720;
  std::string title = "murmur";
  bool fullscreen = false;  // on the primary monitor, at its current video mode
  bool vsync = true;        // swap interval 1
  bool debug = false;       // debug context (KHR_debug output is synchronous then)
  // Shown when made; false keeps a windowed one unmapped until show(), so that a run refused
  // once its context exists opens nothing (a fullscreen window is shown all the same: GLFW).
  bool visible = true;
};

// Whether a frame of this size can be drawn. A minimised window has a 0x0 framebuffer, and GL
// objects of size 0 are errors: the viewer keeps handling events but skips drawing then.
constexpr bool can_draw_frame(int framebuffer_width, int framebuffer_height) {
  return framebuffer_width > 0 && framebuffer_height > 0;
}

class Window final : public Context {
 public:
  ~Window() override;
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  void make_current() override;

  GLFWwindow* handle() const { return window_; }
  bool should_close() const;
  void request_close();
  void swap_buffers();
  void set_title(const std::string& title);
  void set_vsync(bool on);
  // Whether the swap interval last set is 1 (paced to the display) rather than 0.
  bool vsync() const { return vsync_; }
  void show();
  // The framebuffer size in pixels (0x0 while minimised).
  void framebuffer_size(int& width, int& height) const;

  bool fullscreen() const { return fullscreen_; }
  // Switches between a window (at its last position and size) and the primary monitor.
  void set_fullscreen(bool on);

 private:
  friend std::unique_ptr<Window> create_window(const WindowOptions& options);
  Window() = default;

  GLFWwindow* window_ = nullptr;
  bool fullscreen_ = false;
  bool vsync_ = true;
  int windowed_x_ = 0, windowed_y_ = 0, windowed_width_ = 0, windowed_height_ = 0;
};

// Opens a window with a current OpenGL 4.5 core context and glad loaded through it. Throws
// GpuError with one line when there is no display ($DISPLAY unset: the Debian GLFW build speaks
// X11 only) or GLFW cannot create the window or the context.
std::unique_ptr<Window> create_window(const WindowOptions& options);

// Whether a display server is named in the environment (GLFW cannot open a window otherwise).
bool display_available();
// Throws GpuError with one line saying there is no display, unless display_available().
void require_display();

// Polls window-system events (all windows); call once per frame.
void poll_window_events();
// Waits up to `seconds` for an event: a minimised viewer idles here instead of spinning.
void wait_window_events(double seconds);
// Seconds since GLFW started (a monotonic clock).
double window_clock_seconds();

}  // namespace murmur::gl
