// The invariants `murmur soak` checks (murmur/flock/invariants.hpp): a state that keeps them passes,
// and each one broken by hand is reported naming the boid and the invariant.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include <catch2/catch.hpp>

#include "murmur/flock/invariants.hpp"
#include "test_scenarios.hpp"

namespace {

using Catch::Matchers::Contains;
using murmur::Boid;
using murmur::FlockState;
using murmur::kSpeedLimitRelativeSlack;
using murmur::Scenario;
using murmur::Topology;
using murmur::test::kTestMaxSpeed;
using murmur::test::kTestMinSpeed;
using murmur::test::make_species;
using murmur::test::world_of;

constexpr float kWidth = 100.0f;
constexpr float kHeight = 50.0f;
constexpr std::uint32_t kMayflyMaxAge = 10;
constexpr std::uint32_t kCapacity = 8;

// Species 0 wraps and never dies; species 1 is bounded and dies at kMayflyMaxAge.
Scenario two_species() {
  Scenario scenario = world_of(kWidth, kHeight,
                               {make_species("wrap", Topology::Wrap, 5, 2, {}, {}, 2),
                                make_species("walled", Topology::Bounded, 5, 2, {}, {}, 2)});
  scenario.species[1].max_age = kMayflyMaxAge;
  scenario.world.capacity = kCapacity;
  return scenario;
}

FlockState healthy_state() {
  FlockState state;
  state.boids = {Boid{{1, 1}, {1, 0}, 0, 0, 0}, Boid{{99.9f, 49.9f}, {0, 1}, 1, 0, 0},
                 Boid{{kWidth, kHeight}, {-1, 0}, 2, 1, kMayflyMaxAge - 1},
                 Boid{{0, 0}, {0, -1}, 3, 1, 0}};
  return state;
}

std::optional<std::string> broken(const FlockState& state, std::uint32_t live_count) {
  const Scenario scenario = two_species();
  return murmur::first_broken_invariant(
      scenario, murmur::invariant_baseline(scenario, healthy_state()), state, live_count);
}

std::string broken_text(const FlockState& state) {
  const std::optional<std::string> text =
      broken(state, static_cast<std::uint32_t>(state.boids.size()));
  REQUIRE(text.has_value());
  return *text;
}

}  // namespace

TEST_CASE("a state that keeps every invariant passes, bounded boids on the far walls included") {
  FlockState state = healthy_state();
  CHECK_FALSE(broken(state, 4).has_value());
  // Limits met within the documented relative slack pass.
  state.boids[0].vel = {kTestMaxSpeed * (1 + kSpeedLimitRelativeSlack / 2), 0};
  state.boids[1].vel = {0, kTestMinSpeed * (1 - kSpeedLimitRelativeSlack / 2)};
  CHECK_FALSE(broken(state, 4).has_value());
  // The mortal species may shrink.
  state.boids.pop_back();
  CHECK_FALSE(broken(state, 3).has_value());
}

TEST_CASE("each broken invariant is named with the boid that breaks it") {
  FlockState state = healthy_state();
  SECTION("a NaN velocity") {
    state.boids[1].vel.x = std::numeric_limits<float>::quiet_NaN();
    CHECK_THAT(broken_text(state), Contains("boid 1 ") && Contains("not finite"));
  }
  SECTION("an infinite position") {
    state.boids[0].pos.y = std::numeric_limits<float>::infinity();
    CHECK_THAT(broken_text(state), Contains("boid 0 ") && Contains("not finite"));
  }
  SECTION("a wrapping boid on the far edge, which is the near one") {
    state.boids[0].pos.x = kWidth;
    CHECK_THAT(broken_text(state), Contains("boid 0 ") && Contains("outside the world [0, L)"));
  }
  SECTION("a bounded boid past the far wall") {
    state.boids[2].pos.y = std::nextafter(kHeight, 2 * kHeight);
    CHECK_THAT(broken_text(state), Contains("boid 2 ") && Contains("outside the world [0, L]"));
  }
  SECTION("a negative coordinate") {
    state.boids[3].pos.x = -0.001f;
    CHECK_THAT(broken_text(state), Contains("boid 3 ") && Contains("outside the world"));
  }
  SECTION("a speed a little above max_speed") {
    state.boids[1].vel = {0, kTestMaxSpeed * (1 + 4 * kSpeedLimitRelativeSlack)};
    CHECK_THAT(broken_text(state), Contains("boid 1 ") && Contains("[min_speed, max_speed]"));
  }
  SECTION("a speed a little below min_speed") {
    state.boids[2].vel = {-kTestMinSpeed * (1 - 4 * kSpeedLimitRelativeSlack), 0};
    CHECK_THAT(broken_text(state), Contains("boid 2 ") && Contains("[min_speed, max_speed]"));
  }
  SECTION("a newborn (age 0) may fly below min_speed, but not above max_speed") {
    state.boids[3].vel = {0.0f, 0.0f};
    CHECK_FALSE(broken(state, 4).has_value());
    state.boids[3].vel = {0.0f, kTestMaxSpeed * (1 + 4 * kSpeedLimitRelativeSlack)};
    CHECK_THAT(broken_text(state), Contains("boid 3 ") && Contains("[min_speed, max_speed]"));
  }
  SECTION("a boid alive at its max_age") {
    state.boids[3].age = kMayflyMaxAge;
    CHECK_THAT(broken_text(state), Contains("boid 3 ") && Contains("max_age 10"));
  }
  SECTION("an unknown species") {
    state.boids[3].species = 2;
    CHECK_THAT(broken_text(state), Contains("boid 3 ") && Contains("species index"));
  }
  SECTION("two boids with one id") {
    state.boids[3].id = 1;
    CHECK_THAT(broken_text(state), Contains("boid 1 ") && Contains("id held by another boid"));
  }
  SECTION("an immortal species that lost a boid") {
    state.boids.erase(state.boids.begin());
    CHECK_THAT(broken_text(state), Contains("species 0 ('wrap', max_age 0, no energy, no hunters) "
                                            "has 1 boids"));
  }
}

TEST_CASE("the live count must fit the capacity and match the boids per species") {
  const FlockState state = healthy_state();
  CHECK_THAT(*broken(state, 5), Contains("live count 5 differs from the 4 boids"));
  CHECK_THAT(*broken(state, kCapacity + 1), Contains("above the capacity 8"));
}

// Energy within (0, energy_max], food within [0, max_per_cell], no species above max_count.
TEST_CASE("the ecosystem's invariants: energy, food and max_count", "[ecosystem]") {
  // Species 0 has energy (cap 10) and a cap of 3 boids; species 1 has no energy and hunts 0.
  Scenario scenario = two_species();
  scenario.species[0].energy_max = 10.0f;
  scenario.species[0].max_count = 3;
  scenario.species[1].eats = {"wrap"};
  murmur::FoodParams food;
  food.cell_size = 50.0f;  // 2 x 1 cells
  food.max_per_cell = 4.0f;
  scenario.food = food;
  FlockState state = healthy_state();
  state.boids[0].energy = 10.0f;
  state.boids[1].energy = 0.5f;
  state.food = {0.0f, 4.0f};
  const murmur::InvariantBaseline baseline = murmur::invariant_baseline(scenario, state);
  const auto check = [&](const FlockState& s) {
    return murmur::first_broken_invariant(scenario, baseline, s,
                                          static_cast<std::uint32_t>(s.boids.size()));
  };
  REQUIRE_FALSE(check(state).has_value());
  // A species with energy or hunters may shrink.
  FlockState fewer = state;
  fewer.boids.erase(fewer.boids.begin());
  CHECK_FALSE(check(fewer).has_value());

  SECTION("a starved boid still alive") {
    state.boids[1].energy = 0.0f;
    CHECK_THAT(check(state).value_or(""), Contains("boid 1 ") && Contains("energy outside (0, "));
  }
  SECTION("energy above the cap") {
    state.boids[0].energy = std::nextafter(10.0f, 11.0f);
    CHECK_THAT(check(state).value_or(""), Contains("boid 0 ") && Contains("energy_max] = (0, 10]"));
  }
  SECTION("a NaN energy") {
    state.boids[0].energy = std::numeric_limits<float>::quiet_NaN();
    CHECK_THAT(check(state).value_or(""), Contains("boid 0 ") && Contains("energy outside"));
  }
  SECTION("energy in a species without energy") {
    state.boids[3].energy = 1.0f;
    CHECK_THAT(check(state).value_or(""), Contains("boid 3 ") && Contains("without energy"));
  }
  SECTION("more boids than max_count") {
    state.boids.push_back(Boid{{5, 5}, {1, 0}, 9, 0, 0, 1.0f});
    CHECK_FALSE(check(state).has_value());  // 3 = max_count: allowed
    state.boids.push_back(Boid{{6, 5}, {1, 0}, 10, 0, 0, 1.0f});
    CHECK_THAT(check(state).value_or(""), Contains("has 4 boids, more than its max_count 3"));
  }
  SECTION("a food cell below 0 or above max_per_cell") {
    state.food[0] = -0.25f;
    CHECK_THAT(check(state).value_or(""), Contains("food cell 0 holds -0.25"));
    state.food[0] = 4.5f;
    CHECK_THAT(check(state).value_or(""), Contains("food cell 0 holds 4.5"));
  }
  SECTION("a food field of the wrong size") {
    state.food.push_back(1.0f);
    CHECK_THAT(check(state).value_or(""), Contains("food field of 3 cells"));
  }
}
