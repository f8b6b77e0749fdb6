// The model options of the origin presets (docs/model.md): the linear separation kernel, the
// velocity factor, push walls and the linear target pull, against hand-computed values on the
// CPU reference (the GPU is held to it in tests/gpu/test_model_options_gpu.cpp).
#include <cmath>
#include <string>

#include <catch2/catch.hpp>
#include <glm/geometric.hpp>

#include "murmur/flock/cpu_flock.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/flock/invariants.hpp"
#include "murmur/flock/model.hpp"
#include "murmur/scenario/scenario.hpp"
#include "test_scenarios.hpp"

using namespace murmur;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

// So large that no test term is clipped by the force limit.
constexpr float kUnlimitedForce = 100.0f;

// One species in a 200 x 100 world with every steering weight 0 unless a test sets it.
Scenario world(Topology topology) {
  SpeciesParams s = test::make_species("a", topology, 10.0f, 6.0f, {}, {}, 1);
  s.max_force = kUnlimitedForce;
  return test::world_of(200.0f, 100.0f, {s});
}

FlockState boids(std::initializer_list<Boid> list) {
  FlockState state;
  std::uint32_t id = 0;
  for (Boid b : list) {
    b.id = id++;
    state.boids.push_back(b);
  }
  return state;
}

Boid at(glm::vec2 pos, glm::vec2 vel) { return Boid{pos, vel, 0, 0}; }

// The separation sum of an observer at (50, 50) heading +x with neighbours at d = (3, 4)
// (|d| = 5 < r_sep = 6) and d = (-3, 0).
NeighbourSums separation_sums(const Scenario& s) {
  const SpeciesModel m = species_models(s)[0];
  NeighbourSums sums;
  add_neighbour(sums, m, {1.0f, 0.0f}, {3.0f, 4.0f}, {1.0f, 0.0f}, 0, 1);
  add_neighbour(sums, m, {1.0f, 0.0f}, {-3.0f, 0.0f}, {1.0f, 0.0f}, 0, 2);
  return sums;
}

Scenario parse(const std::string& species_keys) {
  return parse_scenario("[world]\nwidth = 200\nheight = 100\n\n[[species]]\nname = \"a\"\n"
                        "count = 10\n" + species_keys,
                        "s.toml");
}

}  // namespace

TEST_CASE("Linear separation kernel: the sum of d, not of d / |d|^2") {
  Scenario s = world(Topology::Wrap);
  REQUIRE(s.species[0].separation_kernel == SeparationKernel::InverseSquare);  // the default
  const NeighbourSums inverse = separation_sums(s);
  REQUIRE(inverse.separation_sum == glm::vec2(3.0f / 25.0f + -3.0f / 9.0f, 4.0f / 25.0f));
  s.species[0].separation_kernel = SeparationKernel::Linear;
  const NeighbourSums linear = separation_sums(s);
  REQUIRE(linear.separating == 2);
  REQUIRE(linear.separation_sum == glm::vec2(0.0f, 4.0f));
}

TEST_CASE("Linear separation kernel: one step pushes by w_s times the sum of (p_i - p_j)") {
  Scenario s = world(Topology::Wrap);
  s.species[0].separation_kernel = SeparationKernel::Linear;
  s.species[0].separation_weight = 0.2f;
  const FlockState start =
      boids({at({50, 50}, {1, 0}), at({53, 54}, {1, 0}), at({47, 50}, {1, 0})});
  const Boid after = cpu_step(s, start).boids[0];
  // sep = -(3 + -3, 4 + 0) = (0, -4); acc = 0.2 sep; v' = v + acc; p' = p + v'.
  const glm::vec2 v{1.0f, 0.2f * -4.0f};
  REQUIRE(after.vel == v);
  REQUIRE(after.pos == glm::vec2(50.0f, 50.0f) + v);
  // A neighbour outside r_sep (|d| = 7 > 6) adds nothing, however far it is.
  const FlockState apart = boids({at({50, 50}, {1, 0}), at({57, 50}, {1, 0})});
  REQUIRE(cpu_step(s, apart).boids[0].vel == glm::vec2(1.0f, 0.0f));
}

TEST_CASE("Velocity factor multiplies v + acc before the speed limits") {
  Scenario s = world(Topology::Wrap);
  REQUIRE(s.species[0].velocity_factor == 1.0f);  // the default
  s.species[0].velocity_factor = 1.02f;
  const FlockState lone = boids({at({50, 50}, {1, 0})});
  const Boid faster = cpu_step(s, lone).boids[0];
  REQUIRE(faster.vel == glm::vec2(1.02f, 0.0f));
  REQUIRE(faster.pos == glm::vec2(50.0f + 1.02f, 50.0f));
  // On the sum with the steering, not on the old velocity alone: f (v + acc), not f v + acc.
  s.species[0].target_weight = 0.5f;
  s.target = Target{{150.0f, 50.0f}};
  REQUIRE(cpu_step(s, lone).boids[0].vel == glm::vec2(1.02f * (1.0f + 0.5f), 0.0f));
  // The speed limit comes after the factor: 2 * 1.02 is held to max_speed 2.
  s.target.reset();
  const Boid limited = cpu_step(s, boids({at({50, 50}, {2, 0})})).boids[0];
  REQUIRE_THAT(glm::length(limited.vel), WithinRel(double(test::kTestMaxSpeed), 1e-6));
  // A drag below 1 (origin 002's tutorial decay), down to min_speed.
  s.species[0].velocity_factor = 0.9f;
  REQUIRE(cpu_step(s, lone).boids[0].vel == glm::vec2(0.9f, 0.0f));
  const Boid slowest = cpu_step(s, boids({at({50, 50}, {0.5f, 0})})).boids[0];
  REQUIRE_THAT(slowest.vel.x, WithinRel(double(test::kTestMinSpeed), 1e-6));
}

TEST_CASE("Inverse speed limit: a velocity over the limit leaves at S_max^2 / s'") {
  Scenario s = world(Topology::Wrap);
  REQUIRE(s.species[0].speed_limit == SpeedLimit::Clamp);  // the default
  const FlockState fast = boids({at({50, 50}, {3, 4})});    // s' = 5, S_max = 2
  REQUIRE_THAT(glm::length(cpu_step(s, fast).boids[0].vel),
               WithinRel(double(test::kTestMaxSpeed), 1e-6));
  s.species[0].speed_limit = SpeedLimit::Inverse;
  // (S_max / s')^2 = 4 / 25: v' = (3, 4) * 0.16, |v'| = 0.8 = S_max^2 / s'.
  const Boid after = cpu_step(s, fast).boids[0];
  const float scale = (2.0f * 2.0f) / 25.0f;
  REQUIRE(after.vel == glm::vec2(3.0f * scale, 4.0f * scale));
  REQUIRE(after.pos == glm::vec2(50.0f, 50.0f) + after.vel);
  // Under the limit nothing changes: the two limits differ only above it.
  const FlockState slow = boids({at({50, 50}, {1.5f, 0})});
  REQUIRE(cpu_step(s, slow).boids[0].vel == glm::vec2(1.5f, 0.0f));
}

TEST_CASE("Self weight: the boid counted k times in its neighbours' means") {
  Scenario s = world(Topology::Wrap);
  REQUIRE(s.species[0].self_weight == 0);  // the default
  s.species[0].align_weight = 1.0f;
  s.species[0].cohesion_weight = 1.0f;
  s.species[0].separation_weight = 0.0f;
  s.species[0].max_speed = 10.0f;
  s.species[0].min_speed = 0.0f;
  // One neighbour at d = (3, 0) flying (0, 1); the observer flies (1, 0).
  const FlockState pair = boids({at({50, 50}, {1, 0}), at({53, 50}, {0, 1})});
  // k = 0: align = (0, 1) - (1, 0), coh = (3, 0).
  REQUIRE(cpu_step(s, pair).boids[0].vel == glm::vec2(1.0f, 0.0f) + glm::vec2(-1.0f, 1.0f) +
                                                glm::vec2(3.0f, 0.0f));
  // k = 2 (origin 000): the means over 1 + 2: align = ((0, 1) + 2 (1, 0)) / 3 - (1, 0),
  // coh = (3, 0) / 3.
  s.species[0].self_weight = 2;
  const glm::vec2 align = (glm::vec2(0.0f, 1.0f) + 2.0f * glm::vec2(1.0f, 0.0f)) / 3.0f -
                          glm::vec2(1.0f, 0.0f);
  const glm::vec2 cohesion = glm::vec2(3.0f, 0.0f) / 3.0f;
  REQUIRE(cpu_step(s, pair).boids[0].vel == glm::vec2(1.0f, 0.0f) + (align + cohesion));
  // A boid without flock neighbours feels nothing, whatever k.
  const FlockState lone = boids({at({50, 50}, {1, 0})});
  REQUIRE(cpu_step(s, lone).boids[0].vel == glm::vec2(1.0f, 0.0f));
}

TEST_CASE("Push walls: a constant push within the margin and no bounce at the wall") {
  Scenario s = world(Topology::Bounded);
  REQUIRE(s.species[0].walls == Walls::Reflect);  // the default
  s.species[0].walls = Walls::Push;
  s.species[0].edge_margin = 5.0f;
  s.species[0].edge_gain = 0.3f;
  // Inside the margin at x = 2, heading out: pushed back by k, whatever the depth.
  const Boid near_wall = cpu_step(s, boids({at({2, 50}, {-1, 0})})).boids[0];
  REQUIRE(near_wall.vel == glm::vec2(-1.0f + 0.3f, 0.0f));
  REQUIRE(near_wall.pos == glm::vec2(2.0f + (-1.0f + 0.3f), 50.0f));
  const Boid deeper = cpu_step(s, boids({at({4.5f, 50}, {-1, 0})})).boids[0];
  REQUIRE(deeper.vel == near_wall.vel);
  // The far walls push the other way, both axes at once in a corner.
  const Boid corner = cpu_step(s, boids({at({198, 97}, {0.6f, 0.8f})})).boids[0];
  REQUIRE(corner.vel == glm::vec2(0.6f - 0.3f, 0.8f - 0.3f));
  // Outside the margin: nothing.
  REQUIRE(cpu_step(s, boids({at({100, 50}, {-1, 0})})).boids[0].vel == glm::vec2(-1.0f, 0.0f));
  // Crossing the wall: held at 0, the velocity still outwards (reflecting walls would flip it).
  const Boid held = cpu_step(s, boids({at({0.5f, 50}, {-1, 0})})).boids[0];
  REQUIRE(held.pos == glm::vec2(0.0f, 50.0f));
  REQUIRE(held.vel == glm::vec2(-1.0f + 0.3f, 0.0f));
  s.species[0].walls = Walls::Reflect;
  s.species[0].edge_gain = 0.0f;
  REQUIRE(cpu_step(s, boids({at({0.5f, 50}, {-1, 0})})).boids[0].vel == glm::vec2(1.0f, 0.0f));
}

TEST_CASE("Push walls: a margin of 0 still pushes a boid held on the wall off it") {
  Scenario s = world(Topology::Bounded);
  s.species[0].walls = Walls::Push;
  s.species[0].edge_margin = 0.0f;
  s.species[0].edge_gain = 0.3f;
  const Boid on_wall = cpu_step(s, boids({at({0, 50}, {-1, 0})})).boids[0];
  REQUIRE(on_wall.vel == glm::vec2(-1.0f + 0.3f, 0.0f));
  REQUIRE(on_wall.pos == glm::vec2(0.0f, 50.0f));
  const Boid inside = cpu_step(s, boids({at({0.1f, 50}, {-1, 0})})).boids[0];
  REQUIRE(inside.vel == glm::vec2(-1.0f, 0.0f));  // not on the wall: no push
}

TEST_CASE("Push walls keep every boid in the world and the invariants over a long run") {
  Scenario s = world(Topology::Bounded);
  s.species[0].count = 300;
  s.species[0].walls = Walls::Push;
  s.species[0].edge_margin = 8.0f;
  s.species[0].edge_gain = 0.05f;
  s.species[0].velocity_factor = 1.02f;
  s.species[0].separation_kernel = SeparationKernel::Linear;
  s.species[0].separation_weight = 0.06f;
  s.species[0].align_weight = 0.05f;
  s.species[0].cohesion_weight = 0.01f;
  FlockState state = seeded_start(s);
  const InvariantBaseline baseline = invariant_baseline(s, state);
  bool reached_a_wall = false;
  for (int k = 0; k < 300; ++k) {
    state = cpu_step(s, state);
    const auto broken = first_broken_invariant(s, baseline, state,
                                               static_cast<std::uint32_t>(state.boids.size()));
    INFO("step " << k << ": " << broken.value_or(""));
    REQUIRE_FALSE(broken.has_value());
    for (const Boid& b : state.boids) {
      reached_a_wall = reached_a_wall || b.pos.x == 0.0f || b.pos.x == 200.0f ||
                       b.pos.y == 0.0f || b.pos.y == 100.0f;
    }
  }
  REQUIRE(reached_a_wall);  // the clamp was exercised, not just the push
}

TEST_CASE("Linear target pull: the displacement itself, across the seam on a torus") {
  Scenario s = world(Topology::Wrap);
  REQUIRE(s.species[0].target_pull == TargetPull::Unit);  // the default
  s.species[0].target_pull = TargetPull::Linear;
  s.target = Target{{190.0f, 50.0f}};
  const SpeciesModel m = species_models(s)[0];
  REQUIRE(target_pull(m, {10.0f, 40.0f}, surroundings_of(s)) == glm::vec2(-20.0f, 10.0f));
  REQUIRE(target_pull(m, {190.0f, 50.0f}, surroundings_of(s)) == glm::vec2(0.0f));
  Scenario b = world(Topology::Bounded);
  b.species[0].target_pull = TargetPull::Linear;
  b.species[0].target_weight = 0.01f;
  b.target = Target{{190.0f, 50.0f}};
  REQUIRE(target_pull(species_models(b)[0], {10.0f, 40.0f}, surroundings_of(b)) ==
          glm::vec2(180.0f, 10.0f));
  // In a step: acc = w_tgt q, so twice as far pulls twice as hard.
  const Boid far = cpu_step(b, boids({at({150, 50}, {1, 0})})).boids[0];
  const Boid half = cpu_step(b, boids({at({170, 50}, {1, 0})})).boids[0];
  REQUIRE(far.vel == glm::vec2(1.0f + 0.01f * 40.0f, 0.0f));
  REQUIRE(half.vel == glm::vec2(1.0f + 0.01f * 20.0f, 0.0f));
}

TEST_CASE("The model options are read, written back and their bad values are one-line errors") {
  const Scenario s = parse("separation_kernel = \"linear\"\nvelocity_factor = 1.02\n"
                           "topology = \"bounded\"\nwalls = \"push\"\ntarget_pull = \"linear\"\n"
                           "speed_limit = \"inverse\"\nself_weight = 2\n");
  REQUIRE(s.species[0].separation_kernel == SeparationKernel::Linear);
  REQUIRE(s.species[0].velocity_factor == 1.02f);
  REQUIRE(s.species[0].walls == Walls::Push);
  REQUIRE(s.species[0].target_pull == TargetPull::Linear);
  REQUIRE(s.species[0].speed_limit == SpeedLimit::Inverse);
  REQUIRE(s.species[0].self_weight == 2);
  const Scenario back = parse_scenario(scenario_to_toml(s), "back.toml");
  REQUIRE(back.species[0].separation_kernel == SeparationKernel::Linear);
  REQUIRE(back.species[0].walls == Walls::Push);
  REQUIRE(back.species[0].target_pull == TargetPull::Linear);
  REQUIRE(back.species[0].speed_limit == SpeedLimit::Inverse);
  REQUIRE(back.species[0].self_weight == 2);
  const auto rejected = [](const std::string& key, const std::string& message) {
    INFO(key);
    REQUIRE_THROWS_MATCHES(parse(key + "\n"), InputError,
                           Catch::Matchers::Message("s.toml:8: species[0] (a)." + message));
  };
  rejected("separation_kernel = \"cubic\"",
           "separation_kernel = \"cubic\": must be \"inverse_square\" or \"linear\"");
  rejected("walls = \"bounce\"", "walls = \"bounce\": must be \"reflect\" or \"push\"");
  rejected("target_pull = \"square\"", "target_pull = \"square\": must be \"unit\" or \"linear\"");
  rejected("velocity_factor = 2.5", "velocity_factor = 2.5: must be >= 0 and <= 2");
  rejected("velocity_factor = -0.1", "velocity_factor = -0.1: must be >= 0 and <= 2");
  rejected("walls = 1", "walls = 1: must be a string, found an integer");
  rejected("speed_limit = \"soft\"", "speed_limit = \"soft\": must be \"clamp\" or \"inverse\"");
  rejected("self_weight = 17", "self_weight = 17: must be >= 0 and <= 16");
}
