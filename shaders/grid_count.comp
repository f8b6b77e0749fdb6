#version 450
// Pass 1 of the grid build: the cell of every boid, and how many boids each cell holds.
// in: boids (state t), params. out: boid_cell[slot], cell_count[cell] (zeroed before).
#include "sim_buffers.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "compute_index.glsl"

void main() {
  uint slot = linear_invocation_index();
  if (slot >= params.boid_count) return;
  uint cell = cell_index(cell_coords(boids[slot].pos));
  boid_cell[slot] = cell;
  atomicAdd(cell_count[cell], 1u);
}
