#pragma once
// What every viewer does around its simulation, whatever it simulates (docs/viewer.md): the
// renderer and the camera's mouse gestures, pausing and pacing the steps, the S and V
// captures, the status line and its messages, the window title's refresh, `--timings`, and
// `--frames` with its screenshot and its check that no frame waited on the GPU. The flock's
// viewer and the floor plan's each own one and add what is theirs.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <glm/vec2.hpp>

#include "murmur/gl/stall_counter.hpp"
#include "murmur/render/renderer.hpp"
#include "murmur/scenario/scenario.hpp"
#include "viewer/captures.hpp"
#include "viewer/fit_beside_panel.hpp"
#include "viewer/frame_timings.hpp"
#include "viewer/step_pacer.hpp"
#include "viewer/step_timer.hpp"
#include "viewer/viewer.hpp"
#include "viewer/window_session.hpp"

namespace murmur::viewer {

// A scenario of the other kind (a plan in the flock's viewer, or a flock in the plan's), loaded
// from the panel: the viewer for it takes over the window.
struct OpenScenario {
  AnyScenario scenario;
  std::filesystem::path path;
};

// How a viewer's run ended: the window closed (or --frames ran out), or a scenario of the other
// kind is to be opened.
struct ViewerExit {
  std::uint32_t frames = 0;  // frames run
  std::optional<OpenScenario> open;
};

// A seed for Shift+R and "New random seed", in [0, kMaxSeed].
std::uint64_t random_seed();

// The two viewers, each in its own file: the flock's (viewer.cpp) and the floor plan's
// (plan_viewer.cpp).
ViewerExit run_flock_viewer(WindowSession& session, const ViewerOptions& options,
                            const FlockScenario& scenario);
ViewerExit run_plan_viewer(WindowSession& session, const ViewerOptions& options,
                           const PlanScenario& scenario);

class ViewerShell {
 public:
  // The renderer starts from the scenario's look (default_render_settings, then [render]).
  // Of either kind (FlockScenario or PlanScenario), as are the other scenarios below.
  template <class Kind>
  ViewerShell(WindowSession& session, const ViewerOptions& options, const Kind& scenario);
  ~ViewerShell();
  ViewerShell(const ViewerShell&) = delete;
  ViewerShell& operator=(const ViewerShell&) = delete;

  WindowSession& session() { return session_; }
  gl::Window& window() { return session_.window(); }
  Renderer& renderer() { return *renderer_; }
  const Renderer& renderer() const { return *renderer_; }
  Captures& captures() { return *captures_; }
  bool recording() const { return captures_->recording(); }
  const ViewerOptions& options() const { return options_; }
  StepPacer& pacer() { return pacer_; }
  bool paused() const { return paused_; }
  bool panel_visible() const { return panel_visible_; }
  double fps() const { return fps_; }
  double ms_per_step() const { return ms_per_step_; }
  std::uint32_t frames_run() const { return frames_run_; }
  // The renderer's look back at the file's: the defaults for `scenario`, then its [render].
  template <class Kind>
  void reset_look(const Kind& scenario);

  // --- one frame, in this order ------------------------------------------------------------
  // Polls the window, begins ImGui's frame and the frame's clocks; false once the window
  // should close. The window's events are then the viewer's (session().take_events()).
  bool begin_frame();
  // The status line at the top left: `text`, and under it the last message for a few seconds.
  void draw_status(const std::string& text);
  // Steps for this frame: the pacer's while running, one after N while paused, else none.
  std::uint32_t steps_for_frame();
  // Runs `steps` (which must make the frame's `count` steps), timed for the status line's
  // ms/step (GPU timestamps, no wait) or, with --timings, to the frame's sim time (glFinish).
  void run_steps(std::uint32_t count, FrameTime& time, const std::function<void()>& steps);
  // Draws the frame (`render`, given pass timings with --timings) unless minimised, then the
  // captures the user asked for, the blit, the UI, --screenshot on the last frame, the swap.
  void present(FrameTime& time, std::uint64_t step,
               const std::function<void(RenderPassTimes*)>& render);
  // Counts the frame, refreshes the title (`title()`) twice a second, books the frame's time
  // or its unasked GPU waits; false once --frames frames have run.
  bool end_frame(FrameTime& time, const std::function<std::string()>& title);
  // After the loop: GL errors checked, a recording stopped, --timings printed (`count`: the
  // boids or agents), and with --frames, GpuError if a frame waited on the GPU unasked.
  template <class Kind>
  void finish(const Kind& scenario, std::uint32_t count, std::uint64_t step);

  // --- input shared by the viewers -----------------------------------------------------------
  // The frame's window events, by ImGui's capture flags: keys and button presses the panel does
  // not take go to `key` and `button` (a release always does: it ends a gesture wherever it
  // happens); scrolls the panel does not take and cursor moves drive the camera.
  using EventHandler = std::function<void(int key_or_button, int action, int mods)>;
  void dispatch_events(glm::vec2 world_size, const EventHandler& key, const EventHandler& button);
  // Space, N, S, V, H, F, F11 and Esc, which every viewer gives the same meaning, and O in a 3D
  // world; true when `key` was one of them.
  template <class Kind>
  bool handle_common_key(int key, int action, const Kind& scenario, std::uint64_t step);
  // Scroll zooms about the cursor; a left press that moves more than a few pixels, or a middle
  // press, pans. A left press released where it was pressed is a click: release() returns its
  // pixel, which the viewer gives its own meaning. In a 3D world (use_orbit_camera) scroll
  // dollies, a left drag orbits and a Shift+left or middle drag pans (orbit_controls.hpp).
  void scroll(float steps, glm::vec2 world_size);
  void press(int button, int mods = 0);
  std::optional<glm::vec2> release(int button);
  void move_cursor(glm::vec2 cursor_window, glm::vec2 world_size);
  bool gesturing() const { return gesture_ != Gesture::None; }
  glm::vec2 cursor() const { return last_pixel_; }  // framebuffer pixels from the top left
  glm::vec2 world_under(glm::vec2 pixel, glm::vec2 world_size) const;
  // The 2D camera fitted to the world in the part of the window the panel leaves free (the
  // whole window while the panel is hidden), from this frame's draw on, when the panel's place
  // is known; in 3D, the scenario's starting camera at once. The viewer starts fitted.
  void fit_view();
  // Where the panel was drawn this frame (the viewer passes what its panel's draw reported):
  // what a 2D fit keeps clear of while the panel shows.
  void set_panel_span(const std::optional<PanelSpan>& span) { panel_span_ = span; }

  // --- a 3D world's camera (docs/viewer.md, "Three dimensions") --------------------------------
  // `scenario` in 3D: the renderer's orbit_camera starts from its starting camera, turning by
  // itself when its [camera] orbit_speed is set; in 2D the plane's camera alone.
  void use_orbit_camera(const ScenarioCommon& scenario);
  bool orbiting() const { return orbit_world_.has_value(); }
  // The camera drawn (only while orbiting()): the renderer's, made concrete from the starting
  // camera for the frame's aspect at the first use.
  OrbitCamera& orbit_camera();
  PerspectiveView orbit_view();
  bool turning() const { return turning_; }
  void set_turning(bool on);
  // --- captures, files and messages ---------------------------------------------------------
  // Writes `scenario` with the look on screen as its [render] table, so that the file reopens as
  // it is seen; what the panel says of it (the error naming the path, if any).
  struct Outcome {
    std::string message;
    bool is_error = false;
  };
  template <class Kind>
  Outcome save_scenario(Kind scenario, const std::filesystem::path& path) const;
  template <class Kind>
  void toggle_recording(const Kind& scenario, std::uint64_t step);
  void say(std::string message, bool is_error = false);
  void pause(bool on);
  void request_single_step() { single_step_ = true; }
  // Forgets time owed and step timings in flight (a restart).
  void restart_clocks();

 private:
  enum class Gesture { None, PendingClick, Panning, Orbiting };
  void move_orbit_camera(glm::vec2 delta);
  // A 2D fit asked for, with the margins the panel's place gives now.
  void apply_fit();
  void capture_frame(std::uint64_t step);
  // Runs `read`, a readback the user asked for (screenshot, recording), and books its stalls
  // as requested ones.
  void requested_readback(const std::function<void()>& read);

  WindowSession& session_;
  ViewerOptions options_;
  std::unique_ptr<Renderer> renderer_;
  std::unique_ptr<Captures> captures_;
  std::unique_ptr<StepTimer> step_timer_;  // ms/step without glFinish (--timings off)
  FrameTimings timings_;
  StepPacer pacer_;
  bool paused_ = false;
  bool single_step_ = false;
  bool panel_visible_ = true;
  std::optional<PanelSpan> panel_span_;
  bool fit_pending_ = true;  // the 2D camera is fitted before the next frame is drawn
  bool screenshot_requested_ = false;
  int framebuffer_width_ = 0, framebuffer_height_ = 0;

  Gesture gesture_ = Gesture::None;
  int gesture_button_ = 0;
  int gesture_mods_ = 0;
  std::optional<ScenarioCommon> orbit_world_;  // a 3D world: its box and [camera]
  bool turning_ = false;                      // the 3D camera turns by itself
  glm::vec2 press_pixel_{0.0f};
  glm::vec2 last_pixel_{0.0f};

  // GPU stalls (gl/stall_counter.hpp): the ones a capture asked for, and the rest, which a
  // --frames run without --timings must not have.
  gl::StallCounts requested_stalls_;
  gl::StallCounts unrequested_stalls_;
  gl::StallCounts stalls_at_frame_start_;
  gl::StallCounts requested_at_frame_start_;
  std::chrono::steady_clock::time_point frame_start_;

  double last_frame_seconds_ = 0;
  double frame_elapsed_seconds_ = 0;
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

}  // namespace murmur::viewer
