#pragma once
// Hand-built species and worlds for tests. Each test file keeps its own numbers (its expected
// results depend on them); only the way they are assembled is shared.
#include <cstdint>
#include <utility>
#include <vector>

#include "murmur/scenario/scenario.hpp"

namespace murmur::test {

// The steering terms of the model; all zero leaves a species flying straight.
struct SteeringWeights {
  float align = 0;
  float cohesion = 0;
  float separation = 0;
};

// The wall push of a bounded species; ignored for wrap species.
struct EdgeSteering {
  float margin = 0;
  float gain = 0;
};

// Limits every test species shares: a boid may double its speed within a few steps.
constexpr float kTestMaxForce = 0.1f;
constexpr float kTestMinSpeed = 0.5f;
constexpr float kTestMaxSpeed = 2.0f;

// A species that sees all round (fov 360) and flocks with itself only.
inline SpeciesParams make_species(const char* name, Topology topology, float perception_radius,
                                  float separation_radius, SteeringWeights weights = {},
                                  EdgeSteering edge = {}, std::uint32_t count = 0) {
  SpeciesParams s;
  s.name = name;
  s.count = count;
  s.topology = topology;
  s.perception_radius = perception_radius;
  s.separation_radius = separation_radius;
  s.fov_degrees = 360;
  s.align_weight = weights.align;
  s.cohesion_weight = weights.cohesion;
  s.separation_weight = weights.separation;
  s.max_force = kTestMaxForce;
  s.min_speed = kTestMinSpeed;
  s.max_speed = kTestMaxSpeed;
  // Hand-built species ignore obstacles and the target unless a test gives them weights.
  s.obstacle_weight = 0;
  s.target_weight = 0;
  if (topology == Topology::Bounded) {
    s.edge_margin = edge.margin;
    s.edge_gain = edge.gain;
  }
  return s;
}

inline Scenario world_of(float width, float height, std::vector<SpeciesParams> species = {},
                         std::uint64_t seed = 0) {
  Scenario scenario;
  scenario.world.width = width;
  scenario.world.height = height;
  scenario.world.seed = seed;
  scenario.species = std::move(species);
  return scenario;
}

// One wrapping species "a" of `count` boids (radii 10 and 4) in a 400 x 300 plane, or a
// 400 x 300 x 200 volume: the memory estimate's tests size their terms on it.
inline Scenario one_species(std::uint32_t count, bool volume = false) {
  Scenario scenario =
      world_of(400.0f, 300.0f, {make_species("a", Topology::Wrap, 10.0f, 4.0f, {}, {}, count)});
  if (volume) {
    scenario.world.dimensions = 3;
    scenario.world.depth = 200.0f;
  }
  return scenario;
}

}  // namespace murmur::test
