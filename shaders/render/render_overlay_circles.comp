#version 450 core
#include "render/bindings.h"
// Overlays: u_circles_per_slot circles around each live boid whose trail slot is
// < u_circle_slots (trail slots are kept for life, so the circles follow the same boids from
// step to step, wherever the grid sorted them), written at shapes per_slot x slot + k with the
// radius kind u_slot_radius_kind[k] and colour u_slot_colour[k] (the first slots' perception
// and separation pairs, or one circle around every boid); and the selected boid's sight,
// minimum-distance and body circles, found by id, at shapes per_slot x u_circle_slots + 0, 1,
// 2. The renderer clears those shapes first: a slot no live boid holds, or a selected id no
// live boid has, stays an invisible shape. Compiled with MURMUR_3D, the circles are the
// spheres of those radii as a 3D world's camera sees them, in the frame's pixels.
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

#ifdef MURMUR_3D
// A 3D world's camera (orbit_camera.hpp's PerspectiveView): its circles are drawn in the frame.
uniform mat4 u_world_to_clip;
uniform vec2 u_frame_size;
uniform vec3 u_eye;
uniform vec3 u_view_forward;           // unit
uniform float u_near_plane;            // view depth, world units
uniform float u_pixels_at_unit_depth;  // pixels across a world unit at view depth 1
#endif

// The selected boid's shapes, after the trail slots' pairs.
const uint kSelectedSight = 0u, kSelectedDistance = 1u, kSelectedBody = 2u;
const OverlayShape kNoShape = OverlayShape(vec4(0.0), vec4(0.0));  // transparent: not drawn

// A circle of `radius` world units around the boid. In the plane it is in world units. In a
// volume it is the sphere as the camera sees it, in the frame's pixels from its bottom-left
// corner: its centre's projection, and the radius as it scales at the centre's depth; a boid
// behind the near plane gets none.
OverlayShape circle_around(Boid boid, float radius, vec4 colour) {
#ifdef MURMUR_3D
  vec3 position = position_of(boid);
  float depth = dot(position - u_eye, u_view_forward);
  if (depth < u_near_plane) return kNoShape;
  vec4 clip = u_world_to_clip * vec4(position, 1.0);
  vec2 pixel = (clip.xy / clip.w * 0.5 + 0.5) * u_frame_size;
  return OverlayShape(vec4(pixel, radius * u_pixels_at_unit_depth / depth, 0.0), colour);
#else
  return OverlayShape(vec4(boid.pos, radius, 0.0), colour);
#endif
}

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
        circle_around(boid, u_perception_radius[species], u_selected_sight_colour);
    overlay_shapes[first + kSelectedDistance] =
        circle_around(boid, u_separation_radius[species], u_selected_distance_colour);
    overlay_shapes[first + kSelectedBody] =
        circle_around(boid, u_selected_body_radius, u_selected_body_colour);
  }
  if (boid.trail_slot >= u_circle_slots) return;
  for (uint k = 0u; k < u_circles_per_slot; ++k) {
    overlay_shapes[u_circles_per_slot * boid.trail_slot + k] =
        circle_around(boid, slot_radius(u_slot_radius_kind[k], species), u_slot_colour[k]);
  }
}
