#version 450
// Step 4's grid, first part: each block of MURMUR_PLAN_TOTAL_BLOCK agents (the dead included)
// sums its locations in double in agent order, as the CPU's crowd_of does, and takes their
// bounding box. One invocation per block. in: agents, params. out: partials.
#include "plan/plan.glsl"
#include "plan/plan_grid_buffers.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

void main() {
  uint block = linear_invocation_index();
  uint begin = block * MURMUR_PLAN_TOTAL_BLOCK;
  if (begin >= control.agent_count || control.error != MURMUR_PLAN_OK) return;
  uint end = min(control.agent_count, begin + MURMUR_PLAN_TOTAL_BLOCK);
  precise dvec2 total = dvec2(0.0lf);
  vec2 low = agents[begin].location, high = low;
  for (uint i = begin; i < end; ++i) {
    vec2 p = agents[i].location;
    total += dvec2(p);
    low = min(low, p);
    high = max(high, p);
  }
  partials[block] = PlanPartial(total, low, high);
}
