// The density estimate (docs/gpu.md, "Density"): the candidates a boid of a scenario's start
// meets in the grid's search, against the candidates counted on the start itself, a spawn's
// crowd seen, and the warning past kDenseCandidatesPerBoid.
#include <string>

#include <catch2/catch.hpp>

#include "murmur/flock/grid.hpp"
#include "murmur/flock/state.hpp"
#include "murmur/scenario/scenario.hpp"

using namespace murmur;
using Catch::Matchers::Contains;

namespace {

Scenario scenario_of(const std::string& text) { return parse_scenario(text, "density.toml"); }

std::string uniform(int count, float side, float radius) {
  return "[world]\nwidth = " + std::to_string(side) + "\nheight = " + std::to_string(side) +
         "\nseed = 5\n[[species]]\nname = \"a\"\ncount = " + std::to_string(count) +
         "\nperception_radius = " + std::to_string(radius) + "\nseparation_radius = 1\n";
}

// The estimate and the count on the seeded start it estimates.
std::pair<double, double> expected_and_counted(const Scenario& scenario) {
  const GridShape grid = grid_shape_for(scenario, scenario.capacity());
  return {expected_candidates_per_boid(scenario, grid),
          candidates_per_boid(scenario, grid, seeded_start(scenario))};
}

}  // namespace

TEST_CASE("a uniform start meets the density times the searched area", "[density]") {
  // 20 000 boids on 200 x 200: 0.5 a unit area; cells of 10.01 -> 19 a side of 10.526;
  // 3 x 3 cells search 997.2 square units: 498.6 boids, less itself.
  const Scenario scenario = scenario_of(uniform(20000, 200, 10));
  const GridShape grid = grid_shape_for(scenario, scenario.capacity());
  REQUIRE(grid.cells.x == 19);
  const double searched = 9.0 * double(grid.cell_size.x) * double(grid.cell_size.y);
  CHECK_THAT(expected_candidates_per_boid(scenario, grid),
             Catch::Matchers::WithinRel(0.5 * searched - 1.0, 1e-9));
  const auto [expected, counted] = expected_and_counted(scenario);
  CHECK_THAT(expected, Catch::Matchers::WithinRel(counted, 0.03));
}

TEST_CASE("a spawn's crowd is met at its own density", "[density]") {
  // 2 000 boids spread over 400 x 400, 8 000 more in a 20 x 20 square: the square's boids
  // meet all the square (it is smaller than the search), a spread boid hardly anyone.
  const Scenario scenario = scenario_of(
      uniform(10000, 400, 10) +
      "[[spawn]]\nspecies = \"a\"\ncount = 8000\nx = 100\ny = 100\nwidth = 20\nheight = 20\n");
  const auto [expected, counted] = expected_and_counted(scenario);
  CHECK(expected > 4000);
  CHECK_THAT(expected, Catch::Matchers::WithinRel(counted, 0.15));
  // A disc of the same boids, and origin 000's clusters, are estimated as closely.
  const Scenario disc = scenario_of(
      uniform(10000, 400, 10) +
      "[[spawn]]\nspecies = \"a\"\ncount = 8000\nlayout = \"disc\"\nx = 200\ny = 200\n"
      "radius = 15\n");
  const auto [disc_expected, disc_counted] = expected_and_counted(disc);
  CHECK_THAT(disc_expected, Catch::Matchers::WithinRel(disc_counted, 0.15));
}

TEST_CASE("the warning names the estimate and what brings it down, past the threshold only",
          "[density]") {
  // 200 000 boids on 100 x 100 with r = 10: 20 a unit area over 1 111 units, 22 222.
  const Scenario dense = scenario_of(uniform(200000, 100, 10));
  const std::string warning = density_warning(dense, dense.capacity());
  CHECK_THAT(warning, Contains("density.toml: about 2.22e+04 candidates a boid"));
  CHECK_THAT(warning, Contains("past 2000"));
  CHECK_THAT(warning, Contains("perception_radius (the largest is 10)"));
  CHECK_THAT(warning, Contains("fewer boids (200000)"));
  // 2 000 candidates is the line: just below it says nothing.
  const Scenario sparse = scenario_of(uniform(17000, 100, 10));
  CHECK(expected_candidates_per_boid(sparse, grid_shape_for(sparse, sparse.capacity())) <
        kDenseCandidatesPerBoid);
  CHECK(density_warning(sparse, sparse.capacity()).empty());
  const Scenario over = scenario_of(uniform(19000, 100, 10));
  CHECK_FALSE(density_warning(over, over.capacity()).empty());
}
