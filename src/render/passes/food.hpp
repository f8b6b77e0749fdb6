#pragma once
// The food pass: the food field as boxes centred on their cells, added into the HDR frame
// (shaders/render/food_boxes.vert; docs/rendering.md, "Food").
#include "pass.hpp"

namespace murmur::render {

struct FoodPrograms {
  FoodPrograms();
  gl::Program program;
  ViewUniforms view{program};
  gl::Uniform columns{program, "u_columns"}, cell_size{program, "u_cell_size"},
      max_per_cell{program, "u_max_per_cell"}, full_box_fraction{program, "u_full_box_fraction"},
      colour{program, "u_food_colour"};
};

// Reads the food field; writes the world's rectangle of `hdr`.
void draw_food(const FoodPrograms& programs, const FoodBufferView& food,
               const RenderSettings& settings, const WorldView& view, const RenderTarget& hdr,
               const PassGeometry& geometry);

}  // namespace murmur::render
