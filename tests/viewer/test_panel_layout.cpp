// The viewer's panels at its default window size (1280x720, a panel kPanelWidth wide), drawn by
// Dear ImGui alone (no window, no GL context) with every section open, for every shipped
// scenario and the render settings that show the most widgets: no line is wider than the
// panel, so no label is cut off (docs/viewer.md, "The panel").
#include <catch2/catch.hpp>

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "murmur/render/orbit_camera.hpp"
#include "murmur/render/settings.hpp"
#include "murmur/scenario/scenario.hpp"
#include "viewer/panel.hpp"
#include "viewer/panel_widgets.hpp"
#include "viewer/plan_panel.hpp"

namespace {

using murmur::viewer::LiveCounts;
using murmur::viewer::StatsAtStep;

// murmur view's default --size (src/app).
constexpr float kDefaultWidth = 1280;
constexpr float kDefaultHeight = 720;
constexpr float kFrameSeconds = 1.0f / 60;
// The first frame places the panel; the next ones see its scroll bar (the open sections are
// taller than the window) and lay the lines out beside it.
constexpr int kFramesToSettle = 3;
// Less than this past the edge is rounding, not a cut-off glyph.
constexpr float kTolerancePixels = 0.5f;
constexpr const char* kPanelWindow = "murmur (H hides)";
// Numbers as wide as a long run of a large flock shows.
constexpr std::uint64_t kLongRunStep = 123456789;
constexpr std::uint32_t kLargeCount = 1000000;

// A Dear ImGui context of the viewer's default window, its font built, every section open.
class HeadlessPanel {
 public:
  HeadlessPanel() {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(kDefaultWidth, kDefaultHeight);
    io.DeltaTime = kFrameSeconds;
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    ImGui::StyleColorsDark();
    murmur::viewer::open_every_section(true);
  }
  ~HeadlessPanel() {
    murmur::viewer::open_every_section(false);
    ImGui::DestroyContext();
  }
  HeadlessPanel(const HeadlessPanel&) = delete;
  HeadlessPanel& operator=(const HeadlessPanel&) = delete;

  // Draws a few frames of `draw`; how far the panel's widest line reaches past its right edge,
  // in pixels (0 or less: every line fits).
  float overflow(const std::function<void()>& draw) {
    for (int frame = 0; frame < kFramesToSettle; ++frame) {
      ImGui::NewFrame();
      draw();
      ImGui::Render();
    }
    const ImGuiWindow* window = ImGui::FindWindowByName(kPanelWindow);
    REQUIRE(window != nullptr);
    return window->DC.CursorMaxPos.x - window->ContentRegionRect.Max.x;
  }
};

// The render settings that show the most widgets: each section's longest labels.
std::vector<murmur::RenderSettings> widest_looks(const murmur::RenderSettings& start) {
  murmur::RenderSettings fade = start;
  fade.trails.mode = murmur::TrailMode::FadeMap;
  fade.colour.mode = murmur::ColourMode::Drift;
  fade.heads.age_look = true;
  fade.overlays.circles = murmur::CircleMode::All;
  fade.overlays.circle_radius.kind = murmur::CircleRadiusKind::WorldUnits;
  fade.overlays.circle_radius.world_units = 1;
  fade.blend = murmur::BlendMode::Ink;
  murmur::RenderSettings ribbons = start;
  ribbons.trails.mode = murmur::TrailMode::Ribbons;
  ribbons.blend = murmur::BlendMode::Glow;
  return {start, fade, ribbons};
}

std::vector<std::filesystem::path> shipped_scenarios() {
  std::vector<std::filesystem::path> paths;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::filesystem::path(MURMUR_SOURCE_DIR) /
                                                     "scenarios")) {
    if (entry.path().extension() == ".toml") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

float flock_panel_overflow(const murmur::FlockScenario& scenario,
                           const std::filesystem::path& path, murmur::RenderSettings render) {
  HeadlessPanel headless;
  if (murmur::is_3d(scenario))
    render.orbit_camera = murmur::starting_camera(scenario, kDefaultWidth / kDefaultHeight);
  const std::vector<std::uint32_t> population(scenario.species.size(), kLargeCount);
  const std::optional<LiveCounts> counts = LiveCounts{kLongRunStep - 2, population};
  murmur::FlockStats stats;
  stats.count = kLargeCount;
  const std::optional<StatsAtStep> live_stats = StatsAtStep{stats, *counts};
  murmur::FlockSummary summary;
  summary.population = population;  // no milling, no state: their longest lines
  // A volume has no GPU summary (the plane's alone).
  const std::optional<murmur::FlockSummary> summary_shown =
      murmur::is_3d(scenario) ? std::nullopt : std::optional(summary);
  murmur::viewer::PopulationHistory history;
  for (std::uint64_t sample = 0; sample < history.length(); ++sample) {
    std::vector<std::uint32_t> varying = population;
    varying.front() -= static_cast<std::uint32_t>(sample);
    history.add(sample * history.steps_per_sample(), varying, 1.0);
  }
  murmur::EcosystemCounts counters;
  counters.totals.assign(scenario.species.size(),
                         murmur::SpeciesTotals{kLongRunStep, kLongRunStep, kLongRunStep});
  counters.food = kLargeCount;
  const std::optional<murmur::EcosystemCounts> ecosystem = counters;
  const murmur::gl::ContextInfo gl{"GLFW", "Mesa", "llvmpipe (LLVM 15.0.6, 256 bits)", "4.5"};
  float obstacle_radius = 1;
  bool live_stats_on = true;
  murmur::viewer::PanelEdits edits{render, obstacle_radius, live_stats_on};
  murmur::viewer::Panel panel(path);
  const murmur::viewer::PanelView view{scenario,
                                       murmur::viewer::RuleMode::AlignmentCohesion,
                                       999.9,
                                       99.99,
                                       kLongRunStep,
                                       true,
                                       true,
                                       1,
                                       0,
                                       counts,
                                       live_stats,
                                       summary_shown,
                                       history,
                                       ecosystem,
                                       kLongRunStep - 3,
                                       kLargeCount,
                                       true,
                                       gl};
  return headless.overflow([&] { panel.draw(view, edits); });
}

float plan_panel_overflow(const murmur::PlanScenario& scenario,
                          const std::filesystem::path& path, murmur::RenderSettings render) {
  HeadlessPanel headless;
  murmur::GpuPlanCounts plan_counts;
  plan_counts.step = kLongRunStep;
  plan_counts.agents = kLargeCount;
  plan_counts.living = 0;
  plan_counts.died = {kLargeCount, kLargeCount, kLargeCount};
  plan_counts.points = kLargeCount;
  plan_counts.error = 1;  // "stopped", the longest line
  plan_counts.error_step = static_cast<std::uint32_t>(kLongRunStep);
  const std::optional<murmur::GpuPlanCounts> counts = plan_counts;
  const murmur::gl::ContextInfo gl{"GLFW", "Mesa", "llvmpipe (LLVM 15.0.6, 256 bits)", "4.5"};
  murmur::viewer::PlanPanel panel(path);
  const murmur::viewer::PlanPanelView view{scenario, 999.9, 99.99, kLongRunStep, true, true, 1,
                                           0,        counts, kLargeCount, gl};
  return headless.overflow([&] { panel.draw(view, render); });
}

}  // namespace

TEST_CASE("every line of the panels fits the panel at the default window size") {
  const std::vector<std::filesystem::path> paths = shipped_scenarios();
  REQUIRE_FALSE(paths.empty());
  for (const std::filesystem::path& path : paths) {
    const murmur::AnyScenario any = murmur::load_any_scenario(path);
    murmur::visit_kind(
        any,
        [&](const murmur::FlockScenario& flock) {
          murmur::RenderSettings start = murmur::default_render_settings(flock);
          murmur::apply_look(start, flock.look);
          for (const murmur::RenderSettings& look : widest_looks(start)) {
            INFO(path.filename().string() << ", trails " << static_cast<int>(look.trails.mode));
            CHECK(flock_panel_overflow(flock, path, look) <= kTolerancePixels);
          }
        },
        [&](const murmur::PlanScenario& plan) {
          murmur::RenderSettings start = murmur::default_render_settings(plan);
          murmur::apply_look(start, plan.look);
          for (const murmur::RenderSettings& look : widest_looks(start)) {
            INFO(path.filename().string() << ", blend " << static_cast<int>(look.blend));
            CHECK(plan_panel_overflow(plan, path, look) <= kTolerancePixels);
          }
        });
  }
}
