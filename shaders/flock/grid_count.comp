#version 450
// Pass 1 of the grid build: the cell of every candidate, and how many boids each cell holds.
// A boid that died in the step (of age, eaten or starved) gets MURMUR_NO_CELL and drops out of
// the counting sort, so the scan's total is the new live count (docs/gpu.md, "The
// simulation pipeline"); in a step (not an upload) its death is counted for its species.
// in: candidate_texels, population, species, params. out: boid_cell[slot], cell_count[cell]
// (zeroed before), tally (died; atomicAdd of counts, whose totals do not depend on order).
#define MURMUR_USES_GRID_BUILD
#include "flock/sim_buffers.glsl"
#include "flock/model.glsl"
#define MURMUR_USES_TALLY
#include "flock/eco_buffers.glsl"
#include "flock/boid_texels.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

uniform uint counting_deaths;  // 1 in a step; 0 when an upload drops boids already dead

void main() {
  uint slot = linear_invocation_index();
  if (slot >= population.candidates) return;
  Boid b = boid_at(candidate_texels, slot);
  if (dies_in_step(species[b.species], b)) {
    boid_cell[slot] = MURMUR_NO_CELL;
    if (counting_deaths != 0u) tally_add(b.species, MURMUR_TALLY_DIED, 1u);
    return;
  }
  uint cell = cell_index(cell_coords(position_of(b)));
  boid_cell[slot] = cell;
  atomicAdd(cell_count[cell], 1u);
}
