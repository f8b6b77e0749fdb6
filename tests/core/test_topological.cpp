// Topological neighbours (docs/model.md, "Topological neighbours") on the CPU reference:
// hand-built neighbourhoods whose k nearest are worked out here (the ranking, ties by id, the
// field of view before the choice, the radius as a cap, Vicsek's sum), the k-d tree's k-nearest
// query against brute force, the step against the brute-force step and the metric step, and the
// checks of the keys.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "murmur/base/errors.hpp"
#include "murmur/flock/cpu_flock.hpp"
#include "murmur/flock/kdtree.hpp"
#include "murmur/flock/model.hpp"
#include "murmur/flock/state.hpp"
#include "test_random.hpp"

using namespace murmur;
using Catch::Matchers::WithinAbs;

namespace {

Scenario topological(const std::string& species_keys, float side = 40.0f) {
  return parse_scenario("[world]\nwidth = " + std::to_string(side) + "\nheight = " +
                            std::to_string(side) +
                            "\nseed = 3\n[[species]]\nname = \"s\"\nneighbours = \"topological\"\n" +
                            species_keys,
                        "topological.toml");
}

Boid boid(std::uint32_t id, glm::vec2 pos, glm::vec2 vel) {
  Boid b;
  b.id = id;
  b.pos = pos;
  b.vel = vel;
  return b;
}

FlockState state_of(std::vector<Boid> boids) {
  FlockState state;
  state.boids = std::move(boids);
  return state;
}

// Boid 0's neighbour sums in one CPU step of `state`.
NeighbourSums sums_of_first(const Scenario& scenario, const FlockState& state) {
  CpuStepTrace trace;
  cpu_step(scenario, state, &trace);
  return trace.sums.at(0);
}

// Four others east of the observer at (10, 10), at distances 1, 2, 3 and 4, each with a
// velocity of its own, so that a sum names the boids in it.
std::vector<Boid> four_in_a_row() {
  return {boid(0, {10, 10}, {1, 0}), boid(1, {13, 10}, {0, 0.5f}),
          boid(2, {11, 10}, {0, 1}), boid(3, {14, 10}, {0, 0.25f}),
          boid(4, {12, 10}, {0, 2})};
}

}  // namespace

TEST_CASE("A topological boid counts its k nearest: with k = 2, the boids at 1 and 2") {
  const Scenario s = topological("count = 5\ntopological_k = 2\nperception_radius = 8\n"
                                 "separation_radius = 1.5\n");
  const NeighbourSums sums = sums_of_first(s, state_of(four_in_a_row()));
  CHECK(sums.visible == 2);
  CHECK(sums.flock == 2);
  // The boids at 1 (id 2, velocity (0, 1)) and at 2 (id 4, velocity (0, 2)): not 3 or 4.
  CHECK(sums.velocity_sum == glm::vec2(0, 3));
  CHECK(sums.displacement_sum == glm::vec2(3, 0));
  // Only the boid at 1 is within the separation radius.
  CHECK(sums.separating == 1);
  // A metric boid sees all four.
  Scenario metric = s;
  metric.species[0].neighbours = Neighbours::Metric;
  const NeighbourSums all = sums_of_first(metric, state_of(four_in_a_row()));
  CHECK(all.visible == 4);
  CHECK(all.velocity_sum == glm::vec2(0, 3.75f));
}

TEST_CASE("Equally near candidates are ranked by id, not by their place in the state") {
  const Scenario s = topological("count = 3\ntopological_k = 1\nperception_radius = 8\n");
  // East and west of the observer at exactly the same dist_sq; the one west has the smaller
  // id but comes later in the state.
  const FlockState state = state_of(
      {boid(5, {10, 10}, {1, 0}), boid(9, {12, 10}, {0, 1}), boid(4, {8, 10}, {0, -1})});
  const NeighbourSums sums = sums_of_first(s, state);
  CHECK(sums.visible == 1);
  CHECK(sums.displacement_sum == glm::vec2(-2, 0));
  CHECK(sums.velocity_sum == glm::vec2(0, -1));
  // Swapped ids, swapped choice.
  FlockState swapped = state;
  std::swap(swapped.boids[1].id, swapped.boids[2].id);
  CHECK(sums_of_first(s, swapped).displacement_sum == glm::vec2(2, 0));
}

TEST_CASE("The field of view excludes before the k nearest are chosen") {
  const Scenario s = topological("count = 4\ntopological_k = 2\nperception_radius = 8\n"
                                 "fov_degrees = 180\n");
  // The observer heads east; the nearest boid is behind it (west, at 0.5): unseen, it takes
  // none of the two places, which go to the boids ahead at 2 and 3.
  const FlockState state = state_of({boid(0, {10, 10}, {1, 0}), boid(1, {9.5f, 10}, {0, 4}),
                                     boid(2, {12, 10}, {0, 1}), boid(3, {13, 10}, {0, 2})});
  const NeighbourSums sums = sums_of_first(s, state);
  CHECK(sums.visible == 2);
  CHECK(sums.velocity_sum == glm::vec2(0, 3));
  CHECK(sums.displacement_sum == glm::vec2(5, 0));
}

TEST_CASE("The perception radius caps the choice: fewer than k within it are all taken") {
  // k = 4, radius 3: the boids at 1 and 2 are inside, the one at exactly 3 is not (strict), nor
  // the one at 4.
  const Scenario s = topological("count = 5\ntopological_k = 4\nperception_radius = 3\n"
                                 "separation_radius = 0\n");
  const NeighbourSums sums = sums_of_first(s, state_of(four_in_a_row()));
  CHECK(sums.visible == 2);
  CHECK(sums.velocity_sum == glm::vec2(0, 3));
}

TEST_CASE("Across the torus seam the nearest are the nearest images") {
  const Scenario s = topological("count = 4\ntopological_k = 2\nperception_radius = 8\n",
                                 20.0f);
  // The observer at x = 0.5; a boid at 19.5 is 1 away through the seam, one at 3 is 2.5 away,
  // one at 4 is 3.5 away.
  const FlockState state = state_of({boid(0, {0.5f, 10}, {1, 0}), boid(1, {4, 10}, {0, 4}),
                                     boid(2, {19.5f, 10}, {0, 1}), boid(3, {3, 10}, {0, 2})});
  const NeighbourSums sums = sums_of_first(s, state);
  CHECK(sums.visible == 2);
  CHECK(sums.velocity_sum == glm::vec2(0, 3));
  CHECK(sums.displacement_sum == glm::vec2(1.5f, 0));
}

TEST_CASE("A topological Vicsek particle sums its own heading and its k nearest") {
  const Scenario s = topological("rule = \"vicsek\"\ncount = 4\ntopological_k = 1\n"
                                 "speed = 0.5\nperception_radius = 4\n");
  // East itself; its nearest (at 1) heads north, the next (at 2) south: with k = 1 it turns to
  // north-east, where a metric particle (both) would keep east.
  const FlockState state = state_of({boid(0, {10, 10}, {0.5f, 0}), boid(1, {11, 10}, {0, 0.5f}),
                                     boid(2, {12, 10}, {0, -0.5f}), boid(3, {30, 30}, {0.5f, 0})});
  const FlockState after = cpu_step(s, state);
  const double angle = std::atan2(double(after.boids[0].vel.y), double(after.boids[0].vel.x));
  CHECK_THAT(angle, WithinAbs(std::numbers::pi / 4, 1e-6));
  Scenario metric = s;
  metric.species[0].neighbours = Neighbours::Metric;
  const FlockState metric_after = cpu_step(metric, state);
  CHECK_THAT(double(metric_after.boids[0].vel.y), WithinAbs(0.0, 1e-7));
}

TEST_CASE("The k-d tree's k nearest equal brute force's, ties and the seam included",
          "[kdtree]") {
  test::SplitMix rng(17);
  const glm::vec2 world{50.0f, 30.0f};
  for (const bool lattice : {false, true}) {
    std::vector<glm::vec2> points;
    std::vector<std::uint32_t> ids;
    for (std::uint32_t i = 0; i < 1500; ++i) {
      // The lattice puts many points at exactly equal distances: ties decided by id.
      const glm::vec2 p = lattice ? glm::vec2(float(i % 50), float((i / 50) % 30))
                                  : glm::vec2(rng.in(0.0f, world.x), rng.in(0.0f, world.y));
      points.push_back(p);
      ids.push_back((i * 7919u) % 100003u);  // distinct (100003 is prime), unordered
    }
    const KdTree2D tree(points);
    for (int q = 0; q < 200; ++q) {
      const std::uint32_t observer = rng.next() % points.size();
      const glm::vec2 centre = points[observer];
      const float radius = rng.in(0.5f, 14.0f);
      const std::uint32_t k = 1 + rng.next() % 20;
      for (const Topology topology : {Topology::Wrap, Topology::Bounded}) {
        // Half the queries admit only the points east of the centre, as a field of view does.
        const bool half = q % 2 == 1;
        const KdTree2D::Admits admits = [&](std::uint32_t j, glm::vec2 d) {
          return j != observer && (!half || d.x >= 0.0f);
        };
        std::vector<std::uint32_t> from_tree, from_brute;
        tree.query_nearest(centre, radius, k, topology, world, ids, admits, from_tree);
        brute_force_nearest(points, centre, radius, k, topology, world, ids, admits, from_brute);
        std::sort(from_tree.begin(), from_tree.end());
        std::sort(from_brute.begin(), from_brute.end());
        INFO("lattice " << lattice << " query " << q << " k " << k << " radius " << radius);
        REQUIRE(from_tree == from_brute);
        // And the brute force's choice is the definition: no admitted point within the radius
        // outside it ranks before one inside it.
        std::vector<std::uint32_t> within;
        brute_force_radius(points, centre, radius, topology, world, within);
        std::erase_if(within, [&](std::uint32_t j) {
          return !admits(j, displacement(centre, points[j], topology, world));
        });
        REQUIRE(from_brute.size() == std::min<std::size_t>(k, within.size()));
        const auto key = [&](std::uint32_t j) {
          const glm::vec2 d = displacement(centre, points[j], topology, world);
          return std::pair<float, std::uint32_t>(d.x * d.x + d.y * d.y, ids[j]);
        };
        for (const std::uint32_t out : within) {
          if (std::binary_search(from_brute.begin(), from_brute.end(), out)) continue;
          for (const std::uint32_t in : from_brute) REQUIRE(key(in) < key(out));
        }
      }
    }
  }
}

TEST_CASE("A topological step is the same bits by k-d tree, by brute force and on any thread "
          "count") {
  Scenario s = topological(
      "count = 1500\ntopological_k = 6\nperception_radius = 5\nfov_degrees = 270\n"
      "align_weight = 0.1\ncohesion_weight = 0.01\nseparation_weight = 0.5\n"
      "separation_radius = 2\nmax_force = 0.1\nmin_speed = 0.3\nmax_speed = 1\n");
  SpeciesParams second = s.species[0];
  second.name = "t";
  second.count = 500;
  second.topology = Topology::Bounded;
  second.rule = Rule::Boids;
  s.species.push_back(second);
  s.species[0].flocks_with = {"s", "t"};
  FlockState state = seeded_start(s);
  for (int step = 0; step < 5; ++step) {
    const FlockState tree = cpu_step(s, state, nullptr, std::nullopt, {}, 1);
    const FlockState brute = cpu_step_brute_force(s, state, nullptr, std::nullopt, {}, 1);
    const FlockState threads = cpu_step(s, state, nullptr, std::nullopt, {}, 3);
    REQUIRE(tree.boids.size() == brute.boids.size());
    REQUIRE(std::memcmp(tree.boids.data(), brute.boids.data(), tree.boids.size() * sizeof(Boid)) == 0);
    REQUIRE(std::memcmp(tree.boids.data(), threads.boids.data(), tree.boids.size() * sizeof(Boid)) == 0);
    state = tree;
  }
}

TEST_CASE("With k at least every boid's visible count, topological is metric, bit for bit") {
  Scenario s = topological(
      "count = 600\ntopological_k = 64\nperception_radius = 2\nfov_degrees = 300\n"
      "align_weight = 0.1\ncohesion_weight = 0.01\nseparation_weight = 0.5\n"
      "separation_radius = 1\nmax_force = 0.1\nmin_speed = 0.3\nmax_speed = 1\n", 60.0f);
  Scenario metric = s;
  metric.species[0].neighbours = Neighbours::Metric;
  FlockState state = seeded_start(s);
  CpuStepTrace trace;
  const FlockState a = cpu_step(s, state, &trace);
  const FlockState b = cpu_step(metric, state);
  std::uint32_t most = 0;
  for (const NeighbourSums& sums : trace.sums) most = std::max(most, sums.visible);
  REQUIRE(most < 64);  // every boid took all it sees
  REQUIRE(most > 0);
  REQUIRE(std::memcmp(a.boids.data(), b.boids.data(), a.boids.size() * sizeof(Boid)) == 0);
}

TEST_CASE("topological_k and what topological neighbours refuse: one line naming both keys") {
  const auto message = [](const std::string& keys, const std::string& more = "") {
    try {
      parse_scenario("[world]\nwidth = 30\nheight = 30\n[food]\ncell_size = 5\n"
                     "[[species]]\nname = \"p\"\n" + keys + more,
                     "bad.toml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string zero = message("neighbours = \"topological\"\ntopological_k = 0\n");
  CHECK(zero.find("topological_k = 0") != std::string::npos);
  CHECK(zero.find(">= 1 and <= 64") != std::string::npos);
  CHECK(message("neighbours = \"topological\"\ntopological_k = 65\n").find("<= 64") !=
        std::string::npos);
  const std::string couzin = message("neighbours = \"topological\"\nrule = \"couzin\"\n");
  CHECK(couzin.find("rule = \"couzin\"") != std::string::npos);
  CHECK(couzin.find("neighbours = \"topological\"") != std::string::npos);
  const std::string grazer = message("neighbours = \"topological\"\ngrazes = true\n");
  CHECK(grazer.find("grazes = true") != std::string::npos);
  CHECK(grazer.find("neighbours = \"topological\"") != std::string::npos);
  const std::string hunter = message(
      "neighbours = \"topological\"\neats = [\"q\"]\n", "[[species]]\nname = \"q\"\n");
  CHECK(hunter.find("eats = \"q\"") != std::string::npos);
  CHECK(hunter.find("neighbours = \"topological\"") != std::string::npos);
  const std::string prey = message(
      "eats = [\"q\"]\n", "[[species]]\nname = \"q\"\nneighbours = \"topological\"\n");
  CHECK(prey.find("species[0]") != std::string::npos);
  CHECK(prey.find("eats = \"q\"") != std::string::npos);
  CHECK(prey.find("neighbours = \"topological\"") != std::string::npos);
  CHECK(message("neighbours = \"topological\"\nrule = \"vicsek\"\n") == "no error");
  // In memory (the viewer's panel), topological_k belongs to topological species alone: a
  // metric species' value is not checked, since it does nothing there.
  Scenario edited = topological("topological_k = 3\n");
  edited.species[0].topological_k = 0;
  CHECK_THROWS_AS(validate_scenario(edited), InputError);
  edited.species[0].neighbours = Neighbours::Metric;
  CHECK_NOTHROW(validate_scenario(edited));
  CHECK(message("neighbours = \"nearest\"\n").find("\"metric\" or \"topological\"") !=
        std::string::npos);
}
