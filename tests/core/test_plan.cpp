// The floor-plan generator (docs/model.md, "The floor-plan generator (origin 003)"): the [plan]
// keys, origin 003's snap, the clearance index against a scan of every point, and the model's
// invariants on seeded runs, each recomputed from the saved points rather than trusted from the
// agents' own counters. Branching has its own file, test_plan_branching.cpp.
//
// Sections: helpers; the [plan] keys; the snap and the clearance index; runs: invariants,
// origin 003's plan, reproducibility; the summary.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "common/interface.h"
#include "murmur/base/errors.hpp"
#include "murmur/plan/plan.hpp"
#include "murmur/base/random.hpp"
#include "murmur/scenario/scenario.hpp"
#include "murmur/flock/state.hpp"
#include "plan_test_scenarios.hpp"
#include "test_random.hpp"

using namespace murmur;
using namespace murmur::test;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

// --- helpers -----------------------------------------------------------------------------------
namespace {

bool same_bits(float a, float b) {
  return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

// Each agent's points in step order (the points are in step, then agent order).
std::vector<std::vector<PlanPoint>> paths_of(const PlanState& state) {
  std::vector<std::vector<PlanPoint>> paths(state.agents.size());
  for (const PlanPoint& p : state.points) paths[p.agent].push_back(p);
  return paths;
}

// Whether a point of another agent saved at step <= `step` lies within `clearance` of `at`.
bool near_other_path_by(const PlanState& state, glm::vec2 at, std::uint32_t agent,
                        std::uint32_t step, float clearance) {
  for (const PlanPoint& p : state.points) {
    if (p.step > step) break;
    if (p.agent != agent && plan_distance(at, p.raw) < clearance) return true;
  }
  return false;
}

// Origin 003's snap written from its Java, an oracle apart from plan_snapped: `v % grid` is the
// truncating remainder, so v - v % grid is v's multiple of grid toward zero.
float java_snap(float v, float grid) {
  const float toward_zero = std::trunc(v / grid) * grid;
  const float remainder = v - toward_zero;
  return remainder < grid / 2 ? toward_zero : toward_zero + grid;
}

// Agents that start at the canvas's corner, so that paths cross x = 0 and y = 0.
PlanScenario corner_scenario() {
  return parse_plan_scenario(kWorld + "[plan]\n[[plan.group]]\ncount = 60\nx = 0\ny = 0\n"
                                 "width = 40\nheight = 40\n",
                        "corner.toml");
}

// The turns of a path after each of its moves, counted origin 003's way from the saved moves.
std::vector<std::uint32_t> turns_after_each_move(const std::vector<PlanPoint>& path) {
  std::vector<std::uint32_t> turns;
  glm::vec2 previous{1.0f, 1.0f};  // origin 003's v0 before the first move
  std::uint32_t count = 0;
  for (const PlanPoint& p : path) {
    if (p.move.x * previous.x + p.move.y * previous.y <= 0.0f) ++count;
    turns.push_back(count);
    previous = p.move;
  }
  return turns;
}

}  // namespace

// --- the [plan] keys ---------------------------------------------------------------------------
TEST_CASE("plan: a [plan] table defaults to origin 003's numbers and two groups") {
  const PlanScenario scenario = origin003_scenario();
  const PlanParams& plan = scenario.plan;
  CHECK(plan.max_speed == 6.0f);
  CHECK(plan.max_force == 0.05f);
  CHECK(plan.snap == 10.0f);
  CHECK(plan.separation_radius == 30.0f);
  CHECK(plan.separation_weight == 1.5f);
  CHECK(plan.cohesion_min_distance == 60.0f);
  CHECK(plan.cohesion_weight == 1.0f);
  CHECK(plan.warmup == 30u);
  CHECK(plan.min_speed == 0.2f);
  CHECK(plan.clearance == 6.0f);
  CHECK(plan.max_turns == 6u);
  CHECK(plan.vertical_width == 1.0f);
  CHECK(plan.horizontal_width == 2.0f);
  CHECK(plan.start_speed_x == 4.0f);
  CHECK(plan.start_speed_y == 2.0f);
  REQUIRE(plan.groups.size() == 2);
  CHECK(plan.groups[0].count == 10u);
  CHECK(plan.groups[0].x == 400.0f);
  CHECK(plan.groups[0].y == 400.0f);
  CHECK(plan.groups[1].y == 420.0f);
  CHECK(plan.groups[1].width == 10.0f);
  CHECK(plan.groups[1].height == 10.0f);
}

TEST_CASE("plan: a plan scenario is written back to the same values") {
  const PlanScenario scenario = parse_plan_scenario(kWorld +
                                               "[plan]\nsnap = 2.5\nwarmup = 7\n"
                                               "[[plan.group]]\ncount = 3\nx = 1\ny = 2\n",
                                           "a.toml");
  const PlanScenario again = parse_plan_scenario(scenario_to_toml(scenario), "b.toml");
  CHECK(again.plan.snap == 2.5f);
  CHECK(again.plan.warmup == 7u);
  REQUIRE(again.plan.groups.size() == 1);
  CHECK(again.plan.groups[0].count == 3u);
  CHECK(again.plan.groups[0].y == 2.0f);
  CHECK(scenario_to_toml(again) == scenario_to_toml(scenario));
}

TEST_CASE("plan: bad [plan] keys are one-line errors naming the key and the accepted range") {
  const std::string plan = kWorld + "[plan]\n";
  CHECK_THAT(input_error(plan + "snap = 0\n"),
             StartsWith("test.toml:5: plan.snap = 0: must be > 0"));
  CHECK_THAT(input_error(plan + "clearance = -1\n"),
             StartsWith("test.toml:5: plan.clearance = -1: must be > 0"));
  CHECK_THAT(input_error(plan + "max_force = nan\n"), Contains("plan.max_force = nan: must be"));
  CHECK_THAT(input_error(plan + "max_speed = inf\n"),
             Contains("plan.max_speed = inf: must be a finite number"));
  CHECK_THAT(input_error(plan + "warmup = -1\n"), Contains("plan.warmup"));
  CHECK_THAT(input_error(plan + "sanp = 10\n"), Contains("plan.sanp"));
  CHECK_THAT(input_error(plan + "[[plan.group]]\ncount = 0\nx = 1\ny = 1\n"),
             Contains("plan.group[0].count = 0: must be >= 1"));
  CHECK_THAT(input_error(plan + "[[plan.group]]\nx = 1\ny = 1\n"),
             Contains("plan.group[0].count is missing"));
  CHECK_THAT(input_error(plan + "[[plan.group]]\ncount = 1\nx = 795\ny = 1\n"),
             Contains("plan.group[0].x = 795: must be >= 0 and x + width (10) <= 800"));
  CHECK_THAT(input_error(plan + "[[plan.group]]\ncount = 1\nx = 1\ny = -1\n"),
             Contains("plan.group[0].y = -1: must be >= 0"));
  CHECK_THAT(input_error(plan + "group = []\n"), Contains("at least one [[plan.group]]"));
  CHECK_THAT(input_error(plan + "[[plan.group]]\ncount = 16777217\nx = 1\ny = 1\n"),
             Contains("must be <= 16777216 agents"));
  CHECK_THAT(input_error(kWorld + "[[species]]\nname = \"a\"\n[plan]\n"),
             Contains("[[species]]: not part of a plan scenario"));
  CHECK_THAT(input_error(kWorld + "[food]\n[plan]\n"),
             Contains("[food]: not part of a plan scenario"));
  CHECK_THAT(input_error(kWorld + "[target]\nx = 1\ny = 1\n[plan]\n"),
             Contains("[target]: not part of a plan scenario"));
}

TEST_CASE("plan: a plan scenario has no flock, and the flock's loader says so in one line") {
  try {
    parse_scenario(kWorld + "[plan]\n", "origin003.toml");
    FAIL("expected an InputError");
  } catch (const InputError& error) {
    const std::string message = error.what();
    CHECK(message.find('\n') == std::string::npos);
    CHECK_THAT(message, StartsWith("origin003.toml: a plan scenario ([plan]) has no flock"));
  }
}

// --- the snap and the clearance index ----------------------------------------------------------
TEST_CASE("plan: the drawn point snaps as origin 003's Java remainder does, negatives toward 0") {
  CHECK(plan_snapped(14.9f, 10.0f) == 10.0f);
  CHECK(plan_snapped(15.0f, 10.0f) == 20.0f);  // a remainder of exactly snap / 2 rounds up
  CHECK(plan_snapped(20.0f, 10.0f) == 20.0f);
  CHECK(plan_snapped(0.0f, 10.0f) == 0.0f);
  CHECK(plan_snapped(-3.0f, 10.0f) == 0.0f);
  CHECK(plan_snapped(-7.0f, 10.0f) == 0.0f);     // not -10: the remainder -7 is below 5
  CHECK(plan_snapped(-17.0f, 10.0f) == -10.0f);
  CHECK(plan_snapped(-15.0f, 10.0f) == -10.0f);
  CHECK(plan_snapped(-20.0f, 10.0f) == -20.0f);
  CHECK(plan_snapped(3.75f, 2.5f) == 5.0f);
  CHECK(plan_snapped(-3.75f, 2.5f) == -2.5f);
}

TEST_CASE("plan: the clearance index answers as a scan over every point") {
  // Crowded enough that paths cross, with some agents started near the origin so that points
  // lie on both sides of 0, where a cell's floor and a truncation differ.
  std::string text = kWorld + "[plan]\nclearance = 6\n";
  text += "[[plan.group]]\ncount = 150\nx = 0\ny = 0\nwidth = 60\nheight = 60\n";
  text += "[[plan.group]]\ncount = 150\nx = 300\ny = 300\nwidth = 200\nheight = 200\n";
  for (const char* clearance : {"6", "8", "2.5"}) {
    CAPTURE(clearance);
    std::string with = text;
    with.replace(with.find("clearance = 6"), std::string("clearance = 6").size(),
                 std::string("clearance = ") + clearance);
    const PlanScenario scenario = parse_plan_scenario(with, "index.toml");
    const float c = scenario.plan.clearance;
    PlanState state = plan_start(scenario, 11);
    test::SplitMix random(5);
    std::size_t near = 0;
    std::size_t queries = 0;
    std::size_t negative = 0;
    for (int s = 0; s < 60; ++s) {
      plan_step(scenario, state);
      if (s % 10 != 9) continue;
      for (int q = 0; q < 400; ++q) {
        const PlanPoint& base = state.points[random.next() % state.points.size()];
        glm::vec2 at = base.raw + glm::vec2(random.in(-4.0f * c, 4.0f * c),
                                            random.in(-4.0f * c, 4.0f * c));
        // Some queries on a cell's edge and exactly `clearance` away along an axis.
        if (q % 4 == 0) at = glm::floor(at / state.index.cell_side()) * state.index.cell_side();
        if (q % 4 == 1) at = base.raw + glm::vec2(c, 0.0f);
        const std::uint32_t agent = std::uint32_t(random.next() % state.agents.size());
        const bool expected = near_other_path_brute_force(state.points, at, agent, c);
        CAPTURE(s, at.x, at.y, agent);
        REQUIRE(state.index.near_other_path(state.points, at, agent) == expected);
        near += expected ? 1 : 0;
        negative += (at.x < 0.0f || at.y < 0.0f) ? 1 : 0;
        ++queries;
      }
    }
    // Both answers occur often, or the comparison proves little.
    CHECK(near > queries / 10);
    CHECK(queries - near > queries / 10);
    CHECK(negative > 0);
    // Grown step by step or built at once from the same points: the same arrays.
    PlanPointIndex at_once(c);
    at_once.add(state.points);
    CHECK(std::equal(at_once.heads().begin(), at_once.heads().end(),
                     state.index.heads().begin(), state.index.heads().end()));
    CHECK(std::equal(at_once.next().begin(), at_once.next().end(), state.index.next().begin(),
                     state.index.next().end()));
  }
}

TEST_CASE("plan: the index doubles its buckets as points arrive and finds across the growth") {
  PlanPointIndex index(6.0f);
  const std::size_t initial = index.heads().size();
  std::vector<PlanPoint> points;
  test::SplitMix random(9);
  for (std::uint32_t p = 0; p < 5 * initial; ++p) {
    points.push_back({{random.in(-500.0f, 500.0f), random.in(-500.0f, 500.0f)}, {}, {}, p % 7, 1});
    if (p % 100 == 99) index.add(points);
  }
  index.add(points);
  CHECK(index.heads().size() >= points.size() / 2);
  CHECK(std::has_single_bit(index.heads().size()));
  for (int q = 0; q < 2000; ++q) {
    const glm::vec2 at{random.in(-510.0f, 510.0f), random.in(-510.0f, 510.0f)};
    const std::uint32_t agent = std::uint32_t(random.next() % 7);
    REQUIRE(index.near_other_path(points, at, agent) ==
            near_other_path_brute_force(points, at, agent, 6.0f));
  }
}

// --- runs: invariants, origin 003's plan, reproducibility --------------------------------------
TEST_CASE("plan: a run keeps the model's invariants, recounted from the saved points") {
  const int layout = GENERATE(0, 1, 2);  // origin 003's, a crowded canvas, the corner
  const PlanScenario scenario =
      layout == 0 ? origin003_scenario() : layout == 1 ? crowded_scenario() : corner_scenario();
  const PlanParams& plan = scenario.plan;
  const std::uint32_t steps = 300;
  const PlanState state = run(scenario, 3, steps);
  CAPTURE(layout);
  REQUIRE(state.step == steps);
  const auto paths = paths_of(state);

  SECTION("points are in step, then agent order, one per move") {
    for (std::size_t i = 1; i < state.points.size(); ++i) {
      const PlanPoint& a = state.points[i - 1];
      const PlanPoint& b = state.points[i];
      REQUIRE((a.step < b.step || (a.step == b.step && a.agent < b.agent)));
    }
    for (const PlanAgent& agent : state.agents) {
      REQUIRE(paths[agent.id].size() == agent.steps);
      // Dead agents stop: the last move is the step whose check killed them.
      if (!agent.alive) REQUIRE(paths[agent.id].back().step == agent.died_at);
      if (agent.alive) REQUIRE(paths[agent.id].back().step == steps);
    }
  }

  SECTION("every move is along one axis and every drawn cross-coordinate is on the snap grid") {
    for (const PlanPoint& p : state.points) {
      CAPTURE(p.agent, p.step, p.drawn.x, p.drawn.y);
      REQUIRE((p.move.x == 0.0f || p.move.y == 0.0f));
      const float cross = p.move.y == 0.0f ? p.drawn.y : p.drawn.x;
      REQUIRE(std::fmod(cross, plan.snap) == 0.0f);
    }
    // Away from a turn the cross-coordinate is the raw one snapped; a turn keeps the last
    // drawn one instead (the squared corner).
    std::size_t negative = 0;
    for (const auto& path : paths) {
      const std::vector<std::uint32_t> turns = turns_after_each_move(path);
      for (std::size_t k = 1; k < path.size(); ++k) {
        const PlanPoint& p = path[k];
        const bool horizontal = p.move.y == 0.0f;
        const float raw = horizontal ? p.raw.y : p.raw.x;
        const float drawn = horizontal ? p.drawn.y : p.drawn.x;
        const glm::vec2 before = path[k - 1].drawn;
        CAPTURE(p.agent, p.step, raw);
        if (turns[k] == turns[k - 1]) {
          REQUIRE(drawn == java_snap(raw, plan.snap));
        } else {
          REQUIRE((horizontal ? p.drawn.x == before.x : p.drawn.y == before.y));
        }
        negative += raw < 0.0f ? 1 : 0;
      }
    }
    if (layout == 2) CHECK(negative > 0);
    for (const auto& polyline : plan_drawing(scenario, state)) {
      for (const PlanSegment& segment : polyline) {
        REQUIRE((segment.from.x == segment.to.x || segment.from.y == segment.to.y));
        REQUIRE((segment.width == plan.vertical_width || segment.width == plan.horizontal_width));
      }
    }
  }

  SECTION("the drawing joins consecutive drawn points from step 3, widths by the move's axis") {
    const auto drawing = plan_drawing(scenario, state);
    for (const PlanAgent& agent : state.agents) {
      const auto& path = paths[agent.id];
      const auto& polyline = drawing[agent.id];
      const std::size_t drawn = path.size() >= kPlanFirstLineStep ? path.size() - 2 : 0;
      REQUIRE(polyline.size() == drawn);
      for (std::size_t k = 0; k < polyline.size(); ++k) {
        const PlanPoint& from = path[k + 1];
        const PlanPoint& to = path[k + 2];
        REQUIRE(to.step == kPlanFirstLineStep + k);
        CHECK(polyline[k].from == from.drawn);
        CHECK(polyline[k].to == to.drawn);
        CHECK(polyline[k].width ==
              (to.move.y == 0.0f ? plan.horizontal_width : plan.vertical_width));
      }
    }
  }

  SECTION("a living agent was never within clearance of another's earlier points after warmup") {
    for (const PlanAgent& agent : state.agents) {
      const auto& path = paths[agent.id];
      // Checked at the start of each step s > warmup: the location after step s - 1 against
      // the points of steps <= s - 1. A living agent passed all of them.
      const std::uint32_t last_checked = agent.alive ? steps - 1 : std::uint32_t(agent.died_at - 2);
      for (const PlanPoint& p : path) {
        if (p.step < plan.warmup || p.step > last_checked) continue;
        CAPTURE(agent.id, p.step);
        REQUIRE_FALSE(near_other_path_by(state, p.raw, agent.id, p.step, plan.clearance));
      }
      if (agent.death == PlanDeath::TooClose) {
        // ...and one killed for it was within clearance when checked.
        const PlanPoint& checked = path[agent.died_at - 2];
        REQUIRE(checked.step == agent.died_at - 1);
        REQUIRE(near_other_path_by(state, checked.raw, agent.id, checked.step, plan.clearance));
      }
    }
  }

  SECTION("turns and speed: the living passed every check, the dead failed theirs") {
    for (const PlanAgent& agent : state.agents) {
      const auto& path = paths[agent.id];
      const std::vector<std::uint32_t> turns = turns_after_each_move(path);
      CAPTURE(agent.id);
      REQUIRE(agent.turns == turns.back());
      const std::size_t last_checked = agent.alive ? steps - 1 : agent.died_at - 2;
      for (std::size_t k = plan.warmup; k <= last_checked; ++k) {
        // Index k - 1 holds the state after step k.
        REQUIRE(turns[k - 1] <= plan.max_turns);
        REQUIRE(std::abs(path[k - 1].move.x + path[k - 1].move.y) >= plan.min_speed);
      }
      if (agent.death == PlanDeath::TooManyTurns) {
        REQUIRE(turns[agent.died_at - 2] > plan.max_turns);
      }
      if (agent.death == PlanDeath::TooSlow) {
        const glm::vec2 move = path[agent.died_at - 2].move;
        REQUIRE(std::abs(move.x + move.y) < plan.min_speed);
      }
      if (!agent.alive) REQUIRE(agent.died_at > plan.warmup);
    }
  }
}

TEST_CASE("plan: origin 003's numbers grow a plan in which agents die and some live on") {
  // Origin 003's behaviour: all 20 live through the warm-up; paths spread from the 10 x 30 start
  // over hundreds of units; agents die (mostly on meeting a path) until none is left, but some
  // live for 150 steps.
  std::size_t too_close = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    CAPTURE(seed);
    const PlanScenario scenario = origin003_scenario();
    PlanState state = plan_start(scenario, seed);
    for (std::uint64_t s = 1; s <= 400; ++s) {
      plan_step(scenario, state);
      if (s == scenario.plan.warmup) CHECK(state.living() == 20u);
      if (s == 150) CHECK(state.living() >= 1u);
    }
    CHECK(state.living() == 0u);
    glm::vec2 low{state.points.front().raw}, high{low};
    for (const PlanPoint& p : state.points) {
      low = glm::min(low, p.raw);
      high = glm::max(high, p.raw);
    }
    CHECK(high.x - low.x > 300.0f);
    CHECK(high.y - low.y > 150.0f);
    for (const PlanAgent& a : state.agents) too_close += a.death == PlanDeath::TooClose ? 1 : 0;
  }
  CHECK(too_close > 8u * 20u / 2u);
}

TEST_CASE("plan: a seed gives one plan, bit for bit, on any number of threads") {
  const PlanScenario scenario = crowded_scenario(60);
  const PlanState one = run(scenario, 7, 120, 1);
  for (const unsigned workers : {2u, 3u, 0u}) {
    CAPTURE(workers);
    const PlanState other = run(scenario, 7, 120, workers);
    REQUIRE(other.points.size() == one.points.size());
    for (std::size_t i = 0; i < one.points.size(); ++i) {
      REQUIRE(same_bits(one.points[i].raw.x, other.points[i].raw.x));
      REQUIRE(same_bits(one.points[i].raw.y, other.points[i].raw.y));
      REQUIRE(same_bits(one.points[i].drawn.x, other.points[i].drawn.x));
      REQUIRE(same_bits(one.points[i].drawn.y, other.points[i].drawn.y));
      REQUIRE(one.points[i].agent == other.points[i].agent);
    }
    for (std::size_t i = 0; i < one.agents.size(); ++i) {
      REQUIRE(same_bits(one.agents[i].velocity.x, other.agents[i].velocity.x));
      REQUIRE(same_bits(one.agents[i].acceleration.y, other.agents[i].acceleration.y));
      REQUIRE(one.agents[i].death == other.agents[i].death);
    }
  }
  const PlanState different = run(scenario, 8, 120, 1);
  CHECK_FALSE(same_bits(different.points.back().raw.x, one.points.back().raw.x));
}

TEST_CASE("plan: the grid and the index give the plan a scan of everything gives, bit for bit") {
  // The crowded canvas and the corner (negative coordinates), through the deaths.
  for (const PlanScenario& scenario : {crowded_scenario(), corner_scenario()}) {
    PlanState indexed = plan_start(scenario, 4);
    PlanState scanned = indexed;
    for (int s = 0; s < 80; ++s) {
      plan_step(scenario, indexed);
      plan_step_brute_force(scenario, scanned);
    }
    CHECK(scanned.living() < scanned.agents.size());
    REQUIRE(indexed.points.size() == scanned.points.size());
    for (std::size_t i = 0; i < indexed.points.size(); ++i) {
      REQUIRE(same_bits(indexed.points[i].raw.x, scanned.points[i].raw.x));
      REQUIRE(same_bits(indexed.points[i].raw.y, scanned.points[i].raw.y));
    }
    for (std::size_t i = 0; i < indexed.agents.size(); ++i) {
      CAPTURE(i);
      REQUIRE(same_bits(indexed.agents[i].acceleration.x, scanned.agents[i].acceleration.x));
      REQUIRE(same_bits(indexed.agents[i].acceleration.y, scanned.agents[i].acceleration.y));
      REQUIRE(indexed.agents[i].death == scanned.agents[i].death);
      REQUIRE(indexed.agents[i].died_at == scanned.agents[i].died_at);
    }
  }
}

// Not a ctest test (hidden tag): `test_plan "[.benchmark]"` prints the CPU time per agent-step.
TEST_CASE("plan: CPU time per agent-step at 10k and 100k agents", "[.benchmark]") {
  for (const std::uint32_t agents : {10'000u, 100'000u}) {
    // The canvas grows with the agents so that the density stays origin 003's crowd's.
    const int side = agents == 10'000u ? 4000 : 12650;
    const std::string text = "[world]\nwidth = " + std::to_string(side) + "\nheight = " +
                             std::to_string(side) + "\n[plan]\n[[plan.group]]\ncount = " +
                             std::to_string(agents) + "\nx = 0\ny = 0\nwidth = " +
                             std::to_string(side) + "\nheight = " + std::to_string(side) + "\n";
    const PlanScenario scenario = parse_plan_scenario(text, "bench.toml");
    PlanState state = plan_start(scenario, 1);
    const int steps = 60;
    std::uint64_t agent_steps = 0;
    const auto begin = std::chrono::steady_clock::now();
    for (int s = 0; s < steps; ++s) {
      agent_steps += state.living();
      plan_step(scenario, state);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    WARN(agents << " agents, " << steps << " steps: " << 1e9 * seconds / double(agent_steps)
                << " ns per agent-step (" << state.living() << " alive at the end, "
                << state.points.size() << " points)");
  }
}

// --- the summary -------------------------------------------------------------------------------
namespace {

// A hand-made state whose statistics are known by construction: four agents, one per fate.
PlanState summary_state() {
  PlanState state;
  state.step = 5;
  for (std::uint32_t id = 0; id < 4; ++id) {
    PlanAgent agent;
    agent.id = id;
    state.agents.push_back(agent);
  }
  state.agents[1].alive = false;
  state.agents[1].death = PlanDeath::TooSlow;
  state.agents[2].alive = false;
  state.agents[2].death = PlanDeath::TooClose;
  state.agents[3].alive = false;
  state.agents[3].death = PlanDeath::TooManyTurns;
  const auto point = [&](std::uint32_t agent, std::uint32_t step, glm::vec2 drawn,
                         glm::vec2 move) {
    state.points.push_back({drawn + glm::vec2(0.25f), drawn, move, agent, step});
  };
  // Step then agent order. Steps 1 and 2 draw nothing: agent 0 jumps 70 units at step 2.
  point(0, 1, {50, 50}, {0, 3});
  point(1, 1, {0, 10}, {0, 2});
  point(2, 1, {10, -5}, {0, 5});
  point(3, 1, {7, 7}, {1, 0});  // its only point: no segment
  point(0, 2, {0, 0}, {-3, 0});
  point(1, 2, {0, 20}, {0, 2});
  point(2, 2, {10, 0}, {0, 5});
  point(0, 3, {-3, 0}, {-3, 0});  // horizontal, 3 long (leftward)
  point(1, 3, {0, 30}, {0, 2});   // vertical 10
  point(2, 3, {10, 10}, {0, 5});  // vertical 10
  point(0, 4, {-3, 4}, {0, 4});   // vertical 4
  point(1, 4, {0, 45}, {0, -2});  // vertical 15 (the drawn point says so, whatever the move)
  // A turn's segment lies along the previous axis and takes the new move's pen: horizontal.
  point(2, 4, {10, 20}, {5, 0});
  point(0, 5, {-3, 4}, {0, 0});  // a zero move: horizontal, 0 long
  return state;
}

}  // namespace

TEST_CASE("plan: the summary of a hand-made state counts its fates, points and ink") {
  const PlanScenario scenario = origin003_scenario();
  const PlanSummary summary = plan_summary(scenario, summary_state());
  CHECK(summary.step == 5);
  CHECK(summary.agents == 4);
  CHECK(summary.living == 1);
  CHECK(summary.died_too_slow == 1);
  CHECK(summary.died_too_close == 1);
  CHECK(summary.died_too_many_turns == 1);
  CHECK(summary.points == 14);
  CHECK(summary.drawn_length_horizontal == 3 + 10 + 0);
  CHECK(summary.drawn_length_vertical == 10 + 10 + 4 + 15);
  CHECK(summary.drawn_length == 52);

  // A segment off the axes (none is, in a run) counts its Euclidean length.
  PlanState diagonal = summary_state();
  diagonal.step = 7;
  diagonal.points.push_back({{}, {7, 11}, {0, 1}, 3, 6});   // from its step 1 point: 4
  diagonal.points.push_back({{}, {10, 15}, {0, 1}, 3, 7});  // 3 across, 4 up: 5
  CHECK(plan_summary(scenario, diagonal).drawn_length_vertical == 39 + 4 + 5);

  PlanState empty;
  const PlanSummary none = plan_summary(scenario, empty);
  CHECK(none.agents == 0);
  CHECK(none.points == 0);
  CHECK(none.drawn_length == 0);
}

TEST_CASE("plan: the summary along a run matches plan_summary, plan_drawing and the rules") {
  const PlanScenario scenario = crowded_scenario(30);
  PlanState state = plan_start(scenario, 9);
  PlanSummaryTracker tracker;
  PlanSummary previous = tracker.summary(state);
  CHECK(previous.living == state.agents.size());
  CHECK(previous.points == 0);
  bool died = false;
  for (int s = 0; s < 150; ++s) {
    plan_step(scenario, state);
    // Every 7 steps only, as `murmur stats --every 7` reads it.
    if (s % 7 != 0) continue;
    const PlanSummary summary = tracker.summary(state);
    const PlanSummary whole = plan_summary(scenario, state);
    INFO("step " << state.step);
    CHECK(summary == whole);
    CHECK(summary.living + summary.died_too_slow + summary.died_too_close +
              summary.died_too_many_turns ==
          summary.agents);
    CHECK(summary.living <= previous.living);
    CHECK(summary.points >= previous.points + summary.living * (summary.step - previous.step));
    CHECK(summary.points <= previous.points + previous.living * (summary.step - previous.step));
    CHECK(summary.drawn_length >= previous.drawn_length);
    died = died || summary.living < summary.agents;
    previous = summary;
  }
  CHECK(died);
  // The ink is plan_drawing's, added in another order.
  double horizontal = 0, vertical = 0;
  for (const std::vector<PlanSegment>& path : plan_drawing(scenario, state)) {
    for (const PlanSegment& segment : path) {
      const double length = glm::length(glm::dvec2(segment.to) - glm::dvec2(segment.from));
      (segment.width == scenario.plan.horizontal_width ? horizontal : vertical) += length;
    }
  }
  const PlanSummary last = plan_summary(scenario, state);
  CHECK(last.drawn_length_horizontal == Approx(horizontal).epsilon(1e-12));
  CHECK(last.drawn_length_vertical == Approx(vertical).epsilon(1e-12));
  CHECK(last.drawn_length > 1000.0);
}
