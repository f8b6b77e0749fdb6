#version 450
// Pass 4 of the grid build: copies every boid to its place in cell order, ranked by id inside
// its cell, so the order (and with it every float sum of the steering pass) is the same on
// every run. Cost: one read per cell mate, less than the steering pass's 3x3 cells.
// in: boids (candidates), population, boid_cell, cell_start, cell_count, cell_entries. out: sorted_boids.
#define MURMUR_USES_GRID_BUILD
#include "sim_buffers.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "compute_index.glsl"

void main() {
  uint slot = linear_invocation_index();
  if (slot >= population.candidates) return;
  uint cell = boid_cell[slot];
  if (cell == MURMUR_NO_CELL) return;
  Boid self = boids[slot];
  if (params.fault == MURMUR_FAULT_UNSORTED_SCATTER) {
    sorted_boids[slot] = self;
    return;
  }
  uint first = cell_start[cell];
  uint end = first + cell_count[cell];
  uint rank = 0u;
  for (uint k = first; k < end; ++k) {
    if (boids[cell_entries[k]].id < self.id) ++rank;
  }
  sorted_boids[first + rank] = self;
}
