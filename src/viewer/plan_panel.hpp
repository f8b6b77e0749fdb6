#pragma once
// The floor plan's panel (docs/viewer.md, "Floor plans"): the plan's counts, the scenario file,
// the steps per frame, the seed, every [plan] and [[plan.group]] key, and the plan's look.
// Key edits are checked by validate_scenario before they are applied, as in the flock's panel.
#include <cstdint>
#include <filesystem>
#include <optional>

#include "murmur/gl/context.hpp"
#include "murmur/plan/gpu/gpu_plan.hpp"
#include "murmur/render/renderer.hpp"
#include "murmur/scenario/scenario.hpp"
#include "viewer/panel_widgets.hpp"

namespace murmur::viewer {

struct PlanPanelView {
  const PlanScenario& scenario;  // the running plan's keys
  double fps = 0;
  double ms_per_step = 0;
  std::uint64_t step = 0;
  bool paused = false;
  bool recording = false;
  std::uint32_t steps_per_frame = 0;  // 0 at a fixed step rate
  double step_rate = 0;
  const std::optional<GpuPlanCounts>& counts;  // a frame or two old
  std::uint32_t point_capacity = 0;
  const gl::ContextInfo& gl;
};

struct PlanPanelRequests {
  std::optional<PlanScenario> apply;  // valid
  std::optional<std::uint64_t> restart_with_seed;
  bool new_random_seed = false;
  std::optional<std::filesystem::path> load;
  std::optional<std::filesystem::path> save;
  bool reset_to_file = false;
  bool fit_view = false;
  std::optional<std::uint32_t> steps_per_frame;
};

class PlanPanel {
 public:
  explicit PlanPanel(const std::filesystem::path& scenario_path) : files_(scenario_path) {}
  // `render` is edited in place (the look applies at once).
  PlanPanelRequests draw(const PlanPanelView& view, RenderSettings& render);
  void set_message(std::string message, bool is_error) {
    files_.set_message(std::move(message), is_error);
  }
  // Forgets an invalid edit (the scenario was replaced under it).
  void discard_draft() {
    draft_.discard();
    seed_.reset();
  }
  // The part of the window's width the last draw covered (nothing while collapsed).
  const std::optional<PanelSpan>& span() const { return span_; }

 private:
  void statistics_section(const PlanPanelView& view);
  void plan_section(PlanScenario& work);
  void groups_section(PlanScenario& work);
  void look_section(RenderSettings& render);

  ScenarioDraft<PlanScenario> draft_;
  ScenarioFiles files_;
  SeedField seed_;
  std::optional<PanelSpan> span_;
};

}  // namespace murmur::viewer
