#version 450
// Step 3 of a plan step, first part (one invocation, no loop over points): the step's moves
// counted from the scanned mover ranks, the point capacity checked (a step that would pass it
// stops the plan with MURMUR_PLAN_POINTS_FULL, before any point is written), and the clearance
// index's growth decided as PlanPointIndex::add decides it: the buckets doubled past
// MURMUR_PLAN_MAX_POINTS_PER_BUCKET points each, then every point relinked; else the new ones.
// in: agents (moved), listed, mover_rank (scanned), control, params. out: control (with the
// length of this step's list of movers, and the coverage the step's branches read).
#include "plan/plan.glsl"
#include "plan/plan_listed.glsl"
layout(local_size_x = 1) in;
#include "common/compute_index.glsl"

uniform uint step_number;  // the step being made (GpuPlan keeps it within uint32)

void main() {
  control.link_groups = uint[3](0u, 0u, 0u);
  control.clear_groups = uint[3](0u, 0u, 0u);
  if (control.error != MURMUR_PLAN_OK || control.agent_count == 0u) return;
  // The coverage this step's branches read: the points of the steps before it (plan_append adds
  // this step's after).
  control.covered_before = control.covered;
  uint listed_count = plan_listed_count(step_number - 1u);
  uint last = listed_count - 1u;
  uint movers = listed_count == 0u ? 0u : mover_rank[last] + agents[listed[last]].moved;
  uint first = control.point_count;
  if (movers > plan.point_capacity - first) {
    control.error = MURMUR_PLAN_POINTS_FULL;
    control.error_step = step_number;
    control.error_need = first + movers;
    return;
  }
  uint count = first + movers;
  control.listed[step_number & 1u] = movers;
  control.append_first = first;
  control.point_count = count;
  uint buckets = control.bucket_count;
  while (count > MURMUR_PLAN_MAX_POINTS_PER_BUCKET * buckets) buckets *= 2u;
  bool rebuild = buckets != control.bucket_count;
  control.bucket_count = buckets;
  control.link_first = rebuild ? 0u : first;
  control.link_end = count;
  uvec3 link =
      folded_groups((count - control.link_first + MURMUR_STEP_GROUP_SIZE - 1u) / MURMUR_STEP_GROUP_SIZE);
  control.link_groups = uint[3](link.x, link.y, link.z);
  if (rebuild) {
    uvec3 clear =
        folded_groups((buckets + MURMUR_STEP_GROUP_SIZE - 1u) / MURMUR_STEP_GROUP_SIZE);
    control.clear_groups = uint[3](clear.x, clear.y, clear.z);
  }
}
