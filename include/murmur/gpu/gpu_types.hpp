#pragma once
// C++ mirrors of the std430 records in shaders/common.glsl. The static_asserts keep the two
// from drifting: change one, change both.
#include <cstddef>
#include <cstdint>

#include <glm/vec2.hpp>

#include "interface.h"
#include "murmur/model.hpp"
#include "murmur/state.hpp"

namespace murmur::gpu {

struct Boid {
  glm::vec2 pos;
  glm::vec2 vel;
  std::uint32_t id;
  std::uint32_t species;
  std::uint32_t age;
  std::uint32_t pad0 = 0;
};
static_assert(sizeof(Boid) == 32);
static_assert(offsetof(Boid, vel) == 8 && offsetof(Boid, id) == 16 && offsetof(Boid, species) == 20 &&
              offsetof(Boid, age) == 24);

struct Species {
  float radius_sq, sep_radius_sq, cos_half_fov;
  std::uint32_t limited_fov;
  float align_weight, cohesion_weight, separation_weight, max_force;
  float min_speed, max_speed, edge_margin, edge_gain;
  std::uint32_t topology, flock_mask;
  float obstacle_weight, target_weight, perception_radius;
  std::uint32_t max_age;
};
static_assert(sizeof(Species) == 72);
static_assert(offsetof(Species, align_weight) == 16 && offsetof(Species, min_speed) == 32 &&
              offsetof(Species, topology) == 48 && offsetof(Species, obstacle_weight) == 56 &&
              offsetof(Species, perception_radius) == 64 && offsetof(Species, max_age) == 68);

struct StepParams {
  glm::vec2 world;
  glm::vec2 cell_size;
  glm::ivec2 grid;
  std::uint32_t capacity;
  std::uint32_t cell_count;
  std::uint32_t fault;
  std::uint32_t obstacle_count = 0;
  std::uint32_t has_target = 0;
  std::uint32_t has_steered = 0;
  glm::vec2 target{0.0f};
  glm::vec2 steered_velocity{0.0f};
  std::uint32_t steered_id = 0;
  std::uint32_t budding_period = 0;
  std::uint32_t pad0 = 0, pad1 = 0;
  glm::vec2 inverse_cell_size{0.0f};
};
static_assert(sizeof(StepParams) == 88);
static_assert(offsetof(StepParams, grid) == 16 && offsetof(StepParams, capacity) == 24 &&
              offsetof(StepParams, fault) == 32 && offsetof(StepParams, target) == 48 &&
              offsetof(StepParams, steered_velocity) == 56 && offsetof(StepParams, steered_id) == 64 &&
              offsetof(StepParams, budding_period) == 68 && offsetof(StepParams, inverse_cell_size) == 80);

struct Population {
  std::uint32_t live, candidates, next_id, born;
  std::uint32_t steered, pad0, pad1, pad2;
  std::uint32_t live_groups[4];
  std::uint32_t candidate_groups[4];
};
static_assert(sizeof(Population) == 64);
static_assert(offsetof(Population, next_id) == 8 && offsetof(Population, steered) == 16 &&
              offsetof(Population, live_groups) == 32 && offsetof(Population, candidate_groups) == 48);

// One obstacle as the shaders read it: centre.xy, radius, unused.
struct Obstacle {
  glm::vec2 centre;
  float radius;
  float unused = 0;
};
static_assert(sizeof(Obstacle) == 16);

inline Boid to_gpu(const murmur::Boid& b) { return Boid{b.pos, b.vel, b.id, b.species, b.age}; }
inline murmur::Boid from_gpu(const Boid& b) {
  return murmur::Boid{b.pos, b.vel, b.id, b.species, b.age};
}

inline Species to_gpu(const SpeciesModel& m) {
  return Species{m.radius_sq,        m.sep_radius_sq,  m.cos_half_fov,
                 m.limited_fov ? 1u : 0u,
                 m.align_weight,     m.cohesion_weight, m.separation_weight, m.max_force,
                 m.min_speed,        m.max_speed,       m.edge_margin,       m.edge_gain,
                 static_cast<std::uint32_t>(m.topology), m.flock_mask,
                 m.obstacle_weight,  m.target_weight,   m.perception_radius,
                 m.max_age};
}

}  // namespace murmur::gpu
