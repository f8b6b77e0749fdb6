#version 450
// Step 3, second part: each moving agent saves its point at append_first + its rank among the
// step's moves (the exclusive scan of mover_rank), so the points come in agent order as on
// the CPU, with no atomic deciding it.
// in: agents, mover_rank, control, params. out: points.
#include "plan.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "compute_index.glsl"

uniform uint step_number;

void main() {
  uint i = linear_invocation_index();
  if (i >= plan.agent_count || control.error != MURMUR_PLAN_OK) return;
  PlanAgentRecord a = agents[i];
  if (a.moved == 0u) return;
  points[control.append_first + mover_rank[i]] =
      PlanPointRecord(a.location, a.drawn, a.last_move, a.id, step_number);
}
