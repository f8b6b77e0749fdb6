#version 450
// Step 3, when the buckets doubled: every bucket emptied before every point is relinked.
// Dispatched indirectly from control.clear_groups (none otherwise). out: heads.
#include "plan/plan.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

void main() {
  uint b = linear_invocation_index();
  if (b < control.bucket_count) heads[b] = MURMUR_PLAN_NONE;
}
