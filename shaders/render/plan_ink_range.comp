#version 450
#include "render/bindings.h"
// Which of the plan's points the ink layer still lacks: the points saved since it was last
// inked (all of them after the layer was cleared), as the vertex count of the segments'
// indirect draw, so that no count ever comes back to the CPU.
// in: plan_ink.point_count, plan_ink.inked. out: plan_ink.vertex_count, first_point, inked.
#include "render/render_plan.glsl"
layout(local_size_x = 1) in;

void main() {
  uint total = plan_ink.point_count;
  uint from = min(plan_ink.inked, total);
  plan_ink.first_point = from;
  // One draw of MURMUR_PLAN_SEGMENT_VERTICES vertices a segment, not instances (llvmpipe runs
  // those one by one).
  plan_ink.vertex_count = (total - from) * MURMUR_PLAN_SEGMENT_VERTICES;
  plan_ink.inked = total;
}
