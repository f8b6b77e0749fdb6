// The shell both viewers share (viewer_shell.hpp says what it does). Sections, in order:
//   the look         construction, reset_look
//   the frame        begin_frame, the status line, the steps of a frame, present, end_frame
//   closing, keys    finish, handle_common_key, dispatch_events
//   the camera       pause, scroll, the mouse's drag and cursor, world_under, a 3D world's camera
//   captures         readbacks, screenshots, V's recording, saving the scenario, say
//   the two kinds    the explicit instantiations for FlockScenario and PlanScenario
#include "viewer/viewer_shell.hpp"

#include "murmur/gl/gl.hpp"  // glad before GLFW
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

#include <glm/geometric.hpp>

#include "murmur/base/atomic_file.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/render/png_writer.hpp"
#include "murmur/flock/state.hpp"
#include "viewer/orbit_controls.hpp"

namespace murmur::viewer {
namespace {

constexpr double kStatusIntervalSeconds = 0.5;   // fps and window title refresh
constexpr double kMessageSeconds = 4.0;          // how long a status message stays
constexpr double kMinimisedWaitSeconds = 0.1;    // event wait while there is nothing to draw
constexpr float kDragThresholdPixels = 4;        // a left press moving further pans, not clicks
constexpr float kZoomPerScrollStep = 1.15f;
// The automatic exposure moves this fraction of the way to each new frame's factor: a few
// dozen frames to settle, so the brightness does not flicker as flocks merge and split.
constexpr float kViewerExposureAdaptation = 0.1f;
constexpr float kStatusAlpha = 0.45f;
constexpr float kStatusMargin = 8;
const ImVec4 kErrorColour{1.0f, 0.35f, 0.3f, 1.0f};

using Clock = std::chrono::steady_clock;

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// What --timings counts: a flock's boids, a plan's agents.
const char* counted_unit(const FlockScenario&) { return "boids"; }
const char* counted_unit(const PlanScenario&) { return "agents"; }

}  // namespace

std::uint64_t random_seed() {
  std::random_device device;
  std::uniform_int_distribution<std::uint64_t> seeds(0, kMaxSeed);
  return seeds(device);
}

template <class Kind>
ViewerShell::ViewerShell(WindowSession& session, const ViewerOptions& options,
                         const Kind& scenario)
    : session_(session), options_(options), pacer_(options.pacer) {
  window().framebuffer_size(framebuffer_width_, framebuffer_height_);
  renderer_ = std::make_unique<Renderer>(std::max(framebuffer_width_, 1),
                                         std::max(framebuffer_height_, 1));
  reset_look(scenario);
  step_timer_ = std::make_unique<StepTimer>();
  captures_ = std::make_unique<Captures>(options.out_dir, window().info().renderer,
                                         options.record_video, options.record_fps);
  last_frame_seconds_ = gl::window_clock_seconds();
  status_since_ = last_frame_seconds_;
}

ViewerShell::~ViewerShell() {
  // GL objects before the context (the session, which outlives the shell, owns it).
  captures_.reset();
  step_timer_.reset();
  renderer_.reset();
}

template <class Kind>
void ViewerShell::reset_look(const Kind& scenario) {
  // The [render] keys only: what the panel sets beyond them stays.
  RenderSettings& settings = renderer_->settings();
  apply_look(settings, look_of(default_render_settings(scenario)));
  apply_look(settings, scenario.look);
  settings.exposure_adaptation = kViewerExposureAdaptation;
}

bool ViewerShell::begin_frame() {
  frame_start_ = Clock::now();
  stalls_at_frame_start_ = gl::stall_counts();
  requested_at_frame_start_ = requested_stalls_;
  const double now = gl::window_clock_seconds();
  frame_elapsed_seconds_ = now - last_frame_seconds_;
  last_frame_seconds_ = now;
  if (orbiting() && turning_)
    orbit_camera() = turned_by_itself(orbit_camera(), frame_elapsed_seconds_);
  if (!session_.begin_frame(framebuffer_width_, framebuffer_height_)) return false;
  if (!options_.timings) {
    // GPU time of the steps of earlier frames, for the status line's ms/step.
    for (const StepTimer::Sample& sample : step_timer_->collect()) {
      step_ms_sum_ += sample.milliseconds;
      steps_since_status_ += sample.steps;
    }
  }
  return true;
}

void ViewerShell::draw_status(const std::string& text) {
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoInputs |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
  ImGui::SetNextWindowPos(ImVec2(kStatusMargin, kStatusMargin));
  ImGui::SetNextWindowBgAlpha(kStatusAlpha);
  if (ImGui::Begin("status", nullptr, flags)) {
    ImGui::TextUnformatted(text.c_str());
    if (!message_.empty() && last_frame_seconds_ < message_until_) {
      if (message_is_error_) {
        ImGui::TextColored(kErrorColour, "%s", message_.c_str());
      } else {
        ImGui::TextUnformatted(message_.c_str());
      }
    }
  }
  ImGui::End();
}

std::uint32_t ViewerShell::steps_for_frame() {
  std::uint32_t steps = 0;
  if (!paused_) {
    steps = pacer_.steps_for_frame(frame_elapsed_seconds_);
  } else if (single_step_) {
    steps = 1;
  }
  single_step_ = false;
  return steps;
}

void ViewerShell::run_steps(std::uint32_t count, FrameTime& time,
                            const std::function<void()>& steps) {
  if (count == 0) return;
  const auto start = Clock::now();
  if (!options_.timings) step_timer_->begin();
  steps();
  time.steps = count;
  if (options_.timings) {
    // The timings charge each part its wall time, so the steps must be done, not just queued.
    glFinish();
    time.sim = milliseconds_since(start);
    step_ms_sum_ += time.sim;
    steps_since_status_ += count;
  } else {
    step_timer_->end(count);
  }
}

void ViewerShell::present(FrameTime& time, std::uint64_t step,
                          const std::function<void(RenderPassTimes*)>& render) {
  ImGui::Render();
  if (!gl::can_draw_frame(framebuffer_width_, framebuffer_height_)) {
    // Minimised: nothing to draw into; keep handling events without spinning.
    gl::wait_window_events(kMinimisedWaitSeconds);
    return;
  }
  renderer_->resize(framebuffer_width_, framebuffer_height_);
  if (fit_pending_) apply_fit();
  // A frame nothing reads back is resolved straight into the window: no full-frame copy.
  const bool read_back = screenshot_requested_ || captures_->recording();
  renderer_->draw_to_window(!read_back);
  RenderPassTimes passes;
  render(options_.timings ? &passes : nullptr);
  time.trails = passes.trails;
  time.heads = passes.heads;
  time.exposure = passes.exposure;
  time.bloom = passes.bloom;
  time.overlays = passes.overlays;
  time.resolve = passes.resolve;

  const auto ui_start = Clock::now();
  // A frame drawn after a GL error must not become a screenshot or a recorded frame.
  window().check_gl_errors("frame " + std::to_string(frames_run_));
  if (read_back) {
    requested_readback([&] { capture_frame(step); });
    glBlitNamedFramebuffer(renderer_->output_framebuffer(), 0, 0, 0, framebuffer_width_,
                           framebuffer_height_, 0, 0, framebuffer_width_, framebuffer_height_,
                           GL_COLOR_BUFFER_BIT, GL_NEAREST);
  }
  session_.draw_ui();
  const bool last_frame = options_.frames && frames_run_ + 1 >= *options_.frames;
  if (last_frame && options_.screenshot) {
    requested_readback([&] {
      write_png(*options_.screenshot, read_window_pixels(framebuffer_width_, framebuffer_height_));
    });
  }
  if (options_.timings) glFinish();
  time.ui = milliseconds_since(ui_start);
  window().swap_buffers();
}

bool ViewerShell::end_frame(FrameTime& time, const std::function<std::string()>& title) {
  ++frames_run_;
  ++frames_since_status_;
  const double now = last_frame_seconds_;
  if (now - status_since_ >= kStatusIntervalSeconds) {
    fps_ = frames_since_status_ / (now - status_since_);
    ms_per_step_ = steps_since_status_ > 0 ? step_ms_sum_ / steps_since_status_ : 0.0;
    status_since_ = now;
    frames_since_status_ = 0;
    step_ms_sum_ = 0;
    steps_since_status_ = 0;
    window().set_title(title());
  }
  time.total = milliseconds_since(frame_start_);
  if (options_.timings) {
    timings_.add(time);
  } else {
    unrequested_stalls_ += (gl::stall_counts() - stalls_at_frame_start_) -
                           (requested_stalls_ - requested_at_frame_start_);
  }
  return !options_.frames || frames_run_ < *options_.frames;
}

template <class Kind>
void ViewerShell::finish(const Kind& scenario, std::uint32_t count, std::uint64_t step) {
  window().check_gl_errors("the last frame");  // before a recording's manifest says it is whole
  if (captures_->recording()) toggle_recording(scenario, step);
  if (options_.timings && timings_.size() > 0) {
    const char* counted = counted_unit(scenario);
    std::fputs(timings_.report(count, counted, renderer_->width(), renderer_->height(),
                               window().info().renderer)
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

template <class Kind>
bool ViewerShell::handle_common_key(int key, int action, const Kind& scenario,
                                    std::uint64_t step) {
  if (action == GLFW_REPEAT && key == GLFW_KEY_N) {
    if (paused_) single_step_ = true;
    return true;
  }
  if (action != GLFW_PRESS) return false;
  switch (key) {
    case GLFW_KEY_ESCAPE: window().request_close(); return true;
    case GLFW_KEY_SPACE: pause(!paused_); return true;
    case GLFW_KEY_N:
      if (paused_) single_step_ = true;
      return true;
    case GLFW_KEY_S: screenshot_requested_ = true; return true;
    case GLFW_KEY_V: toggle_recording(scenario, step); return true;
    case GLFW_KEY_H: panel_visible_ = !panel_visible_; return true;
    case GLFW_KEY_F: fit_view(); return true;
    case GLFW_KEY_F11: window().set_fullscreen(!window().fullscreen()); return true;
    case GLFW_KEY_O:
      if (!orbiting()) return false;
      set_turning(!turning_);
      return true;
    default: return false;
  }
}

void ViewerShell::dispatch_events(glm::vec2 world_size, const EventHandler& key,
                                  const EventHandler& button) {
  const ImGuiIO& io = ImGui::GetIO();
  for (const InputEvent& event : session_.take_events()) {
    switch (event.kind) {
      case InputEvent::Kind::Key:
        if (!io.WantCaptureKeyboard) key(event.key_or_button, event.action, event.mods);
        break;
      case InputEvent::Kind::MouseButton:
        if (event.action == GLFW_RELEASE || !io.WantCaptureMouse)
          button(event.key_or_button, event.action, event.mods);
        break;
      case InputEvent::Kind::Scroll:
        if (!io.WantCaptureMouse) scroll(event.value.y, world_size);
        break;
      case InputEvent::Kind::CursorMove:
        move_cursor(event.value, world_size);
        break;
    }
  }
}

void ViewerShell::pause(bool on) {
  paused_ = on;
  pacer_.reset();
}

void ViewerShell::restart_clocks() {
  step_timer_->discard();
  pacer_.reset();
}

void ViewerShell::scroll(float steps, glm::vec2 world_size) {
  if (orbiting()) {
    orbit_camera() = dollied(orbit_camera(), world_box(*orbit_world_),
                             std::pow(kZoomPerScrollStep, steps));
    return;
  }
  RenderSettings& settings = renderer_->settings();
  settings.camera = zoom_at(settings.camera, world_size, renderer_->width(), renderer_->height(),
                            last_pixel_, std::pow(kZoomPerScrollStep, steps));
}

void ViewerShell::press(int button, int mods) {
  if (gesture_ != Gesture::None) return;  // one gesture at a time
  press_pixel_ = last_pixel_;
  gesture_button_ = button;
  gesture_mods_ = mods;
  if (button == GLFW_MOUSE_BUTTON_LEFT) gesture_ = Gesture::PendingClick;
  if (button == GLFW_MOUSE_BUTTON_MIDDLE) gesture_ = Gesture::Panning;
}

std::optional<glm::vec2> ViewerShell::release(int button) {
  if (gesture_ == Gesture::None || button != gesture_button_) return std::nullopt;
  const bool click = gesture_ == Gesture::PendingClick;
  gesture_ = Gesture::None;
  if (!click) return std::nullopt;
  return press_pixel_;
}

void ViewerShell::move_cursor(glm::vec2 cursor_window, glm::vec2 world_size) {
  const glm::vec2 pixel =
      session_.cursor_pixels(cursor_window, framebuffer_width_, framebuffer_height_);
  const glm::vec2 delta = pixel - last_pixel_;
  last_pixel_ = pixel;
  if (orbiting()) {
    if (gesture_ == Gesture::PendingClick &&
        glm::length(pixel - press_pixel_) > kDragThresholdPixels) {
      gesture_ = (gesture_mods_ & GLFW_MOD_SHIFT) ? Gesture::Panning : Gesture::Orbiting;
      move_orbit_camera(pixel - press_pixel_);  // everything moved since the press
    } else if (gesture_ == Gesture::Panning || gesture_ == Gesture::Orbiting) {
      move_orbit_camera(delta);
    }
    return;
  }
  RenderSettings& settings = renderer_->settings();
  if (gesture_ == Gesture::PendingClick &&
      glm::length(pixel - press_pixel_) > kDragThresholdPixels) {
    gesture_ = Gesture::Panning;
    // The drag started at the press: pan by everything moved since then.
    settings.camera = pan_by(settings.camera, world_size, renderer_->width(), renderer_->height(),
                             pixel - press_pixel_);
    return;
  }
  if (gesture_ == Gesture::Panning) {
    settings.camera =
        pan_by(settings.camera, world_size, renderer_->width(), renderer_->height(), delta);
  }
}

glm::vec2 ViewerShell::world_under(glm::vec2 pixel, glm::vec2 world_size) const {
  return pixel_to_world(renderer_->view(world_size), pixel);
}

void ViewerShell::fit_view() {
  // The 2D camera waits for the panel's place (drawn after the keys are handled); a 3D world
  // loaded meanwhile leaves it alone.
  fit_pending_ = true;
  if (orbiting()) {
    const float speed = orbit_camera().orbit_speed;  // the panel's speed stays
    renderer_->settings().orbit_camera.reset();
    orbit_camera().orbit_speed = speed;
  }
}

void ViewerShell::apply_fit() {
  fit_pending_ = false;
  if (orbiting()) return;
  const ImGuiIO& io = ImGui::GetIO();
  Camera fitted;
  fitted.fit_margins = margins_beside_panel(panel_visible_ ? panel_span_ : std::nullopt,
                                            io.DisplaySize.x, io.DisplayFramebufferScale.x);
  renderer_->settings().camera = fitted;
}

void ViewerShell::use_orbit_camera(const ScenarioCommon& scenario) {
  renderer_->settings().orbit_camera.reset();
  if (!is_3d(scenario)) {
    orbit_world_.reset();
    turning_ = false;
    return;
  }
  orbit_world_ = scenario;
  turning_ = orbit_camera().orbit_speed != 0.0f;
}

OrbitCamera& ViewerShell::orbit_camera() {
  std::optional<OrbitCamera>& camera = renderer_->settings().orbit_camera;
  if (!camera) {
    const float aspect =
        static_cast<float>(renderer_->width()) / static_cast<float>(renderer_->height());
    camera = starting_camera(*orbit_world_, aspect);
  }
  return *camera;
}

PerspectiveView ViewerShell::orbit_view() {
  return perspective_view(orbit_camera(), world_box(*orbit_world_), renderer_->width(),
                          renderer_->height());
}

void ViewerShell::set_turning(bool on) {
  turning_ = on;
  if (on) orbit_camera().orbit_speed = turn_speed(orbit_camera());
}

void ViewerShell::move_orbit_camera(glm::vec2 delta) {
  OrbitCamera& camera = orbit_camera();
  if (gesture_ == Gesture::Orbiting) {
    camera = orbit_dragged(camera, delta);
  } else {
    camera = panned(camera, renderer_->height(), delta);
  }
}

void ViewerShell::requested_readback(const std::function<void()>& read) {
  const gl::StallCounts before = gl::stall_counts();
  read();
  requested_stalls_ += gl::stall_counts() - before;
}

void ViewerShell::capture_frame(std::uint64_t step) {
  try {
    if (screenshot_requested_) {
      screenshot_requested_ = false;
      say("screenshot " + captures_->screenshot(renderer_->read_pixels()).string());
    }
    if (!captures_->recording()) return;
    if (captures_->recording_width() != renderer_->width() ||
        captures_->recording_height() != renderer_->height()) {
      // Frames of one recording share a size (ffmpeg and the manifest expect it).
      captures_->stop_recording(step);
      say("recording stopped: the window changed size", true);
      return;
    }
    captures_->record_frame(renderer_->read_pixels());
  } catch (const OutputError& error) {
    say(error.what(), true);
    if (captures_->recording()) {
      try {
        captures_->stop_recording(step);
      } catch (const OutputError&) {
        // The first error is the one shown.
      }
    }
  }
}

template <class Kind>
void ViewerShell::toggle_recording(const Kind& scenario, std::uint64_t step) {
  try {
    if (captures_->recording()) {
      const std::filesystem::path dir = captures_->recording_path();
      const std::uint32_t frames = captures_->stop_recording(step);
      say("recorded " + std::to_string(frames) + " frames into " + dir.string());
    } else {
      RecordingManifest described;
      describe_scenario(scenario, described);
      const std::filesystem::path dir = captures_->start_recording(
          described, renderer_->width(), renderer_->height(), step);
      say("recording into " + dir.string() + " (V stops)");
    }
  } catch (const OutputError& error) {
    say(error.what(), true);
  }
}

template <class Kind>
ViewerShell::Outcome ViewerShell::save_scenario(Kind scenario,
                                               const std::filesystem::path& path) const {
  try {
    scenario.look = look_of(renderer_->settings());
    write_file_atomically(path, scenario_to_toml(scenario));
    return {"saved " + path.string(), false};
  } catch (const OutputError& error) {
    return {error.what(), true};
  }
}

void ViewerShell::say(std::string message, bool is_error) {
  message_ = std::move(message);
  message_is_error_ = is_error;
  message_until_ = gl::window_clock_seconds() + kMessageSeconds;
}

// The shell serves both viewers: each member that takes a scenario exists for both kinds.
#define MURMUR_VIEWER_SHELL_KIND(Kind)                                                         \
  template ViewerShell::ViewerShell(WindowSession&, const ViewerOptions&, const Kind&);        \
  template void ViewerShell::reset_look(const Kind&);                                          \
  template void ViewerShell::finish(const Kind&, std::uint32_t, std::uint64_t);                \
  template bool ViewerShell::handle_common_key(int, int, const Kind&, std::uint64_t);          \
  template ViewerShell::Outcome ViewerShell::save_scenario(Kind, const std::filesystem::path&) \
      const;                                                                                   \
  template void ViewerShell::toggle_recording(const Kind&, std::uint64_t);
MURMUR_VIEWER_SHELL_KIND(FlockScenario)
MURMUR_VIEWER_SHELL_KIND(PlanScenario)
#undef MURMUR_VIEWER_SHELL_KIND

}  // namespace murmur::viewer
