#version 450 core
// Ribbons: one instance per (boid id, segment age), 6 vertices (a quad) per segment between
// two consecutive ring entries. Width and brightness fall linearly with age. A segment longer
// than half the world on an axis is a jump across a wrapped edge, not a flight: it collapses
// to a point and draws nothing.
#include "common.glsl"
#include "render_colour.glsl"

layout(std430, binding = MURMUR_BIND_TRAIL_RING) readonly buffer TrailRingBlock {
  vec4 trail_ring[];
};
layout(std430, binding = MURMUR_BIND_TRAIL_SPECIES) readonly buffer TrailSpeciesBlock {
  uint trail_species[];
};

uniform uint u_ring_length;
uniform uint u_cursor;         // the newest entry
uniform uint u_valid_entries;  // entries written since the last reset, <= ring length
uniform vec2 u_world_size;
uniform vec2 u_world_centre;
uniform vec2 u_world_to_clip;
uniform float u_world_units_per_pixel;
uniform float u_width_pixels;
uniform float u_min_width_pixels;
uniform float u_intensity;

out vec3 v_colour;

// Quad corners: (0 = newer end, 1 = older end) x (side -1, +1).
const vec2 kCorner[6] = vec2[6](vec2(0, -1), vec2(1, -1), vec2(1, 1),
                                vec2(0, -1), vec2(1, 1), vec2(0, 1));
const vec4 kNothing = vec4(0.0, 0.0, 0.0, 1.0);  // all six at one point: no area, no pixels

vec4 ring_entry(uint id, uint age) {
  return trail_ring[id * u_ring_length + (u_cursor + u_ring_length - age) % u_ring_length];
}

void main() {
  uint segments_per_boid = u_ring_length - 1u;
  uint id = uint(gl_InstanceID) / segments_per_boid;
  uint age = uint(gl_InstanceID) % segments_per_boid;  // 0: the newest segment
  v_colour = vec3(0.0);
  gl_Position = kNothing;
  if (age + 1u >= u_valid_entries) return;

  vec4 newer = ring_entry(id, age);
  vec4 older = ring_entry(id, age + 1u);
  vec2 along = newer.xy - older.xy;
  if (any(greaterThan(abs(along), 0.5 * u_world_size))) return;

  vec2 corner = kCorner[gl_VertexID];
  float vertex_age = (float(age) + corner.x) / float(segments_per_boid);  // 0 new .. 1 oldest
  float fade = 1.0 - vertex_age;
  float half_width = 0.5 * u_world_units_per_pixel *
                     max(u_width_pixels * fade, u_min_width_pixels);
  float len = length(along);
  vec2 side = len > 0.0 ? vec2(-along.y, along.x) / len : vec2(0.0, 1.0);
  vec2 world = mix(newer.xy, older.xy, corner.x) + side * (corner.y * half_width);
  gl_Position = vec4((world - u_world_centre) * u_world_to_clip, 0.0, 1.0);
  v_colour = boid_colour(id, trail_species[id], newer.zw) * (u_intensity * fade);
}
