#version 450 core
// Boid heads: flat colour, summed into the HDR target by additive blending, so dense flocks
// glow brighter instead of clipping. A disc is the square's inscribed circle; with the age
// look, only the ring between the hole and the disc's edge is drawn. A dart is its outer
// triangle less the notch, the triangle of the two wings and the point u_notch_ratio lengths
// in from the back on the axis: a fragment behind the line from that point to its side's wing.
in vec3 v_colour;
in vec2 v_local;
in float v_hole;
uniform float u_notch_ratio;  // tail notch depth / length
out vec4 f_colour;

const float kHalf = 0.5;
const float kWingSpan = 2.0;  // |y| is 1/2 at a wing: 1 - 2|y| runs 1 (axis) to 0 (wing)

void main() {
  // MURMUR_HEAD_VERTICES (heads.vert) says which head this program draws.
#if MURMUR_HEAD_VERTICES == MURMUR_HEAD_SQUARE_VERTICES
  float r = length(v_local);
  if (r > 1.0 || r < v_hole) discard;
#elif MURMUR_HEAD_VERTICES == MURMUR_HEAD_DART_VERTICES
  float notch_edge = -kHalf + u_notch_ratio * (1.0 - kWingSpan * abs(v_local.y));
  if (v_local.x < notch_edge) discard;
#endif
  f_colour = vec4(v_colour, 1.0);
}
