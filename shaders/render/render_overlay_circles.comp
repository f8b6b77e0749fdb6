#version 450 core
#include "render/bindings.h"
// Overlays: u_circles_per_slot circles around each live boid whose trail slot is
// < u_circle_slots (trail slots are kept for life, so the circles follow the same boids from
// step to step, wherever the grid sorted them), written at shapes per_slot x slot + k with the
// radius kind u_slot_radius_kind[k] and colour u_slot_colour[k] (the first slots' perception
// and separation pairs, or one circle around every boid); and the selected boid's sight,
// minimum-distance and body circles, found by id, at shapes per_slot x u_circle_slots + 0, 1,
// 2. The renderer clears those shapes first: a slot no live boid holds, or a selected id no
// live boid has, stays an invisible shape.
#include "render/render_boids.glsl"

layout(local_size_x = MURMUR_RENDER_GROUP_SIZE) in;
#include "common/compute_index.glsl"

struct OverlayShape {
  vec4 geometry;
  vec4 colour;
};
layout(std430, binding = MURMUR_BIND_OVERLAY_SHAPES) writeonly buffer OverlayShapesBlock {
  OverlayShape overlay_shapes[];
};

uniform uint u_boid_count;    // records in the buffer: bounds the live count
uniform uint u_circle_slots;
uniform uint u_circles_per_slot;  // <= MURMUR_MAX_CIRCLES_PER_SLOT
uniform uint u_slot_radius_kind[MURMUR_MAX_CIRCLES_PER_SLOT];  // MURMUR_CIRCLE_RADIUS_*, else
uniform vec4 u_slot_colour[MURMUR_MAX_CIRCLES_PER_SLOT];       // u_world_units_radius
uniform float u_world_units_radius;
uniform float u_perception_radius[MURMUR_MAX_SPECIES];
uniform float u_separation_radius[MURMUR_MAX_SPECIES];
uniform bool u_has_selected;
uniform uint u_selected_id;
uniform float u_selected_body_radius;  // world units
uniform vec4 u_selected_sight_colour;
uniform vec4 u_selected_distance_colour;
uniform vec4 u_selected_body_colour;

// The selected boid's shapes, after the trail slots' pairs.
const uint kSelectedSight = 0u, kSelectedDistance = 1u, kSelectedBody = 2u;

float slot_radius(uint kind, uint species) {
  if (kind == MURMUR_CIRCLE_RADIUS_SIGHT) return u_perception_radius[species];
  if (kind == MURMUR_CIRCLE_RADIUS_SEPARATION) return u_separation_radius[species];
  return u_world_units_radius;
}

void main() {
  uint record = linear_invocation_index();  // dispatched folded, like the simulation
  if (record >= min(render_live_count, u_boid_count)) return;
  Boid boid = render_boids[record];
  uint species = min(boid.species, uint(MURMUR_MAX_SPECIES - 1));
  if (u_has_selected && boid.id == u_selected_id) {  // ids are unique: one writer
    uint first = u_circles_per_slot * u_circle_slots;
    overlay_shapes[first + kSelectedSight] =
        OverlayShape(vec4(boid.pos, u_perception_radius[species], 0.0), u_selected_sight_colour);
    overlay_shapes[first + kSelectedDistance] = OverlayShape(
        vec4(boid.pos, u_separation_radius[species], 0.0), u_selected_distance_colour);
    overlay_shapes[first + kSelectedBody] =
        OverlayShape(vec4(boid.pos, u_selected_body_radius, 0.0), u_selected_body_colour);
  }
  if (boid.trail_slot >= u_circle_slots) return;
  for (uint k = 0u; k < u_circles_per_slot; ++k) {
    overlay_shapes[u_circles_per_slot * boid.trail_slot + k] = OverlayShape(
        vec4(boid.pos, slot_radius(u_slot_radius_kind[k], species), 0.0), u_slot_colour[k]);
  }
}
