#include "murmur/flock/grid.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include <glm/ext/vector_double2.hpp>
#include <glm/vec2.hpp>

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
  return static_cast<std::uint32_t>(cells.x) * static_cast<std::uint32_t>(cells.y) *
         static_cast<std::uint32_t>(cells.z);
}

namespace {
// clamp(floor(p * inverse), 0, cells - 1) on one axis. Compared as floats first: a position
// far outside the world must not overflow the int.
int binned_axis(float position, float inverse, int cells) {
  const float f = std::floor(position * inverse);
  return f < 0.0f ? 0 : f >= static_cast<float>(cells) ? cells - 1 : static_cast<int>(f);
}
}  // namespace

std::uint32_t GridShape::cell_of(glm::vec2 position) const {
  const int column = binned_axis(position.x, inverse_cell_size.x, cells.x);
  const int row = binned_axis(position.y, inverse_cell_size.y, cells.y);
  return static_cast<std::uint32_t>(row) * static_cast<std::uint32_t>(cells.x) +
         static_cast<std::uint32_t>(column);
}

std::uint32_t GridShape::cell_of(glm::vec3 position) const {
  const int layer = binned_axis(position.z, inverse_cell_size.z, cells.z);
  return static_cast<std::uint32_t>(layer) * static_cast<std::uint32_t>(cells.y) *
             static_cast<std::uint32_t>(cells.x) +
         cell_of(glm::vec2{position.x, position.y});
}

std::uint32_t GridShape::cell_of(const Boid& boid) const { return cell_of(position_of(boid)); }

GridShape grid_shape_for(const Scenario& scenario, std::uint32_t capacity) {
  const glm::vec3 world = world_box(scenario);
  const bool volume = is_3d(scenario);
  const float min_cell = scenario.max_perception_radius() * kCellWidthOverRadius;
  const auto cells_across = [&](float side) {
    return std::max(1, static_cast<int>(std::floor(side / min_cell)));
  };
  glm::ivec3 cells{cells_across(world.x), cells_across(world.y),
                   volume ? cells_across(world.z) : 1};
  const double cap = std::max<double>(kMinCellCap, double(kMaxCellsPerBoid) * capacity);
  const double total = double(cells.x) * double(cells.y) * double(cells.z);
  if (total > cap) {
    // The same shrink on every axis the world has.
    const double shrink = volume ? std::cbrt(total / cap) : std::sqrt(total / cap);
    const auto shrunk = [&](int axis_cells) {
      return std::max(1, static_cast<int>(std::floor(axis_cells / shrink)));
    };
    cells.x = shrunk(cells.x);
    cells.y = shrunk(cells.y);
    if (volume) cells.z = shrunk(cells.z);
  }
  GridShape shape;
  shape.cells = cells;
  shape.cell_size = {world.x / float(cells.x), world.y / float(cells.y),
                     volume ? world.z / float(cells.z) : 0.0f};
  shape.inverse_cell_size = {1.0f / shape.cell_size.x, 1.0f / shape.cell_size.y,
                             volume ? 1.0f / shape.cell_size.z : 0.0f};
  return shape;
}

namespace {

// The cells a search spans on one axis of `cells`: 3, or the whole axis when it has fewer.
double searched_cells(int cells) { return std::min(3, cells); }

// The sides of the rectangle a spawn's boids start in, clipped to the world (a disc as the
// square of its area, origin 000's clusters as the box their last boid's offset bounds).
glm::dvec2 spawn_sides(const SpawnRegion& spawn, glm::vec2 world) {
  const auto clipped = [&](double x, double y, double width, double height) {
    const double sx = std::max(0.0, std::min(x + width, double(world.x)) - std::max(x, 0.0));
    const double sy = std::max(0.0, std::min(y + height, double(world.y)) - std::max(y, 0.0));
    return glm::dvec2{sx, sy};
  };
  switch (spawn.layout) {
    case SpawnLayout::Rectangle:
      return clipped(spawn.x, spawn.y, spawn.width, spawn.height);
    case SpawnLayout::Disc: {
      const double side = std::sqrt(3.14159265358979323846) * spawn.radius;
      return clipped(spawn.x - side / 2, spawn.y - side / 2, side, side);
    }
    // A volume's shadow on the plane, until the grid has a third axis.
    case SpawnLayout::Ball:
      return clipped(spawn.x - spawn.radius, spawn.y - spawn.radius, 2.0 * spawn.radius,
                     2.0 * spawn.radius);
    case SpawnLayout::Box:
      return clipped(spawn.x, spawn.y, spawn.width, spawn.height);
    case SpawnLayout::Clusters: {
      const double reach = double(spawn.spread) * (double(spawn.first_index) + spawn.count);
      return clipped(spawn.x - reach, spawn.y - reach, 3.0 * reach, 3.0 * reach);
    }
  }
  return {0.0, 0.0};
}

// The mean share of an interval of length `side` that a window of length `window` centred on a
// point uniform in the interval covers: 1 when the window reaches past both ends from anywhere.
double covered_share(double side, double window) {
  if (side <= 0.0 || window / 2 >= side) return 1.0;
  constexpr int kSamples = 256;
  double covered = 0;
  for (int i = 0; i < kSamples; ++i) {
    const double at = (i + 0.5) / kSamples * side;
    covered += std::min(at + window / 2, side) - std::max(at - window / 2, 0.0);
  }
  return covered / kSamples / side;
}

}  // namespace

double expected_candidates_per_boid(const Scenario& scenario, const GridShape& grid) {
  const double total = scenario.total_count();
  if (total < 2) return 0.0;
  const glm::vec2 world = scenario.size();
  // In 3D every boid of the plane's estimate below is spread over the depth, of which the
  // search covers its layers' share, as the plane's window covers its share of the area: a
  // factor on every density (1 in 2D, and 1 where the search spans every layer).
  const double depth_share =
      is_3d(scenario)
          ? std::min(1.0, searched_cells(grid.cells.z) * double(grid.cell_size.z) /
                              double(scenario.world.depth))
          : 1.0;
  const double world_area = double(world.x) * double(world.y);
  const glm::dvec2 window{searched_cells(grid.cells.x) * double(grid.cell_size.x),
                          searched_cells(grid.cells.y) * double(grid.cell_size.y)};
  double spawned = 0;
  for (const SpawnRegion& spawn : scenario.spawns) spawned += spawn.count;
  const double uniform_count = std::max(0.0, total - spawned);
  const double uniform_met = uniform_count / world_area * window.x * window.y;
  // A region's boid meets the share of its region the search covers around it, and the
  // uniform rest; a uniform boid meets a region's crowd where it happens to be in it.
  double met = uniform_count * uniform_met;
  for (const SpawnRegion& spawn : scenario.spawns) {
    const glm::dvec2 sides = spawn_sides(spawn, world);
    const double own = spawn.count * covered_share(sides.x, window.x) *
                       covered_share(sides.y, window.y);
    met += spawn.count * (own + uniform_met);
    met += uniform_count * own * std::min(1.0, sides.x * sides.y / world_area);
  }
  // Less the boid itself, and never more than the others.
  return std::clamp(met * depth_share / total - 1.0, 0.0, total - 1.0);
}

double candidates_per_boid(const Scenario& scenario, const GridShape& grid,
                           const FlockState& state) {
  if (state.boids.empty()) return 0;
  std::vector<std::uint32_t> per_cell(grid.cell_count(), 0);
  for (const Boid& b : state.boids) ++per_cell[grid.cell_of(b)];
  // The first cell and the number of cells searched on one axis around `own`.
  const auto span = [](int own, int cells, bool wrap) {
    if (cells < 3) return std::pair{0, cells};
    if (wrap) return std::pair{own - 1, 3};
    const int first = std::max(own - 1, 0);
    return std::pair{first, std::min(own + 1, cells - 1) - first + 1};
  };
  double total = 0;
  for (const Boid& b : state.boids) {
    const bool wrap = scenario.species[b.species].topology == Topology::Wrap;
    const std::uint32_t own = grid.cell_of(b);
    const std::uint32_t layer_cells = static_cast<std::uint32_t>(grid.cells.x) * grid.cells.y;
    const std::uint32_t own_in_layer = own % layer_cells;
    const auto [first_x, columns] =
        span(static_cast<int>(own_in_layer % grid.cells.x), grid.cells.x, wrap);
    const auto [first_y, rows] =
        span(static_cast<int>(own_in_layer / grid.cells.x), grid.cells.y, wrap);
    const auto [first_z, layers] = span(static_cast<int>(own / layer_cells), grid.cells.z, wrap);
    std::uint64_t visited = 0;
    for (int layer = 0; layer < layers; ++layer) {
      const int z = (first_z + layer + grid.cells.z) % grid.cells.z;
      for (int row = 0; row < rows; ++row) {
        const int y = (first_y + row + grid.cells.y) % grid.cells.y;
        for (int column = 0; column < columns; ++column) {
          const int x = (first_x + column + grid.cells.x) % grid.cells.x;
          visited += per_cell[(static_cast<std::size_t>(z) * grid.cells.y + y) * grid.cells.x + x];
        }
      }
    }
    total += static_cast<double>(visited - 1);  // itself
  }
  return total / static_cast<double>(state.boids.size());
}

std::string density_warning(const Scenario& scenario, std::uint32_t capacity) {
  const double expected = expected_candidates_per_boid(scenario, grid_shape_for(scenario, capacity));
  if (expected <= kDenseCandidatesPerBoid) return {};
  char text[320];
  std::snprintf(text, sizeof text,
                "%s: about %.3g candidates a boid in the grid's search, past %.0f: every step "
                "slows with it; a larger world, a smaller perception_radius (the largest is "
                "%g) or fewer boids (%u) brings it down",
                scenario.source.c_str(), expected, kDenseCandidatesPerBoid,
                double(scenario.max_perception_radius()), scenario.total_count());
  return text;
}

GridShape food_grid_shape(const FoodParams& food, glm::vec2 world) {
  GridShape shape;
  shape.cells = {std::max(1, static_cast<int>(std::ceil(double(world.x) / double(food.cell_size)))),
                 std::max(1, static_cast<int>(std::ceil(double(world.y) / double(food.cell_size)))),
                 1};
  shape.cell_size = {food.cell_size, food.cell_size, 0.0f};
  shape.inverse_cell_size = {1.0f / food.cell_size, 1.0f / food.cell_size, 0.0f};
  return shape;
}

}  // namespace murmur
