// The plan's branching (docs/model.md, "Branching"): its keys and their checks, a plan left as
// it was with branching off, children at right angles from their parents' lines, the coverage
// target and max_agents, and one plan on any number of threads and by brute force.
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

namespace {

// Origin 003's start with branching on: the 20 agents have children until `coverage` of the
// canvas is covered or `max_agents` are alive or dead.
PlanScenario branching_scenario(float chance, float coverage, std::uint32_t max_agents,
                            const std::string& extra = "") {
  return parse_plan_scenario(kWorld + "[plan]\nbranch_chance = " + std::to_string(chance) +
                            "\nbranch_coverage = " + std::to_string(coverage) +
                            "\nmax_agents = " + std::to_string(max_agents) + "\n" + extra,
                        "branching.toml");
}

bool same_points(const PlanPoint& a, const PlanPoint& b) {
  return std::bit_cast<std::array<std::uint32_t, 8>>(a) ==
         std::bit_cast<std::array<std::uint32_t, 8>>(b);
}

void require_same_plan(const PlanState& a, const PlanState& b) {
  REQUIRE(a.step == b.step);
  REQUIRE(a.agents.size() == b.agents.size());
  for (std::size_t i = 0; i < a.agents.size(); ++i) {
    INFO(describe_plan_agent(a.agents[i]) << "\n" << describe_plan_agent(b.agents[i]));
    REQUIRE(same_plan_agent(a.agents[i], b.agents[i]));
  }
  REQUIRE(a.points.size() == b.points.size());
  for (std::size_t i = 0; i < a.points.size(); ++i) REQUIRE(same_points(a.points[i], b.points[i]));
  REQUIRE(a.births_dropped == b.births_dropped);
}

// The coverage of the points saved up to `step`, recounted: distinct (floor(x / h),
// floor(y / h)) of the raw points inside the canvas, by a set and a division.
std::size_t covered_by(const PlanState& state, glm::vec2 canvas, float side, std::uint32_t step) {
  std::set<std::pair<long, long>> cells;
  for (const PlanPoint& p : state.points) {
    if (p.step > step) break;
    if (p.raw.x < 0 || p.raw.y < 0 || p.raw.x >= canvas.x || p.raw.y >= canvas.y) continue;
    cells.insert({long(std::floor(double(p.raw.x) / side)),
                  long(std::floor(double(p.raw.y) / side))});
  }
  return cells.size();
}

struct Birth {
  std::uint32_t parent = 0, born = 0;
  bool operator==(const Birth&) const = default;
};

// The births the rules give, recomputed from the run's own deaths and points: at the end of
// each step s after the warm-up, while the recounted coverage of steps < s is below the
// target, every agent present at the step's start and alive after it draws; the branching ones,
// in index order, fill the room under max_agents. Returns the births and the dropped count.
std::pair<std::vector<Birth>, std::uint64_t> births_by_rules(const PlanScenario& scenario,
                                                             const PlanState& state) {
  const PlanParams& plan = scenario.plan;
  const float side = plan_index_cell_side(plan.clearance);
  const double cells = std::ceil(scenario.world.width / side) *
                       std::ceil(scenario.world.height / side);
  std::vector<Birth> births;
  std::uint64_t dropped = 0;
  std::size_t agents = plan.total_count();
  for (std::uint32_t s = 1; s <= state.step; ++s) {
    if (s <= plan.warmup) continue;
    if (!(double(covered_by(state, scenario.size(), side, s - 1)) <
          double(plan.branch_coverage) * cells)) {
      continue;
    }
    const std::size_t present = agents;
    for (std::uint32_t i = 0; i < present; ++i) {
      const PlanAgent& a = state.agents[i];
      const bool alive_after = a.alive || a.died_at > s;
      if (!alive_after) continue;
      if (!(random_uniform01(RandomDraw{state.seed, i, s, MURMUR_PLAN_DRAW_BRANCH}) <
            plan.branch_chance)) {
        continue;
      }
      if (agents < plan.max_agents) {
        births.push_back({i, s});
        ++agents;
      } else {
        ++dropped;
      }
    }
  }
  return {births, dropped};
}

// An agent's points in step order.
std::vector<PlanPoint> path_of(const PlanState& state, std::uint32_t agent) {
  std::vector<PlanPoint> path;
  for (const PlanPoint& p : state.points) {
    if (p.agent == agent) path.push_back(p);
  }
  return path;
}

}  // namespace

TEST_CASE("plan: the branching keys default to off and are checked") {
  const PlanScenario origin = origin003_scenario();  // kept: plan refers into it
  const PlanParams& plan = origin.plan;
  CHECK(plan.branch_chance == 0.0f);
  CHECK(plan.branch_coverage == 0.3f);
  CHECK(plan.max_agents == 4096u);
  const std::string text = kWorld + "[plan]\n";
  CHECK_THAT(input_error(text + "branch_chance = 1.5\n"),
             StartsWith("test.toml:5: plan.branch_chance = 1.5: must be >= 0 and <= 1"));
  CHECK_THAT(input_error(text + "branch_coverage = 0\n"),
             StartsWith("test.toml:5: plan.branch_coverage = 0: must be > 0 and <= 1"));
  CHECK_THAT(input_error(text + "max_agents = 0\n"),
             StartsWith("test.toml:5: plan.max_agents = 0: must be >= 1 and <= 16777216"));
  // A canvas of 2^28 cells of side 8 and more is refused only when branching is on.
  const std::string huge = "[world]\nwidth = 200000\nheight = 200000\n[plan]\n";
  CHECK_NOTHROW(parse_plan_scenario(huge, "huge.toml"));
  CHECK_THAT(input_error(huge + "branch_chance = 0.1\n"),
             Contains("plan.branch_chance = 0.1: branching needs a canvas of at most 268435456 "
                      "coverage cells"));
  const PlanScenario written = branching_scenario(0.25f, 0.5f, 99);
  const PlanScenario again = parse_plan_scenario(scenario_to_toml(written), "again.toml");
  CHECK(again.plan.branch_chance == 0.25f);
  CHECK(again.plan.branch_coverage == 0.5f);
  CHECK(again.plan.max_agents == 99u);
}

TEST_CASE("plan: branching off leaves the plan as it was, whatever the other branching keys") {
  const PlanScenario plain = crowded_scenario(20);
  PlanScenario keyed = plain;
  keyed.plan.branch_coverage = 1.0f;
  keyed.plan.max_agents = 7;
  const PlanState a = run(plain, 5, 150);
  const PlanState b = run(keyed, 5, 150);
  require_same_plan(a, b);
  CHECK(a.births() == 0);
  CHECK(a.births_dropped == 0);
  // The coverage is counted with branching off too.
  CHECK(a.coverage.covered() == covered_by(a, plain.size(), 8.0f, 150));
}

TEST_CASE("plan: branching grows children at right angles from their parents' lines") {
  const PlanScenario scenario = branching_scenario(0.05f, 0.25f, 4096);
  const PlanParams& plan = scenario.plan;
  PlanState state = plan_start(scenario, 3);
  PlanSummaryTracker tracker;
  for (int s = 0; s < 260; ++s) {
    plan_step(scenario, state);
    const PlanSummary summary = tracker.summary(state);
    REQUIRE(summary == plan_summary(scenario, state));
    REQUIRE(summary.covered_cells == covered_by(state, scenario.size(), 8.0f, s + 1));
    REQUIRE(summary.agents == 20 + summary.births);
  }
  const std::uint32_t births = state.births();
  CAPTURE(births);
  REQUIRE(births > 20);

  // The births are the rules' own, from the same deaths and points.
  const auto [expected, dropped] = births_by_rules(scenario, state);
  std::vector<Birth> actual;
  for (std::size_t i = 20; i < state.agents.size(); ++i) {
    actual.push_back({state.agents[i].parent, state.agents[i].born});
  }
  CHECK(actual == expected);
  CHECK(dropped == 0);

  const auto drawing = plan_drawing(scenario, state);
  int drawn_children = 0;
  for (std::size_t i = 20; i < state.agents.size(); ++i) {
    const PlanAgent& child = state.agents[i];
    CAPTURE(describe_plan_agent(child));
    REQUIRE(child.id == i);
    REQUIRE(child.parent < i);  // a parent precedes its child
    REQUIRE(child.born > plan.warmup);
    const PlanAgent& parent = state.agents[child.parent];
    REQUIRE(parent.born < child.born);
    // The parent's move in the birth step, and the child's first.
    const std::vector<PlanPoint> parent_path = path_of(state, parent.id);
    const auto at_birth = std::find_if(parent_path.begin(), parent_path.end(),
                                       [&](const PlanPoint& p) { return p.step == child.born; });
    REQUIRE(at_birth != parent_path.end());
    const std::vector<PlanPoint> path = path_of(state, child.id);
    if (path.empty()) continue;  // born in the last step
    const PlanPoint& first = path.front();
    REQUIRE(first.step == child.born + 1);
    // A right angle, its start at the parent's location.
    REQUIRE(at_birth->move != glm::vec2(0.0f));
    CHECK(first.move.x * at_birth->move.x + first.move.y * at_birth->move.y == 0.0f);
    CHECK(glm::length(first.move) == glm::length(at_birth->move));
    CHECK(first.raw == at_birth->raw + first.move);
    // Its origin is on the parent's drawn line, the grid point nearest the parent.
    CHECK(child.origin == glm::vec2(plan_snapped(at_birth->raw.x, plan.snap),
                                    plan_snapped(at_birth->raw.y, plan.snap)));
    if (at_birth->move.y == 0.0f) {
      CHECK(child.origin.y == at_birth->drawn.y);
      CHECK(first.drawn.x == child.origin.x);  // the first segment is axis-aligned
    } else {
      CHECK(child.origin.x == at_birth->drawn.x);
      CHECK(first.drawn.y == child.origin.y);
    }
    // Its first segment starts at the origin (the T junction).
    REQUIRE_FALSE(drawing[i].empty());
    CHECK(drawing[i].front().from == child.origin);
    CHECK(drawing[i].front().to == first.drawn);
    ++drawn_children;
    // Deaths apply from born + warmup on.
    if (!child.alive) CHECK(child.died_at > child.born + plan.warmup);
  }
  CHECK(drawn_children > 20);
}

TEST_CASE("plan: branching stops at the coverage target and at max_agents") {
  SECTION("the coverage target") {
    const PlanScenario scenario = branching_scenario(0.1f, 0.04f, 4096);
    const PlanState state = run(scenario, 3, 300);
    const auto [expected, dropped] = births_by_rules(scenario, state);
    REQUIRE(state.births() == expected.size());
    const float side = 8.0f;
    const double target = 0.04 * double(state.coverage.cells());
    std::uint32_t last_birth = 0;
    for (const PlanAgent& a : state.agents) last_birth = std::max(last_birth, a.born);
    // Born only while the step's starting coverage was below the target, which it reached.
    REQUIRE(last_birth > 0);
    CHECK(double(covered_by(state, scenario.size(), side, last_birth - 1)) < target);
    CHECK(double(state.coverage.covered()) >= target);
    // The first step whose points reach the target: the births end with the step after it.
    std::uint32_t first_full = last_birth;
    while (first_full < 300 &&
           double(covered_by(state, scenario.size(), side, first_full)) < target) {
      ++first_full;
    }
    REQUIRE(first_full < 300);
    CHECK(last_birth <= first_full);
    CHECK(last_birth >= first_full - 1);  // 30-odd living agents at 10%: births every step
  }
  SECTION("max_agents") {
    const PlanScenario scenario = branching_scenario(0.2f, 1.0f, 37);
    const PlanState state = run(scenario, 3, 120);
    CHECK(state.agents.size() == 37);
    const auto [expected, dropped] = births_by_rules(scenario, state);
    REQUIRE(dropped > 0);
    CHECK(state.births_dropped == dropped);
    CHECK(plan_summary(scenario, state).births_dropped == dropped);
    std::vector<Birth> actual;
    for (std::size_t i = 20; i < state.agents.size(); ++i) {
      actual.push_back({state.agents[i].parent, state.agents[i].born});
    }
    CHECK(actual == expected);
  }
  SECTION("a start with max_agents or more never grows") {
    const PlanScenario scenario = branching_scenario(0.5f, 1.0f, 20);
    const PlanState state = run(scenario, 3, 60);
    CHECK(state.agents.size() == 20);
    CHECK(state.births_dropped > 0);
  }
}

TEST_CASE("plan: a branching plan is the same on any number of threads and by brute force") {
  const PlanScenario scenario = branching_scenario(0.03f, 0.3f, 4096);
  const PlanState one = run(scenario, 11, 160, 1);
  REQUIRE(one.births() > 10);
  for (const unsigned workers : {2u, 3u}) {
    CAPTURE(workers);
    require_same_plan(one, run(scenario, 11, 160, workers));
  }
  PlanState brute = plan_start(scenario, 11);
  for (int s = 0; s < 160; ++s) plan_step_brute_force(scenario, brute, 2);
  require_same_plan(one, brute);
  const PlanState other = run(scenario, 12, 160, 1);
  const bool same_size = other.births() == one.births() && other.points.size() == one.points.size();
  CHECK_FALSE(same_size);
}
