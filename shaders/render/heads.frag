#version 450 core
#include "render/bindings.h"
// Boid heads: flat colour, summed into the HDR target by additive blending, so dense flocks
// glow brighter instead of clipping. A disc is the square's inscribed circle; with the age
// look, only the ring between the hole and the disc's edge is drawn. A dart is its outer
// triangle less the notch, the triangle of the two wings and the point u_notch_ratio lengths
// in from the back on the axis: a fragment behind the line from that point to its side's wing.
// A point sprite (MURMUR_HEAD_SPRITE) finds the fragment's place in the head's frame from its
// offset to the boid (the sprite is a square around it) and cuts the dart's two sides too,
// which a triangle's own edges cut. A 3D world's heads (MURMUR_3D, heads_3d.vert) carry their
// share of the light (the fog's and the coverage's), by which v_colour is premultiplied, in
// alpha: ink lays them over the sky by it, and a disc's edge falls off softly.
in vec3 v_colour;
#ifdef MURMUR_3D
in float v_share;
#endif
in vec2 v_local;
in float v_hole;
#if MURMUR_HEAD_SPRITE
flat in vec2 v_centre_pixels;
flat in vec2 v_local_from_offset_x;
#if MURMUR_HEAD_SHAPE == MURMUR_HEAD_SHAPE_SQUARE
flat in float v_sprite_hole;
#else
uniform float u_head_length;  // world units, tip to tail
uniform float u_head_width;   // world units, wing to wing
#endif
#endif
uniform float u_notch_ratio;  // tail notch depth / length
out vec4 f_colour;

const float kHalf = 0.5;
const float kWingSpan = 2.0;  // |y| is 1/2 at a wing: 1 - 2|y| runs 1 (axis) to 0 (wing)

void main() {
#if MURMUR_HEAD_SPRITE
  // The y row is the x row turned a quarter (left of the heading) and scaled by the head's
  // length over its width (1 for a disc): one input fewer to set up per point.
#if MURMUR_HEAD_SHAPE == MURMUR_HEAD_SHAPE_SQUARE
  float y_over_x = 1.0;
  float hole = v_sprite_hole;
#else
  float y_over_x = u_head_length / u_head_width;
  float hole = 0.0;
#endif
  vec2 offset = gl_FragCoord.xy - v_centre_pixels;
  vec2 row_y = vec2(-v_local_from_offset_x.y, v_local_from_offset_x.x) * y_over_x;
  vec2 local = vec2(dot(offset, v_local_from_offset_x), dot(offset, row_y));
#else
  vec2 local = v_local;
  float hole = v_hole;
#endif
  // MURMUR_HEAD_SHAPE (heads.vert) says which head this program draws.
#if MURMUR_HEAD_SHAPE == MURMUR_HEAD_SHAPE_SQUARE
  float r = length(local);
  if (r > 1.0 || r < hole) discard;
#elif MURMUR_HEAD_SHAPE == MURMUR_HEAD_SHAPE_DART
  float notch_edge = -kHalf + u_notch_ratio * (1.0 - kWingSpan * abs(local.y));
#if MURMUR_HEAD_SPRITE
  // The triangle's sides, which a triangle's rasterization cuts and a sprite does not.
  if (local.x < notch_edge || abs(local.y) > kHalf * (kHalf - local.x)) discard;
#else
  if (local.x < notch_edge) discard;
#endif
#endif
#ifdef MURMUR_3D
  float soft = 1.0;
#if MURMUR_HEAD_SHAPE == MURMUR_HEAD_SHAPE_SQUARE
  soft = 1.0 - smoothstep(MURMUR_DISC_SOFT_CORE, 1.0, r);
#endif
  f_colour = soft * vec4(v_colour, v_share);
#else
  f_colour = vec4(v_colour, 1.0);
#endif
}
