// Flock statistics on hand-built states with known answers, and the k-d tree based nearest
// neighbour and cluster searches against brute force.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <glm/geometric.hpp>

#include "murmur/flock/model.hpp"
#include "murmur/flock/stats.hpp"
#include "test_random.hpp"
#include "test_scenarios.hpp"

namespace {

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using murmur::Boid;
using murmur::FlockState;
using murmur::Scenario;
using murmur::SpeciesParams;
using murmur::Topology;
using murmur::test::SplitMix;
using murmur::test::world_of;

constexpr double kPi = 3.14159265358979323846;

// The statistics ignore steering, so only the radii and the topology are set.
SpeciesParams species(const char* name, Topology topology, float radius) {
  return murmur::test::make_species(name, topology, radius, radius / 2);
}

FlockState from_positions(const std::vector<glm::vec2>& positions, std::uint32_t species = 0) {
  FlockState state;
  for (std::uint32_t k = 0; k < positions.size(); ++k) {
    state.boids.push_back(Boid{positions[k], {1.0f, 0.0f}, k, species});
  }
  return state;
}

// The definition, literally: every pair, each boid with its own species' topology.
double brute_mean_nearest(const Scenario& scenario, const FlockState& state) {
  double sum = 0.0;
  for (std::size_t i = 0; i < state.boids.size(); ++i) {
    const Topology topology = scenario.species[state.boids[i].species].topology;
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < state.boids.size(); ++j) {
      if (j == i) continue;
      const glm::vec2 d = murmur::displacement(state.boids[i].pos, state.boids[j].pos, topology,
                                               scenario.size());
      best = std::min(best, std::hypot(double{d.x}, double{d.y}));
    }
    sum += best;
  }
  return sum / static_cast<double>(state.boids.size());
}

// Ring of `count` boids about `center`, flying tangentially (counter-clockwise when `sign` > 0).
FlockState ring(std::uint32_t count, glm::vec2 center, float radius, float sign) {
  FlockState state;
  for (std::uint32_t k = 0; k < count; ++k) {
    const double angle = 2.0 * kPi * k / count;
    const glm::vec2 radial{static_cast<float>(std::cos(angle)),
                           static_cast<float>(std::sin(angle))};
    state.boids.push_back(
        Boid{center + radius * radial, sign * glm::vec2{-radial.y, radial.x}, k, 0});
  }
  return state;
}

}  // namespace

TEST_CASE("polarization", "[stats]") {
  const Scenario scenario = world_of(100.0f, 100.0f, {species("a", Topology::Wrap, 5.0f)});
  SECTION("everyone heading the same way is 1, whatever the speeds") {
    FlockState state = from_positions({{10, 10}, {20, 20}, {30, 30}});
    state.boids[0].vel = {0.6f, 0.8f};
    state.boids[1].vel = {1.2f, 1.6f};
    state.boids[2].vel = {0.06f, 0.08f};
    REQUIRE_THAT(murmur::compute_stats(scenario, state).polarization, WithinAbs(1.0, 1e-12));
  }
  SECTION("opposite pairs cancel to 0") {
    FlockState state = from_positions({{10, 10}, {20, 20}});
    state.boids[1].vel = {-1.0f, 0.0f};
    REQUIRE_THAT(murmur::compute_stats(scenario, state).polarization, WithinAbs(0.0, 1e-12));
  }
  SECTION("a boid at rest counts in N but has no heading") {
    FlockState state = from_positions({{10, 10}, {20, 20}});
    state.boids[1].vel = {0.0f, 0.0f};
    REQUIRE_THAT(murmur::compute_stats(scenario, state).polarization, WithinAbs(0.5, 1e-12));
  }
  SECTION("random headings stay within [0, 1] and are small for many boids") {
    SplitMix rng(4);
    FlockState state = from_positions(std::vector<glm::vec2>(2000, glm::vec2{50.0f, 50.0f}));
    for (Boid& b : state.boids) {
      const float heading = rng.in(0.0f, 6.2831853f);
      b.vel = {std::cos(heading), std::sin(heading)};
    }
    const double p = murmur::compute_stats(scenario, state).polarization;
    REQUIRE(p >= 0.0);
    REQUIRE(p < 0.1);  // ~1/sqrt(N) = 0.022 for random headings
  }
}

TEST_CASE("milling ring: milling 1, polarization 0", "[stats]") {
  const Scenario bounded =
      world_of(100.0f, 100.0f, {species("a", Topology::Bounded, 5.0f)});
  constexpr std::uint32_t kRingSize = 64;
  for (const float sign : {1.0f, -1.0f}) {  // either sense of rotation
    const FlockState state = ring(kRingSize, {50.0f, 50.0f}, 20.0f, sign);
    const murmur::FlockStats stats = murmur::compute_stats(bounded, state);
    REQUIRE(stats.count == kRingSize);
    REQUIRE(stats.milling.has_value());
    REQUIRE_THAT(*stats.milling, WithinAbs(1.0, 1e-6));
    REQUIRE_THAT(stats.polarization, WithinAbs(0.0, 1e-6));
    // 64 points on a circle of radius 20: neighbours are a chord 2 * 20 * sin(pi / 64) apart.
    REQUIRE_THAT(stats.mean_nearest_neighbour,
                 WithinRel(2.0 * 20.0 * std::sin(kPi / kRingSize), 1e-5));
  }
  SECTION("a straight-flying flock does not mill") {
    FlockState state = ring(kRingSize, {50.0f, 50.0f}, 20.0f, 1.0f);
    for (Boid& b : state.boids) b.vel = {1.0f, 0.0f};
    const murmur::FlockStats stats = murmur::compute_stats(bounded, state);
    REQUIRE_THAT(*stats.milling, WithinAbs(0.0, 1e-6));
    REQUIRE_THAT(stats.polarization, WithinAbs(1.0, 1e-12));
  }
  SECTION("any wrap species makes milling not meaningful") {
    Scenario mixed = bounded;
    mixed.species.push_back(species("b", Topology::Wrap, 5.0f));
    REQUIRE_FALSE(murmur::compute_stats(mixed, ring(kRingSize, {50, 50}, 20, 1)).milling);
  }
}

TEST_CASE("mean nearest-neighbour distance equals brute force", "[stats]") {
  const Scenario mixed = world_of(120.0f, 80.0f, {species("w", Topology::Wrap, 6.0f),
                                                   species("b", Topology::Bounded, 4.0f)});
  SECTION("uniform random, two topologies") {
    for (const std::uint64_t seed : {1ull, 2ull, 3ull}) {
      SplitMix rng(seed);
      FlockState state;
      for (std::uint32_t k = 0; k < 3000; ++k) {
        state.boids.push_back(
            Boid{{rng.in(0.0f, 120.0f), rng.in(0.0f, 80.0f)}, {1.0f, 0.0f}, k, k % 2});
      }
      REQUIRE_THAT(murmur::compute_stats(mixed, state).mean_nearest_neighbour,
                   WithinRel(brute_mean_nearest(mixed, state), 1e-12));
    }
  }
  SECTION("tight clumps far apart (the first guess radius is far too large)") {
    SplitMix rng(9);
    FlockState state;
    for (std::uint32_t k = 0; k < 2000; ++k) {
      const glm::vec2 clump{(k % 4 < 2) ? 1.0f : 119.0f, (k % 2 == 0) ? 1.0f : 79.0f};
      state.boids.push_back(Boid{clump + glm::vec2{rng.in(-0.9f, 0.9f), rng.in(-0.9f, 0.9f)},
                                 {1.0f, 0.0f}, k, (k / 4) % 2});
    }
    REQUIRE_THAT(murmur::compute_stats(mixed, state).mean_nearest_neighbour,
                 WithinRel(brute_mean_nearest(mixed, state), 1e-12));
  }
  SECTION("a few boids in a big world (the guess radius must grow)") {
    const FlockState state = from_positions({{1, 1}, {119, 79}, {60, 3}, {30, 70}}, 1);
    const double expected = brute_mean_nearest(mixed, state);
    REQUIRE_THAT(murmur::compute_stats(mixed, state).mean_nearest_neighbour,
                 WithinRel(expected, 1e-12));
    // Same points seen through the seams are closer.
    FlockState wrapped = state;
    for (Boid& b : wrapped.boids) b.species = 0;
    REQUIRE(murmur::compute_stats(mixed, wrapped).mean_nearest_neighbour < expected);
    REQUIRE_THAT(murmur::compute_stats(mixed, wrapped).mean_nearest_neighbour,
                 WithinRel(brute_mean_nearest(mixed, wrapped), 1e-12));
  }
  SECTION("duplicates are at distance 0, one boid alone has no neighbour") {
    REQUIRE(murmur::compute_stats(mixed, from_positions({{5, 5}, {5, 5}})).mean_nearest_neighbour ==
            0.0);
    REQUIRE(murmur::compute_stats(mixed, from_positions({{5, 5}})).mean_nearest_neighbour == 0.0);
  }
}

TEST_CASE("cluster count", "[stats]") {
  const Scenario wrap = world_of(100.0f, 100.0f, {species("a", Topology::Wrap, 5.0f)});
  const Scenario bounded = world_of(100.0f, 100.0f, {species("a", Topology::Bounded, 5.0f)});
  const auto clump = [](glm::vec2 center, std::vector<glm::vec2>& out) {
    for (const glm::vec2 offset : {glm::vec2{0, 0}, glm::vec2{2, 0}, glm::vec2{0, 2},
                                   glm::vec2{-2, -1}, glm::vec2{1, -3}}) {
      out.push_back(center + offset);
    }
  };
  SECTION("three separated clumps are three clusters") {
    std::vector<glm::vec2> points;
    clump({20, 20}, points);
    clump({50, 70}, points);
    clump({80, 30}, points);
    REQUIRE(murmur::compute_stats(wrap, from_positions(points)).clusters == 3);
    REQUIRE(murmur::compute_stats(bounded, from_positions(points)).clusters == 3);
  }
  SECTION("a clump across the seam is one cluster on a torus, two behind walls") {
    std::vector<glm::vec2> points;
    clump({1, 50}, points);   // spills over x = 0 ...
    for (glm::vec2& p : points) p.x = p.x < 0 ? p.x + 100.0f : p.x;  // ... onto x ~ 98
    clump({50, 99}, points);  // and one over the top seam
    for (glm::vec2& p : points) p.y = p.y >= 100.0f ? p.y - 100.0f : p.y;
    REQUIRE(murmur::compute_stats(wrap, from_positions(points)).clusters == 2);
    REQUIRE(murmur::compute_stats(bounded, from_positions(points)).clusters == 4);
  }
  SECTION("a chain links through neighbours; a gap of exactly r does not") {
    std::vector<glm::vec2> chain;
    for (int k = 0; k < 10; ++k) chain.push_back({10.0f + 4.0f * static_cast<float>(k), 50.0f});
    REQUIRE(murmur::compute_stats(bounded, from_positions(chain)).clusters == 1);
    std::vector<glm::vec2> spaced;
    for (int k = 0; k < 10; ++k) spaced.push_back({10.0f + 5.0f * static_cast<float>(k), 50.0f});
    REQUIRE(murmur::compute_stats(bounded, from_positions(spaced)).clusters == 10);
  }
  SECTION("an edge needs only one of the two radii") {
    const Scenario two = world_of(100.0f, 100.0f, {species("far", Topology::Bounded, 10.0f),
                                                   species("near", Topology::Bounded, 2.0f)});
    FlockState state = from_positions({{50, 50}, {57, 50}});
    state.boids[1].species = 1;  // sees 2, but is seen from 10
    REQUIRE(murmur::compute_stats(two, state).clusters == 1);
    std::swap(state.boids[0], state.boids[1]);  // the far-sighted one later in the list
    REQUIRE(murmur::compute_stats(two, state).clusters == 1);
    for (Boid& b : state.boids) b.species = 1;  // neither sees the other now
    REQUIRE(murmur::compute_stats(two, state).clusters == 2);
  }
}

TEST_CASE("an empty flock", "[stats]") {
  const Scenario scenario = world_of(10.0f, 10.0f, {species("a", Topology::Bounded, 1.0f)});
  const murmur::FlockStats stats = murmur::compute_stats(scenario, FlockState{});
  REQUIRE(stats.count == 0);
  REQUIRE(stats.polarization == 0.0);
  REQUIRE(stats.mean_nearest_neighbour == 0.0);
  REQUIRE(stats.clusters == 0);
}

TEST_CASE("population: counts per species, totals, food summed in double", "[stats]") {
  Scenario scenario = world_of(10.0f, 10.0f,
                               {species("a", Topology::Wrap, 1.0f),
                                species("b", Topology::Wrap, 1.0f),
                                species("c", Topology::Wrap, 1.0f)});
  FlockState state = from_positions({{1, 1}, {2, 2}, {3, 3}, {4, 4}});
  state.boids[1].species = 2;
  state.boids[3].species = 2;

  SECTION("no [food] table: counts, zero totals, no food") {
    const murmur::PopulationStats population = murmur::compute_population(scenario, state);
    REQUIRE(population.counts == std::vector<std::uint32_t>{2, 0, 2});
    REQUIRE(population.totals == std::vector<murmur::SpeciesTotals>(3));
    REQUIRE_FALSE(population.food.has_value());
  }
  SECTION("a food field: its cells summed in double, the state's totals kept") {
    scenario.food = murmur::FoodParams{};
    // 2^24 + 1 is not a float32: a float sum would lose the 1s, a double one keeps them.
    state.food = {16777216.0f, 1.0f, 1.0f, 0.5f};
    state.totals = {{3, 1, 2}, {0, 0, 0}, {5, 0, 4}};
    const murmur::PopulationStats population = murmur::compute_population(scenario, state);
    REQUIRE(population.food == 16777218.5);
    REQUIRE(population.totals == state.totals);
  }
}

TEST_CASE("events between two rows: each counter's difference", "[stats]") {
  const std::vector<murmur::SpeciesTotals> earlier{{3, 1, 2}, {10, 0, 7}};
  const std::vector<murmur::SpeciesTotals> later{{5, 1, 6}, {10, 4, 9}};
  REQUIRE(murmur::events_between(earlier, later) ==
          std::vector<murmur::SpeciesTotals>{{2, 0, 4}, {0, 4, 2}});
  // A row compared with itself has no events; nothing counted before means everything is new.
  REQUIRE(murmur::events_between(later, later) == std::vector<murmur::SpeciesTotals>(2));
  REQUIRE(murmur::events_between({}, later) == later);
}

TEST_CASE("the rows' columns: names, numbers and empty cells of a sample", "[stats]") {
  Scenario scenario = world_of(10.0f, 10.0f,
                               {species("a", Topology::Wrap, 1.0f),
                                species("b", Topology::Bounded, 1.0f)});
  FlockState state = from_positions({{1, 1}, {2, 2}, {3, 3}});
  state.boids[2].species = 1;
  state.totals = {{4, 0, 1}, {0, 0, 0}};
  const std::vector<murmur::StatsColumn> columns = murmur::flock_stats_columns(scenario);
  std::vector<std::string> names;
  for (const murmur::StatsColumn& column : columns) names.push_back(column.name);
  REQUIRE(names == std::vector<std::string>{"polarization", "milling", "mean_nn", "clusters",
                                            "n_a", "births_a", "deaths_a", "n_b", "births_b",
                                            "deaths_b", "food"});

  const auto cell = [&](const murmur::StatsSample& sample, const std::string& name) {
    const auto column = std::find_if(columns.begin(), columns.end(),
                                     [&](const auto& c) { return c.name == name; });
    REQUIRE(column != columns.end());
    return column->value(sample);
  };
  SECTION("the first sample shows no events; a wrap species leaves milling empty, as food") {
    const murmur::StatsSample first = murmur::stats_sample(scenario, state, std::nullopt);
    REQUIRE(cell(first, "births_a").number == 0.0);
    REQUIRE(cell(first, "n_a").text == "2");
    REQUIRE(cell(first, "n_a").number == 2.0);
    REQUIRE(cell(first, "polarization").text == "1");
    REQUIRE(cell(first, "milling").text.empty());
    REQUIRE_FALSE(cell(first, "milling").number.has_value());
    REQUIRE_FALSE(cell(first, "food").number.has_value());
  }
  SECTION("a later sample counts the events since the previous totals") {
    const std::vector<murmur::SpeciesTotals> previous{{1, 0, 0}, {0, 0, 0}};
    const murmur::StatsSample later = murmur::stats_sample(scenario, state, previous);
    REQUIRE(cell(later, "births_a").text == "3");
    REQUIRE(cell(later, "deaths_a").number == 1.0);
  }
}
