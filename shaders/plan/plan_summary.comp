#version 450
// The plan's counts for a reader that must not wait (the viewer's panel, its point-capacity
// growth): the living agents and the dead by cause, each workgroup's totals added once into
// the record, which GpuPlan cleared before the pass (integer sums: the same in any order), and
// the point count and error as the steps left them.
// in: agents, control, params. out: summary.
#include "plan/plan.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

uniform uvec2 step_index;  // the steps GpuPlan has queued, low word, high word

layout(std430, binding = MURMUR_BIND_PLAN_SUMMARY) buffer PlanSummaryBlock {
  uvec2 step;
  uint agents;
  uint living;
  uint died[MURMUR_PLAN_DEATH_CAUSES];  // by PlanDeath - 1
  uint points;
  uint error;
  uint error_step;
} summary;

shared uint group_living;
shared uint group_died[MURMUR_PLAN_DEATH_CAUSES];

void main() {
  if (gl_LocalInvocationID.x == 0u) {
    group_living = 0u;
    for (uint c = 0u; c < MURMUR_PLAN_DEATH_CAUSES; ++c) group_died[c] = 0u;
  }
  barrier();  // the group's counters are zero before any invocation adds to them
  uint i = linear_invocation_index();
  if (i < control.agent_count) {
    PlanAgentRecord a = agents[i];
    if (a.alive != 0u) {
      atomicAdd(group_living, 1u);
    } else if (a.death >= 1u && a.death <= MURMUR_PLAN_DEATH_CAUSES) {
      atomicAdd(group_died[a.death - 1u], 1u);
    }
  }
  barrier();  // every invocation has counted
  if (gl_LocalInvocationID.x != 0u) return;
  atomicAdd(summary.living, group_living);
  for (uint c = 0u; c < MURMUR_PLAN_DEATH_CAUSES; ++c) atomicAdd(summary.died[c], group_died[c]);
  if (linear_group_index() == 0u) {
    summary.step = step_index;
    summary.agents = control.agent_count;
    summary.points = control.point_count;
    summary.error = control.error;
    summary.error_step = control.error_step;
  }
}
