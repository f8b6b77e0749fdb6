#version 450 core
// A living agent's marker: the square's inscribed disc in flat, premultiplied colour.
in vec4 v_colour;
in vec2 v_disc;
out vec4 f_colour;

void main() {
  if (dot(v_disc, v_disc) > 1.0) discard;
  f_colour = v_colour;
}
