#include "murmur/flock/gpu/gpu_flock_memory.hpp"

#include <algorithm>

#include "common/interface.h"
#include "ecosystem_plan.hpp"
#include "murmur/flock/grid.hpp"
#include "murmur/flock/gpu/gpu_types.hpp"
#include "murmur/flock/state.hpp"
#include "murmur/gl/gpu_scan.hpp"

namespace murmur {
namespace {

// The neighbour counts' and the hunt records' uints per slot.
constexpr std::size_t kNeighbourWords = 4;
constexpr std::size_t kHuntWords = 4;
// A texel of the positions and velocities by cell: RGBA32F.
constexpr std::size_t kMotionTexelBytes = 4 * sizeof(float);
// The buffers of a uint per slot: the boids' cells, the ids by cell, the children, the birth
// offsets, and the trail slots taken, taken before and free.
constexpr std::size_t kSlotWordBuffers = 7;

}  // namespace

GpuFlockBufferBytes gpu_flock_buffer_bytes(const Scenario& scenario, std::uint32_t capacity) {
  const bool volume = is_3d(scenario);
  const std::size_t slots = std::max<std::uint32_t>(capacity, 1);
  const std::size_t species_slots = std::max<std::size_t>(scenario.species.size(), 1);
  GpuFlockBufferBytes bytes;
  bytes.boid_record = volume ? sizeof(gpu::Boid3D) : sizeof(gpu::Boid);
  bytes.boids = bytes.boid_record * slots;
  bytes.slot_words = sizeof(std::uint32_t) * slots;
  bytes.neighbours = kNeighbourWords * sizeof(std::uint32_t) * slots;
  const std::size_t motion_texels = volume ? MURMUR_MOTION_3D_TEXELS : MURMUR_MOTION_TEXELS;
  bytes.sorted_motion = kMotionTexelBytes * motion_texels * slots;
  bytes.child_scan = GpuScan::bytes_for(static_cast<std::uint32_t>(slots));
  bytes.species = sizeof(gpu::Species) * species_slots;
  bytes.obstacles = sizeof(gpu::Obstacle) * kMaxObstacles;
  bytes.params = sizeof(gpu::StepParams);
  bytes.population = sizeof(gpu::Population);
  bytes.tally = sizeof(gpu::SpeciesTally) * species_slots;
  const std::uint32_t cells = grid_shape_for(scenario, capacity).cell_count();
  bytes.cell_starts = sizeof(std::uint32_t) * (std::size_t{cells} + 1);
  bytes.cell_fill = sizeof(std::uint32_t) * cells;
  bytes.cell_scan = GpuScan::bytes_for(cells + 1);
  if (EcosystemPlan(scenario).on) {
    bytes.hunt = kHuntWords * sizeof(std::uint32_t) * slots;
    bytes.survivors = sizeof(std::uint32_t) * species_slots;
    const std::uint32_t food_cells =
        scenario.food ? food_grid_shape(*scenario.food, scenario.size()).cell_count() : 0;
    bytes.food = sizeof(float) * std::max<std::uint32_t>(food_cells, 1);
  }
  return bytes;
}

MemoryNeed gpu_flock_memory(const Scenario& scenario) {
  const std::uint32_t capacity = scenario.capacity();
  const GpuFlockBufferBytes b = gpu_flock_buffer_bytes(scenario, capacity);
  // Two boid buffers, two cell-start buffers (counts and starts), the food field and its
  // grazer counts (the same size in bytes).
  const std::uint64_t total = 2 * b.boids + kSlotWordBuffers * b.slot_words + b.neighbours +
                              b.sorted_motion + b.child_scan + b.species + b.obstacles +
                              b.params + b.population + b.tally + 2 * b.cell_starts +
                              b.cell_fill + b.cell_scan + b.hunt + b.survivors + 2 * b.food;
  const bool ecosystem = b.hunt != 0;
  const std::uint64_t per_boid = 2 * b.boid_record + kSlotWordBuffers * sizeof(std::uint32_t) +
                                 kNeighbourWords * sizeof(std::uint32_t) +
                                 b.sorted_motion / std::max<std::uint32_t>(capacity, 1) +
                                 (ecosystem ? kHuntWords * sizeof(std::uint32_t) : 0);
  const std::uint64_t per_boid_total = per_boid * capacity;
  return {total > per_boid_total ? total - per_boid_total : 0, per_boid};
}

MemoryNeed gpu_flock_download_memory(const Scenario& scenario) {
  const std::size_t record = is_3d(scenario) ? sizeof(gpu::Boid3D) : sizeof(gpu::Boid);
  return flock_state_memory(scenario) + MemoryNeed{0, record};
}

}  // namespace murmur
