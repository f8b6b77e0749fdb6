#version 450 core
// Overlays: the perception and separation circles of the live boids whose trail slot is
// < u_circle_slots (trail slots are kept for life, so the circles follow the same boids from
// step to step, wherever the grid sorted them), written at shapes 2 slot and 2 slot + 1. The
// renderer clears those shapes first: a slot no live boid holds stays an invisible shape.
#include "render_boids.glsl"

layout(local_size_x = MURMUR_RENDER_GROUP_SIZE) in;
#include "compute_index.glsl"

struct OverlayShape {
  vec4 geometry;
  vec4 colour;
};
layout(std430, binding = MURMUR_BIND_OVERLAY_SHAPES) writeonly buffer OverlayShapesBlock {
  OverlayShape overlay_shapes[];
};

uniform uint u_boid_count;    // records in the buffer: bounds the live count
uniform uint u_circle_slots;
uniform float u_perception_radius[MURMUR_MAX_SPECIES];
uniform float u_separation_radius[MURMUR_MAX_SPECIES];
uniform vec4 u_perception_colour;
uniform vec4 u_separation_colour;

void main() {
  uint record = linear_invocation_index();  // dispatched folded, like the simulation
  if (record >= min(render_live_count, u_boid_count)) return;
  Boid boid = render_boids[record];
  if (boid.trail_slot >= u_circle_slots) return;
  uint species = min(boid.species, uint(MURMUR_MAX_SPECIES - 1));
  overlay_shapes[2u * boid.trail_slot] =
      OverlayShape(vec4(boid.pos, u_perception_radius[species], 0.0), u_perception_colour);
  overlay_shapes[2u * boid.trail_slot + 1u] =
      OverlayShape(vec4(boid.pos, u_separation_radius[species], 0.0), u_separation_colour);
}
