#version 450 core
// Boid heads: flat colour, summed into the HDR target by additive blending, so dense flocks
// glow brighter instead of clipping. With the age look, only the ring between the hole and
// the disc's edge is drawn.
in vec3 v_colour;
in vec2 v_disc;
in float v_hole;
out vec4 f_colour;

uniform bool u_age_look;

void main() {
  if (u_age_look) {
    float r = length(v_disc);
    if (r > 1.0 || r < v_hole) discard;
  }
  f_colour = vec4(v_colour, 1.0);
}
