// The renderer's view of a floor plan: GpuPlan's agents and points where its passes left
// them, and the ink layer's draw record (Renderer, "plan ink"), read by the plan's vertex
// shaders and written by plan_ink_range.comp.
#include "common/interface.h"
#include "plan/plan_records.glsl"
#include "render/bindings.h"

layout(std430, binding = MURMUR_BIND_RENDER_PLAN_AGENTS) readonly buffer RenderPlanAgents {
  PlanAgentRecord plan_agents[];
};
layout(std430, binding = MURMUR_BIND_RENDER_PLAN_POINTS) readonly buffer RenderPlanPoints {
  PlanPointRecord plan_points[];
};
layout(std430, binding = MURMUR_BIND_RENDER_PLAN_PREVIOUS) readonly buffer RenderPlanPrevious {
  uint plan_previous[];
};

// The segments not yet inked: an indirect draw of one instance per point from first_point
// (glDrawArraysIndirect's command first), then what the layer already holds.
layout(std430, binding = MURMUR_BIND_RENDER_PLAN_INK) buffer RenderPlanInk {
  uint vertex_count;    // MURMUR_PLAN_SEGMENT_VERTICES a segment
  uint instance_count;  // 1
  uint first_vertex;
  uint base_instance;
  uint first_point;  // the first point whose segment is drawn this time
  uint inked;        // points [0, inked) are in the layer
  uint point_count;  // the plan's saved points, copied in from its control record
} plan_ink;

// World units -> this frame's pixels from its bottom-left corner (GL window coordinates), and
// pixels -> clip space.
uniform vec2 u_world_centre;
uniform float u_pixels_per_world_unit;
uniform vec2 u_frame_size;

vec2 plan_pixel(vec2 world) {
  return (world - u_world_centre) * u_pixels_per_world_unit + 0.5 * u_frame_size;
}
vec4 plan_clip(vec2 pixel) { return vec4(pixel / u_frame_size * 2.0 - 1.0, 0.0, 1.0); }

// A vertex GL clips away: how an instance with nothing to draw collapses.
const vec4 kPlanNothing = vec4(2.0, 2.0, 2.0, 1.0);
