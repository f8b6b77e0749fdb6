#version 450 core
// Boid heads: one instance per live boid record (an indirect draw whose instance count the GPU
// copied from the live count), read straight from the simulation's boid buffer. A head is a
// dart along the velocity (a strip of 4 vertices: two triangles), a disc, or, with the age
// look, a ring that grows and fills in with age (a disc and a ring are a square of two
// 6-vertex triangles that the fragment shader cuts round). Heads shorter than a pixel are
// one-pixel points instead (GL_POINTS, one vertex). The renderer picks the draw; each vertex
// costs (llvmpipe shades every one), so each shape has as few as it can.
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
// the boid: the strip wing-tip-notch-wing makes the triangles tip-wing-notch and
// tip-notch-wing (the same pixels in any vertex order, and the flat colour is the same at all
// corners).
const int kTip = 0, kLeftWing = 1, kNotch = 2, kRightWing = 3;
const int kCornerOfVertex[4] = int[4](kLeftWing, kTip, kNotch, kRightWing);
const float kHalf = 0.5;
// The age look's square around the disc, in its radii: the same 6 vertices as two triangles.
const vec2 kSquareCorner[6] = vec2[6](vec2(-1, -1), vec2(1, -1), vec2(1, 1),
                                      vec2(-1, -1), vec2(1, 1), vec2(-1, 1));

vec2 dart_corner(int corner) {
  if (corner == kTip) return vec2(kHalf, 0.0);
  if (corner == kLeftWing) return vec2(-kHalf, kHalf);
  if (corner == kRightWing) return vec2(-kHalf, -kHalf);
  return vec2(-kHalf + u_notch_ratio, 0.0);
}

void main() {
  Boid boid = render_boids[gl_InstanceID];
  v_colour = u_intensity * boid_colour(boid.id, boid.species, boid.vel, boid.energy);
  v_disc = vec2(0.0);
  v_hole = 0.0;
  v_round = 0;
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
    v_disc = kSquareCorner[gl_VertexID];
    v_round = 1;
    world = boid.pos + v_disc * (kHalf * u_head_length * size);
  } else {
    float speed = length(boid.vel);
    // A boid at rest has no heading; it is drawn facing +x rather than vanishing.
    vec2 forward = speed > 0.0 ? boid.vel / speed : vec2(1.0, 0.0);
    vec2 left = vec2(-forward.y, forward.x);
    vec2 corner = dart_corner(kCornerOfVertex[gl_VertexID]);
    world = boid.pos + forward * (corner.x * u_head_length) + left * (corner.y * u_head_width);
  }
  gl_Position = vec4((world - u_world_centre) * u_world_to_clip, 0.0, 1.0);
}
