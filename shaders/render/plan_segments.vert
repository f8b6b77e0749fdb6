#version 450 core
#include "render/bindings.h"
// One segment of the plan per MURMUR_PLAN_SEGMENT_VERTICES vertices (docs/rendering.md, "Floor
// plans"; one draw, not instances: llvmpipe runs those one by one): the point
// first_point + gl_VertexID / MURMUR_PLAN_SEGMENT_VERTICES joined to its agent's point before
// it, drawn as its stroked rectangle with square ends, exactly as the PNG export inks it
// (src/plan/export/plan_image.cpp) and never thinner than u_min_width_pixels. Points of the
// first steps and a start agent's first point draw nothing; a branch's child's first point
// joins its origin on its parent's line (plan_drawing).
// in: plan_points, plan_previous, plan_agents (origin, parent), plan_ink.first_point. out: the
// segment's MURMUR_PLAN_SEGMENT_VERTICES vertices.
#include "render/render_plan.glsl"

uniform float u_vertical_width;    // world units: a segment drawn by a move along y
uniform float u_horizontal_width;  // along x (or no move)
uniform float u_min_width_pixels;
uniform uint u_first_line_step;
uniform vec4 u_colour;  // premultiplied by its opacity
out vec4 v_colour;

// The rectangle's corners: two triangles, across (-1 | +1) x along (start | end).
const vec2 kCorners[MURMUR_PLAN_SEGMENT_VERTICES] = vec2[MURMUR_PLAN_SEGMENT_VERTICES](
    vec2(-1, 0), vec2(1, 0), vec2(1, 1), vec2(-1, 0), vec2(1, 1), vec2(-1, 1));

void main() {
  v_colour = u_colour;
  uint p = plan_ink.first_point + uint(gl_VertexID) / MURMUR_PLAN_SEGMENT_VERTICES;
  PlanPointRecord point = plan_points[p];
  uint before = plan_previous[p];
  bool from_origin =
      before == MURMUR_PLAN_NONE && plan_agents[point.agent].parent != MURMUR_PLAN_NONE;
  if ((before == MURMUR_PLAN_NONE && !from_origin) || point.step < u_first_line_step) {
    gl_Position = kPlanNothing;
    return;
  }
  float width = point.move.y == 0.0 ? u_horizontal_width : u_vertical_width;
  float half_width = 0.5 * max(width * u_pixels_per_world_unit, u_min_width_pixels);
  vec2 a = plan_pixel(from_origin ? plan_agents[point.agent].origin : plan_points[before].drawn);
  vec2 b = plan_pixel(point.drawn);
  float len = length(b - a);
  vec2 along = len > 0.0 ? (b - a) / len : vec2(1.0, 0.0);
  vec2 across = vec2(-along.y, along.x);
  vec2 corner = kCorners[uint(gl_VertexID) % MURMUR_PLAN_SEGMENT_VERTICES];
  vec2 end = corner.y == 0.0 ? a - along * half_width : b + along * half_width;
  gl_Position = plan_clip(end + across * (corner.x * half_width));
}
