// The floor plan's viewer (docs/viewer.md, "Floor plans"): origin 003's agents drawing their
// plan live, ink accumulating as they move. A click in the plan pauses, as in origin 003; the
// panel edits every key (an edit grows the plan again from its seed, so that the saved file
// gives back the plan on screen). The plan's counts come back through a readback ring, a frame
// or two late, and the point buffers grow before any step could fill them.
#include "murmur/gl/gl.hpp"  // glad before GLFW
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "murmur/base/errors.hpp"
#include "murmur/base/progress.hpp"
#include "murmur/gl/readback_ring.hpp"
#include "murmur/plan/gpu/gpu_plan.hpp"
#include "murmur/plan/plan.hpp"
#include "viewer/plan_panel.hpp"
#include "viewer/viewer_shell.hpp"

namespace murmur::viewer {
namespace {

// A few steps' points of every agent to start with: the buffers grow as the counts say.
constexpr std::uint32_t kInitialStepsOfPoints = 64;
// --skip's steps between the progress line's updates: a plan's step takes milliseconds.
constexpr std::uint32_t kSkipStepsPerBatch = 64;

// Whether two plan scenarios differ only in what the drawing reads (the line widths), so that
// the plan goes on and is only redrawn.
bool same_plan_but_widths(const PlanScenario& a, const PlanScenario& b) {
  PlanScenario widths_of_a = b;
  widths_of_a.plan.vertical_width = a.plan.vertical_width;
  widths_of_a.plan.horizontal_width = a.plan.horizontal_width;
  return scenario_to_toml(widths_of_a) == scenario_to_toml(a);
}

class PlanViewer {
 public:
  PlanViewer(WindowSession& session, const ViewerOptions& options, const PlanScenario& scenario);
  ~PlanViewer();
  PlanViewer(const PlanViewer&) = delete;
  PlanViewer& operator=(const PlanViewer&) = delete;

  ViewerExit run();

 private:
  bool frame();
  void handle_events();
  void handle_key(int key, int action, int mods);
  void handle_mouse_button(int button, int action);
  void simulate(FrameTime& time);
  // Takes the counts that arrived and asks for the next.
  void follow_counts();
  void carry_out(const PlanPanelRequests& requests);
  void restart(std::uint64_t seed);
  void apply_scenario(PlanScenario next);
  void load(const std::filesystem::path& path);
  void save(const std::filesystem::path& path);
  std::string status_text() const;
  std::string window_title() const;
  std::uint32_t agents() const { return scenario_.plan.total_count(); }
  // The agents so far, as the last counts read back say (a branching plan grows).
  std::uint32_t shown_agents() const { return counts_ ? counts_->agents : agents(); }

  ViewerShell shell_;
  PlanScenario scenario_;
  std::filesystem::path scenario_path_;
  std::unique_ptr<GpuPlan> plan_;
  gl::ReadbackRing counts_ring_;
  std::optional<GpuPlanCounts> counts_;  // the newest to arrive: a frame or two old
  GpuPlanCounts room_counts_;            // what the buffers' growth goes by
  bool end_reported_ = false;            // complete, or stopped: said once
  PlanPanel panel_;
  std::optional<OpenScenario> open_;     // a flock loaded in the panel: its viewer takes over
};

PlanViewer::PlanViewer(WindowSession& session, const ViewerOptions& options,
                       const PlanScenario& scenario)
    : shell_(session, options, scenario),
      scenario_(scenario),
      scenario_path_(options.scenario_path),
      counts_ring_("plan counts readback", GpuPlan::counts_bytes()),
      panel_(options.scenario_path) {
  restart(scenario_.world.seed);
  if (options.skip_steps > 0) {
    // Blocking, before the first frame: --skip is a start, not a frame. In batches, each with
    // room made for it (the plan goes on as if it had had the room from the start), so that
    // the progress line hears of them.
    Progress progress("murmur view", "steps", options.skip_steps,
                      progress_display_for(stderr, !options.progress));
    progress.name_phase("skipping");
    for (std::uint32_t made = 0; made < options.skip_steps;) {
      const std::uint32_t batch = std::min(options.skip_steps - made, kSkipStepsPerBatch);
      plan_->make_room(plan_->counts(), plan_->steps() + batch);
      plan_->advance(batch);
      made += batch;
      progress.update(made);
    }
    progress.finish();
  }
  shell_.say("");
}

PlanViewer::~PlanViewer() {
  counts_ring_ = gl::ReadbackRing();
  plan_.reset();
}

ViewerExit PlanViewer::run() {
  while (frame()) {
  }
  shell_.finish(scenario_, agents(), plan_->steps());
  return {shell_.frames_run(), std::move(open_)};
}

bool PlanViewer::frame() {
  FrameTime time;
  if (!shell_.begin_frame()) return false;
  handle_events();
  follow_counts();
  if (shell_.panel_visible()) {
    const StepPacer& pacer = shell_.pacer();
    const PlanPanelView view{scenario_,
                             shell_.fps(),
                             shell_.ms_per_step(),
                             plan_->steps(),
                             shell_.paused(),
                             shell_.recording(),
                             pacer.fixed_rate() ? 0u : pacer.steps_per_frame(),
                             pacer.rate(),
                             counts_,
                             plan_->point_capacity(),
                             shell_.window().info()};
    carry_out(panel_.draw(view, shell_.renderer().settings()));
    shell_.set_panel_span(panel_.span());
  }
  shell_.draw_status(status_text());
  simulate(time);
  shell_.present(time, plan_->steps(), [&](RenderPassTimes* passes) {
    // The viewer's scenario, not the plan's copy: new widths redraw without a new plan.
    shell_.renderer().render(scenario_, plan_->buffers(), plan_->history(), passes);
  });
  const bool more = shell_.end_frame(time, [&] { return window_title(); });
  return more && !open_;
}

void PlanViewer::handle_events() {
  shell_.dispatch_events(
      scenario_.size(), [&](int key, int action, int mods) { handle_key(key, action, mods); },
      [&](int button, int action, int) { handle_mouse_button(button, action); });
}

void PlanViewer::handle_key(int key, int action, int mods) {
  if (shell_.handle_common_key(key, action, scenario_, plan_->steps())) return;
  if (action == GLFW_PRESS && key == GLFW_KEY_R)
    restart((mods & GLFW_MOD_SHIFT) ? random_seed() : scenario_.world.seed);
}

void PlanViewer::handle_mouse_button(int button, int action) {
  if (action == GLFW_PRESS) {
    shell_.press(button);
    return;
  }
  // Origin 003's mousePressed(): a click stops the drawing, the next one starts it again.
  if (action == GLFW_RELEASE && shell_.release(button)) {
    shell_.pause(!shell_.paused());
    shell_.say(shell_.paused() ? "paused (click or Space resumes)" : "running");
  }
}

void PlanViewer::follow_counts() {
  while (std::optional<std::vector<std::byte>> bytes = counts_ring_.poll()) {
    counts_ = GpuPlan::counts_from(*bytes);
    room_counts_ = *counts_;
  }
  if (counts_ && !end_reported_ && (counts_->stopped() || counts_->living == 0)) {
    end_reported_ = true;
    shell_.pause(true);
    if (counts_->stopped()) {
      shell_.say("the plan stopped at step " + std::to_string(counts_->error_step) +
                     ": its steering grid ran out of cells (R grows it again)",
                 true);
    } else {
      shell_.say("the plan is complete by step " + std::to_string(counts_->reached_step()) +
                 ": every agent has died (R grows it again)");
    }
  }
  if (counts_ring_.in_flight() < counts_ring_.slot_count()) {
    plan_->count();
    counts_ring_.request(plan_->counts_buffer(), 0, GpuPlan::counts_bytes());
  }
}

void PlanViewer::simulate(FrameTime& time) {
  const std::uint32_t steps = shell_.steps_for_frame();
  if (steps == 0) return;
  try {
    plan_->make_room(room_counts_, plan_->steps() + steps);
  } catch (const std::length_error& error) {
    shell_.pause(true);
    shell_.say(error.what(), true);
    return;
  }
  shell_.run_steps(steps, time, [&] { plan_->advance(steps); });
}

void PlanViewer::carry_out(const PlanPanelRequests& requests) {
  if (requests.apply) apply_scenario(*requests.apply);
  if (requests.restart_with_seed) restart(*requests.restart_with_seed);
  if (requests.new_random_seed) restart(random_seed());
  if (requests.steps_per_frame) shell_.pacer() = StepPacer::per_frame(*requests.steps_per_frame);
  if (requests.fit_view) shell_.fit_view();
  if (requests.load) load(*requests.load);
  if (requests.reset_to_file) load(scenario_path_);
  if (requests.save) save(*requests.save);
}

void PlanViewer::restart(std::uint64_t seed) {
  scenario_.world.seed = seed;
  const PlanState start = plan_start(scenario_, seed);
  const std::uint64_t room = std::uint64_t{agents()} * kInitialStepsOfPoints;
  counts_ring_.discard();  // counts of the old plan
  plan_.reset();
  plan_ = std::make_unique<GpuPlan>(
      scenario_, start, static_cast<std::uint32_t>(std::min<std::uint64_t>(
                            room, PlanPointIndex::kNone - 1)));
  // The start's counts are known without asking: every agent alive, no point yet.
  room_counts_ = GpuPlanCounts{};
  room_counts_.agents = room_counts_.living = agents();
  counts_.reset();
  end_reported_ = false;
  shell_.restart_clocks();
  shell_.renderer().reset_plan();
  panel_.discard_draft();
  shell_.say("growing the plan with seed " + std::to_string(seed));
}

void PlanViewer::apply_scenario(PlanScenario next) {
  const bool redraw_only = same_plan_but_widths(scenario_, next);
  scenario_ = std::move(next);
  if (!redraw_only) restart(scenario_.world.seed);
}

void PlanViewer::load(const std::filesystem::path& path) {
  try {
    AnyScenario any = load_any_scenario(path);
    auto* plan = std::get_if<PlanScenario>(&any);
    if (plan == nullptr) {
      // A flock: the flock's viewer takes the window over at the end of this frame.
      open_ = OpenScenario{std::move(any), path};
      return;
    }
    PlanScenario loaded = std::move(*plan);
    // Reset to file keeps the seed that is running; another file brings its own.
    if (path == scenario_path_) loaded.world.seed = scenario_.world.seed;
    scenario_ = std::move(loaded);
    scenario_path_ = path;
    shell_.fit_view();
    shell_.reset_look(scenario_);
    restart(scenario_.world.seed);
    panel_.set_message("loaded " + path.string(), false);
  } catch (const InputError& error) {
    panel_.set_message(error.what(), true);
  }
}

void PlanViewer::save(const std::filesystem::path& path) {
  const ViewerShell::Outcome saved = shell_.save_scenario(scenario_, path);
  panel_.set_message(saved.message, saved.is_error);
}

std::string PlanViewer::status_text() const {
  char text[256];
  const std::string living =
      counts_ ? std::to_string(counts_->living) + " living" : std::string("counting");
  std::snprintf(text, sizeof text, "%u agents | %s | %.1f fps | %.2f ms/step | step %llu | %s%s",
                shown_agents(), living.c_str(), shell_.fps(), shell_.ms_per_step(),
                static_cast<unsigned long long>(plan_->steps()),
                shell_.paused() ? "paused" : "running",
                shell_.recording() ? " | REC" : "");
  return text;
}

// The state a user (or a test driving the window) can read without the panel: e.g.
// "murmur - floor-plan.toml - 20 agents - 3 living - 30 fps - paused - complete".
std::string PlanViewer::window_title() const {
  char head[256];
  std::snprintf(head, sizeof head, "murmur - %s - %u agents", scenario_.source.c_str(),
                shown_agents());
  std::string title = head;
  if (counts_) title += " - " + std::to_string(counts_->living) + " living";
  char rate[32];
  std::snprintf(rate, sizeof rate, " - %.0f fps", shell_.fps());
  title += rate;
  if (shell_.paused()) title += " - paused";
  if (shell_.recording()) title += " - REC";
  if (counts_ && counts_->living == 0) title += " - complete";
  if (counts_ && counts_->stopped()) title += " - stopped";
  return title;
}

}  // namespace

ViewerExit run_plan_viewer(WindowSession& session, const ViewerOptions& options,
                           const PlanScenario& scenario) {
  PlanViewer viewer(session, options, scenario);
  return viewer.run();
}

}  // namespace murmur::viewer
