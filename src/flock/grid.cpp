#include "murmur/flock/grid.hpp"

#include <algorithm>
#include <cmath>

namespace murmur {

namespace {
// Binning rounds p * (1 / cell_size); a cell slightly wider than the radius keeps every
// neighbour within one cell of its observer whatever that rounding does.
constexpr float kCellWidthOverRadius = 1.001f;
// Empty cells cost scan time and memory: never more cells than this many per boid (the
// cells grow instead, which is still correct, only slower per cell)...
constexpr std::uint32_t kMaxCellsPerBoid = 4;
// ...but small flocks may always have this many.
constexpr std::uint32_t kMinCellCap = 4096;
}  // namespace

std::uint32_t GridShape::cell_count() const {
  return static_cast<std::uint32_t>(cells.x) * static_cast<std::uint32_t>(cells.y);
}

std::uint32_t GridShape::cell_of(glm::vec2 position) const {
  const float fx = std::floor(position.x * inverse_cell_size.x);
  const float fy = std::floor(position.y * inverse_cell_size.y);
  // Compared as floats first: a position far outside the world must not overflow the int.
  const int column = fx < 0.0f ? 0 : fx >= static_cast<float>(cells.x) ? cells.x - 1 : static_cast<int>(fx);
  const int row = fy < 0.0f ? 0 : fy >= static_cast<float>(cells.y) ? cells.y - 1 : static_cast<int>(fy);
  return static_cast<std::uint32_t>(row) * static_cast<std::uint32_t>(cells.x) +
         static_cast<std::uint32_t>(column);
}

GridShape grid_shape_for(const Scenario& scenario, std::uint32_t capacity) {
  const glm::vec2 world = scenario.size();
  const float min_cell = scenario.max_perception_radius() * kCellWidthOverRadius;
  glm::ivec2 cells{std::max(1, static_cast<int>(std::floor(world.x / min_cell))),
                   std::max(1, static_cast<int>(std::floor(world.y / min_cell)))};
  const double cap = std::max<double>(kMinCellCap, double(kMaxCellsPerBoid) * capacity);
  const double total = double(cells.x) * double(cells.y);
  if (total > cap) {
    const double shrink = std::sqrt(total / cap);
    cells.x = std::max(1, static_cast<int>(std::floor(cells.x / shrink)));
    cells.y = std::max(1, static_cast<int>(std::floor(cells.y / shrink)));
  }
  GridShape shape;
  shape.cells = cells;
  shape.cell_size = world / glm::vec2(cells);
  shape.inverse_cell_size = glm::vec2(1.0f) / shape.cell_size;
  return shape;
}

GridShape food_grid_shape(const FoodParams& food, glm::vec2 world) {
  GridShape shape;
  shape.cells = {std::max(1, static_cast<int>(std::ceil(double(world.x) / double(food.cell_size)))),
                 std::max(1, static_cast<int>(std::ceil(double(world.y) / double(food.cell_size))))};
  shape.cell_size = glm::vec2(food.cell_size);
  shape.inverse_cell_size = glm::vec2(1.0f / food.cell_size);
  return shape;
}

}  // namespace murmur
