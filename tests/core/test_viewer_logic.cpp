// The flock viewer's decisions that need no window (docs/viewer.md): the one live count the
// title, the status line and the panel show, what the population plot draws for a species,
// and where F fits a 2D world beside the panel. The viewer keeps them in header-only files for
// this reason.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "../../src/viewer/fit_beside_panel.hpp"
#include "../../src/viewer/live_counts.hpp"
#include "../../src/viewer/population_plot.hpp"
#include "test_scenarios.hpp"

using murmur::FrameMargins;
using murmur::viewer::LiveCounts;
using murmur::viewer::live_count_text;
using murmur::viewer::PanelSpan;

namespace {

// The ecosystem's two species, as scenarios/ecosystem.toml names them, 150 and 12 at the start.
murmur::Scenario two_species() {
  using murmur::test::make_species;
  constexpr float kPerception = 8, kSeparation = 2;
  return murmur::test::world_of(
      200, 200,
      {make_species("grazers", murmur::Topology::Wrap, kPerception, kSeparation, {}, {}, 150),
       make_species("hunters", murmur::Topology::Wrap, kPerception, kSeparation, {}, {}, 12)});
}

}  // namespace

TEST_CASE("the live count is the counts read back, never the scenario's starting count") {
  const murmur::Scenario scenario = two_species();
  REQUIRE(scenario.total_count() == 162);
  const std::optional<LiveCounts> counts = LiveCounts{1200, {71, 53}};
  CHECK(counts->total() == 124);
  // Of the step shown: the total, and with per_species each species' count.
  CHECK(live_count_text(counts, scenario, 1200, false) == "124 boids");
  CHECK(live_count_text(counts, scenario, 1200, true) == "124 boids (grazers 71, hunters 53)");
  // Counts of an earlier step (running, they come back a frame or two late) say which.
  CHECK(live_count_text(counts, scenario, 1202, true) ==
        "124 boids (grazers 71, hunters 53) at step 1200");
  // Nothing counted yet: no number at all, in particular not the 162 of the start.
  CHECK(live_count_text(std::nullopt, scenario, 0, true) == "boids not counted");
  // One species: its count is the total.
  murmur::Scenario one = scenario;
  one.species.resize(1);
  CHECK(live_count_text(LiveCounts{5, {30000}}, one, 5, true) == "30000 boids");
}

TEST_CASE("the population plot ends at the live count the panel shows above it") {
  const std::vector<float> samples{66, 70, 68};
  constexpr std::uint64_t kLastSampleStep = 1190;
  // Counts of a later step than the last sample: the line ends at them, and so does the label.
  const std::optional<LiveCounts> later = LiveCounts{1198, {71, 53}};
  const murmur::viewer::PopulationPlot plot =
      murmur::viewer::population_plot(samples, kLastSampleStep, later, 0);
  CHECK(plot.series == std::vector<float>{66, 70, 68, 71});
  CHECK(plot.label == "71 (range 66 to 71)");
  // Counts of the last sample's step are that sample: nothing is added.
  const std::optional<LiveCounts> same = LiveCounts{kLastSampleStep, {68, 53}};
  const murmur::viewer::PopulationPlot at_sample =
      murmur::viewer::population_plot(samples, kLastSampleStep, same, 0);
  CHECK(at_sample.series == samples);
  CHECK(at_sample.label == "68 (range 66 to 70)");
  // No samples yet: the live count alone.
  CHECK(murmur::viewer::population_plot({}, std::nullopt, later, 1).series ==
        std::vector<float>{53});
  // Nothing counted and no samples: nothing to draw.
  CHECK(murmur::viewer::population_plot({}, std::nullopt, std::nullopt, 0).series.empty());
}

TEST_CASE("a population that changed is drawn on its own range, one that never did is not") {
  // A change small beside the count still spans the plot's whole height.
  const std::vector<float> nearly_steady{30000, 30000, 29998, 29999};
  const murmur::viewer::PopulationPlot changed =
      murmur::viewer::population_plot(nearly_steady, 30, std::nullopt, 0);
  CHECK_FALSE(changed.steady);
  CHECK(changed.low == 29998);
  CHECK(changed.high == 30000);
  CHECK(changed.label == "29999 (range 29998 to 30000)");
  // Never changed (the starlings: no births, no deaths): no line, the number said in words.
  const std::vector<float> steady(600, 30000);
  const murmur::viewer::PopulationPlot flat = murmur::viewer::population_plot(
      steady, 5990, LiveCounts{5995, {30000}}, 0);
  CHECK(flat.steady);
  CHECK(flat.label == "steady at 30000");
  // A live count that differs from every sample is a change.
  CHECK_FALSE(
      murmur::viewer::population_plot(steady, 5990, LiveCounts{5995, {29999}}, 0).steady);
}

TEST_CASE("F fits the world in the part of the window the panel leaves free") {
  // The default window: 1280 wide, the panel 420 wide with 8 units to the window's right edge.
  constexpr float kWidth = 1280;
  const PanelSpan panel{852, 1272};
  // The world keeps clear of the panel and the sliver right of it; nothing else is covered.
  CHECK(murmur::viewer::margins_beside_panel(panel, kWidth, 1) == FrameMargins{0, 428, 0, 0});
  // A framebuffer of two pixels per window unit (a HiDPI display): margins in its pixels.
  CHECK(murmur::viewer::margins_beside_panel(panel, kWidth, 2) == FrameMargins{0, 856, 0, 0});
  // Dragged to the left, the panel leaves the right free.
  CHECK(murmur::viewer::margins_beside_panel(PanelSpan{8, 428}, kWidth, 1) ==
        FrameMargins{428, 0, 0, 0});
  // Hidden (H) or collapsed: the whole window.
  CHECK(murmur::viewer::margins_beside_panel(std::nullopt, kWidth, 1) == FrameMargins{});
  // A window hardly wider than the panel: the whole window, not a sliver beside it.
  constexpr float kNarrow = 480;
  CHECK(murmur::viewer::margins_beside_panel(PanelSpan{52, 472}, kNarrow, 1) == FrameMargins{});
  // A panel dragged partly off the window covers only what is inside it.
  CHECK(murmur::viewer::margins_beside_panel(PanelSpan{1000, 1420}, kWidth, 1) ==
        FrameMargins{0, 280, 0, 0});
}
