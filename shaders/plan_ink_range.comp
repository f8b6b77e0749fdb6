#version 450
// Which of the plan's points the ink layer still lacks: the points saved since it was last
// inked (all of them after the layer was cleared), as the instance count of the segments'
// indirect draw, so that no count ever comes back to the CPU.
// in: plan_ink.point_count, plan_ink.inked. out: plan_ink.segments, first_point, inked.
#include "render_plan.glsl"
layout(local_size_x = 1) in;

void main() {
  uint total = plan_ink.point_count;
  uint from = min(plan_ink.inked, total);
  plan_ink.first_point = from;
  plan_ink.segments = total - from;
  plan_ink.inked = total;
}
