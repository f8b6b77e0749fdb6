#include "viewer/window_session.hpp"

#include "murmur/gl/gl.hpp"  // glad before GLFW
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "murmur/base/errors.hpp"
#include "murmur/gl/stall_counter.hpp"
#include "viewer/viewer.hpp"

namespace murmur::viewer {
namespace {

constexpr const char* kGlslVersion = "#version 450";
constexpr float kWindowRounding = 4;
constexpr const char* kVsyncOffNote = "vsync off: frames are not paced to the display\n";

WindowSession& session_of(GLFWwindow* window) {
  return *static_cast<WindowSession*>(glfwGetWindowUserPointer(window));
}

}  // namespace

// Dear ImGui's context and backends, torn down in reverse order.
struct WindowSession::ImGuiSession {
  explicit ImGuiSession(GLFWwindow* window) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no imgui.ini littering the working directory
    ImGui::StyleColorsDark();
    ImGui::GetStyle().WindowRounding = kWindowRounding;
    // Installs its callbacks after ours and chains to them.
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init(kGlslVersion);
  }
  ~ImGuiSession() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
  ImGuiSession(const ImGuiSession&) = delete;
  ImGuiSession& operator=(const ImGuiSession&) = delete;
};

WindowSession::WindowSession(const ViewerOptions& options) {
  gl::WindowOptions window_options;
  window_options.width = options.width;
  window_options.height = options.height;
  window_options.title = "murmur";
  window_options.fullscreen = options.fullscreen;
  // A bounded run is a test or a picture: no reason to wait for the display's refresh.
  window_options.vsync = options.vsync && !options.frames;
  window_options.debug = options.frames.has_value();
  window_options.visible = false;  // until the GPU memory check below has passed
  window_ = gl::create_window(window_options);
  if (window_options.debug) {
    // A context without the debug flag may drop KHR_debug messages: a run that must prove it
    // made no GL error cannot go on without one.
    GLint flags = 0;
    glGetIntegerv(GL_CONTEXT_FLAGS, &flags);
    if ((flags & GL_CONTEXT_FLAG_DEBUG_BIT) == 0)
      throw GpuError("asked GLFW for a debug context (--frames checks for GL errors), got none");
  }
  if (options.check_gpu_memory) options.check_gpu_memory();
  window_->show();
  // Said once at the start, as the seed is: an interactive run that draws as fast as it can.
  if (!window_->vsync() && !options.frames) std::fputs(kVsyncOffNote, stderr);
  gl::count_stalls();
  GLFWwindow* window = window_->handle();
  glfwSetWindowUserPointer(window, this);
  glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int, int action, int mods) {
    session_of(w).events_.push_back({InputEvent::Kind::Key, key, action, mods, {}});
  });
  glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int button, int action, int mods) {
    session_of(w).events_.push_back({InputEvent::Kind::MouseButton, button, action, mods, {}});
  });
  glfwSetScrollCallback(window, [](GLFWwindow* w, double dx, double dy) {
    session_of(w).events_.push_back(
        {InputEvent::Kind::Scroll, 0, 0, 0, {static_cast<float>(dx), static_cast<float>(dy)}});
  });
  glfwSetCursorPosCallback(window, [](GLFWwindow* w, double x, double y) {
    session_of(w).events_.push_back(
        {InputEvent::Kind::CursorMove, 0, 0, 0, {static_cast<float>(x), static_cast<float>(y)}});
  });
  imgui_ = std::make_unique<ImGuiSession>(window);
}

WindowSession::~WindowSession() { imgui_.reset(); }

std::vector<InputEvent> WindowSession::take_events() {
  std::vector<InputEvent> events;
  events.swap(events_);
  return events;
}

bool WindowSession::begin_frame(int& framebuffer_width, int& framebuffer_height) {
  gl::poll_window_events();
  if (window_->should_close()) return false;
  window_->framebuffer_size(framebuffer_width, framebuffer_height);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  return true;
}

void WindowSession::draw_ui() { ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData()); }

glm::vec2 WindowSession::cursor_pixels(glm::vec2 cursor_window, int framebuffer_width,
                                       int framebuffer_height) const {
  int window_width = 0, window_height = 0;
  glfwGetWindowSize(window_->handle(), &window_width, &window_height);
  if (window_width <= 0 || window_height <= 0) return cursor_window;
  return cursor_window * glm::vec2(float(framebuffer_width) / float(window_width),
                                   float(framebuffer_height) / float(window_height));
}

RgbaImage read_window_pixels(int width, int height) {
  RgbaImage image{width, height, std::vector<std::uint8_t>(std::size_t(width) * height * 4)};
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, image.pixels.data());
  const std::size_t row = std::size_t(width) * 4;
  std::vector<std::uint8_t> swap(row);
  for (int y = 0; y < height / 2; ++y) {
    std::uint8_t* top = image.pixels.data() + std::size_t(y) * row;
    std::uint8_t* bottom = image.pixels.data() + std::size_t(height - 1 - y) * row;
    std::copy(top, top + row, swap.data());
    std::copy(bottom, bottom + row, top);
    std::copy(swap.data(), swap.data() + row, bottom);
  }
  return image;
}

}  // namespace murmur::viewer
