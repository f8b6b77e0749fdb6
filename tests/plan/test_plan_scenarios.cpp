// The shipped plan scenarios are what their comments say: floor-plan.toml is origin 003 (its
// numbers are the [plan] defaults, its groups origin003_plan_groups()), floor-plan-city.toml is
// tens of thousands of agents on a large canvas, floor-plan-branching.toml is origin 003's plus
// the branching keys, and grows as its comment says.
#include <catch2/catch.hpp>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "murmur/base/errors.hpp"
#include "murmur/plan/plan.hpp"
#include "murmur/scenario/scenario.hpp"
#include "murmur/flock/state.hpp"

using namespace murmur;

namespace {

template <class T>
void check_same_fields(const T& actual, const T& expected) {
  if constexpr (std::is_same_v<T, PlanParams>) {
    for_each_plan_param([&](const auto& info) {
      INFO("plan." << info.key);
      CHECK(actual.*info.member == expected.*info.member);
    });
  } else {
    for_each_plan_group_param([&](const auto& info) {
      INFO("plan.group." << info.key);
      CHECK(actual.*info.member == expected.*info.member);
    });
  }
}

}  // namespace

TEST_CASE("floor-plan.toml is origin 003: its canvas, its numbers and its two groups of 10",
          "[plan][scenario]") {
  const PlanScenario scenario = load_plan_scenario(MURMUR_SOURCE_DIR "/scenarios/floor-plan.toml");
  CHECK(scenario.world.width == 800);
  CHECK(scenario.world.height == 800);
  check_same_fields(scenario.plan, PlanParams{});
  const std::vector<PlanGroup> origin_groups = origin003_plan_groups();
  REQUIRE(scenario.plan.groups.size() == origin_groups.size());
  for (std::size_t i = 0; i < origin_groups.size(); ++i) {
    check_same_fields(scenario.plan.groups[i], origin_groups[i]);
  }
  CHECK(scenario.plan.total_count() == 20);
  CHECK_THROWS_AS(load_scenario(MURMUR_SOURCE_DIR "/scenarios/floor-plan.toml"), InputError);
}

TEST_CASE("floor-plan-city.toml is tens of thousands of agents on a large canvas",
          "[plan][scenario]") {
  const PlanScenario scenario =
      load_plan_scenario(MURMUR_SOURCE_DIR "/scenarios/floor-plan-city.toml");
  CHECK(scenario.world.width == 6000);
  CHECK(scenario.world.height == 6000);
  CHECK(scenario.plan.groups.size() == 36);
  CHECK(scenario.plan.total_count() == 21600);
  check_same_fields(scenario.plan, PlanParams{});
}

TEST_CASE("floor-plan-branching.toml is origin 003 with branching, grown as its comment says",
          "[plan][scenario]") {
  const PlanScenario scenario =
      load_plan_scenario(MURMUR_SOURCE_DIR "/scenarios/floor-plan-branching.toml");
  const PlanScenario origin = load_plan_scenario(MURMUR_SOURCE_DIR "/scenarios/floor-plan.toml");
  PlanParams expected{};  // origin 003's numbers, and the three keys beyond it
  expected.branch_chance = 0.03f;
  expected.branch_coverage = 0.3f;
  expected.max_agents = 4096;
  check_same_fields(scenario.plan, expected);
  REQUIRE(scenario.plan.groups.size() == origin.plan.groups.size());
  for (std::size_t g = 0; g < origin.plan.groups.size(); ++g) {
    check_same_fields(scenario.plan.groups[g], origin.plan.groups[g]);
  }
  PlanState state = plan_start(scenario, scenario.world.seed);
  std::uint32_t last_birth = 0;
  while (state.living() > 0 && state.step < 1000) {
    const std::size_t before = state.agents.size();
    plan_step(scenario, state);
    if (state.agents.size() > before) last_birth = static_cast<std::uint32_t>(state.step);
  }
  CHECK(state.births() == 668);
  CHECK(last_birth == 327);
  CHECK(state.step == 481);  // the step in which the last agent died
  CHECK(state.coverage.below(0.3f) == false);
}
