// Flock statistics (docs/model.md, "Flock statistics") on hand-built states with known
// answers, and the k-d tree based nearest neighbour and cluster searches against brute force.
//
// Sections: polarization; milling in walls; milling on a torus (the circular centroid, the
// quarter-side limit, wrap and bounded species together); the collective state; nearest
// neighbours; clusters; an empty flock; population and events; then the same in three
// dimensions (docs/model.md, "Statistics in 3D").
//
// It is over 800 lines because each statistic's 3D cases sit beside the 2D ones they mirror, on the same
// hand-built fixtures.
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

// The definition, literally: every pair, each boid with its own species' topology. In 3D
// vectors, which in a 2D world have z = 0 and a side Lz = 0 that no displacement wraps.
double brute_mean_nearest(const Scenario& scenario, const FlockState& state) {
  double sum = 0.0;
  for (std::size_t i = 0; i < state.boids.size(); ++i) {
    const Topology topology = scenario.species[state.boids[i].species].topology;
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < state.boids.size(); ++j) {
      if (j == i) continue;
      const glm::vec3 d =
          murmur::displacement(murmur::position_of(state.boids[i]),
                               murmur::position_of(state.boids[j]), topology,
                               murmur::world_box(scenario));
      best = std::min(best, std::hypot(double{d.x}, double{d.y}, double{d.z}));
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
  SECTION("a wrap species beside: the ring, within a quarter side of its centre, still mills") {
    Scenario mixed = bounded;
    mixed.species.push_back(species("b", Topology::Wrap, 5.0f));
    const murmur::FlockStats stats =
        murmur::compute_stats(mixed, ring(kRingSize, {50, 50}, 20, 1));
    REQUIRE(stats.milling.has_value());
    REQUIRE_THAT(*stats.milling, WithinAbs(1.0, 1e-6));
  }
}

namespace {

// A compact flock about (0, 0): offsets on a 1/64 grid, so that moving it by whole numbers (and
// wrapping it by the side) is exact in float32, with headings of every direction.
struct Offsets {
  std::vector<glm::vec2> offset;
  std::vector<glm::vec2> velocity;
};

Offsets compact_flock(std::uint64_t seed, std::uint32_t count, float reach) {
  SplitMix rng(seed);
  Offsets flock;
  const auto on_grid = [](float v) { return std::round(v * 64.0f) / 64.0f; };
  for (std::uint32_t k = 0; k < count; ++k) {
    flock.offset.push_back({on_grid(rng.in(-reach, reach)), on_grid(rng.in(-reach, reach))});
    // Mostly turning one way about the middle, so that milling is neither 0 nor 1.
    const glm::vec2 o = flock.offset.back();
    const float heading = std::atan2(o.y, o.x) + 1.2f + rng.in(-1.5f, 1.5f);
    flock.velocity.push_back({std::cos(heading), std::sin(heading)});
  }
  return flock;
}

// The flock placed about `centre` on a torus of the given size, each position wrapped into
// [0, side).
FlockState placed(const Offsets& flock, glm::vec2 centre, glm::vec2 world) {
  FlockState state;
  for (std::uint32_t k = 0; k < flock.offset.size(); ++k) {
    glm::vec2 p = centre + flock.offset[k];
    for (int axis = 0; axis < 2; ++axis) {
      if (p[axis] < 0.0f) p[axis] += world[axis];
      if (p[axis] >= world[axis]) p[axis] -= world[axis];
    }
    state.boids.push_back(Boid{p, flock.velocity[k], k, 0});
  }
  return state;
}

// Milling of a flock that nowhere nears a seam, from the definition: the centre is the
// circular mean of each axis (for such a flock an ordinary mean of angles), offsets plain
// differences from it.
double milling_away_from_seams(const FlockState& state, glm::vec2 world) {
  double centre[2];
  for (int axis = 0; axis < 2; ++axis) {
    double c = 0.0, s = 0.0;
    for (const Boid& b : state.boids) {
      c += std::cos(2.0 * kPi * b.pos[axis] / world[axis]);
      s += std::sin(2.0 * kPi * b.pos[axis] / world[axis]);
    }
    centre[axis] = world[axis] * std::atan2(s, c) / (2.0 * kPi);
    if (centre[axis] < 0.0) centre[axis] += world[axis];
  }
  double sum = 0.0;
  for (const Boid& b : state.boids) {
    const double rx = b.pos.x - centre[0];
    const double ry = b.pos.y - centre[1];
    const double speed = std::hypot(double{b.vel.x}, double{b.vel.y});
    sum += (rx * b.vel.y - ry * b.vel.x) / (std::hypot(rx, ry) * speed);
  }
  return std::abs(sum) / static_cast<double>(state.boids.size());
}

}  // namespace

TEST_CASE("milling on a torus: about the circular centroid of a compact flock", "[stats]") {
  const glm::vec2 world{100.0f, 80.0f};
  const Scenario torus = world_of(world.x, world.y, {species("a", Topology::Wrap, 5.0f)});
  const Offsets flock = compact_flock(11, 300, 12.0f);
  const FlockState middle = placed(flock, world / 2.0f, world);
  const double expected = milling_away_from_seams(middle, world);
  REQUIRE(expected > 0.2);  // the flock turns, but not as one ring
  REQUIRE(expected < 0.9);

  SECTION("away from the seams it is the definition's value") {
    REQUIRE_THAT(*murmur::compute_stats(torus, middle).milling, WithinAbs(expected, 1e-12));
  }
  SECTION("across a seam, or across both at a corner, the same flock mills as much") {
    for (const glm::vec2 centre : {glm::vec2{0.0f, 40.0f}, glm::vec2{50.0f, 79.0f},
                                   glm::vec2{99.0f, 1.0f}, glm::vec2{0.0f, 0.0f}}) {
      INFO("centre " << centre.x << ", " << centre.y);
      const murmur::FlockStats stats = murmur::compute_stats(torus, placed(flock, centre, world));
      REQUIRE(stats.milling.has_value());
      REQUIRE_THAT(*stats.milling, WithinAbs(expected, 1e-12));
    }
  }
}
TEST_CASE("milling on a torus: empty unless every boid is within a quarter side", "[stats]") {
  const glm::vec2 world{100.0f, 80.0f};
  const Scenario torus = world_of(world.x, world.y, {species("a", Topology::Wrap, 5.0f)});
  SECTION("a flock spread over the whole torus has no milling and no state") {
    SplitMix rng(5);
    FlockState state;
    for (std::uint32_t k = 0; k < 500; ++k) {
      state.boids.push_back(
          Boid{{rng.in(0.0f, world.x), rng.in(0.0f, world.y)}, {1.0f, 0.0f}, k, 0});
    }
    const murmur::FlockStats stats = murmur::compute_stats(torus, state);
    REQUIRE_FALSE(stats.milling.has_value());
    REQUIRE_FALSE(stats.state.has_value());
    REQUIRE_THAT(stats.polarization, WithinAbs(1.0, 1e-12));  // the rest is still reported
  }
  SECTION("three boids in a row across the corner: the quarter side is the limit") {
    // At the corner and +-d from it on each axis: for |d| under a third of the side the
    // circular mean is the corner (1 + 2 cos(2 pi d / L) > 0), the outer two |d| from it.
    for (const float share : {0.24f, 0.26f}) {
      const glm::vec2 d = share * world;
      FlockState row;
      row.boids.push_back(Boid{{0.0f, 0.0f}, {1.0f, 0.0f}, 0, 0});
      row.boids.push_back(Boid{d, {0.0f, 1.0f}, 1, 0});
      row.boids.push_back(Boid{world - d, {0.0f, -1.0f}, 2, 0});
      INFO("share " << share);
      REQUIRE(murmur::compute_stats(torus, row).milling.has_value() == (share < 0.25f));
    }
  }
  SECTION("one straggler beyond a quarter side empties it") {
    FlockState state = placed(compact_flock(3, 100, 5.0f), {0.0f, 40.0f}, world);
    REQUIRE(murmur::compute_stats(torus, state).milling.has_value());
    state.boids.push_back(Boid{{50.0f, 40.0f}, {1.0f, 0.0f}, 100, 0});  // half the width away
    REQUIRE_FALSE(murmur::compute_stats(torus, state).milling.has_value());
  }
  SECTION("an empty flock on a torus has no centroid") {
    REQUIRE_FALSE(murmur::compute_stats(torus, FlockState{}).milling.has_value());
  }
}

TEST_CASE("milling with wrap and bounded species: each boid's offset as its species sees it",
          "[stats]") {
  const glm::vec2 world{100.0f, 80.0f};
  const Scenario mixed = world_of(world.x, world.y, {species("w", Topology::Wrap, 5.0f),
                                                     species("b", Topology::Bounded, 5.0f)});
  const Offsets flock = compact_flock(21, 200, 10.0f);
  SECTION("away from the seams bounded boids count like wrap ones") {
    FlockState state = placed(flock, world / 2.0f, world);
    for (std::size_t k = 0; k < state.boids.size(); k += 2) state.boids[k].species = 1;
    REQUIRE_THAT(*murmur::compute_stats(mixed, state).milling,
                 WithinAbs(milling_away_from_seams(state, world), 1e-12));
  }
  SECTION("a bounded boid across the seam from the centroid is the whole width away") {
    // Centred 2 right of the seam x = 0, the flock reaching 10 either side: the boids left of
    // the seam are at x > 90, more than a quarter width from the centroid in walls.
    FlockState state = placed(flock, {2.0f, 40.0f}, world);
    REQUIRE(murmur::compute_stats(mixed, state).milling.has_value());
    const auto across = std::find_if(state.boids.begin(), state.boids.end(),
                                      [](const Boid& b) { return b.pos.x > 50.0f; });
    REQUIRE(across != state.boids.end());
    across->species = 1;  // walls: it cannot see the flock through the seam
    REQUIRE_FALSE(murmur::compute_stats(mixed, state).milling.has_value());
  }
}

TEST_CASE("collective state: Tunstrom et al. 2013's thresholds", "[stats]") {
  using murmur::CollectiveState;
  using murmur::collective_state;
  SECTION("each state inside its region") {
    CHECK(collective_state(0.9, 0.1) == CollectiveState::Polarized);
    CHECK(collective_state(0.1, 0.9) == CollectiveState::Milling);
    CHECK(collective_state(0.1, 0.1) == CollectiveState::Swarm);
    CHECK(collective_state(0.5, 0.1) == CollectiveState::Transition);
    CHECK(collective_state(0.9, 0.9) == CollectiveState::Transition);
    CHECK(collective_state(0.1, 0.5) == CollectiveState::Transition);
  }
  SECTION("the bounds are strict: 0.65 is not high, 0.35 not low") {
    CHECK(collective_state(0.65, 0.0) == CollectiveState::Transition);
    CHECK(collective_state(0.66, 0.0) == CollectiveState::Polarized);
    CHECK(collective_state(0.9, 0.35) == CollectiveState::Transition);
    CHECK(collective_state(0.9, 0.34) == CollectiveState::Polarized);
    CHECK(collective_state(0.35, 0.35) == CollectiveState::Transition);
    CHECK(collective_state(0.34, 0.34) == CollectiveState::Swarm);
    CHECK(collective_state(0.0, 0.65) == CollectiveState::Transition);
    CHECK(collective_state(0.34, 0.66) == CollectiveState::Milling);
  }
  SECTION("no milling, no state") {
    CHECK_FALSE(collective_state(0.9, std::nullopt).has_value());
  }
  SECTION("the names murmur stats prints") {
    CHECK(murmur::state_name(CollectiveState::Polarized) == "polarized");
    CHECK(murmur::state_name(CollectiveState::Milling) == "milling");
    CHECK(murmur::state_name(CollectiveState::Swarm) == "swarm");
    CHECK(murmur::state_name(CollectiveState::Transition) == "transition");
  }
}

TEST_CASE("collective state of hand-made flocks", "[stats]") {
  const glm::vec2 world{100.0f, 80.0f};
  for (const Topology topology : {Topology::Bounded, Topology::Wrap}) {
    const Scenario scenario = world_of(world.x, world.y, {species("a", topology, 5.0f)});
    INFO((topology == Topology::Wrap ? "torus" : "walls"));
    // On the torus across the seam x = 0; in walls in the middle of the world.
    const glm::vec2 centre = topology == Topology::Wrap ? glm::vec2{0.0f, 40.0f} : world / 2.0f;
    SECTION("a ring circling its centre mills") {
      Offsets circling;
      for (const Boid& b : ring(64, {0.0f, 0.0f}, 15.0f, 1.0f).boids) {
        circling.offset.push_back(b.pos);
        circling.velocity.push_back(b.vel);
      }
      const murmur::FlockStats stats =
          murmur::compute_stats(scenario, placed(circling, centre, world));
      REQUIRE_THAT(*stats.milling, WithinAbs(1.0, 1e-6));
      REQUIRE(stats.state == murmur::CollectiveState::Milling);
    }
    SECTION("boids flying the same way are polarized") {
      // Point-symmetric about its centre: a boid's r x v is cancelled by its mirror's, so M = 0
      // with P = 1.
      Offsets aligned = compact_flock(7, 100, 8.0f);
      for (std::size_t k = 0, n = aligned.offset.size(); k < n; ++k) {
        aligned.offset.push_back(-aligned.offset[k]);
      }
      aligned.velocity.assign(aligned.offset.size(), glm::vec2{0.6f, -0.8f});
      const murmur::FlockStats stats =
          murmur::compute_stats(scenario, placed(aligned, centre, world));
      REQUIRE_THAT(stats.polarization, WithinAbs(1.0, 1e-12));
      REQUIRE_THAT(*stats.milling, WithinAbs(0.0, 1e-9));
      REQUIRE(stats.state == murmur::CollectiveState::Polarized);
    }
    SECTION("random headings are a swarm") {
      // N independent headings: P and M are each about 1 / sqrt(N) = 0.022.
      SplitMix rng(8);
      FlockState state = placed(compact_flock(9, 2000, 15.0f), centre, world);
      for (Boid& b : state.boids) {
        const float heading = rng.in(0.0f, 2.0f * static_cast<float>(kPi));
        b.vel = {std::cos(heading), std::sin(heading)};
      }
      REQUIRE(murmur::compute_stats(scenario, state).state == murmur::CollectiveState::Swarm);
    }
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
  REQUIRE_FALSE(stats.state.has_value());  // no boids: neither order nor disorder
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
  // Spread over the torus (two boids half a side apart): milling, and so the state, is empty.
  FlockState state = from_positions({{1, 1}, {6, 6}, {3, 3}});
  state.boids[2].species = 1;
  state.totals = {{4, 0, 1}, {0, 0, 0}};
  const std::vector<murmur::StatsColumn> columns = murmur::flock_stats_columns(scenario);
  std::vector<std::string> names;
  for (const murmur::StatsColumn& column : columns) names.push_back(column.name);
  REQUIRE(names == std::vector<std::string>{"polarization", "milling", "state", "mean_nn",
                                            "clusters", "n_a", "births_a", "deaths_a", "n_b",
                                            "births_b", "deaths_b", "food"});

  const auto cell = [&](const murmur::StatsSample& sample, const std::string& name) {
    const auto column = std::find_if(columns.begin(), columns.end(),
                                     [&](const auto& c) { return c.name == name; });
    REQUIRE(column != columns.end());
    return column->value(sample);
  };
  SECTION("the first sample shows no events; a spread-out torus flock leaves milling and state empty, as food") {
    const murmur::StatsSample first = murmur::stats_sample(scenario, state, std::nullopt);
    REQUIRE(cell(first, "births_a").number == 0.0);
    REQUIRE(cell(first, "n_a").text == "2");
    REQUIRE(cell(first, "n_a").number == 2.0);
    REQUIRE(cell(first, "polarization").text == "1");
    REQUIRE(cell(first, "milling").text.empty());
    REQUIRE_FALSE(cell(first, "milling").number.has_value());
    REQUIRE(cell(first, "state").text.empty());
    REQUIRE_FALSE(cell(first, "food").number.has_value());
  }
  SECTION("a later sample counts the events since the previous totals") {
    const std::vector<murmur::SpeciesTotals> previous{{1, 0, 0}, {0, 0, 0}};
    const murmur::StatsSample later = murmur::stats_sample(scenario, state, previous);
    REQUIRE(cell(later, "births_a").text == "3");
    REQUIRE(cell(later, "deaths_a").number == 1.0);
  }
}

// ---- three dimensions (docs/model.md, "Statistics in 3D") -----------------------------------

namespace {

using murmur::world_box;

// A 3D world of sides `width`, `height` and `depth`; no two sides equal in the tests, so that
// swapped axes show.
Scenario volume_of(float width, float height, float depth, std::vector<SpeciesParams> kinds) {
  Scenario scenario = world_of(width, height, std::move(kinds));
  scenario.world.dimensions = 3;
  scenario.world.depth = depth;
  return scenario;
}

Boid boid_at(glm::vec3 position, glm::vec3 velocity, std::uint32_t id,
             std::uint32_t kind = 0) {
  Boid b;
  b.id = id;
  b.species = kind;
  murmur::set_motion(b, position, velocity);
  return b;
}

// Ring of `count` boids of radius `radius` about `center` in the plane of the unit vectors
// `e1` and `e2`, flying tangentially from e1 towards e2: a mill about the axis e1 x e2.
FlockState ring_in_plane(std::uint32_t count, glm::vec3 center, float radius, glm::vec3 e1,
                         glm::vec3 e2) {
  FlockState state;
  for (std::uint32_t k = 0; k < count; ++k) {
    const double angle = 2.0 * kPi * k / count;
    const auto c = static_cast<float>(std::cos(angle));
    const auto s = static_cast<float>(std::sin(angle));
    state.boids.push_back(boid_at(center + radius * (c * e1 + s * e2), -s * e1 + c * e2, k));
  }
  return state;
}

// A direction uniform on the sphere: a point uniform in the unit ball (by rejection), scaled.
glm::vec3 random_direction(SplitMix& rng) {
  while (true) {
    const glm::vec3 p{rng.in(-1.0f, 1.0f), rng.in(-1.0f, 1.0f), rng.in(-1.0f, 1.0f)};
    const float length = glm::length(p);
    if (length > 0.0f && length <= 1.0f) return p / length;
  }
}

constexpr glm::vec3 kX{1.0f, 0.0f, 0.0f};
constexpr glm::vec3 kY{0.0f, 1.0f, 0.0f};
constexpr glm::vec3 kZ{0.0f, 0.0f, 1.0f};

}  // namespace

TEST_CASE("3D polarization uses all three components", "[stats][3d]") {
  const Scenario scenario = volume_of(100.0f, 60.0f, 80.0f, {species("a", Topology::Wrap, 5.0f)});
  SplitMix rng(31);
  SECTION("a flock all moving along +z, at any speeds, is 1") {
    FlockState state;
    for (std::uint32_t k = 0; k < 50; ++k) {
      state.boids.push_back(boid_at({rng.in(0, 100), rng.in(0, 60), rng.in(0, 80)},
                                    {0.0f, 0.0f, rng.in(0.1f, 2.0f)}, k));
    }
    REQUIRE_THAT(murmur::compute_stats(scenario, state).polarization, WithinAbs(1.0, 1e-12));
  }
  SECTION("up and down cancel") {
    FlockState state;
    state.boids.push_back(boid_at({10, 10, 10}, {0.0f, 0.0f, 1.0f}, 0));
    state.boids.push_back(boid_at({20, 20, 20}, {0.0f, 0.0f, -3.0f}, 1));
    REQUIRE_THAT(murmur::compute_stats(scenario, state).polarization, WithinAbs(0.0, 1e-12));
  }
  SECTION("a heading out of the plane is not shortened: (1, 0, 0) and (0, 0, 1) give 1/sqrt 2") {
    FlockState state;
    state.boids.push_back(boid_at({10, 10, 10}, {2.0f, 0.0f, 0.0f}, 0));
    state.boids.push_back(boid_at({20, 20, 20}, {0.0f, 0.0f, 0.5f}, 1));
    REQUIRE_THAT(murmur::compute_stats(scenario, state).polarization,
                 WithinAbs(std::sqrt(0.5), 1e-12));
  }
  SECTION("random headings on the sphere are small") {
    constexpr std::uint32_t kBoids = 2000;
    FlockState state;
    for (std::uint32_t k = 0; k < kBoids; ++k) {
      state.boids.push_back(boid_at({50, 30, 40}, random_direction(rng), k));
    }
    const double p = murmur::compute_stats(scenario, state).polarization;
    REQUIRE(p >= 0.0);
    REQUIRE(p < 0.1);  // ~1/sqrt(N) = 0.022 for random headings
  }
}

TEST_CASE("3D milling: the length of the summed angular momenta, about any axis", "[stats][3d]") {
  const Scenario walls =
      volume_of(100.0f, 60.0f, 80.0f, {species("a", Topology::Bounded, 5.0f)});
  const Scenario torus = volume_of(100.0f, 60.0f, 80.0f, {species("a", Topology::Wrap, 5.0f)});
  constexpr std::uint32_t kRingSize = 64;
  constexpr float kRingRadius = 12.0f;  // under a quarter of the smallest side, 15
  const glm::vec3 middle{50.0f, 30.0f, 40.0f};
  struct Axis {
    const char* name;
    glm::vec3 e1, e2;
  };
  for (const Axis& axis : {Axis{"z", kX, kY}, Axis{"x", kY, kZ}, Axis{"y", kZ, kX},
                           Axis{"-x", kZ, kY}}) {
    INFO("a ring about the " << axis.name << " axis");
    const FlockState state = ring_in_plane(kRingSize, middle, kRingRadius, axis.e1, axis.e2);
    for (const Scenario* scenario : {&walls, &torus}) {
      const murmur::FlockStats stats = murmur::compute_stats(*scenario, state);
      REQUIRE(stats.milling.has_value());
      REQUIRE_THAT(*stats.milling, WithinAbs(1.0, 1e-6));
      REQUIRE_THAT(stats.polarization, WithinAbs(0.0, 1e-6));
      REQUIRE(stats.state == murmur::CollectiveState::Milling);
    }
  }
  SECTION("a ring flying straight along its axis does not mill") {
    FlockState state = ring_in_plane(kRingSize, middle, kRingRadius, kY, kZ);
    for (Boid& b : state.boids) b.vel = {1.0f, 0.0f}, b.vz = 0.0f;
    const murmur::FlockStats stats = murmur::compute_stats(walls, state);
    REQUIRE_THAT(*stats.milling, WithinAbs(0.0, 1e-6));
    REQUIRE_THAT(stats.polarization, WithinAbs(1.0, 1e-12));
  }
  SECTION("two rings milling about perpendicular axes add as vectors: 1/sqrt 2") {
    // Equal rings about x and about z, sharing their centre: the summed momenta (N/2) x and
    // (N/2) z have length N / sqrt 2.
    FlockState state = ring_in_plane(kRingSize, middle, kRingRadius, kY, kZ);
    const FlockState other = ring_in_plane(kRingSize, middle, kRingRadius, kX, kY);
    for (Boid b : other.boids) {
      b.id += kRingSize;
      state.boids.push_back(b);
    }
    REQUIRE_THAT(*murmur::compute_stats(walls, state).milling,
                 WithinAbs(std::sqrt(0.5), 1e-6));
  }
  SECTION("on a torus, across the z seam: the circular mean in z") {
    // The ring about x centred on z = 0: half its boids sit near z = Lz.
    FlockState state = ring_in_plane(kRingSize, {50.0f, 30.0f, 0.0f}, kRingRadius, kY, kZ);
    for (Boid& b : state.boids) {
      if (b.z < 0.0f) b.z += world_box(torus).z;
    }
    const murmur::FlockStats stats = murmur::compute_stats(torus, state);
    REQUIRE(stats.milling.has_value());
    REQUIRE_THAT(*stats.milling, WithinAbs(1.0, 1e-5));
  }
  SECTION("the quarter-side rule holds on z too") {
    // Compact in x and y, but one boid more than a quarter of the depth (20) from the others
    // in z: no centre, no milling, no state.
    FlockState state = ring_in_plane(kRingSize, middle, kRingRadius, kX, kY);
    const float quarter_depth = 0.25f * world_box(torus).z;
    state.boids.push_back(boid_at(middle + glm::vec3{0.0f, 0.0f, quarter_depth + 5.0f},
                                  kX, kRingSize));
    const murmur::FlockStats spread = murmur::compute_stats(torus, state);
    REQUIRE_FALSE(spread.milling.has_value());
    REQUIRE_FALSE(spread.state.has_value());
    state.boids.back().z = middle.z + quarter_depth - 5.0f;
    REQUIRE(murmur::compute_stats(torus, state).milling.has_value());
  }
}

TEST_CASE("a 3D flock in a plane has the statistics of the same flock in 2D", "[stats][3d]") {
  // z = const and vz = 0: every 3D length is its 2D value (a + 0), so the tree finds the same
  // neighbours at the same distances.
  const std::vector<SpeciesParams> kinds{species("w", Topology::Wrap, 6.0f),
                                         species("b", Topology::Bounded, 4.0f)};
  const Scenario flat = world_of(120.0f, 80.0f, kinds);
  const Scenario deep = volume_of(120.0f, 80.0f, 50.0f, kinds);
  constexpr float kPlane = 17.0f;
  for (const std::uint64_t seed : {1ull, 2ull}) {
    SplitMix rng(seed);
    FlockState plane;
    // Sparse enough that the scattered half falls apart into clusters; the clumped half is
    // one, so they are more than one and fewer than N.
    constexpr std::uint32_t kBoids = 400;
    for (std::uint32_t k = 0; k < kBoids; ++k) {
      const glm::vec2 p = (k % 2 == 0) ? glm::vec2{rng.in(0.0f, 120.0f), rng.in(0.0f, 80.0f)}
                                       : glm::vec2{rng.in(10.0f, 30.0f), rng.in(0.0f, 20.0f)};
      plane.boids.push_back(
          Boid{p, {rng.in(0.2f, 1.0f), rng.in(-0.5f, 0.5f)}, k, (k / 3) % 2});
    }
    FlockState volume = plane;
    for (Boid& b : volume.boids) b.z = kPlane;
    const murmur::FlockStats in_2d = murmur::compute_stats(flat, plane);
    const murmur::FlockStats in_3d = murmur::compute_stats(deep, volume);
    REQUIRE(in_3d.count == in_2d.count);
    REQUIRE_THAT(in_3d.polarization, WithinAbs(in_2d.polarization, 1e-12));
    REQUIRE(in_3d.mean_nearest_neighbour == in_2d.mean_nearest_neighbour);
    REQUIRE(in_3d.clusters == in_2d.clusters);
    REQUIRE(in_2d.clusters > 1);
    REQUIRE(in_2d.clusters < in_2d.count);
  }
}

TEST_CASE("3D mean nearest-neighbour distance equals brute force", "[stats][3d]") {
  const Scenario mixed = volume_of(120.0f, 80.0f, 60.0f, {species("w", Topology::Wrap, 6.0f),
                                                           species("b", Topology::Bounded, 4.0f)});
  SECTION("uniform random, two topologies") {
    for (const std::uint64_t seed : {1ull, 2ull}) {
      SplitMix rng(seed);
      FlockState state;
      for (std::uint32_t k = 0; k < 3000; ++k) {
        state.boids.push_back(boid_at({rng.in(0.0f, 120.0f), rng.in(0.0f, 80.0f),
                                       rng.in(0.0f, 60.0f)},
                                      kX, k, k % 2));
      }
      REQUIRE_THAT(murmur::compute_stats(mixed, state).mean_nearest_neighbour,
                   WithinRel(brute_mean_nearest(mixed, state), 1e-12));
    }
  }
  SECTION("clumps at the eight corners, nearest across the seams for a wrap boid") {
    SplitMix rng(9);
    FlockState state;
    const glm::vec3 box = world_box(mixed);
    for (std::uint32_t k = 0; k < 800; ++k) {
      glm::vec3 p;
      for (int a = 0; a < 3; ++a) {
        const float inset = rng.in(0.0f, 1.5f);
        p[a] = ((k >> a) & 1) ? box[a] - inset : inset;
      }
      state.boids.push_back(boid_at(p, kX, k, (k / 8) % 2));
    }
    REQUIRE_THAT(murmur::compute_stats(mixed, state).mean_nearest_neighbour,
                 WithinRel(brute_mean_nearest(mixed, state), 1e-12));
  }
  SECTION("a few boids far apart, one pair apart only in z") {
    FlockState state;
    state.boids.push_back(boid_at({1, 1, 1}, kX, 0, 1));
    state.boids.push_back(boid_at({119, 79, 59}, kX, 1, 1));
    state.boids.push_back(boid_at({60, 40, 5}, kX, 2, 1));
    state.boids.push_back(boid_at({60, 40, 35}, kX, 3, 1));
    const double walled = brute_mean_nearest(mixed, state);
    REQUIRE_THAT(murmur::compute_stats(mixed, state).mean_nearest_neighbour,
                 WithinRel(walled, 1e-12));
    // The last two are 30 apart, which a projection onto the plane would call 0.
    REQUIRE(walled > 30.0 / 2.0);
    FlockState wrapped = state;
    for (Boid& b : wrapped.boids) b.species = 0;
    REQUIRE_THAT(murmur::compute_stats(mixed, wrapped).mean_nearest_neighbour,
                 WithinRel(brute_mean_nearest(mixed, wrapped), 1e-12));
    REQUIRE(murmur::compute_stats(mixed, wrapped).mean_nearest_neighbour < walled);
  }
}

TEST_CASE("3D clusters", "[stats][3d]") {
  const Scenario wrap = volume_of(100.0f, 90.0f, 80.0f, {species("a", Topology::Wrap, 5.0f)});
  const Scenario walls = volume_of(100.0f, 90.0f, 80.0f, {species("a", Topology::Bounded, 5.0f)});
  const auto clump = [](glm::vec3 center, FlockState& state) {
    for (const glm::vec3 offset : {glm::vec3{0, 0, 0}, glm::vec3{2, 0, 0}, glm::vec3{0, 2, 0},
                                   glm::vec3{0, 0, 2}, glm::vec3{-1, -1, -2}}) {
      state.boids.push_back(boid_at(center + offset, kX,
                                    static_cast<std::uint32_t>(state.boids.size())));
    }
  };
  SECTION("clumps over one another, apart only in z, are apart") {
    FlockState state;
    clump({50, 45, 20}, state);
    clump({50, 45, 60}, state);
    REQUIRE(murmur::compute_stats(wrap, state).clusters == 2);
    REQUIRE(murmur::compute_stats(walls, state).clusters == 2);
  }
  SECTION("a clump across the z seam is one cluster on a torus, two behind walls") {
    FlockState state;
    clump({50, 45, 1}, state);  // spills below z = 0 ...
    for (Boid& b : state.boids) b.z = b.z < 0.0f ? b.z + 80.0f : b.z;  // ... onto z ~ 79
    REQUIRE(murmur::compute_stats(wrap, state).clusters == 1);
    REQUIRE(murmur::compute_stats(walls, state).clusters == 2);
  }
  SECTION("a chain along z links through neighbours; a gap of exactly r does not") {
    FlockState chain;
    FlockState spaced;
    for (std::uint32_t k = 0; k < 10; ++k) {
      chain.boids.push_back(boid_at({50, 45, 10.0f + 4.0f * static_cast<float>(k)}, kX, k));
      spaced.boids.push_back(boid_at({50, 45, 10.0f + 5.0f * static_cast<float>(k)}, kX, k));
    }
    REQUIRE(murmur::compute_stats(walls, chain).clusters == 1);
    REQUIRE(murmur::compute_stats(walls, spaced).clusters == 10);
  }
}
