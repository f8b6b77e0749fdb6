#version 450
// n_c (docs/model.md, "An ecosystem", step 4): the grazers of state t in each food cell. The
// counts are added with atomicAdd: a total, whatever the order, so nothing depends on timing.
// in: sorted_boids (state t), species, params, population. out: food_grazers (zeroed before).
#include "flock/sim_buffers.glsl"
#include "flock/model.glsl"
#define MURMUR_USES_FOOD_GRAZERS
#include "flock/eco_buffers.glsl"
#include "flock/ecosystem.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

void main() {
  uint slot = linear_invocation_index();
  if (slot >= population.live) return;
  Boid b = sorted_boids[slot];
  if (species[b.species].grazes == 0u) return;
  atomicAdd(food_grazers[food_cell_index(food_cell_coords(b.pos))], 1u);
}
