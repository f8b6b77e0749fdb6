#version 450 core
// Boid heads: flat colour, summed into the HDR target by additive blending, so dense flocks
// glow brighter instead of clipping. A disc is the square's inscribed circle; with the age
// look, only the ring between the hole and the disc's edge is drawn.
in vec3 v_colour;
in vec2 v_disc;
in float v_hole;
flat in int v_round;
out vec4 f_colour;

void main() {
  if (v_round != 0) {
    float r = length(v_disc);
    if (r > 1.0 || r < v_hole) discard;
  }
  f_colour = vec4(v_colour, 1.0);
}
