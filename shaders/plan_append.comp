#version 450
// Step 3, second part: each moving agent saves its point at append_first + its rank among the
// step's moves (the exclusive scan of mover_rank over the listed agents, which are in index
// order), so the points come in agent order as on the CPU, with no atomic deciding it; lists
// itself at that rank among the step's movers; and links its point to the agent's point before
// it, for the drawing (the steps never read the links).
// in: listed, agents, mover_rank, control, params, last_point. out: points, movers_out,
// previous_point, last_point.
#include "plan.glsl"
#include "plan_listed.glsl"
// The drawing's links, which the steps never read, declared here alone: a shader may declare
// at most 16 storage blocks (llvmpipe's GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS).
layout(std430, binding = MURMUR_BIND_PLAN_PREVIOUS) buffer PlanPrevious { uint previous_point[]; };
layout(std430, binding = MURMUR_BIND_PLAN_LAST_POINT) buffer PlanLastPoint { uint last_point[]; };
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "compute_index.glsl"

uniform uint step_number;

void main() {
  uint k = linear_invocation_index();
  if (k >= plan_listed_count(step_number - 1u) || control.error != MURMUR_PLAN_OK) return;
  uint i = listed[k];
  PlanAgentRecord a = agents[i];
  if (a.moved == 0u) return;
  uint rank = mover_rank[k];
  movers_out[rank] = i;
  uint p = control.append_first + rank;
  points[p] = PlanPointRecord(a.location, a.drawn, a.last_move, a.id, step_number);
  previous_point[p] = last_point[i];
  last_point[i] = p;
}
