#version 450 core
#include "render/bindings.h"
// Overlays: thin lines in world space, from a buffer of shapes, one draw of the circles and one
// of the segments (not an instance per shape: llvmpipe runs instances one by one). A segment
// shape is one line (2 vertices); a circle shape is MURMUR_OVERLAY_CIRCLE_SEGMENTS lines (2
// vertices each) around its centre.
#include "common/interface.h"

struct OverlayShape {
  vec4 geometry;  // segment: (x0, y0, x1, y1); circle: (centre x, centre y, radius, unused)
  vec4 colour;    // sRGB + alpha
};
layout(std430, binding = MURMUR_BIND_OVERLAY_SHAPES) readonly buffer OverlayShapesBlock {
  OverlayShape overlay_shapes[];
};

uniform bool u_circles;
uniform uint u_first_shape;
uniform vec2 u_world_centre;
uniform vec2 u_world_to_clip;

out vec4 v_colour;

const float kTau = 6.28318530718;
const int kLineVertices = 2;

void main() {
  int shape_vertices = u_circles ? kLineVertices * MURMUR_OVERLAY_CIRCLE_SEGMENTS : kLineVertices;
  int vertex = gl_VertexID % shape_vertices;
  OverlayShape shape = overlay_shapes[u_first_shape + uint(gl_VertexID / shape_vertices)];
  vec2 world;
  if (u_circles) {
    int corner = vertex / 2 + vertex % 2;  // line k runs from corner k to k + 1
    float angle = kTau * float(corner) / float(MURMUR_OVERLAY_CIRCLE_SEGMENTS);
    world = shape.geometry.xy + shape.geometry.z * vec2(cos(angle), sin(angle));
  } else {
    world = vertex == 0 ? shape.geometry.xy : shape.geometry.zw;
  }
  gl_Position = vec4((world - u_world_centre) * u_world_to_clip, 0.0, 1.0);
  v_colour = shape.colour;
}
