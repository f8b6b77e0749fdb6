#version 450
// Step 3, the clearance index's links in three passes over the points [link_first, link_end)
// (dispatched indirectly from control.link_groups), so that the chains come out newest first
// as PlanPointIndex::add makes them, whatever order the invocations run in:
// - PLAN_LINK_PUSH: each point pushed on its bucket's chain by an atomic exchange (the order
//   among this pass's points is the atomics', and is not kept);
// - PLAN_LINK_ORDER: each point's place decided: its next is the largest of this pass's points
//   of its bucket below it, else the chain's first older point (read-only of the chains);
// - PLAN_LINK_COMMIT: those nexts written, and each bucket's head the largest of its points
//   (atomicMax: the same whatever the order).
// in/out: heads, next, link_next. in: points, control, params.
#include "plan/plan.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

uniform uint link_phase;  // PLAN_LINK_*

const uint PLAN_LINK_PUSH = 0u;
const uint PLAN_LINK_ORDER = 1u;
const uint PLAN_LINK_COMMIT = 2u;

void main() {
  uint p = control.link_first + linear_invocation_index();
  if (p >= control.link_end || control.error != MURMUR_PLAN_OK) return;
  uint bucket = plan_bucket(plan_index_cell(points[p].raw), control.bucket_count);
  if (link_phase == PLAN_LINK_PUSH) {
    next_point[p] = atomicExchange(heads[bucket], p);
  } else if (link_phase == PLAN_LINK_ORDER) {
    // This pass's points of the bucket lead its chain; the first point below link_first (or
    // none) is where the older chain goes on.
    uint below = MURMUR_PLAN_NONE;
    uint q = heads[bucket];
    for (; q != MURMUR_PLAN_NONE && q >= control.link_first; q = next_point[q]) {
      if (q < p && (below == MURMUR_PLAN_NONE || q > below)) below = q;
    }
    link_next[p] = below != MURMUR_PLAN_NONE ? below : q;
  } else {
    next_point[p] = link_next[p];
    atomicMax(heads[bucket], p);
  }
}
