// A flock carried into the next run of a sweep (carried_state): its boids held to the checks of
// a state file against the new scenario, its step, counters, next id and food field kept.
#include <cstdint>
#include <string>

#include <catch2/catch.hpp>

#include "murmur/base/errors.hpp"
#include "murmur/flock/state.hpp"
#include "murmur/scenario/scenario.hpp"

namespace {

using Catch::Matchers::Contains;
using Catch::Matchers::Equals;
using murmur::FlockScenario;
using murmur::FlockState;

constexpr const char* kSource = "the flock of run 3";
// world.dimensions of the world a carried flock comes from.
constexpr std::uint32_t kPlane = 2;
constexpr std::uint32_t kVolume = 3;

FlockScenario scenario_of(float width, const char* extra = "") {
  return murmur::parse_scenario(R"(
[world]
width = )" + std::to_string(width) + R"(
height = 50
seed = 9

[[species]]
name = "a"
count = 40
energy_max = 10
energy_initial = 5
)" + extra,
                                "carry.toml");
}

// `width` wide, with a depth: a volume.
FlockScenario volume_of(float width, float depth) {
  return murmur::parse_scenario(R"(
[world]
width = )" + std::to_string(width) + R"(
height = 50
dimensions = 3
depth = )" + std::to_string(depth) + R"(
seed = 9

[[species]]
name = "a"
count = 40
)",
                                "carry3d.toml");
}

std::string refusal(const FlockState& state, const FlockScenario& scenario,
                    std::uint32_t state_dimensions = kPlane) {
  try {
    murmur::carried_state(state, state_dimensions, scenario, kSource);
  } catch (const murmur::InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a carried flock keeps its boids bit for bit, its step, counters and next id",
          "[state][carry]") {
  const FlockScenario before = scenario_of(100);
  FlockState state = murmur::seeded_start(before);
  state.step = 1234;
  state.totals = {{7, 1, 3}};
  state.next_id = 99;
  FlockScenario after = before;
  after.species[0].align_weight = 0.5f;
  const FlockState carried = murmur::carried_state(state, kPlane, after, kSource);
  REQUIRE(carried.boids.size() == state.boids.size());
  for (std::size_t i = 0; i < state.boids.size(); ++i) {
    CHECK(carried.boids[i].pos == state.boids[i].pos);
    CHECK(carried.boids[i].vel == state.boids[i].vel);
    CHECK(carried.boids[i].energy == state.boids[i].energy);
    CHECK(carried.boids[i].id == state.boids[i].id);
  }
  CHECK(carried.step == 1234);
  CHECK(carried.totals == state.totals);
  CHECK(carried.next_id == 99u);
}

TEST_CASE("a carried flock that does not fit the next run's scenario is refused",
          "[state][carry]") {
  const FlockScenario before = scenario_of(100);
  FlockState state = murmur::seeded_start(before);
  state.boids.resize(2);
  state.boids[0].pos = {80.0f, 10.0f};
  state.boids[1].pos = {10.0f, 10.0f};
  // A narrower world leaves the first boid outside it.
  CHECK_THAT(refusal(state, scenario_of(60)),
             Equals(std::string(kSource) +
                    ":2:5: x = 80: outside the world: must be >= 0 and < 60 (species a is wrap)"));
  // A lower energy_max than a boid's energy.
  FlockScenario poorer = before;
  poorer.species[0].energy_max = 6;
  poorer.species[0].energy_initial = 3;
  state.boids[0].pos = {10.0f, 10.0f};
  state.boids[1].energy = 8;
  CHECK_THAT(refusal(state, poorer), Contains(":3:") && Contains("energy = 8: must be >= 0"));
  // A food field of another grid.
  state.boids[1].energy = 5;
  CHECK(refusal(state, before).empty());
  CHECK_THAT(refusal(state, scenario_of(100, "[food]\ncell_size = 10\n")),
             Equals(std::string(kSource) +
                    ": a food field of 0 cells, the scenario's has 50"));
}

TEST_CASE("a carried 3D flock keeps z and vz, and meets the volume's checks",
          "[state][carry][3d]") {
  const FlockScenario deep = volume_of(100, 40);
  FlockState state;
  state.boids.resize(2);
  for (std::uint32_t i = 0; i < 2; ++i) {
    state.boids[i].id = i;
    murmur::set_motion(state.boids[i], {10.0f + i, 20.0f, 30.5f + i}, {0.5f, -0.5f, -1.25f - i});
  }
  const FlockState carried = murmur::carried_state(state, kVolume, deep, kSource);
  REQUIRE(carried.boids.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(carried.boids[i].z == state.boids[i].z);
    CHECK(carried.boids[i].vz == state.boids[i].vz);
  }
  // A shallower volume leaves the second boid (z = 31.5) outside it; after "1,0,11,20," its z
  // starts at column 11.
  CHECK_THAT(refusal(state, volume_of(100, 31), kVolume),
             Equals(std::string(kSource) + ":3:11: z = 31.5: outside the world: must be >= 0 "
                                           "and < 31 (species a is wrap)"));
  // A flock of the other number of dimensions, either way.
  CHECK_THAT(refusal(state, scenario_of(100), kVolume),
             Contains(std::string(kSource) + ":1:16: z and vz columns: a 3D state file, but the "
                      "world is 2D (world.dimensions = 2 in carry.toml)"));
  CHECK_THAT(refusal(state, deep, kPlane),
             Contains(std::string(kSource) + ":1:16: no z and vz columns: a 2D state file, but "
                      "the world is 3D (world.dimensions = 3 in carry3d.toml)"));
}
