#version 450 core
// Ribbons: a quad (4 vertices: the renderer's index buffer makes the triangles of corners 0 1 2 and
// 0 2 3) per (trail slot, segment age), all segments in one draw (not instances: llvmpipe runs
// those one by one), between two consecutive ring entries of the slot's owner. A slot not recorded
// in the newest generation holds no live boid (it died, or was never taken) and draws nothing.
// Width and brightness fall linearly with age. A segment longer than half the world on an axis is a
// jump across a wrapped edge, not a flight: it collapses to a point and draws nothing.
#include "common/common.glsl"
#include "render/render_colour.glsl"
#include "render/render_trails.glsl"

uniform uint u_ring_length;
uniform uint u_generation;     // the newest record_step's number
uniform vec2 u_world_size;
uniform vec2 u_world_centre;
uniform vec2 u_world_to_clip;
uniform float u_world_units_per_pixel;
uniform float u_width_pixels;
uniform float u_min_width_pixels;
uniform float u_intensity;

out vec4 v_colour;  // the colour times its opacity, and the opacity

// Quad corners: (0 = newer end, 1 = older end) x (side -1, +1).
const uint kSegmentVertices = 4u;
const vec2 kCorner[kSegmentVertices] = vec2[kSegmentVertices](vec2(0, -1), vec2(1, -1),
                                                              vec2(1, 1), vec2(0, 1));
const vec4 kNothing = vec4(0.0, 0.0, 0.0, 1.0);  // all four at one point: no area, no pixels

// age <= u_generation always (age < the owner's entries <= generations so far).
vec4 ring_entry(uint trail_slot, uint age) {
  return trail_ring[ring_entry_index(trail_slot, u_ring_length, u_generation - age)];
}

void main() {
  uint segments_per_boid = u_ring_length - 1u;
  uint segment = uint(gl_VertexID) / kSegmentVertices;
  uint trail_slot = segment / segments_per_boid;
  uint age = segment % segments_per_boid;  // 0: the newest segment
  v_colour = vec4(0.0);
  gl_Position = kNothing;
  TrailOwner owner = trail_owners[trail_slot];
  if (owner.last_generation != u_generation) return;
  uint owner_entries = min(u_generation - owner.first_generation + 1u, u_ring_length);
  if (age + 1u >= owner_entries) return;

  vec4 newer = ring_entry(trail_slot, age);
  vec4 older = ring_entry(trail_slot, age + 1u);
  vec2 along = newer.xy - older.xy;
  if (any(greaterThan(abs(along), 0.5 * u_world_size))) return;

  vec2 corner = kCorner[uint(gl_VertexID) % kSegmentVertices];
  float vertex_age = (float(age) + corner.x) / float(segments_per_boid);  // 0 new .. 1 oldest
  float fade = 1.0 - vertex_age;
  float half_width = 0.5 * u_world_units_per_pixel *
                     max(u_width_pixels * fade, u_min_width_pixels);
  float len = length(along);
  vec2 side = len > 0.0 ? vec2(-along.y, along.x) / len : vec2(0.0, 1.0);
  vec2 world = mix(newer.xy, older.xy, corner.x) + side * (corner.y * half_width);
  gl_Position = vec4((world - u_world_centre) * u_world_to_clip, 0.0, 1.0);
  float opacity = u_intensity * fade;
  v_colour = vec4(boid_colour(owner.id, owner.species, newer.zw, owner.energy) * opacity, opacity);
}
