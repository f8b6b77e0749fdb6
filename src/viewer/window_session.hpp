#pragma once
// The window the viewers draw in, with its Dear ImGui session and the window-system events
// queued for whichever viewer runs in it. It outlives the viewers, so that the panel's Load
// can switch between a flock and a floor plan in the same window.
#include <memory>
#include <vector>

#include <glm/vec2.hpp>

#include "murmur/gl/window.hpp"
#include "murmur/base/image.hpp"

namespace murmur::viewer {

struct ViewerOptions;

// One window-system event, queued by the GLFW callbacks and handled after ImGui::NewFrame, when
// io.WantCaptureMouse / WantCaptureKeyboard say whether the panel takes it.
struct InputEvent {
  enum class Kind { Key, MouseButton, Scroll, CursorMove } kind;
  int key_or_button = 0;
  int action = 0;
  int mods = 0;
  glm::vec2 value{0.0f};  // scroll offsets, or the cursor in window coordinates
};

class WindowSession {
 public:
  // Opens the window (a debug context with `frames`: a bounded run must see every GL error)
  // and starts ImGui on it. Throws GpuError (no display, no GL 4.5 context, no debug context).
  explicit WindowSession(const ViewerOptions& options);
  ~WindowSession();
  WindowSession(const WindowSession&) = delete;
  WindowSession& operator=(const WindowSession&) = delete;

  gl::Window& window() { return *window_; }
  const gl::Window& window() const { return *window_; }
  // The events queued since the last call, oldest first.
  std::vector<InputEvent> take_events();
  // Polls the window system, reads the framebuffer size and begins ImGui's frame; false when
  // the window should close (nothing begun then).
  bool begin_frame(int& framebuffer_width, int& framebuffer_height);
  // Draws the panel's and status line's ImGui data into the default framebuffer.
  void draw_ui();
  // Window coordinates (the cursor's) -> framebuffer pixels: on high-density displays the
  // framebuffer has more pixels than the window has units.
  glm::vec2 cursor_pixels(glm::vec2 cursor_window, int framebuffer_width,
                          int framebuffer_height) const;

 private:
  struct ImGuiSession;
  std::unique_ptr<gl::Window> window_;  // first: the context outlives ImGui's objects
  std::unique_ptr<ImGuiSession> imgui_;
  std::vector<InputEvent> events_;
};

// The default framebuffer as displayed (flock and panel), top row first.
RgbaImage read_window_pixels(int width, int height);

}  // namespace murmur::viewer
