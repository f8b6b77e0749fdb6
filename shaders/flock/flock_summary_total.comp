#version 450
// Adds flock_summary.comp's per-workgroup partials in double, in one workgroup: each
// invocation sums a strided share, then a tree in shared memory.
// The heading pass: heading_sum and position_sum; the circle pass: circle_sum; the milling pass:
// milling_sum and beyond_compact (flock_summary.comp).
// in: partials[0, partial_count). out: totals.
#include "common/interface.h"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "flock/summary_totals.glsl"

layout(std430, binding = MURMUR_BIND_SUMMARY_PARTIALS) readonly buffer PartialsBlock {
  vec4 partials[];
};
uniform uint summary_pass;
uniform uint partial_count;

shared dvec4 group_sums[MURMUR_STEP_GROUP_SIZE];

void main() {
  uint local = gl_LocalInvocationID.x;
  dvec4 mine = dvec4(0.0);
  for (uint k = local; k < partial_count; k += MURMUR_STEP_GROUP_SIZE) mine += dvec4(partials[k]);
  group_sums[local] = mine;
  barrier();
  for (uint stride = MURMUR_STEP_GROUP_SIZE / 2u; stride > 0u; stride >>= 1) {
    if (local < stride) group_sums[local] += group_sums[local + stride];
    barrier();
  }
  if (local == 0u) {
    if (summary_pass == MURMUR_SUMMARY_HEADING_PASS) {
      heading_sum = group_sums[0].xy;
      position_sum = group_sums[0].zw;
    } else if (summary_pass == MURMUR_SUMMARY_CIRCLE_PASS) {
      circle_sum = group_sums[0];
    } else {
      milling_sum = group_sums[0].x;
      beyond_compact = group_sums[0].y;
    }
  }
}
