#version 450 core
// Boid heads, read straight from the simulation's boid buffer: 4 vertices per boid record
// (gl_VertexID / 4; the renderer's index buffer makes two triangles of them, and a base
// vertex per draw moves on through the records), or one per record for points. Records past
// the live count draw nothing. A head is a dart along the velocity, a disc, or, with the age
// look, a ring that grows and fills in with age (a disc and a ring are a square the fragment
// shader cuts round). Heads shorter than a pixel are one-pixel points instead (GL_POINTS).
// MURMUR_* names not in interface.h are defined by the renderer (C++).
#include "render_boids.glsl"
#include "render_colour.glsl"

uniform vec2 u_world_centre;    // the world point at the frame's centre
uniform vec2 u_world_to_clip;   // clip units per world unit, per axis (aspect kept)
uniform float u_head_length;    // world units, tip to tail (the age look's full diameter)
uniform float u_head_width;     // world units, wing to wing
uniform float u_notch_ratio;    // tail notch depth / length
uniform bool u_disc_head;     // a disc of diameter u_head_length instead of a dart
uniform bool u_point_heads;   // one pixel per boid (the draw is GL_POINTS)
uniform float u_intensity;    // of the boid's colour (the density scale, docs/rendering.md)
uniform bool u_age_look;
uniform float u_age_scale[MURMUR_MAX_SPECIES];  // steps to a full disc, > 0
uniform float u_age_min_size;   // diameter at age 0 / u_head_length
uniform float u_age_min_fill;   // ring width at age 0 / its radius

out vec3 v_colour;
out vec2 v_disc;         // age look: the fragment's place in the disc, radius 1
out float v_hole;        // age look: the hole's radius, in the disc's radii
flat out int v_round;    // 1: cut the square round (disc or age look)

// Dart corners in its own frame, x along the heading, in units of (length, width), centred on
// the boid; the triangles of corners 0 1 2 and 0 2 3 are tip-wing-notch and tip-notch-wing.
const int kTip = 0, kLeftWing = 1, kNotch = 2, kRightWing = 3;
const int kCornersPerHead = 4;
const int kCornerOfVertex[kCornersPerHead] = int[kCornersPerHead](kTip, kLeftWing, kNotch,
                                                                  kRightWing);
const float kHalf = 0.5;
// The age look's square around the disc, in its radii, the same way round.
const vec2 kSquareCorner[kCornersPerHead] = vec2[kCornersPerHead](vec2(-1, -1), vec2(1, -1),
                                                                  vec2(1, 1), vec2(-1, 1));
vec2 dart_corner(int corner) {
  if (corner == kTip) return vec2(kHalf, 0.0);
  if (corner == kLeftWing) return vec2(-kHalf, kHalf);
  if (corner == kRightWing) return vec2(-kHalf, -kHalf);
  return vec2(-kHalf + u_notch_ratio, 0.0);
}

void main() {
  uint record = u_point_heads ? uint(gl_VertexID) : uint(gl_VertexID / kCornersPerHead);
  int head_corner = gl_VertexID % kCornersPerHead;
  v_disc = vec2(0.0);
  v_hole = 0.0;
  v_round = 0;
  if (record >= render_live_count) {
    v_colour = vec3(0.0);
    gl_Position = kNotDrawn;
    return;
  }
  Boid boid = render_boids[record];
  v_colour = u_intensity * boid_colour(boid.id, boid.species, boid.vel, boid.energy);
  if (u_point_heads) {
    gl_Position = vec4((boid.pos - u_world_centre) * u_world_to_clip, 0.0, 1.0);
    return;
  }
  vec2 world;
  if (u_age_look || u_disc_head) {
    float size = 1.0;
    if (u_age_look) {
      float scale = u_age_scale[min(boid.species, uint(MURMUR_MAX_SPECIES - 1))];
      float grown = clamp(float(boid.age) / scale, 0.0, 1.0);
      size = mix(u_age_min_size, 1.0, grown);
      v_hole = 1.0 - mix(u_age_min_fill, 1.0, grown);
    }
    v_disc = kSquareCorner[head_corner];
    v_round = 1;
    world = boid.pos + v_disc * (kHalf * u_head_length * size);
  } else {
    float speed = length(boid.vel);
    // A boid at rest has no heading; it is drawn facing +x rather than vanishing.
    vec2 forward = speed > 0.0 ? boid.vel / speed : vec2(1.0, 0.0);
    vec2 left = vec2(-forward.y, forward.x);
    vec2 corner = dart_corner(kCornerOfVertex[head_corner]);
    world = boid.pos + forward * (corner.x * u_head_length) + left * (corner.y * u_head_width);
  }
  gl_Position = vec4((world - u_world_centre) * u_world_to_clip, 0.0, 1.0);
}
