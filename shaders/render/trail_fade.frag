#version 450 core
// Fade map: multiplies every texel by u_fade through the blend (GL_ZERO, GL_SRC_COLOR), so the
// texture is never read and written by the same draw.
uniform float u_fade;
out vec4 f_colour;

void main() {
  f_colour = vec4(u_fade);
}
