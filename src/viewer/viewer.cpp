// The flock's viewer: events, panel, simulation steps, render, blit, UI, swap (the parts every
// viewer shares are ViewerShell's), and run_viewer, which opens the window and hands it to the
// viewer of the scenario's kind.
//
// Sections: helpers; the flock's viewer; the frame loop and input; steering a boid; a 3D world's
// picks; statistics, the panel's requests and scenario files; entry points.
#include "viewer/viewer.hpp"

#include "murmur/gl/gl.hpp"  // glad before GLFW
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
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

#include "murmur/base/errors.hpp"
#include "murmur/base/progress.hpp"
#include "murmur/gl/stall_counter.hpp"
#include "murmur/gl/window.hpp"
#include "murmur/flock/gpu/flock_readback.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/flock/model.hpp"
#include "murmur/render/orbit_camera.hpp"
#include "murmur/render/png_writer.hpp"
#include "murmur/render/renderer.hpp"
#include "murmur/flock/state.hpp"
#include "viewer/captures.hpp"
#include "viewer/frame_timings.hpp"
#include "viewer/live_counts.hpp"
#include "viewer/live_stats.hpp"
#include "viewer/orbit_controls.hpp"
#include "viewer/population_history.hpp"
#include "viewer/panel.hpp"
#include "viewer/rule_mode.hpp"
#include "viewer/viewer_shell.hpp"
#include "viewer/window_session.hpp"

namespace murmur::viewer {

// --- helpers -----------------------------------------------------------------------------------
namespace {

constexpr float kDefaultObstacleRadiusPerPerception = 3;
// ... but never more than this fraction of the world's smaller side (small worlds).
constexpr float kMaxDefaultObstacleRadiusPerSide = 0.1f;
// The steered boid flies at max speed towards the cursor, slowing within this many perception
// radii of it, so it can be parked on the cursor instead of orbiting it.
constexpr float kSteerSlowdownRadii = 2;
constexpr float kSteeredHighlightPixels = 12;
constexpr ImU32 kSteeredColour = IM_COL32(255, 230, 120, 230);

float default_obstacle_radius(const Scenario& scenario) {
  return std::min(kDefaultObstacleRadiusPerPerception * scenario.max_perception_radius(),
                  kMaxDefaultObstacleRadiusPerSide *
                      std::min(scenario.world.width, scenario.world.height));
}

// The steered boid's velocity towards the cursor's point `to_cursor` away (a plane's or a
// volume's vector): max speed, slowing within kSteerSlowdownRadii.
template <class Vector>
Vector steering_velocity(Vector to_cursor, const SpeciesParams& species) {
  const float distance = glm::length(to_cursor);
  if (!(distance > 0)) return Vector(0.0f);
  const float slowdown = kSteerSlowdownRadii * species.perception_radius;
  return to_cursor / distance * species.max_speed * std::min(1.0f, distance / slowdown);
}

bool same_counts(const Scenario& a, const Scenario& b) {
  if (a.species.size() != b.species.size() || a.size() != b.size()) return false;
  for (std::size_t s = 0; s < a.species.size(); ++s) {
    if (a.species[s].count != b.species[s].count) return false;
  }
  return true;
}

// --- the flock's viewer ------------------------------------------------------------------------
class Viewer {
 public:
  Viewer(WindowSession& session, const ViewerOptions& options, const FlockScenario& scenario);
  ~Viewer();
  Viewer(const Viewer&) = delete;
  Viewer& operator=(const Viewer&) = delete;

  ViewerExit run();

 private:
  // One pass of the loop; returns false once the viewer should close.
  bool frame();
  void handle_events();
  void handle_key(int key, int action, int mods);
  void handle_mouse_button(int button, int action, int mods);
  void resolve_pick();
  void update_steering();
  // A 3D world: a click selects, and a Ctrl+press steers, the boid drawn nearest the cursor.
  bool volume() const { return is_3d(scenario_); }
  void start_screen_pick(glm::vec2 pixel, bool steer);
  void resolve_screen_pick();
  glm::vec3 steering_goal_3d();
  void draw_steered_highlight();
  // Takes what has come back before the panel shows it: the live counts (the GPU's summary in
  // 2D, the CPU statistics' state in 3D), and in 2D the ecosystem's counters and a plot sample
  // when counts and counters of one step are in.
  void take_readbacks();
  // After the frame's steps: asks for the summary of this step, one at a time, with the
  // ecosystem's counters when the plot wants a sample or the flock stands still.
  void ask_readbacks();
  void carry_out(const PanelRequests& requests);
  void simulate(FrameTime& time);
  std::string status_text() const;
  std::string window_title() const;
  // A 3D world's part of the title: the selection and the camera, to the precision a test of
  // the gestures reads back.
  std::string orbit_title() const;

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
  glm::vec2 world_under(glm::vec2 pixel) const { return shell_.world_under(pixel, scenario_.size()); }

  ViewerShell shell_;
  Scenario scenario_;  // the user's settings; the flock gets effective_scenario()
  std::filesystem::path scenario_path_;
  RuleMode mode_ = RuleMode::All;
  std::unique_ptr<GpuFlock> flock_;
  // Statistics, the steered boid and picks, read back a frame or two late without waiting.
  std::unique_ptr<FlockReadback> readback_;
  Panel panel_;
  LiveStats stats_;
  // The one live count every part of the viewer shows (live_counts.hpp), a frame or two old.
  std::optional<LiveCounts> counts_;
  // A 2D world's GPU statistics, of the step counts_->step; each request is tagged with the
  // step it asks about, and one is in flight at a time.
  std::optional<FlockSummary> summary_;
  std::optional<std::uint64_t> summary_asked_at_;
  // Births, deaths and food, of the step ecosystem_step_, asked for with a summary of the same
  // step; sample_counts_ keeps that summary's counts for the plot's sample until they arrive.
  std::optional<EcosystemCounts> ecosystem_;
  std::uint64_t ecosystem_step_ = 0;
  std::optional<std::uint64_t> ecosystem_asked_at_;
  std::optional<LiveCounts> sample_counts_;
  PopulationHistory history_;  // the panel's population plot
  bool live_stats_ = true;
  std::uint64_t step_ = 0;
  float obstacle_radius_ = 0;
  std::optional<OpenScenario> open_;  // a plan loaded in the panel: the plan's viewer takes over

  bool steering_ = false;                // Ctrl + left button held
  std::optional<glm::vec2> pick_point_;  // a Ctrl+press waiting for its nearest boid
  std::optional<std::uint32_t> steered_id_;
  std::optional<Boid> steered_boid_;  // as last read back: a frame or two old
  // The boid ringed by its circles (Renderer overlays): the last one picked, kept after the
  // steering ends, until a new pick, a restart or the panel clears it.
  std::optional<std::uint32_t> selected_id_;

  // A 3D world's pick: the pixel and the view it was made in, waiting for the state whose
  // boids are projected (its own readback, so that LiveStats keeps its states).
  struct ScreenPick {
    glm::vec2 pixel{0.0f};
    PerspectiveView view;
    bool steer = false;  // Ctrl held: steer it while the button is down
  };
  std::optional<ScreenPick> screen_pick_;
  std::unique_ptr<FlockReadback> pick_readback_;
  // The steered boid's depth along the view when picked: the cursor's point is taken there.
  float steered_depth_ = 0;
};

Viewer::Viewer(WindowSession& session, const ViewerOptions& options,
               const FlockScenario& scenario)
    : shell_(session, options, scenario),
      scenario_(scenario),
      scenario_path_(options.scenario_path),
      panel_(options.scenario_path) {
  obstacle_radius_ = default_obstacle_radius(scenario_);
  shell_.use_orbit_camera(scenario_);
  flock_ = std::make_unique<GpuFlock>(
      effective_scenario(), options.initial ? *options.initial : seeded_start(scenario_));
  readback_ = std::make_unique<FlockReadback>();
  Renderer& renderer = shell_.renderer();
  renderer.record_step(*flock_);
  // Before the first frame, so a long --skip shows on stderr as murmur record's does.
  Progress progress("murmur view", "steps", options.skip_steps,
                    progress_display_for(stderr, !options.progress));
  progress.name_phase("skipping");
  for (std::uint32_t i = 0; i < options.skip_steps; ++i) {
    flock_->step();
    renderer.record_step(*flock_);
    progress.update(i + 1);
  }
  if (options.skip_steps > 0) progress.finish();
  step_ = options.skip_steps;
}

Viewer::~Viewer() {
  // GL objects before the shell's (the renderer), all before the window's context.
  pick_readback_.reset();
  readback_.reset();
  flock_.reset();
}

// --- the frame loop and input ------------------------------------------------------------------
ViewerExit Viewer::run() {
  while (frame()) {
  }
  shell_.finish(scenario_, scenario_.total_count(), step_);
  return {shell_.frames_run(), std::move(open_)};
}

bool Viewer::frame() {
  FrameTime time;
  if (!shell_.begin_frame()) return false;
  handle_events();
  if (pick_point_) resolve_pick();
  if (screen_pick_) resolve_screen_pick();
  if (steered_id_) update_steering();
  if (volume()) shell_.orbit_camera();  // concrete before the panel shows it
  take_readbacks();
  if (shell_.panel_visible()) {
    PanelEdits edits{shell_.renderer().settings(), obstacle_radius_, live_stats_};
    const StepPacer& pacer = shell_.pacer();
    const PanelView view{scenario_,
                         mode_,
                         shell_.fps(),
                         shell_.ms_per_step(),
                         step_,
                         shell_.paused(),
                         shell_.recording(),
                         pacer.fixed_rate() ? 0u : pacer.steps_per_frame(),
                         pacer.rate(),
                         counts_,
                         stats_.latest(),
                         summary_,
                         history_,
                         ecosystem_,
                         ecosystem_step_,
                         selected_id_,
                         shell_.turning(),
                         shell_.window().info()};
    carry_out(panel_.draw(view, edits));
    shell_.set_panel_span(panel_.span());
  }
  shell_.draw_status(status_text());
  draw_steered_highlight();

  simulate(time);
  if (live_stats_) stats_.update(*readback_, *flock_, gl::window_clock_seconds(), step_);
  ask_readbacks();

  shell_.present(time, step_, [&](RenderPassTimes* passes) {
    shell_.renderer().settings().overlays.selected_id = selected_id_;
    shell_.renderer().render(*flock_, passes);
  });
  const bool more = shell_.end_frame(time, [&] { return window_title(); });
  return more && !open_;
}

void Viewer::handle_events() {
  shell_.dispatch_events(
      scenario_.size(), [&](int key, int action, int mods) { handle_key(key, action, mods); },
      [&](int button, int action, int mods) { handle_mouse_button(button, action, mods); });
}

void Viewer::handle_key(int key, int action, int mods) {
  if (shell_.handle_common_key(key, action, flock_->scenario(), step_)) return;
  if (action != GLFW_PRESS) return;
  switch (key) {
    case GLFW_KEY_R:
      restart((mods & GLFW_MOD_SHIFT) ? random_seed() : scenario_.world.seed);
      break;
    case GLFW_KEY_1: set_mode(RuleMode::FreeFlight); break;
    case GLFW_KEY_2: set_mode(RuleMode::Alignment); break;
    case GLFW_KEY_3: set_mode(RuleMode::AlignmentCohesion); break;
    case GLFW_KEY_4: set_mode(RuleMode::All); break;
    default: break;
  }
}

void Viewer::handle_mouse_button(int button, int action, int mods) {
  if (action == GLFW_PRESS) {
    if (shell_.gesturing() || steering_) return;  // one gesture at a time
    if (button == GLFW_MOUSE_BUTTON_LEFT && (mods & GLFW_MOD_CONTROL)) {
      if (volume()) {
        start_screen_pick(shell_.cursor(), true);
      } else {
        start_steering(world_under(shell_.cursor()));
      }
    } else if (button == GLFW_MOUSE_BUTTON_RIGHT) {
      // A volume's target needs a depth a click does not give: the scenario file sets it.
      if (!volume()) set_target(world_under(shell_.cursor()));
    } else {
      shell_.press(button, mods);
    }
    return;
  }
  if (action != GLFW_RELEASE) return;
  if (button == GLFW_MOUSE_BUTTON_LEFT && steering_) {
    stop_steering();
    return;
  }
  if (const std::optional<glm::vec2> click = shell_.release(button)) {
    if (volume()) {
      start_screen_pick(*click, false);
    } else {
      drop_obstacle(world_under(*click));
    }
  }
}

// --- steering a boid ---------------------------------------------------------------------------
void Viewer::start_steering(glm::vec2 world) {
  // The nearest boid is found on the GPU; resolve_pick() takes the answer when it arrives.
  if (!readback_->request_nearest(*flock_, world)) return;  // rare: presses faster than frames
  pick_point_ = world;
  steering_ = true;
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
  if (volume()) {
    const glm::vec3 velocity = steering_velocity(
        displacement(position_of(boid), steering_goal_3d(), species.topology,
                     world_box(scenario_)),
        species);
    flock_->set_steered(SteeredBoid{*steered_id_, glm::vec2(velocity), velocity.z});
    return;
  }
  const glm::vec2 to_cursor =
      displacement(boid.pos, world_under(shell_.cursor()), species.topology, scenario_.size());
  flock_->set_steered(SteeredBoid{*steered_id_, steering_velocity(to_cursor, species)});
}

void Viewer::stop_steering() {
  steering_ = false;
  // A 3D pick still on its way selects its boid without steering it.
  if (screen_pick_) screen_pick_->steer = false;
  pick_point_.reset();
  steered_id_.reset();
  steered_boid_.reset();
  flock_->set_steered(std::nullopt);
}

void Viewer::draw_steered_highlight() {
  if (!steered_boid_) return;
  const ImGuiIO& io = ImGui::GetIO();
  glm::vec2 boid;
  if (volume()) {
    const std::optional<ScreenPoint> drawn =
        world_to_screen(shell_.orbit_view(), position_of(*steered_boid_));
    if (!drawn) return;  // behind the camera
    boid = drawn->pixel;
  } else {
    boid = world_to_pixel(shell_.renderer().view(scenario_.size()), steered_boid_->pos);
  }
  const ImVec2 scale = io.DisplayFramebufferScale;
  const ImVec2 centre(boid.x / scale.x, boid.y / scale.y);
  const glm::vec2 cursor = shell_.cursor();
  const ImVec2 cursor_point(cursor.x / scale.x, cursor.y / scale.y);
  ImDrawList* draw_list = ImGui::GetBackgroundDrawList();
  draw_list->AddCircle(centre, kSteeredHighlightPixels, kSteeredColour, 0, 2.0f);
  draw_list->AddLine(centre, cursor_point, kSteeredColour, 1.0f);
}

// --- a 3D world's picks ------------------------------------------------------------------------
void Viewer::start_screen_pick(glm::vec2 pixel, bool steer) {
  // A click is rare: the whole state comes back (no wait) and is projected on the CPU.
  if (!pick_readback_) pick_readback_ = std::make_unique<FlockReadback>();
  if (!pick_readback_->request_state(*flock_)) return;  // rare: clicks faster than frames
  screen_pick_ = ScreenPick{pixel, shell_.orbit_view(), steer};
  steering_ = steer;
}

void Viewer::resolve_screen_pick() {
  const std::optional<FlockState> state = pick_readback_->latest_state();
  if (!state) return;
  const ScreenPick pick = *screen_pick_;
  screen_pick_.reset();
  std::vector<glm::vec3> positions;
  positions.reserve(state->boids.size());
  for (const Boid& boid : state->boids) positions.push_back(position_of(boid));
  const std::optional<std::size_t> nearest =
      nearest_on_screen(pick.view, positions, pick.pixel, kPickReachPixels);
  if (!nearest) {
    shell_.say("no boid drawn within " + std::to_string(static_cast<int>(kPickReachPixels)) +
               " pixels of the click");
    return;
  }
  selected_id_ = state->boids[*nearest].id;
  if (!pick.steer) return;
  steered_id_ = selected_id_;
  steered_boid_.reset();
  steered_depth_ = world_to_screen(pick.view, positions[*nearest])->depth;
}

// The point under the cursor at the steered boid's depth along the view.
glm::vec3 Viewer::steering_goal_3d() {
  return world_at_depth(shell_.orbit_view(), shell_.orbit_camera().fov_degrees, shell_.cursor(),
                        steered_depth_);
}

// --- statistics, the panel's requests and scenario files ---------------------------------------
// The summary and the ecosystem's counters are the plane's (FlockReadback): a volume's
// statistics and counts come from LiveStats alone.
void Viewer::take_readbacks() {
  if (volume()) {
    if (stats_.latest()) counts_ = stats_.latest()->counts;
    return;
  }
  if (summary_asked_at_) {
    if (std::optional<FlockSummary> summary = readback_->latest_summary()) {
      counts_ = LiveCounts{*summary_asked_at_, summary->population};
      summary_ = std::move(summary);
      summary_asked_at_.reset();
      const bool counters_of_this_step =
          ecosystem_asked_at_ == counts_->step || (ecosystem_ && ecosystem_step_ == counts_->step);
      if (counters_of_this_step) sample_counts_ = counts_;
    }
  }
  if (ecosystem_asked_at_) {
    if (std::optional<EcosystemCounts> counters = readback_->latest_ecosystem()) {
      ecosystem_ = std::move(counters);
      ecosystem_step_ = *ecosystem_asked_at_;
      ecosystem_asked_at_.reset();
    }
  }
  // A plot sample: the counts and the food of one step, whichever came back first.
  if (ecosystem_ && sample_counts_ && sample_counts_->step == ecosystem_step_) {
    history_.add(ecosystem_step_, sample_counts_->population, ecosystem_->food);
    sample_counts_.reset();
  }
}

void Viewer::ask_readbacks() {
  if (volume() || summary_asked_at_) return;
  if (!readback_->request_summary(*flock_)) return;  // a full ring (a slow GPU): a later frame
  summary_asked_at_ = step_;
  // The counters cost a copy of the food field: only as often as the plot samples, and once
  // more when the flock stands still, so that the births and deaths agree with the counts.
  const bool counters_behind = !ecosystem_ || ecosystem_step_ != step_;
  if (!ecosystem_asked_at_ && counters_behind && (history_.wants(step_) || shell_.paused()) &&
      readback_->request_ecosystem(*flock_)) {
    ecosystem_asked_at_ = step_;
  }
}

std::string Viewer::status_text() const {
  char text[256];
  std::snprintf(text, sizeof text, "%s | %.1f fps | %.2f ms/step | mode %d: %s | %s%s",
                live_count_text(counts_, scenario_, step_, false).c_str(), shell_.fps(),
                shell_.ms_per_step(), static_cast<int>(mode_),
                std::string(rule_mode_name(mode_)).c_str(), shell_.paused() ? "paused" : "running",
                shell_.recording() ? " | REC" : "");
  return text;
}

void Viewer::carry_out(const PanelRequests& requests) {
  if (requests.apply) apply_scenario(*requests.apply);
  if (requests.restart_with_seed) restart(*requests.restart_with_seed);
  if (requests.new_random_seed) restart(random_seed());
  if (requests.mode) set_mode(*requests.mode);
  if (requests.steps_per_frame) shell_.pacer() = StepPacer::per_frame(*requests.steps_per_frame);
  if (requests.fit_view) shell_.fit_view();
  if (requests.clear_selection) selected_id_.reset();
  if (requests.toggle_turning) shell_.set_turning(!shell_.turning());
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

void Viewer::simulate(FrameTime& time) {
  const std::uint32_t steps = shell_.steps_for_frame();
  shell_.run_steps(steps, time, [&] {
    for (std::uint32_t i = 0; i < steps; ++i) {
      flock_->step();
      shell_.renderer().record_step(*flock_);
    }
  });
  step_ += steps;
}

void Viewer::restart(std::uint64_t seed) {
  scenario_.world.seed = seed;
  stop_steering();
  flock_ = std::make_unique<GpuFlock>(effective_scenario(), seeded_start(scenario_));
  readback_->discard();  // answers about the old flock
  if (pick_readback_) pick_readback_->discard();
  screen_pick_.reset();
  shell_.restart_clocks();
  shell_.renderer().reset_trails();
  shell_.renderer().record_step(*flock_);
  stats_.invalidate();
  // The requests in flight were discarded with the old flock: nothing of it is shown.
  counts_.reset();
  summary_.reset();
  summary_asked_at_.reset();
  ecosystem_.reset();
  ecosystem_asked_at_.reset();
  sample_counts_.reset();
  history_.clear();
  selected_id_.reset();
  step_ = 0;
  panel_.discard_draft();
  shell_.say("restarted with seed " + std::to_string(seed));
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
  shell_.say("mode " + std::to_string(static_cast<int>(mode)) + ": " +
             std::string(rule_mode_name(mode)));
}

void Viewer::load(const std::filesystem::path& path) {
  try {
    AnyScenario any = load_any_scenario(path);
    auto* flock = std::get_if<FlockScenario>(&any);
    if (flock == nullptr) {
      // A floor plan: the plan's viewer takes the window over at the end of this frame.
      open_ = OpenScenario{std::move(any), path};
      return;
    }
    Scenario loaded = std::move(*flock);
    const bool same_file = path == scenario_path_;
    // Reset to file keeps the seed that is running; another file brings its own.
    if (same_file) loaded.world.seed = scenario_.world.seed;
    scenario_ = std::move(loaded);
    scenario_path_ = path;
    shell_.fit_view();
    shell_.use_orbit_camera(scenario_);
    // The file's look over the defaults, not over whatever the panel had set.
    shell_.reset_look(scenario_);
    obstacle_radius_ = default_obstacle_radius(scenario_);
    restart(scenario_.world.seed);
    panel_.set_message("loaded " + path.string(), false);
  } catch (const InputError& error) {
    panel_.set_message(error.what(), true);
  }
}

void Viewer::save(const std::filesystem::path& path) {
  const ViewerShell::Outcome saved = shell_.save_scenario(scenario_, path);
  panel_.set_message(saved.message, saved.is_error);
}

// The state a user (or a test driving the window) can read without the panel: e.g.
// "murmur - ecosystem.toml - 124 boids (grazers 71, hunters 53) - 15 fps - step 1200 - seed 1 -
// paused - REC - 2 obstacles - target".
std::string Viewer::window_title() const {
  char fps[32];
  std::snprintf(fps, sizeof fps, " - %.0f fps", shell_.fps());
  std::string title = "murmur - " + scenario_.source + " - " +
                      live_count_text(counts_, scenario_, step_, true) + fps;
  // The step and the seed: what reproduces the picture (`murmur record --seed S --skip STEP`).
  title += " - step " + std::to_string(step_) + " - seed " + std::to_string(scenario_.world.seed);
  if (mode_ != RuleMode::All) title += " - " + std::string(rule_mode_name(mode_));
  if (shell_.paused()) title += " - paused";
  if (shell_.recording()) title += " - REC";
  if (!shell_.panel_visible()) title += " - panel hidden (H)";
  if (!volume()) {
    // Zoomed or panned away from the fitted view (F fits it again).
    const Camera& camera = shell_.renderer().settings().camera;
    if (camera.zoom != 1.0f || camera.centre) {
      const glm::vec2 centre = camera.centre_in(scenario_.size());
      char view[96];
      std::snprintf(view, sizeof view, " - zoom %.4f at %.2f %.2f", camera.zoom, centre.x,
                    centre.y);
      title += view;
    }
  }
  if (!scenario_.obstacles.empty()) {
    title += " - " + std::to_string(scenario_.obstacles.size()) +
             (scenario_.obstacles.size() == 1 ? " obstacle" : " obstacles");
  }
  if (scenario_.target) title += " - target";
  if (steered_id_) title += " - steering boid " + std::to_string(*steered_id_);
  if (volume()) title += orbit_title();
  return title;
}

std::string Viewer::orbit_title() const {
  const OrbitCamera& camera = *shell_.renderer().settings().orbit_camera;
  char text[320];
  std::snprintf(text, sizeof text,
                " - camera target %.3f %.3f %.3f distance %.4f yaw %.3f pitch %.3f fov %.2f%s",
                camera.target.x, camera.target.y, camera.target.z, camera.distance,
                camera.yaw_degrees, camera.pitch_degrees, camera.fov_degrees,
                shell_.turning() ? " turning" : "");
  std::string title;
  if (selected_id_) title += " - selected boid " + std::to_string(*selected_id_);
  return title + text;
}

void Viewer::drop_obstacle(glm::vec2 world) {
  if (scenario_.obstacles.size() >= kMaxObstacles) {
    shell_.say("at most " + std::to_string(kMaxObstacles) + " obstacles: remove some in the panel",
               true);
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
    shell_.say(error.what(), true);
  }
}

}  // namespace

// --- entry points ------------------------------------------------------------------------------

ViewerExit run_flock_viewer(WindowSession& session, const ViewerOptions& options,
                            const FlockScenario& scenario) {
  Viewer viewer(session, options, scenario);
  return viewer.run();
}

void run_viewer(const ViewerOptions& first) {
  WindowSession session(first);
  ViewerOptions options = first;
  while (true) {
    ViewerExit exit = visit_kind(
        options.scenario,
        [&](const FlockScenario& flock) { return run_flock_viewer(session, options, flock); },
        [&](const PlanScenario& plan) { return run_plan_viewer(session, options, plan); });
    if (!exit.open) return;
    // The other kind's viewer, in the same window, for the frames --frames has left.
    if (options.frames) {
      if (exit.frames >= *options.frames) return;
      *options.frames -= exit.frames;
    }
    options.scenario = std::move(exit.open->scenario);
    options.scenario_path = std::move(exit.open->path);
    options.initial.reset();
    options.skip_steps = 0;
  }
}

}  // namespace murmur::viewer
