#version 450
// Pass 4 of the grid build: copies every boid to its place in cell order, ranked by id inside
// its cell, so the order (and with it every float sum of the steering pass) is the same on
// every run. Cost: one read per cell mate (its id, listed by the scatter), less than the steering
// pass's 3x3 cells.
// in: candidate_texels, population, boid_cell_texels, cell_start_texels, cell_entry_texels.
// out: sorted_boids, and each one's position and velocity in sorted_motion (the steering pass
// fetches a candidate's as one 16-byte texel).
#define MURMUR_USES_GRID_BUILD
#define MURMUR_USES_SORTED_MOTION
#include "flock/sim_buffers.glsl"
#include "flock/boid_texels.glsl"
layout(binding = MURMUR_TEX_CELL_ENTRIES) uniform usamplerBuffer cell_entry_texels;
layout(binding = MURMUR_TEX_BOID_CELL) uniform usamplerBuffer boid_cell_texels;
layout(binding = MURMUR_TEX_CELL_START) uniform usamplerBuffer cell_start_texels;
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

void main() {
  uint slot = linear_invocation_index();
  if (slot >= population.candidates) return;
  uint cell = texelFetch(boid_cell_texels, int(slot)).x;
  if (cell == MURMUR_NO_CELL) return;
  Boid self = boid_at(candidate_texels, slot);
  if (params.fault == MURMUR_FAULT_UNSORTED_SCATTER) {
    sorted_boids[slot] = self;
    store_motion(slot, self);
    return;
  }
  uint first = texelFetch(cell_start_texels, int(cell)).x;
  uint end = texelFetch(cell_start_texels, int(cell) + 1).x;  // the next cell's start
  uint rank = 0u;
  for (uint k = first; k < end; ++k) {
    if (texelFetch(cell_entry_texels, int(k)).x < self.id) ++rank;
  }
  sorted_boids[first + rank] = self;
  store_motion(first + rank, self);
}
