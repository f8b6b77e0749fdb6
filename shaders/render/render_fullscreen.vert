#version 450 core
// One triangle that covers the whole target (vertices 0..2, no attributes): the usual way to
// run a fragment shader once per pixel.
void main() {
  vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));  // (0,0) (2,0) (0,2)
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
