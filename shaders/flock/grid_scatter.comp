#version 450
// Pass 3 of the grid build: lists the ids of each cell's boids in its range of cell_entries
// (the rank pass compares only ids). The order inside a cell depends on atomic timing;
// grid_rank.comp makes the state's order deterministic.
// in: boid_cell_texels, cell_start_texels, candidate_texels (ids), population.
// in/out: cell_fill (zeroed before). out: cell_entries.
#define MURMUR_USES_GRID_BUILD
#include "flock/sim_buffers.glsl"
#include "flock/boid_texels.glsl"
layout(binding = MURMUR_TEX_BOID_CELL) uniform usamplerBuffer boid_cell_texels;
layout(binding = MURMUR_TEX_CELL_START) uniform usamplerBuffer cell_start_texels;
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

void main() {
  uint slot = linear_invocation_index();
  if (slot >= population.candidates) return;
  uint cell = texelFetch(boid_cell_texels, int(slot)).x;
  if (cell == MURMUR_NO_CELL) return;
  uint id = boid_texel(candidate_texels, slot, MURMUR_BOID_TEXEL_ID_SPECIES).x;
  uint first = texelFetch(cell_start_texels, int(cell)).x;
  cell_entries[first + atomicAdd(cell_fill[cell], 1u)] = id;
}
