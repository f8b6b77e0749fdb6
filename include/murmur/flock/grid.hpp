#pragma once
// The uniform grid over the world: its shape, and the cell of a position. The GPU's neighbour
// search sorts boids by it, and the model's parent order (docs/model.md, "Births") is defined
// on it, so the CPU reference bins with the same function and the same floats.
#include <cstdint>
#include <string>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "murmur/flock/state.hpp"
#include "murmur/scenario/scenario.hpp"

namespace murmur {

struct GridShape {
  // Columns, rows and layers. A 2D world's grid has one layer, of cell_size.z = 0 (and
  // inverse 0), so that its cells are the plane's: a 3D position's cell_of is then its
  // plane's, z = 0 or not.
  glm::ivec3 cells{1, 1, 1};
  glm::vec3 cell_size{0};            // >= the largest perception radius on every axis
  glm::vec3 inverse_cell_size{0};    // fl(1 / cell_size): binning multiplies by it
  std::uint32_t cell_count() const;
  // clamp(floor(p * inverse_cell_size), 0, cells - 1) per axis, as row * columns + column.
  // A float32 product is correctly rounded on every GPU (a quotient need not be), so both
  // sides bin every position alike.
  std::uint32_t cell_of(glm::vec2 position) const;
  // The same with the layer: (layer * rows + row) * columns + column.
  std::uint32_t cell_of(glm::vec3 position) const;
  // A boid's cell: its 3D position's (the plane's in 2D, where z = 0 and there is one layer).
  std::uint32_t cell_of(const Boid& boid) const;
};

// The grid a scenario gets for `capacity` boids: cells at least the largest perception radius,
// and no more cells than a small multiple of the capacity (cells grow instead).
GridShape grid_shape_for(const Scenario& scenario, std::uint32_t capacity);

// Past this many candidates a boid (the boids the grid's search visits besides itself) every
// step slows with the crowding, and the commands say so before the first step (docs/gpu.md,
// "Density"): a flock of this density takes minutes a step on llvmpipe at a million boids.
inline constexpr double kDenseCandidatesPerBoid = 2000;

// The mean candidates a boid of `scenario`'s start (its [[spawn]] regions and the uniform rest)
// meets in `grid`'s search of 3 x 3 cells (3 x 3 x 3 in 3D), besides itself: each region's
// boids at its own
// density plus the uniform rest's, all of a region's boids when it is smaller than the search.
// An estimate: a flock that gathers as it flies meets more.
double expected_candidates_per_boid(const Scenario& scenario, const GridShape& grid);

// The boids the grid's steering pass visits per boid, besides itself, averaged over `state`:
// every boid in the cells steer_grid.comp searches around its own (shaders/flock/
// grid_search.glsl's spans: 3 x 3 cells, 3 x 3 x 3 in 3D, wrapped for a torus species, clamped
// at walls, a grid of fewer than 3 cells on an axis searched whole). What `murmur bench` reports.
double candidates_per_boid(const Scenario& scenario, const GridShape& grid,
                           const FlockState& state);

// One line for a scenario whose expected candidates pass kDenseCandidatesPerBoid (the estimate
// and what would bring it down), or empty.
std::string density_warning(const Scenario& scenario, std::uint32_t capacity);

// The food field's grid (docs/model.md, "The food field"): cells of side food.cell_size,
// ceil(L / cell_size) of them per axis (the last row and column may reach past the world),
// binned by the same cell_of. Only for a scenario with a [food] table.
GridShape food_grid_shape(const FoodParams& food, glm::vec2 world);

}  // namespace murmur
