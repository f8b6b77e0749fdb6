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
  std::uint32_t pad0 = 0;
  std::uint32_t pad1 = 0;
};
static_assert(sizeof(Boid) == 32);
static_assert(offsetof(Boid, vel) == 8 && offsetof(Boid, id) == 16 && offsetof(Boid, species) == 20);

struct Species {
  float radius_sq, sep_radius_sq, cos_half_fov;
  std::uint32_t limited_fov;
  float align_weight, cohesion_weight, separation_weight, max_force;
  float min_speed, max_speed, edge_margin, edge_gain;
  std::uint32_t topology, flock_mask, pad0 = 0, pad1 = 0;
};
static_assert(sizeof(Species) == 64);
static_assert(offsetof(Species, align_weight) == 16 && offsetof(Species, min_speed) == 32 &&
              offsetof(Species, topology) == 48);

struct StepParams {
  glm::vec2 world;
  glm::vec2 cell_size;
  glm::ivec2 grid;
  std::uint32_t boid_count;
  std::uint32_t cell_count;
  std::uint32_t fault;
  std::uint32_t pad0 = 0, pad1 = 0, pad2 = 0;
};
static_assert(sizeof(StepParams) == 48);
static_assert(offsetof(StepParams, grid) == 16 && offsetof(StepParams, boid_count) == 24 &&
              offsetof(StepParams, fault) == 32);

inline Boid to_gpu(const murmur::Boid& b) { return Boid{b.pos, b.vel, b.id, b.species}; }
inline murmur::Boid from_gpu(const Boid& b) { return murmur::Boid{b.pos, b.vel, b.id, b.species}; }

inline Species to_gpu(const SpeciesModel& m) {
  return Species{m.radius_sq,        m.sep_radius_sq,  m.cos_half_fov,
                 m.limited_fov ? 1u : 0u,
                 m.align_weight,     m.cohesion_weight, m.separation_weight, m.max_force,
                 m.min_speed,        m.max_speed,       m.edge_margin,       m.edge_gain,
                 static_cast<std::uint32_t>(m.topology), m.flock_mask};
}

}  // namespace murmur::gpu
