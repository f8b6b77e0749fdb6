#version 450 core
// Overlays: finds the boids with id < u_circle_ids wherever the grid sorted them and writes
// their perception and separation circles at shapes 2 id and 2 id + 1.
#include "common.glsl"

layout(local_size_x = MURMUR_RENDER_GROUP_SIZE) in;
#include "compute_index.glsl"

layout(std430, binding = MURMUR_BIND_RENDER_BOIDS) readonly buffer RenderBoidsBlock {
  Boid render_boids[];
};
struct OverlayShape {
  vec4 geometry;
  vec4 colour;
};
layout(std430, binding = MURMUR_BIND_OVERLAY_SHAPES) writeonly buffer OverlayShapesBlock {
  OverlayShape overlay_shapes[];
};

uniform uint u_boid_count;
uniform uint u_circle_ids;
uniform float u_perception_radius[MURMUR_MAX_SPECIES];
uniform float u_separation_radius[MURMUR_MAX_SPECIES];
uniform vec4 u_perception_colour;
uniform vec4 u_separation_colour;

void main() {
  uint slot = linear_invocation_index();  // dispatched folded, like the simulation
  if (slot >= u_boid_count) return;
  Boid boid = render_boids[slot];
  if (boid.id >= u_circle_ids) return;
  uint species = min(boid.species, uint(MURMUR_MAX_SPECIES - 1));
  overlay_shapes[2u * boid.id] =
      OverlayShape(vec4(boid.pos, u_perception_radius[species], 0.0), u_perception_colour);
  overlay_shapes[2u * boid.id + 1u] =
      OverlayShape(vec4(boid.pos, u_separation_radius[species], 0.0), u_separation_colour);
}
