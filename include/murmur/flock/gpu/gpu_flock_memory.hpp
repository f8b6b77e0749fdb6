#pragma once
// The bytes of GpuFlock's buffers, computed without a GL context: what its constructor
// allocates (it takes the sizes from here) and what the memory estimate sums before a run
// allocates anything (docs/reliability.md, "The memory estimate").
#include <cstddef>
#include <cstdint>

#include "murmur/base/memory.hpp"
#include "murmur/scenario/scenario.hpp"

namespace murmur {

// Each buffer of a GpuFlock of `capacity` slots for a scenario (a flock of capacity 0 still
// gets one slot: GL allows no empty buffer).
struct GpuFlockBufferBytes {
  std::size_t boid_record = 0;     // one boid's record: 40 bytes, 48 in 3D
  std::size_t boids = 0;           // each of the candidates and the current state (two buffers)
  std::size_t slot_words = 0;      // a uint per slot: each of the boids' cells, the ids by cell,
                                   // the children and the birth offsets (four buffers), and the
                                   // three trail-slot buffers of a flock with births
  std::size_t neighbours = 0;      // four uints per slot
  std::size_t sorted_motion = 0;   // positions and velocities by cell, as texels
  std::size_t child_scan = 0;      // the scan of the children and trail slots
  std::size_t species = 0, obstacles = 0, params = 0, population = 0, tally = 0;
  std::size_t cell_starts = 0;     // each of the cell counts and starts: a uint per cell, and one
  std::size_t cell_fill = 0;       // the fill cursors: a uint per cell
  std::size_t cell_scan = 0;       // the scan of the cell counts
  std::size_t hunt = 0;            // the ecosystem's hunt records, four uints per slot
  std::size_t survivors = 0;       // the ecosystem's survivors per species
  std::size_t food = 0;            // each of the food field and its grazer counts
};
GpuFlockBufferBytes gpu_flock_buffer_bytes(const Scenario& scenario, std::uint32_t capacity);

// What the bytes total for a flock of the scenario's capacity, as fixed + per boid × N: the
// buffers that have one entry per slot are per boid; the rest (the grid, whose cells are capped
// by the capacity, the scans, species, food) is fixed at the scenario's capacity, which only a
// larger flock makes larger. The trail-slot buffers are counted whether or not births come.
MemoryNeed gpu_flock_memory(const Scenario& scenario);

// The host bytes GpuFlock::download holds: the GPU's records read back and the state made of
// them.
MemoryNeed gpu_flock_download_memory(const Scenario& scenario);

}  // namespace murmur
