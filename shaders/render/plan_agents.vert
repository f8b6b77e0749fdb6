#version 450 core
// The living agents of a plan as discs at the ends of their lines (their last drawn points),
// u_marker_pixels across whatever the zoom; a dead agent's quad draws nothing. One draw of
// quads (the renderer's index buffer makes the triangles of corners 0 1 2 and 0 2 3), not an
// instance per agent: llvmpipe runs instances one by one.
// in: plan_agents. out: the marker's 4 vertices, the disc coordinate.
#include "render/render_plan.glsl"

uniform float u_marker_pixels;
uniform vec4 u_colour;  // premultiplied by its opacity
out vec4 v_colour;
out vec2 v_disc;

const int kCornersPerMarker = 4;
const vec2 kCorners[kCornersPerMarker] = vec2[kCornersPerMarker](vec2(-1, -1), vec2(1, -1),
                                                                 vec2(1, 1), vec2(-1, 1));

void main() {
  v_colour = u_colour;
  v_disc = kCorners[gl_VertexID % kCornersPerMarker];
  PlanAgentRecord agent = plan_agents[gl_VertexID / kCornersPerMarker];
  if (agent.alive == 0u) {
    gl_Position = kPlanNothing;
    return;
  }
  gl_Position = plan_clip(plan_pixel(agent.drawn) + v_disc * (0.5 * u_marker_pixels));
}
