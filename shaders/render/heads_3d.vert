#version 450 core
#include "render/bindings.h"
// A 3D world's heads (compiled with MURMUR_3D: the 48-byte records), in perspective, with
// heads.frag. A dart is one triangle in the plane of its heading that faces the eye most: its
// wings along cross(heading, to the eye), so it is seen flat from the side and thin end-on,
// like a bird. A disc (MURMUR_HEAD_SHAPE_SQUARE) is a square facing the eye, cut round and
// soft. Sizes are world units, so perspective shrinks far birds; a head narrower than
// MURMUR_HEAD_3D_MIN_PIXELS is drawn that wide, its share of the light scaled by the area it
// covers. Depth fog scales the share too: exp(-d / fog), d the bird's depth past u_fog_start.
// Records past the live count draw nothing.
#include "render/render_boids.glsl"
#include "render/render_colour.glsl"
#include "render/render_3d.glsl"

uniform mat4 u_world_to_clip;
uniform vec3 u_eye;
uniform vec3 u_view_forward;       // unit, the camera's
uniform vec3 u_view_right;         // unit: a disc's x, and a dart's wings seen end-on
uniform vec3 u_view_up;            // unit: a disc's y
uniform float u_near_plane;        // view depth, world units
uniform float u_pixels_at_unit_depth;  // pixels across a world unit at view depth 1
uniform float u_head_length;       // world units, tip to tail (a disc's diameter) ...
uniform float u_head_length_pixels;    // ... plus these pixels at any depth (one is 0)
uniform float u_width_ratio;       // dart: wing span / length; a disc: 1
uniform float u_fog_start;         // view depth where the fog starts
uniform float u_inverse_fog;       // 1 / the fog's distance

out vec3 v_colour;   // premultiplied by v_share
out vec2 v_local;    // as heads.vert's
out float v_hole;    // always 0 (no age look in 3D)
out float v_share;   // the fog's and the coverage's share of the head's light (or ink)

const float kHalf = 0.5;
const int kDartCorners = MURMUR_HEAD_DART_VERTICES;
const vec2 kDartCorner[kDartCorners] = vec2[kDartCorners](vec2(kHalf, 0.0), vec2(-kHalf, kHalf),
                                                          vec2(-kHalf, -kHalf));
const int kSquareCorners = MURMUR_HEAD_SQUARE_VERTICES;
const vec2 kSquareCorner[kSquareCorners] = vec2[kSquareCorners](vec2(-1, -1), vec2(1, -1),
                                                                vec2(1, 1), vec2(-1, 1));
#if MURMUR_HEAD_SHAPE == MURMUR_HEAD_SHAPE_DART
const uint kVerticesPerHead = uint(kDartCorners);
#else
const uint kVerticesPerHead = uint(kSquareCorners);
#endif

void main() {
  uint record = uint(gl_VertexID) / kVerticesPerHead;
  int head_corner = int(uint(gl_VertexID) % kVerticesPerHead);
  v_local = vec2(0.0);
  v_hole = 0.0;
  v_share = 0.0;
  v_colour = vec3(0.0);
  if (record >= render_live_count) {
    gl_Position = kNotDrawn;
    return;
  }
  Boid boid = render_boids[record];
  vec3 position = position_of(boid);
  vec3 velocity = velocity_of(boid);
  float depth = dot(position - u_eye, u_view_forward);
  if (depth < u_near_plane) {
    gl_Position = kNotDrawn;
    return;
  }
  float pixels_per_unit = u_pixels_at_unit_depth / depth;
  float length_world = u_head_length + u_head_length_pixels / pixels_per_unit;
  float width_pixels = length_world * u_width_ratio * pixels_per_unit;
  float floor_scale = max(1.0, MURMUR_HEAD_3D_MIN_PIXELS / max(width_pixels, kTinyLength));
  v_share = fog_share(depth, u_fog_start, u_inverse_fog) / (floor_scale * floor_scale);
  v_colour = v_share * boid_colour(boid.id, boid.species, compass_velocity(velocity), boid.energy);
  length_world *= floor_scale;
#if MURMUR_HEAD_SHAPE == MURMUR_HEAD_SHAPE_DART
  float speed = length(velocity);
  // A bird at rest has no heading; it is drawn facing the frame's right rather than vanishing.
  vec3 forward = speed > kTinyLength ? velocity / speed : u_view_right;
  vec3 wings = cross(forward, u_eye - position);
  float wing_length = length(wings);
  // Heading straight at the eye (or away), every plane through the heading faces it alike.
  wings = wing_length > kTinyLength * length(u_eye - position) ? wings / wing_length
                                                                : normalize(cross(forward, u_view_up));
  v_local = kDartCorner[head_corner];
  vec3 world = position + forward * (v_local.x * length_world) +
               wings * (v_local.y * length_world * u_width_ratio);
#else
  v_local = kSquareCorner[head_corner];
  vec3 world = position + (u_view_right * v_local.x + u_view_up * v_local.y) *
                              (kHalf * length_world);
#endif
  gl_Position = u_world_to_clip * vec4(world, 1.0);
}
