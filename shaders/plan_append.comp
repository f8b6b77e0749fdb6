#version 450
// Step 3, second part: each moving agent saves its point at append_first + its rank among the
// step's moves (the exclusive scan of mover_rank), so the points come in agent order as on
// the CPU, with no atomic deciding it; and links it to the agent's point before it, for the
// drawing (the steps never read the links).
// in: agents, mover_rank, control, params, last_point. out: points, previous_point, last_point.
#include "plan.glsl"
// The drawing's links, which the steps never read, declared here alone: a shader may declare
// at most 16 storage blocks (llvmpipe's GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS), and
// plan_buffers.glsl declares 14.
layout(std430, binding = MURMUR_BIND_PLAN_PREVIOUS) buffer PlanPrevious { uint previous_point[]; };
layout(std430, binding = MURMUR_BIND_PLAN_LAST_POINT) buffer PlanLastPoint { uint last_point[]; };
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "compute_index.glsl"

uniform uint step_number;

void main() {
  uint i = linear_invocation_index();
  if (i >= plan.agent_count || control.error != MURMUR_PLAN_OK) return;
  PlanAgentRecord a = agents[i];
  if (a.moved == 0u) return;
  uint p = control.append_first + mover_rank[i];
  points[p] = PlanPointRecord(a.location, a.drawn, a.last_move, a.id, step_number);
  previous_point[p] = last_point[i];
  last_point[i] = p;
}
