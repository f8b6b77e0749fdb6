// The GPU flock against the CPU reference: scan, determinism, neighbour sets, lockstep, free
// runs, layouts that break grids, and the planted faults the harness must catch.
#include <cmath>
#include <cstring>
#include <random>

#include "gpu_test_support.hpp"
#include "murmur/flock/cpu_flock.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/flock/gpu/harness.hpp"
#include "murmur/flock/invariants.hpp"

using namespace murmur;
using murmur::test::gl_context;

namespace {

CompareOptions quick(std::uint32_t lockstep_steps = 2, std::uint32_t free_steps = 0) {
  CompareOptions o;
  o.lockstep_steps = lockstep_steps;
  o.free_steps = free_steps;
  return o;
}

void require_agreement(const Scenario& scenario, const FlockState& start, const CompareOptions& o) {
  const CompareReport report = run_comparison(scenario, start, o);
  INFO(report.table());
  REQUIRE(report.neighbours.boids == o.lockstep_steps * start.boids.size());
  REQUIRE(report.passed());
}

void require_fault_caught(const Scenario& scenario, const FlockState& start, GpuFault fault) {
  CompareOptions o = quick(1);
  // Without the fault, the same check passes: the failure below is the fault's doing.
  const CompareReport clean = run_comparison(scenario, start, o);
  INFO(clean.table());
  REQUIRE(clean.passed());
  o.fault = fault;
  const CompareReport faulty = run_comparison(scenario, start, o);
  INFO(faulty.table());
  REQUIRE_FALSE(faulty.neighbours.passed());
  REQUIRE_FALSE(faulty.passed());
}

Scenario torus(std::uint32_t count, float size = 200.0f, std::uint64_t seed = 7) {
  Scenario s = test::world(size, size, seed);
  s.species.push_back(test::species("a", count, Topology::Wrap, 10.0f, 4.0f));
  return s;
}

}  // namespace

TEST_CASE("GPU exclusive scan matches the CPU for lengths across block and level boundaries") {
  gl_context();
  gl::DebugMessenger debug;
  std::mt19937 rng(3);
  for (std::uint32_t n : {1u, 2u, 1023u, 1024u, 1025u, 4096u, 1024u * 1024u + 7u}) {
    std::vector<std::uint32_t> values(n);
    for (auto& v : values) v = rng() % 9;
    std::vector<std::uint32_t> expected(n);
    std::uint32_t running = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      expected[i] = running;
      running += values[i];
    }
    INFO("length " << n);
    REQUIRE(exclusive_scan_on_gpu(values) == expected);
  }
  REQUIRE(debug.error_count() == 0);
}

TEST_CASE("The grid has cells no smaller than the perception radius") {
  Scenario s = torus(1000, 200.0f);
  const GridShape g = grid_shape_for(s, 1000);
  REQUIRE(g.cell_size.x >= 10.0f);
  REQUIRE(g.cell_size.y >= 10.0f);
  REQUIRE(g.cells.x == 19);  // floor(200 / (10 * 1.001))
  // Many cells for few boids: capped, cells grow, still at least r.
  Scenario sparse = torus(10, 10000.0f);
  sparse.species[0].perception_radius = 1.0f;
  const GridShape gs = grid_shape_for(sparse, 10);
  REQUIRE(std::uint64_t(gs.cells.x) * gs.cells.y <= 4096u);
  REQUIRE(gs.cell_size.x >= 1.0f);
}

TEST_CASE("Same seed gives bit-identical GPU state and a different seed does not") {
  gl_context();
  auto run = [](std::uint64_t seed) {
    const Scenario s = torus(3000, 300.0f, seed);
    GpuFlock flock(s, seeded_start(s));
    flock.step(40);
    return flock.download();
  };
  const FlockState a = run(11), b = run(11), c = run(12);
  REQUIRE(a.boids.size() == b.boids.size());
  REQUIRE(std::memcmp(a.boids.data(), b.boids.data(), a.boids.size() * sizeof(Boid)) == 0);
  REQUIRE(std::memcmp(a.boids.data(), c.boids.data(), a.boids.size() * sizeof(Boid)) != 0);
}

TEST_CASE("GPU grid agrees with the CPU reference on a random torus flock") {
  gl_context();
  gl::DebugMessenger debug;
  const Scenario s = torus(4000, 250.0f);
  require_agreement(s, seeded_start(s), quick(3, 60));
  REQUIRE(debug.error_count() == 0);
}

TEST_CASE("GPU naive pass agrees with the CPU reference") {
  gl_context();
  const Scenario s = torus(1500, 150.0f);
  CompareOptions o = quick(2, 20);
  o.search = NeighbourSearch::Naive;
  require_agreement(s, seeded_start(s), o);
}

TEST_CASE("Two species, one torus and one walled, fov < 360, flocking across species") {
  gl_context();
  Scenario s = test::world(240.0f, 160.0f, 5);
  s.species.push_back(test::species("red", 1500, Topology::Wrap, 12.0f, 5.0f));
  s.species.push_back(test::species("blue", 1500, Topology::Bounded, 9.0f, 3.0f));
  s.species[0].fov_degrees = 200.0f;
  s.species[1].fov_degrees = 270.0f;
  s.species[1].flocks_with = {"red", "blue"};
  require_agreement(s, seeded_start(s), quick(3, 40));
}

TEST_CASE("Boids exactly on cell borders and world edges") {
  gl_context();
  for (Topology topology : {Topology::Wrap, Topology::Bounded}) {
    Scenario s = test::world(100.0f, 100.0f, 1);
    s.species.push_back(test::species("edge", 0, topology, 10.0f, 4.0f));
    const GridShape g = grid_shape_for(s, 1);
    FlockState state;
    std::uint32_t id = 0;
    const float far_edge = topology == Topology::Bounded ? 100.0f : std::nextafter(100.0f, 0.0f);
    for (int i = 0; i <= g.cells.x; ++i) {
      for (int j = 0; j <= g.cells.y; j += 3) {
        const float x = std::min(float(i) * g.cell_size.x, far_edge);
        const float y = std::min(float(j) * g.cell_size.y, far_edge);
        state.boids.push_back(Boid{{x, y}, {1.0f, 0.5f}, id++, 0});
      }
    }
    s.species[0].count = id;
    INFO((topology == Topology::Wrap ? "wrap" : "bounded"));
    require_agreement(s, state, quick(2));
  }
}

TEST_CASE("A lattice spaced exactly r apart: the strict < excludes the exact-r neighbours") {
  gl_context();
  Scenario s = test::world(64.0f, 64.0f, 1);  // powers of two: every coordinate exact
  s.species.push_back(test::species("lattice", 0, Topology::Wrap, 4.0f, 2.0f));
  FlockState state;
  std::uint32_t id = 0;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) state.boids.push_back(Boid{{4.0f * i, 4.0f * j}, {0.0f, 0.0f}, id++, 0});
  s.species[0].count = id;
  GpuFlock flock(s, state);
  flock.step();
  for (const GpuNeighbourCounts& c : flock.download_neighbour_counts()) {
    REQUIRE(c.visible == 0);
  }
  require_agreement(s, state, quick(1));
}

TEST_CASE("A dense clump: hundreds of boids in one cell") {
  gl_context();
  Scenario s = torus(600, 200.0f);
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> near(100.0f, 106.0f);
  FlockState state = seeded_start(s);
  for (Boid& b : state.boids) b.pos = {near(rng), near(rng)};
  require_agreement(s, state, quick(2));
}

TEST_CASE("Tiny flocks: one boid and two boids") {
  gl_context();
  for (std::uint32_t n : {1u, 2u}) {
    const Scenario s = torus(n, 50.0f);
    INFO(n << " boids");
    require_agreement(s, seeded_start(s), quick(3, 10));
  }
}

TEST_CASE("A large flock (200k boids) agrees on one lockstep step") {
  gl_context();
  Scenario s = torus(200000, 3000.0f, 21);
  s.species[0].perception_radius = 8.0f;
  require_agreement(s, seeded_start(s), quick(1));
}

TEST_CASE("Planted fault: a dropped neighbour cell row is caught") {
  gl_context();
  const Scenario s = torus(3000, 200.0f);
  require_fault_caught(s, seeded_start(s), GpuFault::DropNeighbourRow);
}

TEST_CASE("Planted fault: a broken wrap at the world edge is caught") {
  gl_context();
  const Scenario s = torus(3000, 200.0f);
  require_fault_caught(s, seeded_start(s), GpuFault::BrokenWrap);
}

TEST_CASE("Planted fault: an unsorted scatter is caught") {
  gl_context();
  const Scenario s = torus(3000, 200.0f);
  require_fault_caught(s, seeded_start(s), GpuFault::UnsortedScatter);
}

TEST_CASE("Planted fault: an off-by-one at the last cell column is caught") {
  gl_context();
  Scenario s = test::world(100.0f, 100.0f, 1);
  s.species.push_back(test::species("walled", 0, Topology::Bounded, 10.0f, 4.0f));
  FlockState state;
  std::uint32_t id = 0;
  // Pairs straddling the right wall's cell, below the top row (a boid in the top row would
  // index past the grid under this fault).
  for (int row = 0; row < 8; ++row) {
    const float y = 5.0f + 10.0f * float(row);
    state.boids.push_back(Boid{{100.0f, y}, {-1.0f, 0.0f}, id++, 0});
    state.boids.push_back(Boid{{97.0f, y + 1.0f}, {-1.0f, 0.0f}, id++, 0});
  }
  s.species[0].count = id;
  require_fault_caught(s, state, GpuFault::LastCellOffByOne);
}

TEST_CASE("Planted fault: the free run alone catches a dropped neighbour row") {
  gl_context();
  const Scenario s = torus(2000, 160.0f);
  CompareOptions o = quick(0, 40);
  const CompareReport clean = run_comparison(s, seeded_start(s), o);
  INFO(clean.table());
  REQUIRE(clean.free_run.passed());
  o.fault = GpuFault::DropNeighbourRow;
  const CompareReport faulty = run_comparison(s, seeded_start(s), o);
  INFO(faulty.table());
  REQUIRE_FALSE(faulty.free_run.passed());
}

TEST_CASE("A long free run into saturation stays within the drift envelope") {
  gl_context();
  const Scenario s = torus(800, 120.0f, 17);
  require_agreement(s, seeded_start(s), quick(1, 600));
}

TEST_CASE("Long GPU runs keep the invariants: finite, inside the world, speeds within limits") {
  gl_context();
  Scenario s = test::world(200.0f, 120.0f, 3);
  s.species.push_back(test::species("wrapping", 1500, Topology::Wrap, 8.0f, 3.0f));
  s.species.push_back(test::species("walled", 1500, Topology::Bounded, 10.0f, 4.0f));
  const FlockState start = seeded_start(s);
  GpuFlock flock(s, start);
  // The invariants are `murmur soak`'s (murmur/flock/invariants.hpp).
  const InvariantBaseline baseline = invariant_baseline(s, start);
  for (int round = 0; round < 5; ++round) {
    flock.step(100);
    const FlockState state = flock.download();
    REQUIRE(state.boids.size() == 3000);
    const auto broken = first_broken_invariant(s, baseline, state, flock.live_count());
    INFO("after " << (round + 1) * 100 << " steps: " << broken.value_or("all hold"));
    REQUIRE_FALSE(broken.has_value());
  }
}

TEST_CASE("Obstacles, a target and a steered boid: GPU agrees with the CPU reference") {
  gl_context();
  gl::DebugMessenger debug;
  for (Topology topology : {Topology::Wrap, Topology::Bounded}) {
    Scenario s = test::world(200.0f, 150.0f, 4);
    s.species.push_back(test::species("a", 2500, topology, 10.0f, 4.0f));
    s.species[0].obstacle_weight = 0.5f;
    s.species[0].target_weight = 0.02f;
    s.obstacles = {Obstacle{{100.0f, 75.0f}, 12.0f}, Obstacle{{2.0f, 148.0f}, 6.0f}};
    s.target = Target{{190.0f, 10.0f}};
    CompareOptions o = quick(3, 40);
    o.steered = SteeredBoid{17, {1.5f, -0.5f}};
    INFO((topology == Topology::Wrap ? "wrap" : "bounded"));
    require_agreement(s, seeded_start(s), o);
  }
  REQUIRE(debug.error_count() == 0);
}

TEST_CASE("set_parameters changes the rules mid-run and set_steered flies one boid") {
  gl_context();
  Scenario s = torus(500, 100.0f);
  const FlockState start = seeded_start(s);
  GpuFlock flock(s, start);
  Scenario still = s;  // free flight: no steering at all
  still.species[0].align_weight = still.species[0].cohesion_weight = still.species[0].separation_weight = 0;
  still.species[0].perception_radius = 12.0f;  // a larger radius rebuilds the grid
  flock.set_parameters(still);
  REQUIRE(flock.grid().cell_size.x >= 12.0f);
  flock.step();
  const FlockState after = flock.download();
  const FlockState expected = cpu_step(still, start);
  for (std::size_t i = 0; i < after.boids.size(); ++i) {
    // Free flight: every boid keeps its velocity (to rounding) and moves by it.
    REQUIRE_THAT(after.boids[i].vel.x, Catch::Matchers::WithinAbs(expected.boids[i].vel.x, 1e-6));
    REQUIRE_THAT(after.boids[i].vel.y, Catch::Matchers::WithinAbs(expected.boids[i].vel.y, 1e-6));
    REQUIRE_THAT(after.boids[i].pos.x, Catch::Matchers::WithinAbs(expected.boids[i].pos.x, 1e-4));
    REQUIRE_THAT(after.boids[i].pos.y, Catch::Matchers::WithinAbs(expected.boids[i].pos.y, 1e-4));
  }
  flock.set_steered(SteeredBoid{3, {0.0f, 1.0f}});
  flock.step();
  REQUIRE(flock.download().boids[3].vel == glm::vec2(0.0f, 1.0f));
  Scenario more = s;
  more.species[0].count += 1;
  REQUIRE_THROWS_AS(flock.set_parameters(more), InputError);
}

TEST_CASE("A flock of one species (its own steering variant) steps as the same flock beside an "
          "empty second species") {
  // steer_grid.comp compiled with MURMUR_ONE_SPECIES takes every candidate's species as 0
  // instead of fetching it; with a second species (of no boids) the flock gets the variant
  // that fetches. The two must give the same bits.
  gl_context();
  const Scenario one = torus(3000, 240.0f, 5);
  Scenario two = one;
  two.species.push_back(test::species("empty", 0, Topology::Wrap, 10.0f, 4.0f));
  const FlockState start = seeded_start(one);
  FlockState start_two = start;
  start_two.totals.clear();  // per species; empty means none yet
  GpuFlock a(one, start), b(two, start_two);
  a.step(30);
  b.step(30);
  const FlockState sa = a.download(), sb = b.download();
  REQUIRE(sa.boids.size() == start.boids.size());
  REQUIRE(sa.boids.size() == sb.boids.size());
  REQUIRE(std::memcmp(sa.boids.data(), sb.boids.data(), sa.boids.size() * sizeof(Boid)) == 0);
}
