#version 450 core
// Boid heads: flat species colour, summed into the HDR target by additive blending, so dense
// flocks glow brighter instead of clipping.
in vec3 v_colour;
out vec4 f_colour;

void main() {
  f_colour = vec4(v_colour, 1.0);
}
