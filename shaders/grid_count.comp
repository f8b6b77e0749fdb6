#version 450
// Pass 1 of the grid build: the cell of every candidate, and how many boids each cell holds.
// A boid that died in the step gets MURMUR_NO_CELL and drops out of the counting sort, so the
// scan's total is the new live count (docs/gpu.md, "A living population").
// in: boids (candidates), population, species, params. out: boid_cell[slot], cell_count[cell]
// (zeroed before).
#include "sim_buffers.glsl"
#include "model.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "compute_index.glsl"

void main() {
  uint slot = linear_invocation_index();
  if (slot >= population.candidates) return;
  Boid b = boids[slot];
  if (dies_of_age(species[b.species], b.age)) {
    boid_cell[slot] = MURMUR_NO_CELL;
    return;
  }
  uint cell = cell_index(cell_coords(b.pos));
  boid_cell[slot] = cell;
  atomicAdd(cell_count[cell], 1u);
}
