#pragma once
// C++ mirrors of the std430 records in shaders/common/common.glsl. The static_asserts keep the two
// from drifting: change one, change both. The per-species record is generated from the species
// table instead (species_record.hpp, included at the end).
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <glm/vec2.hpp>

#include "common/interface.h"
#include "murmur/flock/model.hpp"
#include "murmur/flock/state.hpp"

namespace murmur::gpu {

struct Boid {
  glm::vec2 pos;
  glm::vec2 vel;
  std::uint32_t id;
  std::uint32_t species;
  std::uint32_t age;
  std::uint32_t trail_slot = 0;  // the GPU's, for the renderer (shaders/common/common.glsl)
  float energy = 0.0f;
  std::uint32_t fate = MURMUR_FATE_LIVES;
};
static_assert(sizeof(Boid) == 40);
static_assert(offsetof(Boid, vel) == 8 && offsetof(Boid, id) == 16 && offsetof(Boid, species) == 20 &&
              offsetof(Boid, age) == 24 && offsetof(Boid, trail_slot) == 28 &&
              offsetof(Boid, energy) == 32 && offsetof(Boid, fate) == 36);
// The 8-byte texels through which passes fetch a Boid (shaders/flock/boid_texels.glsl).
constexpr std::size_t kBoidTexelBytes = 8;
static_assert(sizeof(Boid) == kBoidTexelBytes * MURMUR_BOID_TEXELS);
static_assert(offsetof(Boid, pos) == kBoidTexelBytes * MURMUR_BOID_TEXEL_POS &&
              offsetof(Boid, vel) == kBoidTexelBytes * MURMUR_BOID_TEXEL_VEL &&
              offsetof(Boid, id) == kBoidTexelBytes * MURMUR_BOID_TEXEL_ID_SPECIES &&
              offsetof(Boid, age) == kBoidTexelBytes * MURMUR_BOID_TEXEL_AGE_SLOT &&
              offsetof(Boid, energy) == kBoidTexelBytes * MURMUR_BOID_TEXEL_ENERGY_FATE);

// A 3D world's boid (common.glsl's Boid under MURMUR_3D): the plane's record, then z and vz.
struct Boid3D {
  Boid plane;
  float z = 0.0f;
  float vz = 0.0f;
};
static_assert(sizeof(Boid3D) == 48 && offsetof(Boid3D, z) == sizeof(Boid) &&
              offsetof(Boid3D, vz) == sizeof(Boid) + sizeof(float));
static_assert(sizeof(Boid3D) == kBoidTexelBytes * MURMUR_BOID_3D_TEXELS &&
              offsetof(Boid3D, z) == kBoidTexelBytes * MURMUR_BOID_TEXEL_DEPTH);

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
  std::uint32_t seed[2] = {0, 0};  // low word, high word
  glm::vec2 inverse_cell_size{0.0f};
  glm::ivec2 food_grid{0, 0};
  glm::vec2 food_inverse_cell_size{0.0f};
  float food_cell_size = 0;
  float food_bite = 0;
  float food_max_per_cell = 0;
  float food_regrow_per_step = 0;
  std::uint32_t has_food = 0;
  std::uint32_t energy_births = 0;
  float world_depth = 0;
  float cell_depth = 0;
  float inverse_cell_depth = 0;
  std::int32_t grid_layers = 1;
  float target_z = 0;
  float steered_velocity_z = 0;
};
static_assert(sizeof(StepParams) == 152);
static_assert(offsetof(StepParams, world_depth) == 128 && offsetof(StepParams, grid_layers) == 140 &&
              offsetof(StepParams, steered_velocity_z) == 148);
static_assert(offsetof(StepParams, grid) == 16 && offsetof(StepParams, capacity) == 24 &&
              offsetof(StepParams, fault) == 32 && offsetof(StepParams, target) == 48 &&
              offsetof(StepParams, steered_velocity) == 56 && offsetof(StepParams, steered_id) == 64 &&
              offsetof(StepParams, budding_period) == 68);
static_assert(offsetof(StepParams, seed) == 72 && offsetof(StepParams, inverse_cell_size) == 80 &&
              offsetof(StepParams, food_grid) == 88 &&
              offsetof(StepParams, food_inverse_cell_size) == 96 &&
              offsetof(StepParams, food_cell_size) == 104 &&
              offsetof(StepParams, food_bite) == 108 &&
              offsetof(StepParams, food_max_per_cell) == 112 &&
              offsetof(StepParams, food_regrow_per_step) == 116 &&
              offsetof(StepParams, has_food) == 120 && offsetof(StepParams, energy_births) == 124);

struct Population {
  std::uint32_t live, candidates, next_id, born;
  std::uint32_t steered, pad0, pad1, pad2;
  std::uint32_t live_groups[4];
  std::uint32_t candidate_groups[4];
};
static_assert(sizeof(Population) == 64);
static_assert(offsetof(Population, next_id) == 8 && offsetof(Population, steered) == 16 &&
              offsetof(Population, live_groups) == 32 && offsetof(Population, candidate_groups) == 48);

// The events of one species (shaders/common/common.glsl SpeciesTally): 64-bit counts as (low word,
// high word), in the order of MURMUR_TALLY_*.
struct SpeciesTally {
  std::uint32_t counters[MURMUR_TALLY_COUNTERS][2];
  std::uint64_t count(std::uint32_t counter) const {
    return (std::uint64_t{counters[counter][1]} << 32) | counters[counter][0];
  }
};
static_assert(sizeof(SpeciesTally) == 24);
inline murmur::SpeciesTotals from_gpu(const SpeciesTally& t) {
  return murmur::SpeciesTotals{t.count(MURMUR_TALLY_BORN), t.count(MURMUR_TALLY_DROPPED),
                               t.count(MURMUR_TALLY_DIED)};
}
inline SpeciesTally to_gpu(const murmur::SpeciesTotals& totals) {
  SpeciesTally t{};
  const std::uint64_t counts[MURMUR_TALLY_COUNTERS] = {totals.born, totals.dropped, totals.died};
  for (std::uint32_t c = 0; c < MURMUR_TALLY_COUNTERS; ++c) {
    t.counters[c][0] = static_cast<std::uint32_t>(counts[c]);
    t.counters[c][1] = static_cast<std::uint32_t>(counts[c] >> 32);
  }
  return t;
}

// One obstacle as the shaders read it: centre.xy, radius, centre.z (0 in 2D).
struct Obstacle {
  glm::vec2 centre;
  float radius;
  float centre_z = 0;
};
static_assert(sizeof(Obstacle) == 16);

inline Boid to_gpu(const murmur::Boid& b) {
  return Boid{b.pos, b.vel, b.id, b.species, b.age, 0, b.energy, MURMUR_FATE_LIVES};
}
inline murmur::Boid from_gpu(const Boid& b) {
  return murmur::Boid{b.pos, b.vel, b.id, b.species, b.age, b.energy};
}
inline Boid3D to_gpu_3d(const murmur::Boid& b) { return Boid3D{to_gpu(b), b.z, b.vz}; }
inline murmur::Boid from_gpu(const Boid3D& b) {
  murmur::Boid boid = from_gpu(b.plane);
  boid.z = b.z;
  boid.vz = b.vz;
  return boid;
}

// A model value as a GPU record field holds it: bools and enums travel as uint.
inline float gpu_value(float value) { return value; }
inline std::uint32_t gpu_value(std::uint32_t value) { return value; }
inline std::uint32_t gpu_value(bool value) { return value ? 1u : 0u; }
template <class Enum>
  requires std::is_enum_v<Enum>
std::uint32_t gpu_value(Enum value) {
  return static_cast<std::uint32_t>(value);
}

}  // namespace murmur::gpu

// gpu::Species and its to_gpu(), generated from the species table with every std430 offset
// checked (src/paramgen).
#include "murmur/flock/gpu/species_record.hpp"
