#version 450 core
// Overlays: the perception and separation circles of the live boids whose trail slot is
// < u_circle_slots (trail slots are kept for life, so the circles follow the same boids from
// step to step, wherever the grid sorted them), written at shapes 2 slot and 2 slot + 1; and
// the selected boid's sight, minimum-distance and body circles, found by id, at shapes
// 2 u_circle_slots + 0, 1, 2. The renderer clears those shapes first: a slot no live boid
// holds, or a selected id no live boid has, stays an invisible shape.
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
uniform bool u_has_selected;
uniform uint u_selected_id;
uniform float u_selected_body_radius;  // world units
uniform vec4 u_selected_sight_colour;
uniform vec4 u_selected_distance_colour;
uniform vec4 u_selected_body_colour;

// The selected boid's shapes, after the trail slots' pairs.
const uint kSelectedSight = 0u, kSelectedDistance = 1u, kSelectedBody = 2u;

void main() {
  uint record = linear_invocation_index();  // dispatched folded, like the simulation
  if (record >= min(render_live_count, u_boid_count)) return;
  Boid boid = render_boids[record];
  uint species = min(boid.species, uint(MURMUR_MAX_SPECIES - 1));
  if (u_has_selected && boid.id == u_selected_id) {  // ids are unique: one writer
    uint first = 2u * u_circle_slots;
    overlay_shapes[first + kSelectedSight] =
        OverlayShape(vec4(boid.pos, u_perception_radius[species], 0.0), u_selected_sight_colour);
    overlay_shapes[first + kSelectedDistance] = OverlayShape(
        vec4(boid.pos, u_separation_radius[species], 0.0), u_selected_distance_colour);
    overlay_shapes[first + kSelectedBody] =
        OverlayShape(vec4(boid.pos, u_selected_body_radius, 0.0), u_selected_body_colour);
  }
  if (boid.trail_slot >= u_circle_slots) return;
  overlay_shapes[2u * boid.trail_slot] =
      OverlayShape(vec4(boid.pos, u_perception_radius[species], 0.0), u_perception_colour);
  overlay_shapes[2u * boid.trail_slot + 1u] =
      OverlayShape(vec4(boid.pos, u_separation_radius[species], 0.0), u_separation_colour);
}
