// Compute shaders only, after the local_size layout (gl_WorkGroupSize needs it).
#include "common/interface.h"
// Compute passes over more than 65535 workgroups are dispatched as a 2D grid of groups
// (GL's per-dimension limit); these give the linear index back.
uint linear_group_index() {
  return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}
uint linear_invocation_index() {
  return linear_group_index() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
}

// glDispatchComputeIndirect arguments (x, y, z) for `groups` workgroups, folded into y past GL's
// per-dimension limit as murmur/gl/dispatch.hpp folds them; no groups is (0, 1, 1).
uvec3 folded_groups(uint groups) {
  uint x = min(groups, uint(MURMUR_MAX_GROUPS_PER_DIMENSION));
  return uvec3(x, x == 0u ? 1u : (groups + x - 1u) / x, 1u);
}
