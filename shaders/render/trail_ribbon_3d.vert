#version 450 core
// A 3D world's ribbons (compiled with MURMUR_3D: entries of two vec4s), with trail_ribbon.frag:
// a quad per (trail slot, segment age) in one draw, as trail_ribbon.vert in the plane, between
// two consecutive ring entries in space. The quad lies along the segment and faces the eye
// (its sides along cross(segment, to the eye)), so a ribbon reads as a streak from any side.
// Its width is u_width_pixels at the camera's target depth and scales with perspective like
// the heads: a near bird's wake is wider than a far one's, and the width does not change with
// zoom at the target. Width and brightness fall linearly with age; a quad narrower than
// u_min_width_pixels is drawn that wide with its opacity scaled by the share it covers; the
// heads' depth fog fades it. A segment longer than half the world on an axis is a jump across a
// wrapped face, and a segment with an end behind the near plane is not drawn.
#include "common/common.glsl"
#include "render/render_colour.glsl"
#include "render/render_trails.glsl"
#include "render/render_3d.glsl"

uniform uint u_ring_length;
uniform uint u_generation;     // the newest record_step's number
uniform vec3 u_world_size;
uniform mat4 u_world_to_clip;
uniform vec3 u_eye;
uniform vec3 u_view_forward;           // unit
uniform float u_near_plane;            // view depth, world units
uniform float u_pixels_at_unit_depth;  // pixels across a world unit at view depth 1
uniform float u_focus_depth;           // the camera's target's view depth
uniform float u_width_pixels;          // at the head, at u_focus_depth
uniform float u_min_width_pixels;
uniform float u_intensity;
uniform float u_fog_start;
uniform float u_inverse_fog;

out vec4 v_colour;  // the colour times its opacity, and the opacity

// Quad corners: (0 = newer end, 1 = older end) x (side -1, +1), as trail_ribbon.vert's.
const uint kSegmentVertices = 4u;
const vec2 kCorner[kSegmentVertices] = vec2[kSegmentVertices](vec2(0, -1), vec2(1, -1),
                                                              vec2(1, 1), vec2(0, 1));
const vec4 kNothing = vec4(0.0, 0.0, 0.0, 1.0);  // all four at one point: no area, no pixels

// age <= u_generation always (age < the owner's entries <= generations so far).
uint entry_of(uint trail_slot, uint age) {
  return ring_entry_index(trail_slot, u_ring_length, u_generation - age);
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

  uint newer_entry = entry_of(trail_slot, age);
  vec3 newer = trail_ring[newer_entry].xyz;
  vec3 older = trail_ring[entry_of(trail_slot, age + 1u)].xyz;
  vec3 along = newer - older;
  if (any(greaterThan(abs(along), 0.5 * u_world_size))) return;

  vec2 corner = kCorner[uint(gl_VertexID) % kSegmentVertices];
  vec3 point = mix(newer, older, corner.x);
  float depth = dot(point - u_eye, u_view_forward);
  if (min(dot(newer - u_eye, u_view_forward), dot(older - u_eye, u_view_forward)) < u_near_plane)
    return;
  float vertex_age = (float(age) + corner.x) / float(segments_per_boid);  // 0 new .. 1 oldest
  float fade = 1.0 - vertex_age;
  float width_pixels = u_width_pixels * fade * u_focus_depth / depth;
  float coverage = min(width_pixels / u_min_width_pixels, 1.0);
  width_pixels = max(width_pixels, u_min_width_pixels);
  float half_width = 0.5 * width_pixels * depth / u_pixels_at_unit_depth;  // world units

  vec3 side = cross(along, u_eye - point);
  float side_length = length(side);
  // A segment along the view ray is a point on the screen: any side will do.
  side = side_length > kTinyLength * length(along) * length(u_eye - point)
             ? side / side_length
             : vec3(0.0);
  gl_Position = u_world_to_clip * vec4(point + side * (corner.y * half_width), 1.0);
  float opacity =
      u_intensity * fade * coverage * fog_share(depth, u_fog_start, u_inverse_fog);
  vec3 velocity = trail_ring[newer_entry + 1u].xyz;
  v_colour = vec4(boid_colour(owner.id, owner.species, compass_velocity(velocity), owner.energy) *
                      opacity,
                  opacity);
}
