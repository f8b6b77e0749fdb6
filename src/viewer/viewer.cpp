// The viewer's window loop: events, panel, simulation steps, render, blit, UI, swap.
#include "viewer/viewer.hpp"

#include "murmur/gl/gl.hpp"  // glad before GLFW
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "murmur/atomic_file.hpp"
#include "murmur/errors.hpp"
#include "murmur/gl/stall_counter.hpp"
#include "murmur/gl/window.hpp"
#include "murmur/gpu/flock_readback.hpp"
#include "murmur/gpu/gpu_flock.hpp"
#include "murmur/model.hpp"
#include "murmur/render/png_writer.hpp"
#include "murmur/render/renderer.hpp"
#include "murmur/state.hpp"
#include "viewer/captures.hpp"
#include "viewer/frame_timings.hpp"
#include "viewer/live_stats.hpp"
#include "viewer/population_history.hpp"
#include "viewer/panel.hpp"
#include "viewer/rule_mode.hpp"
#include "viewer/step_timer.hpp"

namespace murmur::viewer {
namespace {

constexpr const char* kGlslVersion = "#version 450";
constexpr double kStatusIntervalSeconds = 0.5;   // fps and window title refresh
constexpr double kMessageSeconds = 4.0;          // how long a status message stays
constexpr double kMinimisedWaitSeconds = 0.1;    // event wait while there is nothing to draw
constexpr float kDragThresholdPixels = 4;        // a left press moving further pans, not clicks
constexpr float kZoomPerScrollStep = 1.15f;
// The automatic exposure moves this fraction of the way to each new frame's factor: a few
// dozen frames to settle, so the brightness does not flicker as flocks merge and split.
constexpr float kViewerExposureAdaptation = 0.1f;
constexpr float kDefaultObstacleRadiusPerPerception = 3;
// ... but never more than this fraction of the world's smaller side (small worlds).
constexpr float kMaxDefaultObstacleRadiusPerSide = 0.1f;
// The steered boid flies at max speed towards the cursor, slowing within this many perception
// radii of it, so it can be parked on the cursor instead of orbiting it.
constexpr float kSteerSlowdownRadii = 2;
constexpr float kSteeredHighlightPixels = 12;
constexpr float kStatusAlpha = 0.45f;
constexpr float kStatusMargin = 8;
constexpr double kMillisecondsPerSecond = 1000.0;
constexpr ImU32 kSteeredColour = IM_COL32(255, 230, 120, 230);

using Clock = std::chrono::steady_clock;

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// One window-system event, queued by the GLFW callbacks and handled after ImGui::NewFrame, when
// io.WantCaptureMouse / WantCaptureKeyboard say whether the panel takes it.
struct InputEvent {
  enum class Kind { Key, MouseButton, Scroll, CursorMove } kind;
  int key_or_button = 0;
  int action = 0;
  int mods = 0;
  glm::vec2 value{0.0f};  // scroll offsets, or the cursor in window coordinates
};

enum class MouseGesture { None, PendingClick, Panning, Steering };

// Dear ImGui's context and backends, torn down in reverse order.
class ImGuiSession {
 public:
  explicit ImGuiSession(GLFWwindow* window) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no imgui.ini littering the working directory
    ImGui::StyleColorsDark();
    ImGui::GetStyle().WindowRounding = 4;
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

// The default framebuffer as displayed (flock and panel), top row first.
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

std::uint64_t random_seed() {
  std::random_device device;
  std::uniform_int_distribution<std::uint64_t> seeds(0, kMaxSeed);
  return seeds(device);
}

float default_obstacle_radius(const Scenario& scenario) {
  return std::min(kDefaultObstacleRadiusPerPerception * scenario.max_perception_radius(),
                  kMaxDefaultObstacleRadiusPerSide *
                      std::min(scenario.world.width, scenario.world.height));
}

bool same_counts(const Scenario& a, const Scenario& b) {
  if (a.species.size() != b.species.size() || a.size() != b.size()) return false;
  for (std::size_t s = 0; s < a.species.size(); ++s) {
    if (a.species[s].count != b.species[s].count) return false;
  }
  return true;
}

class Viewer {
 public:
  explicit Viewer(const ViewerOptions& options);
  ~Viewer();
  Viewer(const Viewer&) = delete;
  Viewer& operator=(const Viewer&) = delete;

  void run();

 private:
  static Viewer& from(GLFWwindow* window) {
    return *static_cast<Viewer*>(glfwGetWindowUserPointer(window));
  }
  void install_callbacks();

  // One pass of the loop; returns false once the viewer should close.
  bool frame();
  void handle_events();
  void handle_key(int key, int action, int mods);
  void handle_mouse_button(int button, int action, int mods);
  void handle_cursor(glm::vec2 cursor_window);
  void resolve_pick();
  void update_steering();
  void draw_status();
  void draw_steered_highlight();
  // Takes the ecosystem's counters when they arrive (a plot sample with the latest summary)
  // and asks for the next ones when the plot wants a sample.
  void sample_population();
  void carry_out(const PanelRequests& requests);
  void simulate(double elapsed_seconds, FrameTime& time);
  std::string window_title() const;
  void draw(FrameTime& time);
  void capture_frame();
  // Runs `read`, a readback the user asked for (screenshot, recording), and books its stalls as
  // requested ones.
  template <class Read>
  void requested_readback(Read&& read);

  // Simulation control.
  Scenario effective_scenario() const { return with_rule_mode(scenario_, mode_); }
  void restart(std::uint64_t seed);
  void apply_scenario(Scenario next);
  void set_mode(RuleMode mode);
  void load(const std::filesystem::path& path);
  void save(const std::filesystem::path& path);
  // Applies an obstacle or target change if the result validates; says why not otherwise.
  void change_obstacles_or_target(Scenario next);
  void drop_obstacle(glm::vec2 world);
  void set_target(glm::vec2 world);
  void start_steering(glm::vec2 world);
  void stop_steering();
  void toggle_recording();
  void take_screenshot();

  void say(std::string message, bool is_error = false);
  glm::vec2 cursor_pixels(glm::vec2 cursor_window) const;
  glm::vec2 world_under(glm::vec2 pixel) const;

  ViewerOptions options_;
  std::unique_ptr<gl::Window> window_;  // first: the context outlives every GL object below
  std::unique_ptr<ImGuiSession> imgui_;
  Scenario scenario_;  // the user's settings; the flock gets effective_scenario()
  std::filesystem::path scenario_path_;
  RuleMode mode_ = RuleMode::All;
  std::unique_ptr<GpuFlock> flock_;
  // Statistics, the steered boid and picks, read back a frame or two late without waiting.
  std::unique_ptr<FlockReadback> readback_;
  std::unique_ptr<StepTimer> step_timer_;  // ms/step without glFinish (--timings off)
  std::unique_ptr<Renderer> renderer_;
  Panel panel_;
  LiveStats stats_;
  std::optional<FlockSummary> summary_;  // GPU statistics a frame or two old, while the panel shows
  PopulationHistory history_;            // the panel's population plot
  std::optional<EcosystemCounts> ecosystem_;  // births, deaths and food, a frame or two old
  bool ecosystem_requested_ = false;     // a request in flight: one at a time (the food copy)
  bool live_stats_ = true;
  std::unique_ptr<Captures> captures_;
  FrameTimings timings_;
  StepPacer pacer_;

  std::vector<InputEvent> events_;
  int framebuffer_width_ = 0, framebuffer_height_ = 0;
  bool paused_ = false;
  bool single_step_ = false;
  bool panel_visible_ = true;
  bool screenshot_requested_ = false;
  std::uint64_t step_ = 0;
  float obstacle_radius_ = 0;

  MouseGesture gesture_ = MouseGesture::None;
  glm::vec2 press_pixel_{0.0f};
  glm::vec2 last_pixel_{0.0f};
  std::optional<glm::vec2> pick_point_;  // a Ctrl+press waiting for its nearest boid
  std::optional<std::uint32_t> steered_id_;
  std::optional<Boid> steered_boid_;  // as last read back: a frame or two old
  // The boid ringed by its circles (Renderer overlays): the last one picked, kept after the
  // steering ends, until a new pick, a restart or the panel clears it.
  std::optional<std::uint32_t> selected_id_;

  // GPU stalls (gl/stall_counter.hpp): the ones a capture asked for, and the rest, which a
  // --frames run without --timings must not have.
  gl::StallCounts requested_stalls_;
  gl::StallCounts unrequested_stalls_;

  // Status line.
  double last_frame_seconds_ = 0;
  double status_since_ = 0;
  std::uint32_t frames_since_status_ = 0;
  double step_ms_sum_ = 0;
  std::uint32_t steps_since_status_ = 0;
  double fps_ = 0;
  double ms_per_step_ = 0;
  std::string message_;
  bool message_is_error_ = false;
  double message_until_ = 0;
  std::uint32_t frames_run_ = 0;
};

Viewer::Viewer(const ViewerOptions& options)
    : options_(options),
      scenario_(options.scenario),
      scenario_path_(options.scenario_path),
      panel_(options.scenario_path),
      pacer_(options.pacer) {
  gl::WindowOptions window_options;
  window_options.width = options.width;
  window_options.height = options.height;
  window_options.title = "murmur";
  window_options.fullscreen = options.fullscreen;
  // A bounded run is a test or a picture: no reason to wait for the display's refresh.
  window_options.vsync = options.vsync && !options.frames;
  window_options.debug = options.frames.has_value();
  window_ = gl::create_window(window_options);
  if (window_options.debug) {
    // A context without the debug flag may drop KHR_debug messages: a run that must prove it
    // made no GL error cannot go on without one.
    GLint flags = 0;
    glGetIntegerv(GL_CONTEXT_FLAGS, &flags);
    if ((flags & GL_CONTEXT_FLAG_DEBUG_BIT) == 0)
      throw GpuError("asked GLFW for a debug context (--frames checks for GL errors), got none");
  }
  gl::count_stalls();
  glfwSetWindowUserPointer(window_->handle(), this);
  install_callbacks();
  imgui_ = std::make_unique<ImGuiSession>(window_->handle());

  obstacle_radius_ = default_obstacle_radius(scenario_);
  flock_ = std::make_unique<GpuFlock>(
      effective_scenario(), options.initial ? *options.initial : seeded_start(scenario_));
  readback_ = std::make_unique<FlockReadback>();
  step_timer_ = std::make_unique<StepTimer>();
  window_->framebuffer_size(framebuffer_width_, framebuffer_height_);
  renderer_ = std::make_unique<Renderer>(std::max(framebuffer_width_, 1),
                                         std::max(framebuffer_height_, 1));
  apply_look(renderer_->settings(), scenario_.look);
  renderer_->settings().exposure_adaptation = kViewerExposureAdaptation;
  renderer_->record_step(*flock_);
  for (std::uint32_t i = 0; i < options.skip_steps; ++i) {
    flock_->step();
    renderer_->record_step(*flock_);
  }
  step_ = options.skip_steps;
  captures_ = std::make_unique<Captures>(options.out_dir, window_->info().renderer,
                                         options.record_video, options.record_fps);
  last_frame_seconds_ = gl::window_clock_seconds();
  status_since_ = last_frame_seconds_;
}

Viewer::~Viewer() {
  // GL objects go before ImGui's, ImGui's before the window's context.
  captures_.reset();
  renderer_.reset();
  step_timer_.reset();
  readback_.reset();
  flock_.reset();
  imgui_.reset();
}

void Viewer::install_callbacks() {
  GLFWwindow* window = window_->handle();
  glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int, int action, int mods) {
    from(w).events_.push_back({InputEvent::Kind::Key, key, action, mods, {}});
  });
  glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int button, int action, int mods) {
    from(w).events_.push_back({InputEvent::Kind::MouseButton, button, action, mods, {}});
  });
  glfwSetScrollCallback(window, [](GLFWwindow* w, double dx, double dy) {
    from(w).events_.push_back(
        {InputEvent::Kind::Scroll, 0, 0, 0, {static_cast<float>(dx), static_cast<float>(dy)}});
  });
  glfwSetCursorPosCallback(window, [](GLFWwindow* w, double x, double y) {
    from(w).events_.push_back(
        {InputEvent::Kind::CursorMove, 0, 0, 0, {static_cast<float>(x), static_cast<float>(y)}});
  });
}

void Viewer::run() {
  while (frame()) {
  }
  window_->check_gl_errors("the last frame");  // before a recording's manifest says it is whole
  if (captures_->recording()) toggle_recording();
  if (options_.timings && timings_.size() > 0) {
    std::fputs(timings_.report(scenario_.total_count(), renderer_->width(), renderer_->height(),
                               window_->info().renderer)
                   .c_str(),
               stdout);
  }
  if (options_.frames && unrequested_stalls_.total() > 0) {
    throw GpuError("the frame loop waited on the GPU without --timings: " +
                   std::to_string(unrequested_stalls_.finishes) + " glFinish and " +
                   std::to_string(unrequested_stalls_.readbacks) +
                   " blocking reads (docs/viewer.md, \"Never waiting on the GPU\")");
  }
}

bool Viewer::frame() {
  const auto frame_start = Clock::now();
  const gl::StallCounts stalls_at_start = gl::stall_counts();
  const gl::StallCounts requested_at_start = requested_stalls_;
  FrameTime time;
  const double now = gl::window_clock_seconds();
  const double elapsed = now - last_frame_seconds_;
  last_frame_seconds_ = now;

  gl::poll_window_events();
  if (window_->should_close()) return false;
  window_->framebuffer_size(framebuffer_width_, framebuffer_height_);

  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  handle_events();
  if (pick_point_) resolve_pick();
  if (steered_id_) update_steering();
  if (panel_visible_) {
    PanelEdits edits{renderer_->settings(), obstacle_radius_, live_stats_};
    const PanelView view{scenario_,       mode_,     fps_,
                         ms_per_step_,    step_,     paused_,
                         captures_->recording(),
                         pacer_.fixed_rate() ? 0u : pacer_.steps_per_frame(),
                         pacer_.rate(),   stats_.latest(),
                         summary_,        history_,
                         ecosystem_,      selected_id_,
                         window_->info()};
    carry_out(panel_.draw(view, edits));
  }
  draw_status();
  draw_steered_highlight();
  ImGui::Render();

  simulate(elapsed, time);
  if (live_stats_) stats_.update(*readback_, *flock_, now);
  if (panel_visible_) {
    if (std::optional<FlockSummary> summary = readback_->latest_summary()) summary_ = summary;
    readback_->request_summary(*flock_);  // a full ring (a slow GPU) skips this frame's
    sample_population();
  }

  if (gl::can_draw_frame(framebuffer_width_, framebuffer_height_)) {
    draw(time);
  } else {
    // Minimised: nothing to draw into; keep handling events without spinning.
    gl::wait_window_events(kMinimisedWaitSeconds);
  }

  ++frames_run_;
  ++frames_since_status_;
  if (now - status_since_ >= kStatusIntervalSeconds) {
    fps_ = frames_since_status_ / (now - status_since_);
    ms_per_step_ = steps_since_status_ > 0 ? step_ms_sum_ / steps_since_status_ : 0.0;
    status_since_ = now;
    frames_since_status_ = 0;
    step_ms_sum_ = 0;
    steps_since_status_ = 0;
    window_->set_title(window_title());
  }
  time.total = milliseconds_since(frame_start);
  if (options_.timings) {
    timings_.add(time);
  } else {
    unrequested_stalls_ +=
        (gl::stall_counts() - stalls_at_start) - (requested_stalls_ - requested_at_start);
  }
  return !options_.frames || frames_run_ < *options_.frames;
}

void Viewer::handle_events() {
  const ImGuiIO& io = ImGui::GetIO();
  std::vector<InputEvent> events;
  events.swap(events_);
  for (const InputEvent& event : events) {
    switch (event.kind) {
      case InputEvent::Kind::Key:
        if (!io.WantCaptureKeyboard) handle_key(event.key_or_button, event.action, event.mods);
        break;
      case InputEvent::Kind::MouseButton:
        // A release always ends our gesture, even over the panel; a press there is the panel's.
        if (event.action == GLFW_RELEASE || !io.WantCaptureMouse)
          handle_mouse_button(event.key_or_button, event.action, event.mods);
        break;
      case InputEvent::Kind::Scroll:
        if (!io.WantCaptureMouse) {
          const float factor = std::pow(kZoomPerScrollStep, event.value.y);
          RenderSettings& settings = renderer_->settings();
          settings.camera = zoom_at(settings.camera, scenario_.size(), renderer_->width(),
                                    renderer_->height(), last_pixel_, factor);
        }
        break;
      case InputEvent::Kind::CursorMove:
        handle_cursor(event.value);
        break;
    }
  }
}

void Viewer::handle_key(int key, int action, int mods) {
  if (action == GLFW_REPEAT && key == GLFW_KEY_N && paused_) single_step_ = true;
  if (action != GLFW_PRESS) return;
  switch (key) {
    case GLFW_KEY_ESCAPE: window_->request_close(); break;
    case GLFW_KEY_SPACE:
      paused_ = !paused_;
      pacer_.reset();
      break;
    case GLFW_KEY_N:
      if (paused_) single_step_ = true;
      break;
    case GLFW_KEY_R:
      restart((mods & GLFW_MOD_SHIFT) ? random_seed() : scenario_.world.seed);
      break;
    case GLFW_KEY_1: set_mode(RuleMode::FreeFlight); break;
    case GLFW_KEY_2: set_mode(RuleMode::Alignment); break;
    case GLFW_KEY_3: set_mode(RuleMode::AlignmentCohesion); break;
    case GLFW_KEY_4: set_mode(RuleMode::All); break;
    case GLFW_KEY_S: screenshot_requested_ = true; break;
    case GLFW_KEY_V: toggle_recording(); break;
    case GLFW_KEY_H: panel_visible_ = !panel_visible_; break;
    case GLFW_KEY_F: renderer_->settings().camera = Camera{}; break;
    case GLFW_KEY_F11: window_->set_fullscreen(!window_->fullscreen()); break;
    default: break;
  }
}

void Viewer::handle_mouse_button(int button, int action, int mods) {
  if (action == GLFW_PRESS) {
    if (gesture_ != MouseGesture::None) return;  // one gesture at a time
    press_pixel_ = last_pixel_;
    if (button == GLFW_MOUSE_BUTTON_LEFT && (mods & GLFW_MOD_CONTROL)) {
      start_steering(world_under(last_pixel_));
    } else if (button == GLFW_MOUSE_BUTTON_LEFT) {
      gesture_ = MouseGesture::PendingClick;
    } else if (button == GLFW_MOUSE_BUTTON_MIDDLE) {
      gesture_ = MouseGesture::Panning;
    } else if (button == GLFW_MOUSE_BUTTON_RIGHT) {
      set_target(world_under(last_pixel_));
    }
    return;
  }
  if (action != GLFW_RELEASE) return;
  if (button == GLFW_MOUSE_BUTTON_LEFT) {
    if (gesture_ == MouseGesture::PendingClick) drop_obstacle(world_under(press_pixel_));
    if (gesture_ == MouseGesture::Steering) stop_steering();
    if (gesture_ != MouseGesture::None) gesture_ = MouseGesture::None;
  } else if (button == GLFW_MOUSE_BUTTON_MIDDLE && gesture_ == MouseGesture::Panning) {
    gesture_ = MouseGesture::None;
  }
}

void Viewer::handle_cursor(glm::vec2 cursor_window) {
  const glm::vec2 pixel = cursor_pixels(cursor_window);
  const glm::vec2 delta = pixel - last_pixel_;
  last_pixel_ = pixel;
  if (gesture_ == MouseGesture::PendingClick &&
      glm::length(pixel - press_pixel_) > kDragThresholdPixels) {
    gesture_ = MouseGesture::Panning;
    // The drag started at the press: pan by everything moved since then.
    RenderSettings& settings = renderer_->settings();
    settings.camera = pan_by(settings.camera, scenario_.size(), renderer_->width(),
                             renderer_->height(), pixel - press_pixel_);
    return;
  }
  if (gesture_ == MouseGesture::Panning) {
    RenderSettings& settings = renderer_->settings();
    settings.camera =
        pan_by(settings.camera, scenario_.size(), renderer_->width(), renderer_->height(), delta);
  }
}

void Viewer::start_steering(glm::vec2 world) {
  // The nearest boid is found on the GPU; resolve_pick() takes the answer when it arrives.
  if (!readback_->request_nearest(*flock_, world)) return;  // rare: presses faster than frames
  pick_point_ = world;
  gesture_ = MouseGesture::Steering;
}

void Viewer::resolve_pick() {
  const std::optional<NearestBoid> nearest = readback_->latest_nearest();
  // An answer to an earlier press (released before it came) is not this press's.
  if (!nearest || nearest->point != *pick_point_) return;
  pick_point_.reset();
  if (!nearest->id) return;  // no boids
  steered_id_ = nearest->id;
  selected_id_ = nearest->id;
  steered_boid_.reset();
}

void Viewer::update_steering() {
  // Where the boid was a frame or two ago, and the question for the next frames.
  if (std::optional<BoidLookup> lookup = readback_->latest_boid();
      lookup && lookup->id == *steered_id_) {
    if (!lookup->boid) {  // no boid has this id any more
      stop_steering();
      return;
    }
    steered_boid_ = lookup->boid;
  }
  readback_->request_boid(*flock_, *steered_id_);
  if (!steered_boid_) return;  // the first answer is still on its way
  const Boid& boid = *steered_boid_;
  const SpeciesParams& species = scenario_.species[boid.species];
  const glm::vec2 to_cursor =
      displacement(boid.pos, world_under(last_pixel_), species.topology, scenario_.size());
  const float distance = glm::length(to_cursor);
  glm::vec2 velocity{0.0f};
  if (distance > 0) {
    const float slowdown = kSteerSlowdownRadii * species.perception_radius;
    velocity = to_cursor / distance * species.max_speed * std::min(1.0f, distance / slowdown);
  }
  flock_->set_steered(SteeredBoid{*steered_id_, velocity});
}

void Viewer::stop_steering() {
  pick_point_.reset();
  steered_id_.reset();
  steered_boid_.reset();
  flock_->set_steered(std::nullopt);
}

void Viewer::draw_steered_highlight() {
  if (!steered_boid_) return;
  const ImGuiIO& io = ImGui::GetIO();
  const WorldView view = renderer_->view(scenario_.size());
  const glm::vec2 boid = world_to_pixel(view, steered_boid_->pos);
  const ImVec2 scale = io.DisplayFramebufferScale;
  const ImVec2 centre(boid.x / scale.x, boid.y / scale.y);
  const ImVec2 cursor(last_pixel_.x / scale.x, last_pixel_.y / scale.y);
  ImDrawList* draw_list = ImGui::GetBackgroundDrawList();
  draw_list->AddCircle(centre, kSteeredHighlightPixels, kSteeredColour, 0, 2.0f);
  draw_list->AddLine(centre, cursor, kSteeredColour, 1.0f);
}

void Viewer::sample_population() {
  if (std::optional<EcosystemCounts> counts = readback_->latest_ecosystem()) {
    ecosystem_requested_ = false;
    if (summary_) history_.add(step_, summary_->population, counts->food);
    ecosystem_ = std::move(counts);
  }
  if (!ecosystem_requested_ && history_.wants(step_))
    ecosystem_requested_ = readback_->request_ecosystem(*flock_);
}

void Viewer::draw_status() {
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoInputs |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
  ImGui::SetNextWindowPos(ImVec2(kStatusMargin, kStatusMargin));
  ImGui::SetNextWindowBgAlpha(kStatusAlpha);
  if (ImGui::Begin("status", nullptr, flags)) {
    ImGui::Text("%u boids | %.1f fps | %.2f ms/step | mode %d: %s | %s%s",
                scenario_.total_count(), fps_, ms_per_step_, static_cast<int>(mode_),
                std::string(rule_mode_name(mode_)).c_str(), paused_ ? "paused" : "running",
                captures_->recording() ? " | REC" : "");
    if (!message_.empty() && last_frame_seconds_ < message_until_) {
      if (message_is_error_) {
        ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "%s", message_.c_str());
      } else {
        ImGui::TextUnformatted(message_.c_str());
      }
    }
  }
  ImGui::End();
}

void Viewer::carry_out(const PanelRequests& requests) {
  if (requests.apply) apply_scenario(*requests.apply);
  if (requests.restart_with_seed) restart(*requests.restart_with_seed);
  if (requests.new_random_seed) restart(random_seed());
  if (requests.mode) set_mode(*requests.mode);
  if (requests.steps_per_frame) pacer_ = StepPacer::per_frame(*requests.steps_per_frame);
  if (requests.fit_view) renderer_->settings().camera = Camera{};
  if (requests.clear_selection) selected_id_.reset();
  if (requests.load) load(*requests.load);
  if (requests.reset_to_file) load(scenario_path_);
  if (requests.save) save(*requests.save);
  if (requests.remove_obstacle && *requests.remove_obstacle < scenario_.obstacles.size()) {
    Scenario next = scenario_;
    next.obstacles.erase(next.obstacles.begin() +
                         static_cast<std::ptrdiff_t>(*requests.remove_obstacle));
    change_obstacles_or_target(std::move(next));
  }
  if (requests.clear_obstacles) {
    Scenario next = scenario_;
    next.obstacles.clear();
    change_obstacles_or_target(std::move(next));
  }
  if (requests.clear_target) {
    Scenario next = scenario_;
    next.target.reset();
    change_obstacles_or_target(std::move(next));
  }
}

void Viewer::simulate(double elapsed_seconds, FrameTime& time) {
  if (!options_.timings) {
    // GPU time of the steps of earlier frames, for the status line's ms/step.
    for (const StepTimer::Sample& sample : step_timer_->collect()) {
      step_ms_sum_ += sample.milliseconds;
      steps_since_status_ += sample.steps;
    }
  }
  std::uint32_t steps = 0;
  if (!paused_) {
    steps = pacer_.steps_for_frame(elapsed_seconds);
  } else if (single_step_) {
    steps = 1;
  }
  single_step_ = false;
  if (steps == 0) return;
  const auto start = Clock::now();
  if (!options_.timings) step_timer_->begin();
  for (std::uint32_t i = 0; i < steps; ++i) {
    flock_->step();
    renderer_->record_step(*flock_);
  }
  time.steps = steps;
  step_ += steps;
  if (options_.timings) {
    // The timings charge each part its wall time, so the steps must be done, not just queued.
    glFinish();
    time.sim = milliseconds_since(start);
    step_ms_sum_ += time.sim;
    steps_since_status_ += steps;
  } else {
    step_timer_->end(steps);
  }
}

void Viewer::draw(FrameTime& time) {
  renderer_->resize(framebuffer_width_, framebuffer_height_);
  renderer_->settings().overlays.selected_id = selected_id_;
  RenderPassTimes passes;
  renderer_->render(*flock_, options_.timings ? &passes : nullptr);
  time.trails = passes.trails;
  time.heads = passes.heads;
  time.bloom = passes.bloom;
  time.overlays = passes.overlays;
  time.resolve = passes.resolve;

  const auto ui_start = Clock::now();
  // A frame drawn after a GL error must not become a screenshot or a recorded frame.
  window_->check_gl_errors("frame " + std::to_string(frames_run_));
  requested_readback([&] { capture_frame(); });
  glBlitNamedFramebuffer(renderer_->output_framebuffer(), 0, 0, 0, framebuffer_width_,
                         framebuffer_height_, 0, 0, framebuffer_width_, framebuffer_height_,
                         GL_COLOR_BUFFER_BIT, GL_NEAREST);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  const bool last_frame = options_.frames && frames_run_ + 1 >= *options_.frames;
  if (last_frame && options_.screenshot) {
    requested_readback([&] {
      write_png(*options_.screenshot, read_window_pixels(framebuffer_width_, framebuffer_height_));
    });
  }
  if (options_.timings) glFinish();
  time.ui = milliseconds_since(ui_start);
  window_->swap_buffers();
}

template <class Read>
void Viewer::requested_readback(Read&& read) {
  const gl::StallCounts before = gl::stall_counts();
  read();
  requested_stalls_ += gl::stall_counts() - before;
}

void Viewer::capture_frame() {
  try {
    if (screenshot_requested_) {
      screenshot_requested_ = false;
      say("screenshot " + captures_->screenshot(renderer_->read_pixels()).string());
    }
    if (!captures_->recording()) return;
    if (captures_->recording_width() != renderer_->width() ||
        captures_->recording_height() != renderer_->height()) {
      // Frames of one recording share a size (ffmpeg and the manifest expect it).
      toggle_recording();
      say("recording stopped: the window changed size", true);
      return;
    }
    captures_->record_frame(renderer_->read_pixels());
  } catch (const OutputError& error) {
    say(error.what(), true);
    if (captures_->recording()) {
      try {
        captures_->stop_recording(step_);
      } catch (const OutputError&) {
        // The first error is the one shown.
      }
    }
  }
}

void Viewer::toggle_recording() {
  try {
    if (captures_->recording()) {
      const std::filesystem::path dir = captures_->recording_path();
      const std::uint32_t frames = captures_->stop_recording(step_);
      say("recorded " + std::to_string(frames) + " frames into " + dir.string());
    } else {
      const std::filesystem::path dir = captures_->start_recording(
          flock_->scenario(), renderer_->width(), renderer_->height(), step_);
      say("recording into " + dir.string() + " (V stops)");
    }
  } catch (const OutputError& error) {
    say(error.what(), true);
  }
}

void Viewer::restart(std::uint64_t seed) {
  scenario_.world.seed = seed;
  stop_steering();
  flock_ = std::make_unique<GpuFlock>(effective_scenario(), seeded_start(scenario_));
  readback_->discard();  // answers about the old flock
  step_timer_->discard();
  renderer_->reset_trails();
  renderer_->record_step(*flock_);
  stats_.invalidate();
  summary_.reset();
  history_.clear();
  ecosystem_.reset();
  ecosystem_requested_ = false;
  selected_id_.reset();
  step_ = 0;
  pacer_.reset();
  panel_.discard_draft();
  say("restarted with seed " + std::to_string(seed));
}

void Viewer::apply_scenario(Scenario next) {
  const bool reallocate = !same_counts(scenario_, next);
  scenario_ = std::move(next);
  if (reallocate) {
    restart(scenario_.world.seed);
  } else {
    flock_->set_parameters(effective_scenario());
  }
}

void Viewer::set_mode(RuleMode mode) {
  mode_ = mode;
  flock_->set_parameters(effective_scenario());
  say("mode " + std::to_string(static_cast<int>(mode)) + ": " + std::string(rule_mode_name(mode)));
}

void Viewer::load(const std::filesystem::path& path) {
  try {
    Scenario loaded = load_scenario(path);
    require_flock_scenario(loaded);
    const bool same_file = path == scenario_path_;
    // Reset to file keeps the seed that is running; another file brings its own.
    if (same_file) loaded.world.seed = scenario_.world.seed;
    scenario_ = std::move(loaded);
    scenario_path_ = path;
    renderer_->settings().camera = Camera{};
    // The file's look over the defaults, not over whatever the panel had set.
    apply_look(renderer_->settings(), look_of(RenderSettings{}));
    apply_look(renderer_->settings(), scenario_.look);
    obstacle_radius_ = default_obstacle_radius(scenario_);
    restart(scenario_.world.seed);
    panel_.set_message("loaded " + path.string(), false);
  } catch (const InputError& error) {
    panel_.set_message(error.what(), true);
  }
}

void Viewer::save(const std::filesystem::path& path) {
  try {
    // The look on screen is saved with the rules, so the file reopens as it is seen.
    Scenario saved = scenario_;
    saved.look = look_of(renderer_->settings());
    write_file_atomically(path, scenario_to_toml(saved));
    panel_.set_message("saved " + path.string(), false);
  } catch (const OutputError& error) {
    panel_.set_message(error.what(), true);
  }
}

// The state a user (or a test driving the window) can read without the panel: e.g.
// "murmur - starlings.toml - 30000 boids - 15 fps - paused - REC - 2 obstacles - target".
std::string Viewer::window_title() const {
  char head[256];
  std::snprintf(head, sizeof head, "murmur - %s - %u boids - %.0f fps", scenario_.source.c_str(),
                scenario_.total_count(), fps_);
  std::string title = head;
  if (paused_) title += " - paused";
  if (captures_->recording()) title += " - REC";
  if (!scenario_.obstacles.empty()) {
    title += " - " + std::to_string(scenario_.obstacles.size()) +
             (scenario_.obstacles.size() == 1 ? " obstacle" : " obstacles");
  }
  if (scenario_.target) title += " - target";
  if (steered_id_) title += " - steering boid " + std::to_string(*steered_id_);
  return title;
}

void Viewer::drop_obstacle(glm::vec2 world) {
  if (scenario_.obstacles.size() >= kMaxObstacles) {
    say("at most " + std::to_string(kMaxObstacles) + " obstacles: remove some in the panel", true);
    return;
  }
  Scenario next = scenario_;
  next.obstacles.push_back(Obstacle{world, obstacle_radius_});
  change_obstacles_or_target(std::move(next));
}

void Viewer::set_target(glm::vec2 world) {
  Scenario next = scenario_;
  next.target = Target{world};
  change_obstacles_or_target(std::move(next));
}

void Viewer::change_obstacles_or_target(Scenario next) {
  try {
    validate_scenario(next);
    apply_scenario(std::move(next));
  } catch (const InputError& error) {
    say(error.what(), true);
  }
}

void Viewer::say(std::string message, bool is_error) {
  message_ = std::move(message);
  message_is_error_ = is_error;
  message_until_ = gl::window_clock_seconds() + kMessageSeconds;
}

glm::vec2 Viewer::cursor_pixels(glm::vec2 cursor_window) const {
  int window_width = 0, window_height = 0;
  glfwGetWindowSize(window_->handle(), &window_width, &window_height);
  if (window_width <= 0 || window_height <= 0) return cursor_window;
  // On high-density displays the framebuffer has more pixels than the window has units.
  return cursor_window * glm::vec2(float(framebuffer_width_) / float(window_width),
                                   float(framebuffer_height_) / float(window_height));
}

glm::vec2 Viewer::world_under(glm::vec2 pixel) const {
  return pixel_to_world(renderer_->view(scenario_.size()), pixel);
}

}  // namespace

void run_viewer(const ViewerOptions& options) {
  Viewer viewer(options);
  viewer.run();
}

}  // namespace murmur::viewer
