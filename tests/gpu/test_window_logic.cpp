// The viewer's decisions that need no window: whether a framebuffer size can be drawn (a
// minimised window is 0x0, which Xvfb cannot produce, so the guard is tested here), how many
// steps a frame runs, what the 1-4 rule modes give the flock, capture names that never
// overwrite, the panel's population history, and how a 3D world's camera follows the mouse
// and the clock. The viewer's headers are header-only for this reason.
#include <catch2/catch.hpp>

#include <fstream>

#include "../../src/viewer/capture_names.hpp"
#include "../../src/viewer/orbit_controls.hpp"
#include "../../src/viewer/population_history.hpp"
#include "../../src/viewer/rule_mode.hpp"
#include "../../src/viewer/step_pacer.hpp"
#include "murmur/gl/window.hpp"
#include "temp_dir.hpp"
#include "test_scenarios.hpp"

using murmur::viewer::RuleMode;
using murmur::viewer::StepPacer;

TEST_CASE("a framebuffer with a zero side is not drawn, any other size is") {
  using murmur::gl::can_draw_frame;
  CHECK_FALSE(can_draw_frame(0, 0));  // minimised
  CHECK_FALSE(can_draw_frame(0, 720));
  CHECK_FALSE(can_draw_frame(1280, 0));
  CHECK_FALSE(can_draw_frame(-1, 10));
  CHECK(can_draw_frame(1, 1));
  CHECK(can_draw_frame(641, 359));
}

TEST_CASE("steps per frame ignore how long the frame took") {
  StepPacer pacer = StepPacer::per_frame(3);
  CHECK_FALSE(pacer.fixed_rate());
  CHECK(pacer.steps_for_frame(0.0) == 3);
  CHECK(pacer.steps_for_frame(5.0) == 3);
}

TEST_CASE("a fixed step rate carries fractions of a step from frame to frame") {
  constexpr double kRate = 60;
  StepPacer pacer = StepPacer::at_rate(kRate);
  REQUIRE(pacer.fixed_rate());
  // 120 frames a second for 2 seconds: half a step each, so 0 and 1 alternate.
  std::uint32_t total = 0;
  for (int frame = 0; frame < 240; ++frame) {
    const std::uint32_t steps = pacer.steps_for_frame(1.0 / 120);
    CHECK(steps <= 1);
    total += steps;
  }
  CHECK(total >= 119);
  CHECK(total <= 120);
  // 30 frames a second: two steps each.
  pacer.reset();
  for (int frame = 0; frame < 10; ++frame) CHECK(pacer.steps_for_frame(1.0 / 30 + 1e-9) == 2);
}

TEST_CASE("a long frame at a fixed rate is capped and the rest of the debt dropped") {
  StepPacer pacer = StepPacer::at_rate(60);
  CHECK(pacer.steps_for_frame(2.0) == StepPacer::kMaxCatchUpSteps);  // 120 steps owed
  // The debt is gone: the next ordinary frame runs one step, not another burst.
  CHECK(pacer.steps_for_frame(1.0 / 60 + 1e-9) == 1);
  CHECK(pacer.steps_for_frame(-1.0) == 0);  // a clock that steps back owes nothing
}

TEST_CASE("reset forgets a partial step") {
  StepPacer pacer = StepPacer::at_rate(10);
  CHECK(pacer.steps_for_frame(0.09) == 0);  // 0.9 of a step owed
  pacer.reset();
  CHECK(pacer.steps_for_frame(0.09) == 0);  // 0.9 + 0.9 would have made a step
}

TEST_CASE("rule modes switch weights off in order and leave everything else alone") {
  using murmur::Topology;
  using murmur::viewer::with_rule_mode;
  murmur::Scenario scenario = murmur::test::world_of(
      100, 80,
      {murmur::test::make_species("a", Topology::Wrap, 6, 2, {0.1f, 0.02f, 0.7f}, {}, 10),
       murmur::test::make_species("b", Topology::Bounded, 5, 1, {0.3f, 0.04f, 0.9f}, {}, 20)});
  scenario.obstacles.push_back({{50, 40}, 5});
  struct Expected {
    RuleMode mode;
    bool align, cohesion, separation;
  };
  for (const Expected& expected : {Expected{RuleMode::FreeFlight, false, false, false},
                                   Expected{RuleMode::Alignment, true, false, false},
                                   Expected{RuleMode::AlignmentCohesion, true, true, false},
                                   Expected{RuleMode::All, true, true, true}}) {
    INFO("mode " << static_cast<int>(expected.mode));
    const murmur::Scenario moded = with_rule_mode(scenario, expected.mode);
    REQUIRE(moded.species.size() == 2);
    for (std::size_t s = 0; s < 2; ++s) {
      const auto& original = scenario.species[s];
      const auto& species = moded.species[s];
      CHECK(species.align_weight == (expected.align ? original.align_weight : 0.0f));
      CHECK(species.cohesion_weight == (expected.cohesion ? original.cohesion_weight : 0.0f));
      CHECK(species.separation_weight ==
            (expected.separation ? original.separation_weight : 0.0f));
      CHECK(species.count == original.count);
      CHECK(species.perception_radius == original.perception_radius);
      CHECK(species.max_speed == original.max_speed);
    }
    CHECK(moded.obstacles.size() == 1);
  }
}

TEST_CASE("capture names take the next free number and never hand one out twice") {
  murmur::test::ScratchDir dir("viewer_capture_names");
  for (const char* taken : {"screenshot_000000.png", "screenshot_000001.png"}) {
    std::ofstream(dir.path / taken) << "taken";
  }
  std::uint32_t next = 0;
  using murmur::viewer::next_free_numbered;
  CHECK(next_free_numbered(dir.path, "screenshot_", ".png", next) ==
        dir.path / "screenshot_000002.png");
  // Not written yet (still encoding): the next request must not get the same name.
  CHECK(next_free_numbered(dir.path, "screenshot_", ".png", next) ==
        dir.path / "screenshot_000003.png");
  // A file that appeared meanwhile is skipped, not overwritten.
  std::ofstream(dir.path / "screenshot_000004.png") << "taken";
  CHECK(next_free_numbered(dir.path, "screenshot_", ".png", next) ==
        dir.path / "screenshot_000005.png");
  std::ifstream kept(dir.path / "screenshot_000004.png");
  std::string content;
  kept >> content;
  CHECK(content == "taken");
}

TEST_CASE("the population history keeps one sample every few steps, the newest last") {
  using murmur::viewer::PopulationHistory;
  constexpr std::size_t kLength = 4;
  constexpr std::uint64_t kEvery = 10;
  PopulationHistory history(kLength, kEvery);
  history.add(0, {100, 5}, 50.0);
  // A paused flock (the same step) and steps closer than kEvery add nothing.
  history.add(0, {100, 5}, 50.0);
  history.add(kEvery - 1, {99, 5}, 49.0);
  REQUIRE(history.species_count() == 2);
  CHECK(history.population(0) == std::vector<float>{100});
  history.add(kEvery, {90, 6}, 40.0);
  history.add(2 * kEvery + 3, {80, 7}, 30.0);
  CHECK(history.population(0) == std::vector<float>{100, 90, 80});
  CHECK(history.population(1) == std::vector<float>{5, 6, 7});
  CHECK(history.food() == std::vector<float>{50, 40, 30});
  // The next sample is due kEvery after the last one kept, not on a multiple of kEvery.
  CHECK_FALSE(history.wants(3 * kEvery));
  CHECK(history.wants(3 * kEvery + 3));

  // Past its length the oldest sample goes.
  history.add(3 * kEvery + 3, {70, 8}, 20.0);
  history.add(4 * kEvery + 3, {60, 9}, 10.0);
  CHECK(history.population(0) == std::vector<float>{90, 80, 70, 60});
  CHECK(history.population(1) == std::vector<float>{6, 7, 8, 9});
  CHECK(history.food() == std::vector<float>{40, 30, 20, 10});
  CHECK(history.last_step() == 4 * kEvery + 3);

  // Without a food field there is no food series; a new species count starts afresh.
  history.add(5 * kEvery + 3, {50, 10}, std::nullopt);
  CHECK(history.food().empty());
  history.add(6 * kEvery + 3, {1, 2, 3}, 5.0);
  REQUIRE(history.species_count() == 3);
  CHECK(history.population(2) == std::vector<float>{3});
  CHECK(history.population(0) == std::vector<float>{1});

  // A new flock (clear) takes samples from step 0 again.
  history.clear(3);
  CHECK(history.wants(0));
  CHECK(history.population(0).empty());
  CHECK_FALSE(history.last_step());
}

// A 3D world's camera in the viewer (src/viewer/orbit_controls.hpp).
TEST_CASE("a drag orbits a quarter degree a pixel: right moves the eye left, down raises it") {
  using namespace murmur::viewer;
  murmur::OrbitCamera camera;
  camera.yaw_degrees = 30;
  camera.pitch_degrees = 10;
  const murmur::OrbitCamera dragged = orbit_dragged(camera, glm::vec2(40.0f, 20.0f));
  // Yaw grows anticlockwise seen from above: the eye moving left, for a world turning right.
  CHECK(dragged.yaw_degrees == Approx(30.0f - 40.0f * kOrbitDegreesPerPixel));
  CHECK(dragged.pitch_degrees == Approx(10.0f + 20.0f * kOrbitDegreesPerPixel));
  CHECK(dragged.distance == camera.distance);
  CHECK(dragged.target == camera.target);
  // A long drag down stops short of looking straight down.
  CHECK(orbit_dragged(camera, glm::vec2(0.0f, 1e5f)).pitch_degrees ==
        Approx(murmur::kMaxCameraPitchDegrees));
}

TEST_CASE("the slow turn grows the yaw by its speed times the frame's time, or a default's") {
  using namespace murmur::viewer;
  murmur::OrbitCamera camera;
  camera.orbit_speed = -12;
  CHECK(turned_by_itself(camera, 0.5).yaw_degrees == Approx(-6.0f));
  camera.orbit_speed = 0;
  CHECK(turned_by_itself(camera, 2.0).yaw_degrees == Approx(2.0f * kDefaultOrbitSpeedDegrees));
  CHECK(turned_by_itself(camera, 2.0).pitch_degrees == camera.pitch_degrees);
}

TEST_CASE("the point at a pixel and a depth is drawn at that pixel, that far along the view") {
  using namespace murmur::viewer;
  const murmur::OrbitCamera camera =
      murmur::camera_looking(glm::vec3(120.0f, 80.0f, 200.0f), glm::vec3(50.0f), 40.0f, 0.0f);
  const murmur::PerspectiveView view =
      murmur::perspective_view(camera, glm::vec3(100.0f), 640, 360);
  for (const glm::vec2 pixel : {glm::vec2(10.0f, 20.0f), glm::vec2(320.0f, 180.0f),
                                glm::vec2(600.0f, 340.0f)}) {
    const glm::vec3 world = world_at_depth(view, camera.fov_degrees, pixel, 150.0f);
    CHECK(glm::dot(world - view.eye, view.forward) == Approx(150.0f));
    const std::optional<murmur::ScreenPoint> drawn = murmur::world_to_screen(view, world);
    REQUIRE(drawn);
    CHECK(drawn->pixel.x == Approx(pixel.x).margin(1e-2));
    CHECK(drawn->pixel.y == Approx(pixel.y).margin(1e-2));
  }
}
