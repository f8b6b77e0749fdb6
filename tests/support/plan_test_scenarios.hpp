#pragma once
// Plan scenarios and runs that the plan's tests share (test_plan.cpp, test_plan_branching.cpp,
// test_plan_gpu.cpp).
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "murmur/base/errors.hpp"
#include "murmur/plan/plan.hpp"
#include "murmur/scenario/scenario.hpp"

namespace murmur::test {

inline const std::string kWorld =
    "[world]\n"
    "width = 800\n"
    "height = 800\n";

// Origin 003 as the defaults give it: 20 agents on an 800 x 800 canvas.
inline PlanScenario origin003_scenario() {
  return parse_plan_scenario(kWorld + "[plan]\n", "origin003.toml");
}

// Many agents spread over the canvas, so that paths meet often and every death happens.
inline PlanScenario crowded_scenario(std::uint32_t per_group = 40) {
  std::string text = kWorld + "[plan]\n";
  for (const int x : {100, 350, 600}) {
    for (const int y : {100, 350, 600}) {
      text += "[[plan.group]]\ncount = " + std::to_string(per_group) + "\nx = " +
              std::to_string(x) + "\ny = " + std::to_string(y) + "\nwidth = 100\nheight = 100\n";
    }
  }
  return parse_plan_scenario(text, "crowded.toml");
}

inline PlanState run(const PlanScenario& scenario, std::uint64_t seed, std::uint64_t steps,
              unsigned workers = 0) {
  PlanState state = plan_start(scenario, seed);
  for (std::uint64_t s = 0; s < steps; ++s) plan_step(scenario, state, workers);
  return state;
}

inline std::string input_error(const std::string& text) {
  try {
    parse_plan_scenario(text, "test.toml");
  } catch (const InputError& error) {
    const std::string message = error.what();
    CHECK(message.find('\n') == std::string::npos);
    return message;
  }
  FAIL("expected an InputError for:\n" << text);
  return {};
}

}  // namespace murmur::test
