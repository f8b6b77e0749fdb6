#version 450 core
#include "render/bindings.h"
// Boid heads, read straight from the simulation's boid buffer: kVerticesPerHead vertices per
// boid record (gl_VertexID / it). The renderer builds the program once per kind of head it
// draws, MURMUR_HEAD_SHAPE and MURMUR_HEAD_SPRITE (llvmpipe runs every side of a branch: a kind
// chosen by a uniform cost every kind's arithmetic). Records past the live count draw nothing.
// A dart along the velocity is one triangle, tip and wings, whose notch the fragment shader
// cuts out: half the triangles of a dart drawn as two (tip-wing-notch and tip-notch-wing),
// which is what a head costs on llvmpipe (setup, binning and the 4x4 blocks each triangle
// touches) and on GPUs with few rasterizers. A disc, or with the age look a ring that grows and
// fills in with age, is a square of 4 vertices (the renderer's index buffer makes two triangles
// of them) that the fragment shader cuts round. A small dart or disc is instead one point
// sprite (MURMUR_HEAD_SPRITE), a square around the boid that the head turned any way fits in,
// which the fragment shader cuts to the same shape from each pixel's offset from the boid: the
// pixels the triangles light, for one cheap point's setup. Heads shorter than a pixel are
// one-pixel points (GL_POINTS, one vertex each). MURMUR_* names not in interface.h are defined
// by the renderer (C++).
#include "render/render_boids.glsl"
#include "render/render_colour.glsl"

uniform vec2 u_world_centre;    // the world point at the frame's centre
uniform vec2 u_world_to_clip;   // clip units per world unit, per axis (aspect kept)
uniform float u_head_length;    // world units, tip to tail (the age look's full diameter)
uniform float u_head_width;     // world units, wing to wing
uniform float u_intensity;    // of the boid's colour (the density scale, docs/rendering.md)
uniform bool u_age_look;
uniform float u_age_scale[MURMUR_MAX_SPECIES];  // steps to a full disc, > 0
uniform float u_age_min_size;   // diameter at age 0 / u_head_length
uniform float u_age_min_fill;   // ring width at age 0 / its radius

out vec3 v_colour;
// The fragment's place in the head's own frame: in the disc, radius 1 (disc, age look); in the
// dart, x along the heading and y across in units of (length, width), centred on the boid.
out vec2 v_local;
out float v_hole;        // age look: the hole's radius, in the disc's radii

// The dart's outer triangle in its own frame, (length, width) units, centred on the boid: tip,
// left wing, right wing. The notch is cut by the fragment shader (heads.frag).
const int kDartCorners = MURMUR_HEAD_DART_VERTICES;
const float kHalf = 0.5;
const vec2 kDartCorner[kDartCorners] = vec2[kDartCorners](vec2(kHalf, 0.0), vec2(-kHalf, kHalf),
                                                          vec2(-kHalf, -kHalf));
// The age look's square around the disc, in its radii, in the index buffer's corner order.
const int kSquareCorners = MURMUR_HEAD_SQUARE_VERTICES;
const vec2 kSquareCorner[kSquareCorners] = vec2[kSquareCorners](vec2(-1, -1), vec2(1, -1),
                                                                vec2(1, 1), vec2(-1, 1));

// One vertex a head for one-pixel points and sprites; a dart's triangle or a square's corners.
#if MURMUR_HEAD_SHAPE == MURMUR_HEAD_SHAPE_PIXEL || MURMUR_HEAD_SPRITE
const uint kVerticesPerHead = 1u;
#elif MURMUR_HEAD_SHAPE == MURMUR_HEAD_SHAPE_DART
const uint kVerticesPerHead = uint(kDartCorners);
#else
const uint kVerticesPerHead = uint(kSquareCorners);
#endif

#if MURMUR_HEAD_SPRITE
uniform vec2 u_frame_size;            // pixels
uniform float u_pixels_per_world_unit;
uniform float u_sprite_pixels;        // the sprite's side: the head turned any way fits in it
// The frame's size over the sprites' viewport's, wider by a margin each way (GL clips a point by
// its centre: render::draw_heads): the frame's clip coordinates times it are the viewport's.
uniform vec2 u_sprite_clip_scale;
// heads.frag's inputs for a sprite: the boid's window position, and the row that takes a
// fragment's offset from it (pixels) to the head's own x (the same v_local.x as a triangle's
// vertices give); heads.frag makes the y row from it. On llvmpipe a point's setup costs by its
// inputs' components, which is most of what a small head costs.
flat out vec2 v_centre_pixels;
flat out vec2 v_local_from_offset_x;
#if MURMUR_HEAD_SHAPE == MURMUR_HEAD_SHAPE_SQUARE
flat out float v_sprite_hole;
#endif
#endif

void main() {
  uint record = uint(gl_VertexID) / kVerticesPerHead;
  int head_corner = int(uint(gl_VertexID) % kVerticesPerHead);
  v_local = vec2(0.0);
  v_hole = 0.0;
#if MURMUR_HEAD_SPRITE
  v_centre_pixels = vec2(0.0);
  v_local_from_offset_x = vec2(0.0);
#if MURMUR_HEAD_SHAPE == MURMUR_HEAD_SHAPE_SQUARE
  v_sprite_hole = 0.0;
#endif
  gl_PointSize = u_sprite_pixels;
#endif
  if (record >= render_live_count) {
    v_colour = vec3(0.0);
    gl_Position = kNotDrawn;
    return;
  }
  Boid boid = render_boids[record];
  v_colour = u_intensity * boid_colour(boid.id, boid.species, boid.vel, boid.energy);
#if MURMUR_HEAD_SHAPE == MURMUR_HEAD_SHAPE_PIXEL
  gl_Position = vec4((boid.pos - u_world_centre) * u_world_to_clip, 0.0, 1.0);
#else
#if MURMUR_HEAD_SHAPE == MURMUR_HEAD_SHAPE_SQUARE
  float size = 1.0;
  if (u_age_look) {
    float scale = u_age_scale[min(boid.species, uint(MURMUR_MAX_SPECIES - 1))];
    float grown = clamp(float(boid.age) / scale, 0.0, 1.0);
    size = mix(u_age_min_size, 1.0, grown);
    v_hole = 1.0 - mix(u_age_min_fill, 1.0, grown);
  }
  // The square's corners are (+-1, +-1) disc radii: world units per local unit along x and y.
  vec2 forward = vec2(1.0, 0.0);
  vec2 units = vec2(kHalf * u_head_length * size);
#else
  float speed = length(boid.vel);
  // A boid at rest has no heading; it is drawn facing +x rather than vanishing.
  vec2 forward = speed > 0.0 ? boid.vel / speed : vec2(1.0, 0.0);
  vec2 units = vec2(u_head_length, u_head_width);
#endif
  vec2 left = vec2(-forward.y, forward.x);
#if MURMUR_HEAD_SPRITE
  vec2 centre_clip = (boid.pos - u_world_centre) * u_world_to_clip;  // in the frame's clip space
  gl_Position = vec4(centre_clip * u_sprite_clip_scale, 0.0, 1.0);
  v_centre_pixels = (centre_clip * kHalf + kHalf) * u_frame_size;
  // local.x = offset . forward / units.x, offset in world units (heads.frag: local.y).
  v_local_from_offset_x = forward / (u_pixels_per_world_unit * units.x);
#if MURMUR_HEAD_SHAPE == MURMUR_HEAD_SHAPE_SQUARE
  v_sprite_hole = v_hole;
#endif
#else
#if MURMUR_HEAD_SHAPE == MURMUR_HEAD_SHAPE_SQUARE
  v_local = kSquareCorner[head_corner];
#else
  v_local = kDartCorner[head_corner];
#endif
  vec2 world = boid.pos + forward * (v_local.x * units.x) + left * (v_local.y * units.y);
  gl_Position = vec4((world - u_world_centre) * u_world_to_clip, 0.0, 1.0);
#endif
#endif
}
