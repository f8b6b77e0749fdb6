// Compute shaders only, after the local_size layout (gl_WorkGroupSize needs it).
// Compute passes over more than 65535 workgroups are dispatched as a 2D grid of groups
// (GL's per-dimension limit); these give the linear index back.
uint linear_group_index() {
  return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}
uint linear_invocation_index() {
  return linear_group_index() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
}
