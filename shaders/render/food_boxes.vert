#version 450 core
#include "render/bindings.h"
// Food: 6 vertices (two triangles) per cell of the food field, in one draw over the cells: a
// box centred on the cell, its area the cell's share of a full cell (docs/rendering.md,
// "Food"). An empty cell's box collapses to a point and draws nothing. Read straight from the
// food buffer the simulation steps (or any buffer of amounts); MURMUR_* names not in
// interface.h are defined by the renderer (C++).
#include "common/interface.h"

layout(std430, binding = MURMUR_BIND_RENDER_FOOD) readonly buffer RenderFoodBlock {
  float render_food[];  // per cell, row by row
};

uniform uint u_columns;
uniform vec2 u_cell_size;        // world units
uniform float u_max_per_cell;    // a full cell's amount, > 0
uniform float u_full_box_fraction;  // a full cell's box side / the cell's side
uniform vec3 u_food_colour;
uniform vec2 u_world_centre;
uniform vec2 u_world_to_clip;

out vec4 v_colour;  // opaque

const uint kBoxVertices = 6u;  // per cell, in one draw over the cells (not instances)
const vec2 kSquareCorner[kBoxVertices] = vec2[kBoxVertices](vec2(-1, -1), vec2(1, -1), vec2(1, 1),
                                      vec2(-1, -1), vec2(1, 1), vec2(-1, 1));
const float kHalf = 0.5;
const vec4 kNothing = vec4(0.0, 0.0, 0.0, 1.0);  // all six at one point: no area, no pixels

void main() {
  uint cell = uint(gl_VertexID) / kBoxVertices;
  float share = clamp(render_food[cell] / u_max_per_cell, 0.0, 1.0);
  v_colour = vec4(u_food_colour, 1.0);
  gl_Position = kNothing;
  if (share <= 0.0) return;
  vec2 centre = (vec2(cell % u_columns, cell / u_columns) + kHalf) * u_cell_size;
  // Area in proportion to the amount: the side grows with its square root.
  vec2 half_side = kHalf * u_cell_size * u_full_box_fraction * sqrt(share);
  vec2 world = centre + kSquareCorner[uint(gl_VertexID) % kBoxVertices] * half_side;
  gl_Position = vec4((world - u_world_centre) * u_world_to_clip, 0.0, 1.0);
}
