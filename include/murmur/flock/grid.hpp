#pragma once
// The uniform grid over the world: its shape, and the cell of a position. The GPU's neighbour
// search sorts boids by it, and the model's parent order (docs/model.md, "Births") is defined
// on it, so the CPU reference bins with the same function and the same floats.
#include <cstdint>

#include <glm/vec2.hpp>

#include "murmur/scenario/scenario.hpp"

namespace murmur {

struct GridShape {
  glm::ivec2 cells{1, 1};            // columns, rows
  glm::vec2 cell_size{0};            // >= the largest perception radius on both axes
  glm::vec2 inverse_cell_size{0};    // fl(1 / cell_size): binning multiplies by it
  std::uint32_t cell_count() const;
  // clamp(floor(p * inverse_cell_size), 0, cells - 1) per axis, as row * columns + column.
  // A float32 product is correctly rounded on every GPU (a quotient need not be), so both
  // sides bin every position alike.
  std::uint32_t cell_of(glm::vec2 position) const;
};

// The grid a scenario gets for `capacity` boids: cells at least the largest perception radius,
// and no more cells than a small multiple of the capacity (cells grow instead).
GridShape grid_shape_for(const Scenario& scenario, std::uint32_t capacity);

// The food field's grid (docs/model.md, "The food field"): cells of side food.cell_size,
// ceil(L / cell_size) of them per axis (the last row and column may reach past the world),
// binned by the same cell_of. Only for a scenario with a [food] table.
GridShape food_grid_shape(const FoodParams& food, glm::vec2 world);

}  // namespace murmur
