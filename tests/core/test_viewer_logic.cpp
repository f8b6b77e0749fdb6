// The flock viewer's decisions that need no window (docs/viewer.md): the one live count the
// title, the status line and the panel show, and where F fits a 2D world beside the panel. The
// viewer keeps them in header-only files for this reason.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "../../src/viewer/fit_beside_panel.hpp"
#include "../../src/viewer/live_counts.hpp"
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
