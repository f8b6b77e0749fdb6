#version 450 core
// Ribbon segments and food boxes: flat colour, premultiplied by its opacity
// in alpha, summed by additive blending (glow) or laid over (ink: GL_ONE,
// GL_ONE_MINUS_SRC_ALPHA).
in vec4 v_colour;
out vec4 f_colour;

void main() {
  f_colour = v_colour;
}
