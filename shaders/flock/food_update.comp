#version 450
// The food field's step (docs/model.md, "An ecosystem", step 4), per food cell: its grazers
// eat, then it regrows. Runs after steering, which read the field of state t.
// in: food_grazers, params. in/out: food (state t -> state t+1).
#include "flock/sim_buffers.glsl"
#include "flock/model.glsl"
#define MURMUR_USES_FOOD
#define MURMUR_USES_FOOD_GRAZERS
#include "flock/eco_buffers.glsl"
#include "flock/ecosystem.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

void main() {
  uint cell = linear_invocation_index();
  if (cell >= uint(params.food_grid.x * params.food_grid.y)) return;
  food[cell] = food_after_step(food_grazers[cell], food[cell]);
}
