#version 450 core
// Overlays: straight colour with alpha, blended over the tone-mapped frame.
in vec4 v_colour;
out vec4 f_colour;

void main() {
  f_colour = v_colour;
}
