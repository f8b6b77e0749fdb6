#pragma once
// The ImGui parameter panel: every scenario field per species, the world seed, obstacles and
// the target, render settings (trails, glow, colour, origin 001's look, overlays, camera),
// scenario files, live statistics and the population plot with birth and death counters.
// Scenario edits are checked by validate_scenario on a copy before they are applied: an
// invalid value (Ctrl+Click lets one type anything) stays in the panel, in red with the
// validator's message, and the flock keeps the last valid settings.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "murmur/gl/context.hpp"
#include "murmur/render/renderer.hpp"
#include "murmur/scenario/scenario.hpp"
#include "murmur/flock/gpu/flock_readback.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/flock/stats.hpp"
#include "viewer/live_counts.hpp"
#include "viewer/live_stats.hpp"
#include "viewer/panel_widgets.hpp"
#include "viewer/population_history.hpp"
#include "viewer/rule_mode.hpp"

namespace murmur::viewer {

// What the panel shows and cannot change directly.
struct PanelView {
  const Scenario& scenario;  // the user's settings (before the rule mode switches rules off)
  RuleMode mode = RuleMode::All;
  double fps = 0;
  double ms_per_step = 0;
  std::uint64_t step = 0;
  bool paused = false;
  bool recording = false;
  std::uint32_t steps_per_frame = 0;  // 0 at a fixed step rate
  double step_rate = 0;
  // The live boids of each species, with their step: what the title and status line show too.
  const std::optional<LiveCounts>& counts;
  const std::optional<StatsAtStep>& stats;  // CPU, at most twice a second: NN distance, clusters
  const std::optional<FlockSummary>& summary;  // GPU reduction of the counts' step (2D)
  const PopulationHistory& history;              // the population plot's samples
  const std::optional<EcosystemCounts>& ecosystem;  // births, deaths, food, a frame or two old
  std::uint64_t ecosystem_step = 0;                 // ... of this step
  std::optional<std::uint32_t> selected_id;      // the boid ringed by its circles
  bool turning = false;  // a 3D world's camera turns by itself (O)
  const gl::ContextInfo& gl;
};

// What the panel edits in place: every value is kept in its range by the widgets.
struct PanelEdits {
  RenderSettings& render;
  float& obstacle_radius;  // of the next obstacle a left click drops
  bool& live_stats;
};

// What the user asked for this frame; the viewer carries it out.
struct PanelRequests {
  std::optional<Scenario> apply;  // valid; a new count re-allocates the flock
  std::optional<std::uint64_t> restart_with_seed;
  bool new_random_seed = false;
  std::optional<std::filesystem::path> load;
  std::optional<std::filesystem::path> save;
  bool reset_to_file = false;
  bool fit_view = false;
  std::optional<RuleMode> mode;
  std::optional<std::uint32_t> steps_per_frame;
  // Obstacles and the target change outside the draft, like mouse clicks, so that an invalid
  // draft neither blocks them nor undoes them when it is finally applied.
  std::optional<std::size_t> remove_obstacle;
  bool clear_obstacles = false;
  bool clear_target = false;
  bool clear_selection = false;
  bool toggle_turning = false;  // a 3D world's camera: O's switch
};

class Panel {
 public:
  explicit Panel(const std::filesystem::path& scenario_path);

  PanelRequests draw(const PanelView& view, PanelEdits& edits);
  // A line under the file buttons: what the last load, save or capture did.
  void set_message(std::string message, bool is_error);
  // Forgets an invalid edit (the scenario was replaced under it).
  void discard_draft();
  // The part of the window's width the last draw covered (nothing while collapsed).
  const std::optional<PanelSpan>& span() const { return span_; }

 private:
  void statistics_section(const PanelView& view, PanelEdits& edits);
  void population_section(const PanelView& view);
  void file_section(const PanelView& view, PanelRequests& requests);
  void simulation_section(const PanelView& view, PanelRequests& requests);
  void world_section(const PanelView& view, PanelRequests& requests);
  void species_section(const PanelView& view, Scenario& work, std::size_t index);
  void food_section(Scenario& work);
  // One checkbox per species of `all`: the species `species` flocks with.
  // A list of species names (flocks_with, eats) as one checkbox per species.
  void species_list_field(const std::string& id, const std::string& key,
                          std::vector<std::string>& list, const SpeciesParams& species,
                          const std::vector<SpeciesParams>& all);
  void obstacles_section(const Scenario& scenario, PanelEdits& edits, PanelRequests& requests);
  void render_section(const PanelView& view, PanelEdits& edits, PanelRequests& requests);
  // A 3D world's camera (edits.render.orbit_camera, concrete while the viewer shows a volume).
  void orbit_camera_section(const PanelView& view, PanelEdits& edits, PanelRequests& requests);

  ScenarioDraft<FlockScenario> draft_;
  ScenarioFiles files_;
  SeedField seed_;
  std::optional<PanelSpan> span_;
};

}  // namespace murmur::viewer
