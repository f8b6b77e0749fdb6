#version 450
// The population's counts and dispatch arguments, kept on the GPU (one invocation).
// Phase MURMUR_POPULATION_AFTER_BIRTHS: the children born this step (births.comp placed them),
// the candidate count the grid build reads, and next_id.
// Phase MURMUR_POPULATION_AFTER_SORT: the live count is the counting sort's total.
#include "flock/sim_buffers.glsl"
layout(local_size_x = 1) in;
#include "common/compute_index.glsl"

uniform uint update_phase;

// glDispatchComputeIndirect arguments for `items` boids, folded into y past GL's limit.
uvec4 groups_for(uint items) {
  return uvec4(folded_groups((items + MURMUR_STEP_GROUP_SIZE - 1u) / MURMUR_STEP_GROUP_SIZE), 0u);
}

void main() {
  uint live = population.live;
  if (update_phase == MURMUR_POPULATION_AFTER_BIRTHS) {
    uint born = 0u;
    bool births_on = params.budding_period != 0u || params.energy_births != 0u;
    if (births_on && live > 0u && live < params.capacity) {
      uint total = child_offset[live - 1u] + child_count[live - 1u];
      born = min(total, params.capacity - live);
    }
    population.steered = live;
    population.born = born;
    population.candidates = live + born;
    population.next_id += born;  // a wrap here is a step GpuFlock refuses (check_ids_of_births)
    population.candidate_groups = groups_for(live + born);
  } else {
    uint last = params.cell_count - 1u;
    population.live = cell_start[last] + cell_count[last];
    population.live_groups = groups_for(population.live);
  }
}
