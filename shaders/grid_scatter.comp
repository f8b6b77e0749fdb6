#version 450
// Pass 3 of the grid build: lists each cell's boids in its range of cell_entries. The order
// inside a cell depends on atomic timing; grid_rank.comp makes it deterministic.
// in: boid_cell, cell_start, population. in/out: cell_fill (zeroed before). out: cell_entries.
#define MURMUR_USES_GRID_BUILD
#include "sim_buffers.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "compute_index.glsl"

void main() {
  uint slot = linear_invocation_index();
  if (slot >= population.candidates) return;
  uint cell = boid_cell[slot];
  if (cell == MURMUR_NO_CELL) return;
  cell_entries[cell_start[cell] + atomicAdd(cell_fill[cell], 1u)] = slot;
}
