// The CPU reference step (docs/model.md, "Floating point rules of the CPU reference"): the two
// neighbour searches agree bit for bit, runs are reproducible and chaotic, hand-built states
// give known answers, and long runs keep the model's invariants (docs/reliability.md, "Soak").
//
// Sections: helpers; the two neighbour searches, order and ids; reproducibility and chaos;
// hand-built states with known answers; long runs.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <catch2/catch.hpp>
#include <glm/geometric.hpp>

#include "murmur/flock/cpu_flock.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/flock/invariants.hpp"
#include "murmur/flock/stats.hpp"
#include "sparse_ids.hpp"
#include "test_random.hpp"
#include "test_scenarios.hpp"

// --- helpers -----------------------------------------------------------------------------------
namespace {

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using murmur::Boid;
using murmur::FlockState;
using murmur::Scenario;
using murmur::SpeciesParams;
using murmur::Topology;
using murmur::test::SplitMix;
using murmur::test::world_of;

constexpr float kTwoPi = 6.2831853f;

SpeciesParams typical_species(const char* name, Topology topology) {
  return murmur::test::make_species(name, topology, /*perception_radius=*/10.0f,
                                    /*separation_radius=*/4.0f,
                                    {.align = 0.05f, .cohesion = 0.005f, .separation = 1.5f},
                                    {.margin = 10.0f, .gain = 0.02f});
}

// Two species in one world: a wrap species with a limited view that flocks with both, and a
// bounded species that flocks with itself only.
Scenario two_species(std::uint32_t count_a, std::uint32_t count_b) {
  SpeciesParams a = typical_species("starling", Topology::Wrap);
  a.count = count_a;
  a.fov_degrees = 270.0f;
  a.flocks_with = {"starling", "jackdaw"};
  SpeciesParams b = typical_species("jackdaw", Topology::Bounded);
  b.count = count_b;
  b.perception_radius = 7.5f;
  b.separation_radius = 3.0f;
  b.fov_degrees = 200.0f;
  return world_of(200.0f, 150.0f, {a, b});
}

// Uniform positions, uniform headings, speeds within each species' limits.
FlockState random_state(const Scenario& scenario, std::uint64_t seed) {
  SplitMix rng(seed);
  FlockState state;
  std::uint32_t id = 0;
  for (std::uint32_t s = 0; s < scenario.species.size(); ++s) {
    const SpeciesParams& p = scenario.species[s];
    for (std::uint32_t k = 0; k < p.count; ++k) {
      Boid b;
      b.id = id++;
      b.species = s;
      b.pos = {rng.in(0.0f, scenario.world.width), rng.in(0.0f, scenario.world.height)};
      const float heading = rng.in(0.0f, kTwoPi);
      const float speed = rng.in(p.min_speed, p.max_speed);
      b.vel = speed * glm::vec2{std::cos(heading), std::sin(heading)};
      state.boids.push_back(b);
    }
  }
  return state;
}

bool bit_identical(const FlockState& a, const FlockState& b) {
  static_assert(sizeof(Boid) == 2 * sizeof(glm::vec2) + 4 * sizeof(std::uint32_t) + 2 * sizeof(float),
                "Boid has padding: memcmp would compare garbage");
  return a.boids.size() == b.boids.size() &&
         std::memcmp(a.boids.data(), b.boids.data(), a.boids.size() * sizeof(Boid)) == 0;
}

bool same_sums(const murmur::NeighbourSums& a, const murmur::NeighbourSums& b) {
  const auto same_bits = [](glm::vec2 x, glm::vec2 y) {
    return std::memcmp(&x, &y, sizeof(glm::vec2)) == 0;
  };
  return a.visible == b.visible && a.flock == b.flock && a.separating == b.separating &&
         same_bits(a.velocity_sum, b.velocity_sum) &&
         same_bits(a.displacement_sum, b.displacement_sum) &&
         same_bits(a.separation_sum, b.separation_sum);
}

FlockState run(const Scenario& scenario, FlockState state, int steps) {
  for (int k = 0; k < steps; ++k) state = murmur::cpu_step(scenario, state);
  return state;
}

float distance(const Boid& a, const Boid& b) { return glm::length(b.pos - a.pos); }

}  // namespace

// --- the two neighbour searches, order and ids -------------------------------------------------
TEST_CASE("k-d tree step equals brute-force step bit for bit", "[cpu_flock]") {
  // 3000 boids is enough for the step to split work between threads where cores allow it.
  constexpr int kSteps = 4;
  Scenario scenario = two_species(1800, 1200);
  for (const std::uint64_t seed : {1ull, 77ull}) {
    FlockState state = random_state(scenario, seed);
    for (int step = 0; step < kSteps; ++step) {
      INFO("seed " << seed << " step " << step);
      murmur::CpuStepTrace tree_trace;
      murmur::CpuStepTrace brute_trace;
      const FlockState by_tree = murmur::cpu_step(scenario, state, &tree_trace);
      const FlockState by_brute = murmur::cpu_step_brute_force(scenario, state, &brute_trace);
      REQUIRE(bit_identical(by_tree, by_brute));
      REQUIRE(tree_trace.sums.size() == state.boids.size());
      std::uint64_t visible = 0;
      for (std::size_t i = 0; i < state.boids.size(); ++i) {
        REQUIRE(same_sums(tree_trace.sums[i], brute_trace.sums[i]));
        visible += tree_trace.sums[i].visible;
      }
      // The layout must actually exercise neighbours (several per boid on average).
      REQUIRE(visible > 2 * state.boids.size());
      state = by_tree;
    }
  }
}

TEST_CASE("the step keeps the input order and each boid's id and species", "[cpu_flock]") {
  Scenario scenario = two_species(40, 30);
  FlockState state = random_state(scenario, 3);
  std::swap(state.boids[0], state.boids[50]);  // not id order
  const FlockState next = murmur::cpu_step(scenario, state);
  REQUIRE(next.boids.size() == state.boids.size());
  for (std::size_t i = 0; i < state.boids.size(); ++i) {
    REQUIRE(next.boids[i].id == state.boids[i].id);
    REQUIRE(next.boids[i].species == state.boids[i].species);
  }
  // A permuted input gives each boid the same result (the sums are in index order, so a
  // permutation may change the last bits, but not by more than rounding).
  FlockState reversed = state;
  std::reverse(reversed.boids.begin(), reversed.boids.end());
  const FlockState next_reversed = murmur::cpu_step(scenario, reversed);
  for (std::size_t i = 0; i < state.boids.size(); ++i) {
    const Boid& a = next.boids[i];
    const Boid& b = next_reversed.boids[state.boids.size() - 1 - i];
    REQUIRE(a.id == b.id);
    REQUIRE_THAT(a.pos.x, WithinAbs(b.pos.x, 1e-4));
    REQUIRE_THAT(a.vel.y, WithinAbs(b.vel.y, 1e-4));
  }
}

TEST_CASE("ids scattered over the whole uint32 range step exactly as ids 0..N-1",
          "[cpu_flock][ids]") {
  // Ids enter the step only as names (the steered boid is found by id); the sums run in index
  // order. So renaming the boids, 0 and 0xFFFFFFFF among the new names, changes no bit.
  constexpr int kSteps = 20;
  const Scenario scenario = two_species(300, 200);
  const FlockState dense_start = random_state(scenario, 2718);
  const std::vector<std::uint32_t> ids = murmur::test::scattered_ids(dense_start.boids.size(), 31);
  constexpr std::uint32_t kSteeredDenseId = 123;
  const glm::vec2 steered_velocity{-1.5f, 0.25f};
  const murmur::SteeredBoid dense_steered{kSteeredDenseId, steered_velocity};
  const murmur::SteeredBoid sparse_steered{ids[kSteeredDenseId], steered_velocity};

  FlockState dense = dense_start;
  FlockState sparse = murmur::test::renamed(dense_start, ids);
  FlockState dense_free = dense_start;
  for (int step = 0; step < kSteps; ++step) {
    dense = murmur::cpu_step(scenario, dense, nullptr, dense_steered);
    sparse = murmur::cpu_step(scenario, sparse, nullptr, sparse_steered);
    dense_free = murmur::cpu_step(scenario, dense_free);
  }
  CHECK(bit_identical(murmur::test::renamed(dense, ids), sparse));
  CHECK_FALSE(bit_identical(dense, dense_free));  // the steered boid mattered
  CHECK(bit_identical(murmur::cpu_step_brute_force(scenario, sparse, nullptr, sparse_steered),
                      murmur::cpu_step(scenario, sparse, nullptr, sparse_steered)));
}

TEST_CASE("a boid of an unknown species is an input error", "[cpu_flock]") {
  Scenario scenario = two_species(2, 2);
  scenario.source = "two.toml";
  FlockState state = random_state(scenario, 1);
  state.boids[1].species = 2;
  REQUIRE_THROWS_MATCHES(murmur::cpu_step(scenario, state), murmur::InputError,
                         Catch::Matchers::Message(
                             "state: boid 1 has species 2; scenario 'two.toml': accepted 0 to 1"));
  REQUIRE_THROWS_AS(murmur::cpu_step_brute_force(scenario, state), murmur::InputError);
}

// --- reproducibility and chaos -----------------------------------------------------------------
TEST_CASE("same input gives the same bits, and one ulp grows into a different flock",
          "[cpu_flock][reproducibility]") {
  constexpr int kSteps = 100;
  Scenario scenario = two_species(200, 100);
  const FlockState start = random_state(scenario, 12345);
  const FlockState first = run(scenario, start, kSteps);
  const FlockState second = run(scenario, start, kSteps);
  REQUIRE(bit_identical(first, second));

  FlockState nudged = start;
  const float original_x = nudged.boids[0].pos.x;
  nudged.boids[0].pos.x = std::nextafter(original_x, 1.0e9f);
  const float nudge = nudged.boids[0].pos.x - original_x;
  const FlockState diverged = run(scenario, nudged, kSteps);
  REQUIRE_FALSE(bit_identical(first, diverged));
  // Not just the nudged boid's last bit: the difference has been amplified and spread.
  float largest = 0.0f;
  std::size_t boids_moved = 0;
  for (std::size_t i = 0; i < first.boids.size(); ++i) {
    const float gap = glm::length(first.boids[i].pos - diverged.boids[i].pos);
    largest = std::max(largest, gap);
    if (gap > 0.0f) ++boids_moved;
  }
  INFO("largest gap " << largest << ", boids moved " << boids_moved);
  // Sensitive, not merely perturbed: the one-ulp nudge of one boid has been amplified and has
  // spread through neighbours to many boids.
  constexpr float kAmplification = 10.0f;
  constexpr std::size_t kMinBoidsReached = 10;
  REQUIRE(largest > kAmplification * nudge);
  REQUIRE(boids_moved > kMinBoidsReached);
}

// --- hand-built states with known answers ------------------------------------------------------
TEST_CASE("two boids closing head-on separate", "[cpu_flock][known]") {
  SpeciesParams s = typical_species("a", Topology::Wrap);
  s.count = 2;
  const Scenario scenario = world_of(100.0f, 100.0f, {s});
  FlockState state;
  // Slightly off the common line: exactly on it, min_speed > 0 forbids slowing through zero,
  // so only a sideways push can part them.
  state.boids = {Boid{{46.0f, 49.75f}, {1.0f, 0.0f}, 0, 0},
                 Boid{{54.0f, 50.25f}, {-1.0f, 0.0f}, 1, 0}};
  const float start_gap = distance(state.boids[0], state.boids[1]);
  float closest = start_gap;
  for (int k = 0; k < 20; ++k) {
    state = murmur::cpu_step(scenario, state);
    closest = std::min(closest, distance(state.boids[0], state.boids[1]));
  }
  const Boid& left = state.boids[0];
  const Boid& right = state.boids[1];
  REQUIRE(closest > 0.5f);  // they never met
  REQUIRE(distance(left, right) > start_gap);
  // Heading apart: the relative velocity points along the separation.
  REQUIRE(glm::dot(right.vel - left.vel, right.pos - left.pos) > 0.0f);
  // The pair is point-symmetric about (50, 50), and stays so up to rounding.
  REQUIRE_THAT(left.pos.x + right.pos.x, WithinAbs(100.0, 1e-3));
  REQUIRE_THAT(left.pos.y + right.pos.y, WithinAbs(100.0, 1e-3));
}

TEST_CASE("an aligned flock stays aligned", "[cpu_flock][known]") {
  SpeciesParams s = typical_species("a", Topology::Wrap);
  s.count = 64;
  const Scenario scenario = world_of(100.0f, 100.0f, {s});
  FlockState state;
  for (std::uint32_t k = 0; k < s.count; ++k) {
    // An 8 x 8 block spaced 5 apart: in view of each other, outside the separation radius.
    const glm::vec2 pos{30.0f + 5.0f * static_cast<float>(k % 8),
                        30.0f + 5.0f * static_cast<float>(k / 8)};
    state.boids.push_back(Boid{pos, {0.8f, 0.6f}, k, 0});
  }
  REQUIRE_THAT(murmur::compute_stats(scenario, state).polarization, WithinAbs(1.0, 1e-12));
  FlockState aligned = state;
  for (int k = 0; k < 50; ++k) aligned = murmur::cpu_step(scenario, aligned);
  REQUIRE(murmur::compute_stats(scenario, aligned).polarization > 0.99);

  SECTION("scattered headings line up") {
    SplitMix rng(8);
    constexpr float kScatter = 0.8f;  // radians either side of the common heading
    for (Boid& b : state.boids) {
      const float heading = 0.6435f + rng.in(-kScatter, kScatter);
      b.vel = {std::cos(heading), std::sin(heading)};
    }
    const double before = murmur::compute_stats(scenario, state).polarization;
    for (int k = 0; k < 20; ++k) state = murmur::cpu_step(scenario, state);
    const double after = murmur::compute_stats(scenario, state).polarization;
    INFO("polarization " << before << " -> " << after);
    REQUIRE(before < 0.95);
    REQUIRE(after > 0.98);
  }
}

TEST_CASE("a lone boid moves in a straight line at its speed", "[cpu_flock][known]") {
  SpeciesParams s = typical_species("a", Topology::Wrap);
  s.count = 1;
  const Scenario scenario = world_of(100.0f, 100.0f, {s});
  const glm::vec2 vel{0.6f, 0.8f};
  FlockState state;
  state.boids = {Boid{{10.0f, 20.0f}, vel, 7, 0}};
  glm::vec2 expected = state.boids[0].pos;
  for (int k = 0; k < 30; ++k) {
    state = murmur::cpu_step(scenario, state);
    expected += vel;  // no neighbour, no edge: acc is exactly 0, so p' = p + v exactly
    REQUIRE(state.boids[0].pos == expected);
    REQUIRE(state.boids[0].vel == vel);
  }
}

TEST_CASE("wrap: a boid crossing a seam reappears on the other side", "[cpu_flock][known]") {
  SpeciesParams s = typical_species("a", Topology::Wrap);
  s.count = 1;
  const Scenario scenario = world_of(100.0f, 80.0f, {s});
  FlockState state;
  state.boids = {Boid{{99.7f, 0.4f}, {1.0f, -1.0f}, 0, 0}};
  state = murmur::cpu_step(scenario, state);
  const Boid& b = state.boids[0];
  REQUIRE_THAT(b.pos.x, WithinAbs(0.7, 1e-5));
  REQUIRE_THAT(b.pos.y, WithinAbs(79.4, 1e-5));
  REQUIRE(b.vel == glm::vec2{1.0f, -1.0f});
}

TEST_CASE("wrap: a position that rounds up to L becomes 0", "[cpu_flock][known]") {
  // -tiny + L rounds to L in float32; the model maps that to 0 to keep positions in [0, L).
  SpeciesParams s = typical_species("a", Topology::Wrap);
  s.count = 1;
  s.min_speed = 0.0f;
  const Scenario scenario = world_of(100.0f, 100.0f, {s});
  FlockState state;
  state.boids = {Boid{{1e-7f, 50.0f}, {-1e-6f, 0.0f}, 0, 0}};
  state = murmur::cpu_step(scenario, state);
  REQUIRE(state.boids[0].pos.x == 0.0f);
}

TEST_CASE("bounded: a boid hitting a wall is reflected and stays inside", "[cpu_flock][known]") {
  SpeciesParams s = typical_species("a", Topology::Bounded);
  s.count = 1;
  s.edge_gain = 0.0f;  // no steering: the wall alone acts
  const Scenario scenario = world_of(100.0f, 80.0f, {s});
  FlockState state;
  state.boids = {Boid{{99.5f, 40.0f}, {1.5f, 0.5f}, 0, 0}};
  state = murmur::cpu_step(scenario, state);
  REQUIRE(state.boids[0].pos.x == 100.0f);  // clamped onto the wall
  REQUIRE(state.boids[0].vel == glm::vec2{-1.5f, 0.5f});
  for (int k = 0; k < 200; ++k) {
    state = murmur::cpu_step(scenario, state);
    const glm::vec2 p = state.boids[0].pos;
    REQUIRE(p.x >= 0.0f);
    REQUIRE(p.x <= 100.0f);
    REQUIRE(p.y >= 0.0f);
    REQUIRE(p.y <= 80.0f);
  }
  // Walls flip signs only: the speed is kept exactly.
  REQUIRE(std::abs(state.boids[0].vel.x) == 1.5f);
  REQUIRE(std::abs(state.boids[0].vel.y) == 0.5f);

  SECTION("with edge steering it turns before reaching the wall") {
    SpeciesParams steered = typical_species("a", Topology::Bounded);
    steered.count = 1;
    const Scenario gentle = world_of(100.0f, 80.0f, {steered});
    FlockState toward_wall;
    // A little sideways motion: the speed floor keeps a purely head-on boid from turning.
    toward_wall.boids = {Boid{{60.0f, 40.0f}, {0.995f, 0.0998f}, 0, 0}};
    float furthest = 0.0f;
    bool turned = false;
    for (int k = 0; k < 200 && !turned; ++k) {
      toward_wall = murmur::cpu_step(gentle, toward_wall);
      furthest = std::max(furthest, toward_wall.boids[0].pos.x);
      turned = toward_wall.boids[0].vel.x < 0.0f;
    }
    REQUIRE(turned);
    REQUIRE(furthest < 100.0f);  // never touched the wall
    REQUIRE(furthest > 90.0f);   // it did enter the margin
  }
}

TEST_CASE("speed limits hold", "[cpu_flock][known]") {
  SpeciesParams s = typical_species("a", Topology::Wrap);
  s.count = 1;
  const Scenario scenario = world_of(100.0f, 100.0f, {s});
  const auto one_step = [&](glm::vec2 vel) {
    FlockState state;
    state.boids = {Boid{{50.0f, 50.0f}, vel, 0, 0}};
    return murmur::cpu_step(scenario, state).boids[0].vel;
  };
  // Too slow: scaled up to min_speed, direction kept.
  const glm::vec2 slow = one_step({0.06f, 0.08f});
  REQUIRE_THAT(glm::length(slow), WithinRel(s.min_speed, 1e-6f));
  REQUIRE_THAT(slow.x / slow.y, WithinRel(0.75f, 1e-6f));
  // Too fast: scaled down to max_speed.
  const glm::vec2 fast = one_step({3.0f, -4.0f});
  REQUIRE_THAT(glm::length(fast), WithinRel(s.max_speed, 1e-6f));
  REQUIRE_THAT(fast.x / fast.y, WithinRel(-0.75f, 1e-6f));
  // At rest with no force: s' = 0 keeps v_i (no division by zero, no NaN).
  REQUIRE(one_step({0.0f, 0.0f}) == glm::vec2{0.0f, 0.0f});
}

TEST_CASE("field of view: a boid behind is not seen, one in front is", "[cpu_flock][known]") {
  SpeciesParams s = typical_species("a", Topology::Wrap);
  s.count = 2;
  s.fov_degrees = 200.0f;
  const Scenario scenario = world_of(100.0f, 100.0f, {s});
  const auto visible_to_first = [&](glm::vec2 other_pos) {
    FlockState state;
    state.boids = {Boid{{50.0f, 50.0f}, {1.0f, 0.0f}, 0, 0},
                   Boid{other_pos, {0.0f, 1.0f}, 1, 0}};
    murmur::CpuStepTrace trace;
    murmur::cpu_step(scenario, state, &trace);
    return trace.sums[0].visible;
  };
  REQUIRE(visible_to_first({47.0f, 50.0f}) == 0);  // directly behind
  REQUIRE(visible_to_first({53.0f, 50.0f}) == 1);  // in front
  REQUIRE(visible_to_first({50.0f, 53.0f}) == 1);  // abeam: inside a 200 degree view
  REQUIRE(visible_to_first({47.0f, 51.0f}) == 0);  // 161.6 degrees off the heading
  // The same pair with a full view sees behind too.
  SpeciesParams all_round = s;
  all_round.fov_degrees = 360.0f;
  const Scenario full = world_of(100.0f, 100.0f, {all_round});
  FlockState state;
  state.boids = {Boid{{50.0f, 50.0f}, {1.0f, 0.0f}, 0, 0},
                 Boid{{47.0f, 50.0f}, {0.0f, 1.0f}, 1, 0}};
  murmur::CpuStepTrace trace;
  murmur::cpu_step(full, state, &trace);
  REQUIRE(trace.sums[0].visible == 1);
}

TEST_CASE("flocks_with: another species is avoided but not followed", "[cpu_flock][known]") {
  SpeciesParams a = typical_species("a", Topology::Wrap);
  a.count = 1;
  SpeciesParams b = typical_species("b", Topology::Wrap);
  b.count = 1;
  const Scenario scenario = world_of(100.0f, 100.0f, {a, b});
  // b sits 2 ahead of a (inside the separation radius), flying across a's path.
  FlockState state;
  state.boids = {Boid{{50.0f, 50.0f}, {1.0f, 0.0f}, 0, 0},
                 Boid{{52.0f, 50.0f}, {0.0f, 1.0f}, 1, 1}};
  murmur::CpuStepTrace trace;
  const FlockState next = murmur::cpu_step(scenario, state, &trace);
  REQUIRE(trace.sums[0].visible == 1);
  REQUIRE(trace.sums[0].flock == 0);       // not aligned with nor cohered to
  REQUIRE(trace.sums[0].separating == 1);  // but still avoided
  // Pure separation pushes straight back (-x); alignment with b would have added +y.
  REQUIRE(next.boids[0].vel.y == 0.0f);
  REQUIRE(next.boids[0].vel.x < 1.0f);

  SECTION("the same pair as one species also aligns") {
    Scenario mixed = scenario;
    mixed.species[0].flocks_with = {"a", "b"};
    murmur::CpuStepTrace mixed_trace;
    const FlockState aligned = murmur::cpu_step(mixed, state, &mixed_trace);
    REQUIRE(mixed_trace.sums[0].flock == 1);
    REQUIRE(aligned.boids[0].vel.y > 0.0f);
  }
}

// --- long runs ---------------------------------------------------------------------------------
TEST_CASE("long runs keep the invariants", "[cpu_flock][invariants]") {
  // The invariants are `murmur soak`'s (murmur/flock/invariants.hpp), checked after every step.
  constexpr int kSteps = 500;
  const Scenario scenario = two_species(180, 120);
  FlockState state = random_state(scenario, 2718);
  const murmur::InvariantBaseline baseline = murmur::invariant_baseline(scenario, state);
  for (int step = 0; step < kSteps; ++step) {
    state = murmur::cpu_step(scenario, state);
    const auto broken = murmur::first_broken_invariant(
        scenario, baseline, state, static_cast<std::uint32_t>(state.boids.size()));
    INFO("step " << step << ": " << broken.value_or("all hold"));
    REQUIRE_FALSE(broken.has_value());
    if (step % 50 == 0) {
      const murmur::FlockStats stats = murmur::compute_stats(scenario, state);
      REQUIRE(stats.polarization >= 0.0);
      REQUIRE(stats.polarization <= 1.0);
    }
  }
}
