// The GPU flock in a 3D world (docs/model.md, "Three dimensions"; docs/gpu.md, "Three
// dimensions"): a flock confined to a plane steps as the 2D flock does, the grid of 3 x 3 x 3
// cells finds exactly the all-pairs pass's neighbours, boids see and cross the z seam, the CPU
// mirror of the grid counts the cells the pass searches, and the steps agree with the CPU
// reference's (bit for bit for boids alone, to rounding in a crowd), and the harness holds it to
// them in 3D (docs/harness.md, "Three dimensions"), failing the 3D planted faults.
//
// Sections: helpers; the grid's shape and the CPU's count of its search; the plane; the grid
// against all pairs; the z seam; upload and download; the refusal; the harness; against the CPU
// reference.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <optional>
#include <random>
#include <string>
#include <tuple>

#include "gpu_test_support.hpp"
#include "murmur/flock/cpu_flock.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/flock/gpu/harness.hpp"
#include "murmur/flock/grid.hpp"

using namespace murmur;
using murmur::test::gl_context;

namespace {

Scenario volume(Scenario scenario, float depth) {
  scenario.world.dimensions = 3;
  scenario.world.depth = depth;
  return scenario;
}

// Boids uniform in the box, each flying a direction uniform on the sphere at a speed within the
// species' limits; ids in order.
FlockState random_volume_state(const Scenario& scenario, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const glm::vec3 box = world_box(scenario);
  // u * L may round up to L, outside a torus' [0, L).
  const auto along = [&](float side) { return std::min(unit(rng) * side, std::nextafter(side, 0.0f)); };
  FlockState state;
  for (std::uint32_t s = 0; s < scenario.species.size(); ++s) {
    const SpeciesParams& species = scenario.species[s];
    for (std::uint32_t k = 0; k < species.count; ++k) {
      Boid b;
      b.id = static_cast<std::uint32_t>(state.boids.size());
      b.species = s;
      const glm::vec3 position{along(box.x), along(box.y), along(box.z)};
      const float cos_polar = 2.0f * unit(rng) - 1.0f;
      const float sin_polar = std::sqrt(1.0f - cos_polar * cos_polar);
      const float around = 2.0f * std::numbers::pi_v<float> * unit(rng);
      const float speed = species.min_speed + (species.max_speed - species.min_speed) * unit(rng);
      const glm::vec3 velocity = speed * glm::vec3{sin_polar * std::cos(around),
                                                   sin_polar * std::sin(around), cos_polar};
      set_motion(b, position, velocity);
      state.boids.push_back(b);
    }
  }
  return state;
}

// The neighbour counts of one step from `start`, by the grid or by all pairs.
std::vector<GpuNeighbourCounts> counts_of_one_step(const Scenario& scenario,
                                                   const FlockState& start,
                                                   NeighbourSearch search) {
  GpuFlock flock(scenario, start, search);
  flock.step();
  return flock.download_neighbour_counts();
}

void require_grid_finds_all_pairs(const Scenario& scenario, const FlockState& start) {
  const auto grid = counts_of_one_step(scenario, start, NeighbourSearch::Grid);
  const auto all_pairs = counts_of_one_step(scenario, start, NeighbourSearch::Naive);
  REQUIRE(grid.size() == start.boids.size());
  REQUIRE(all_pairs.size() == grid.size());
  std::uint64_t seen = 0;
  for (std::size_t k = 0; k < grid.size(); ++k) {
    INFO("boid " << grid[k].id);
    REQUIRE(grid[k].id == all_pairs[k].id);
    REQUIRE(grid[k].visible == all_pairs[k].visible);
    REQUIRE(grid[k].flock == all_pairs[k].flock);
    REQUIRE(grid[k].separating == all_pairs[k].separating);
    seen += grid[k].visible;
  }
  // Not vacuous: the flock is dense enough that most boids see someone.
  REQUIRE(seen >= start.boids.size());
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_CASE("A 3D grid has layers of cells no thinner than the perception radius") {
  Scenario s = volume(test::world(200.0f, 120.0f, 1), 90.0f);
  s.species.push_back(test::species("a", 1000, Topology::Wrap, 10.0f, 4.0f));
  const GridShape grid = grid_shape_for(s, 1000);
  REQUIRE(grid.cells.z == 8);  // floor(90 / (10 * 1.001))
  REQUIRE(grid.cell_size.z >= 10.0f);
  REQUIRE(grid.cell_count() == std::uint32_t(grid.cells.x * grid.cells.y * grid.cells.z));
  // A position's cell counts whole layers below it.
  const std::uint32_t layer = grid.cells.x * grid.cells.y;
  REQUIRE(grid.cell_of(glm::vec3{0.0f, 0.0f, 0.0f}) == 0);
  REQUIRE(grid.cell_of(glm::vec3{0.0f, 0.0f, 89.99f}) == 7 * layer);
  REQUIRE(grid.cell_of(glm::vec3{199.9f, 119.9f, 12.0f}) == layer + layer - 1);
  // The 2D world keeps one layer, and a boid's cell is its plane's.
  s.world.dimensions = 2;
  s.world.depth = 0;
  const GridShape plane = grid_shape_for(s, 1000);
  REQUIRE(plane.cells.z == 1);
  Boid b;
  b.pos = {57.0f, 31.0f};
  REQUIRE(plane.cell_of(b) == plane.cell_of(b.pos));
}

TEST_CASE("The CPU's count of a 3D search visits 3 x 3 x 3 cells, clamped at walls") {
  // One boid at the centre of every cell of a 4 x 4 x 4 grid: a torus boid visits 27 cells, a
  // walled one per axis 2 (at a wall) or 3, 10 in all over an axis' 4 cells, so 10^3 visits.
  for (const Topology topology : {Topology::Wrap, Topology::Bounded}) {
    Scenario s = volume(test::world(40.0f, 40.0f, 1), 40.0f);
    s.species.push_back(test::species("a", 64, topology, 9.0f, 2.0f));
    const GridShape grid = grid_shape_for(s, 64);
    REQUIRE(grid.cells == glm::ivec3(4, 4, 4));
    FlockState state;
    for (int z = 0; z < 4; ++z) {
      for (int y = 0; y < 4; ++y) {
        for (int x = 0; x < 4; ++x) {
          Boid b;
          b.id = static_cast<std::uint32_t>(state.boids.size());
          set_motion(b, glm::vec3{x * 10.0f + 5.0f, y * 10.0f + 5.0f, z * 10.0f + 5.0f},
                     glm::vec3{1.0f, 0.0f, 0.0f});
          state.boids.push_back(b);
        }
      }
    }
    const double expected = topology == Topology::Wrap ? 26.0 : (1000.0 - 64.0) / 64.0;
    REQUIRE(candidates_per_boid(s, grid, state) == expected);
  }
}

TEST_CASE("A 3D flock confined to a plane steps as the same flock in 2D, bit for bit") {
  gl_context();
  gl::DebugMessenger debug;
  for (const Topology topology : {Topology::Wrap, Topology::Bounded}) {
    INFO((topology == Topology::Wrap ? "wrap" : "bounded"));
    Scenario plane = test::world(200.0f, 200.0f, 5);
    plane.species.push_back(test::species("a", 2500, topology, 10.0f, 4.0f));
    plane.species[0].fov_degrees = 270.0f;
    const Scenario space = volume(plane, 60.0f);
    const FlockState flat = seeded_start(plane);
    FlockState raised = flat;
    const float height = 37.25f;  // in no particular layer's edge
    for (Boid& b : raised.boids) b.z = height;

    GpuFlock flock2(plane, flat);
    GpuFlock flock3(space, raised);
    constexpr std::uint32_t kSteps = 12;
    flock2.step(kSteps);
    flock3.step(kSteps);
    const FlockState a = flock2.download(), b = flock3.download();
    REQUIRE(a.boids.size() == b.boids.size());
    std::size_t moved = 0;
    for (std::size_t k = 0; k < a.boids.size(); ++k) {
      INFO("boid " << a.boids[k].id);
      REQUIRE(a.boids[k].id == b.boids[k].id);
      REQUIRE(same_bits(a.boids[k].pos.x, b.boids[k].pos.x));
      REQUIRE(same_bits(a.boids[k].pos.y, b.boids[k].pos.y));
      REQUIRE(same_bits(a.boids[k].vel.x, b.boids[k].vel.x));
      REQUIRE(same_bits(a.boids[k].vel.y, b.boids[k].vel.y));
      REQUIRE(b.boids[k].z == height);
      REQUIRE(b.boids[k].vz == 0.0f);
      if (a.boids[k].pos != flat.boids[k].pos) ++moved;
    }
    REQUIRE(moved == a.boids.size());
    // The neighbour sets too: the steps were not equal by flying alone.
    const auto counts2 = flock2.download_neighbour_counts();
    const auto counts3 = flock3.download_neighbour_counts();
    std::uint64_t seen = 0;
    for (std::size_t k = 0; k < counts2.size(); ++k) {
      REQUIRE(counts2[k].visible == counts3[k].visible);
      REQUIRE(counts2[k].separating == counts3[k].separating);
      seen += counts2[k].visible;
    }
    REQUIRE(seen > counts2.size());
  }
  REQUIRE(debug.error_count() == 0);
}

TEST_CASE("The 3D grid finds exactly the all-pairs pass's neighbours") {
  gl_context();
  gl::DebugMessenger debug;
  SECTION("a torus and a walled species, fov < 360, many cells on every axis") {
    Scenario s = volume(test::world(120.0f, 90.0f, 3), 75.0f);
    s.species.push_back(test::species("red", 1500, Topology::Wrap, 12.0f, 5.0f));
    s.species.push_back(test::species("blue", 1500, Topology::Bounded, 9.0f, 3.0f));
    s.species[0].fov_degrees = 220.0f;
    s.species[1].flocks_with = {"red", "blue"};
    require_grid_finds_all_pairs(s, random_volume_state(s, 11));
  }
  SECTION("a torus whose depth holds 2 layers of cells, then 1: searched whole") {
    for (const float depth : {25.0f, 15.0f}) {
      INFO("depth " << depth);
      Scenario s = volume(test::world(100.0f, 100.0f, 3), depth);
      s.species.push_back(test::species("a", 2000, Topology::Wrap, 7.0f, 3.0f));
      require_grid_finds_all_pairs(s, random_volume_state(s, 12));
    }
  }
  SECTION("topological neighbours: the same k nearest") {
    Scenario s = volume(test::world(80.0f, 80.0f, 3), 80.0f);
    s.species.push_back(test::species("a", 2500, Topology::Wrap, 12.0f, 3.0f));
    s.species[0].neighbours = Neighbours::Topological;
    s.species[0].topological_k = 5;
    require_grid_finds_all_pairs(s, random_volume_state(s, 13));
  }
  SECTION("vicsek and couzin species") {
    Scenario s = volume(test::world(90.0f, 90.0f, 3), 90.0f);
    s.species.push_back(test::species("v", 1500, Topology::Wrap, 10.0f, 3.0f));
    s.species.push_back(test::species("c", 1500, Topology::Wrap, 10.0f, 3.0f));
    s.species[0].rule = Rule::Vicsek;
    s.species[0].speed = 1.0f;
    s.species[0].noise = 0.5f;
    s.species[1].rule = Rule::Couzin;
    s.species[1].speed = 1.0f;
    s.species[1].noise = 0.1f;
    s.species[1].repulsion_radius = 2.0f;
    s.species[1].orientation_radius = 6.0f;
    s.species[1].fov_degrees = 300.0f;
    require_grid_finds_all_pairs(s, random_volume_state(s, 14));
  }
  REQUIRE(debug.error_count() == 0);
}

TEST_CASE("A 3D torus boid sees across the z seam and flies through it, a walled one does not") {
  gl_context();
  constexpr float kDepth = 50.0f;
  for (const Topology topology : {Topology::Wrap, Topology::Bounded}) {
    const bool wrap = topology == Topology::Wrap;
    INFO((wrap ? "wrap" : "bounded"));
    Scenario s = volume(test::world(100.0f, 100.0f, 3), kDepth);
    // Cohesion alone, with no wall push: a boid turns towards what it sees, and nothing else.
    SpeciesParams pulled = test::make_species("a", topology, 10.0f, 0.5f,
                                        {.align = 0.0f, .cohesion = 1.0f, .separation = 0.0f});
    pulled.count = 2;
    s.species.push_back(pulled);
    FlockState start;
    Boid low, high;
    low.id = 0;
    high.id = 1;
    // 1 apart through the seam, 48 apart inside the box; both fly along x.
    set_motion(low, {50.0f, 50.0f, 0.5f}, {1.0f, 0.0f, 0.0f});
    set_motion(high, {50.0f, 50.0f, kDepth - 0.5f}, {1.0f, 0.0f, 0.0f});
    start.boids = {low, high};
    GpuFlock flock(s, start);
    flock.step();
    const auto counts = flock.download_neighbour_counts();
    FlockState after = flock.download();
    REQUIRE(counts.size() == 2);
    REQUIRE(counts[0].visible == (wrap ? 1u : 0u));
    REQUIRE(counts[1].visible == (wrap ? 1u : 0u));
    // Pulled towards each other through the seam: the low one down, the high one up.
    if (wrap) {
      REQUIRE(after.boids[0].vz < 0.0f);
      REQUIRE(after.boids[1].vz > 0.0f);
    } else {
      REQUIRE(after.boids[0].vz == 0.0f);
      REQUIRE(after.boids[1].vz == 0.0f);
    }
  }
  SECTION("a torus boid past the far face comes back at the near one") {
    Scenario s = volume(test::world(100.0f, 100.0f, 3), kDepth);
    s.species.push_back(test::species("a", 2, Topology::Wrap, 10.0f, 0.5f));
    FlockState start;
    Boid rising, sinking;
    rising.id = 0;
    sinking.id = 1;
    set_motion(rising, {20.0f, 20.0f, kDepth - 0.25f}, {0.0f, 0.0f, 1.0f});
    set_motion(sinking, {70.0f, 70.0f, 0.25f}, {0.0f, 0.0f, -1.0f});
    start.boids = {rising, sinking};
    GpuFlock flock(s, start);
    flock.step();
    const FlockState after = flock.download();
    REQUIRE(after.boids[0].z == Approx(0.75f));
    REQUIRE(after.boids[1].z == Approx(kDepth - 0.75f));
    REQUIRE(after.boids[0].vz == 1.0f);
    REQUIRE(after.boids[1].vz == -1.0f);
  }
}

TEST_CASE("A 3D state uploads and downloads with its z and vz") {
  gl_context();
  Scenario s = volume(test::world(60.0f, 60.0f, 3), 40.0f);
  s.species.push_back(test::species("a", 300, Topology::Wrap, 6.0f, 2.0f));
  const FlockState start = random_volume_state(s, 21);
  const GpuFlock flock(s, start);
  FlockState back = flock.download();
  REQUIRE(back.boids.size() == start.boids.size());
  for (std::size_t k = 0; k < back.boids.size(); ++k) {
    REQUIRE(back.boids[k].id == start.boids[k].id);
    REQUIRE(same_bits(back.boids[k].z, start.boids[k].z));
    REQUIRE(same_bits(back.boids[k].vz, start.boids[k].vz));
    REQUIRE(back.boids[k].pos == start.boids[k].pos);
  }
}

TEST_CASE("A 3D world with the ecosystem is refused on the GPU") {
  gl_context();
  Scenario s = volume(test::world(60.0f, 60.0f, 3), 40.0f);
  s.species.push_back(test::species("a", 10, Topology::Wrap, 6.0f, 2.0f));
  s.species[0].energy_max = 10.0f;
  REQUIRE_THROWS_WITH(GpuFlock(s, random_volume_state(s, 1)),
                      Catch::Contains("ecosystem") && Catch::Contains("3D"));
}

namespace {
// The harness (docs/harness.md, "Three dimensions"): `lockstep` steps from the CPU's state and
// `free` steps alone, with a planted fault or none.
CompareOptions comparison(std::uint32_t lockstep, std::uint32_t free,
                          GpuFault fault = GpuFault::None) {
  CompareOptions o;
  o.lockstep_steps = lockstep;
  o.free_steps = free;
  o.fault = fault;
  return o;
}
}  // namespace

TEST_CASE("The harness passes 3D boids and fails the 3D grid's planted faults") {
  gl_context();
  // A 3-torus and a box in one volume, flocking together: 6 x 6 x 6 cells, about 8 neighbours
  // each.
  Scenario s = volume(test::world(42.0f, 42.0f, 5), 42.0f);
  s.species.push_back(test::species("torus", 500, Topology::Wrap, 6.0f, 2.0f));
  s.species.push_back(test::species("box", 300, Topology::Bounded, 6.0f, 2.0f));
  s.species[0].fov_degrees = 270.0f;  // a cone
  s.species[0].flocks_with = {"torus", "box"};
  const FlockState start = random_volume_state(s, 41);
  const CompareReport clean = run_comparison(s, start, comparison(2, 20));
  INFO(clean.table());
  REQUIRE(clean.passed());
  REQUIRE(clean.neighbours.boids == 2 * start.boids.size());
  // Not vacuous: nearly every boid is compared in lockstep, and the free run was sampled.
  REQUIRE(clean.lockstep.boids >= clean.neighbours.boids * 9 / 10);
  REQUIRE(clean.free_run.samples.size() == 10);
  for (const GpuFault fault :
       {GpuFault::DropNeighbourRow, GpuFault::DropNeighbourLayer, GpuFault::BrokenWrapZ}) {
    const CompareReport faulty = run_comparison(s, start, comparison(1, 0, fault));
    INFO(faulty.table());
    REQUIRE_FALSE(faulty.neighbours.passed());
    REQUIRE_FALSE(faulty.passed());
  }
}

TEST_CASE("The harness holds 3D vicsek and couzin to their heading bounds, and fails a fixed noise axis") {
  gl_context();
  Scenario s = volume(test::world(42.0f, 42.0f, 7), 42.0f);
  s.species.push_back(test::species("v", 400, Topology::Wrap, 6.0f, 2.0f));
  s.species.push_back(test::species("c", 400, Topology::Wrap, 6.0f, 2.0f));
  s.species[0].rule = Rule::Vicsek;
  s.species[0].speed = 1.0f;
  s.species[0].noise = 0.5f;  // the uniform cap
  s.species[1].rule = Rule::Couzin;
  s.species[1].speed = 1.0f;
  s.species[1].noise = 0.1f;
  s.species[1].noise_distribution = NoiseDistribution::Gaussian;
  s.species[1].repulsion_radius = 1.0f;
  s.species[1].orientation_radius = 3.0f;
  s.species[1].max_turn_degrees = 20.0f;
  s.species[1].fov_degrees = 300.0f;
  const FlockState start = random_volume_state(s, 43);
  // Lockstep alone: a crowded couzin school's free run parts at the first boid that enters a
  // zone on one side only (an attraction term of unit size), which one-ulp envelope runs need
  // not meet as early (docs/harness.md, "Three dimensions"); the scenarios' free runs pass.
  const CompareReport clean = run_comparison(s, start, comparison(3, 0));
  INFO(clean.table());
  REQUIRE(clean.passed());
  // Ill-conditioned headings and ambiguous pairs are skipped, but few of them.
  REQUIRE(clean.lockstep.skipped_ambiguous * 10 < clean.neighbours.boids);
  // The noise turned the wrong way about each direction: the neighbours are right, the
  // headings are not.
  const CompareReport faulty = run_comparison(s, start, comparison(1, 0, GpuFault::NoiseAxisFixed));
  INFO(faulty.table());
  REQUIRE(faulty.neighbours.passed());
  REQUIRE_FALSE(faulty.lockstep.passed());
}

namespace {

// Within this of the CPU, in world units: a few ulps of the sums' size, which the tests'
// speeds (at most 2) keep far below it.
constexpr float kRoundingTolerance = 1e-4f;

// The CPU reference's step and the GPU's from the same state, `steps` times in lockstep (each
// GPU step starts from the CPU's state). Isolated boids (no neighbours), `tolerance` 0, must
// agree bit for bit: their rules add no sums, whose order is the only thing the two sides do
// differently, on llvmpipe, whose division and square root are correctly rounded (another GPU
// may round them otherwise, docs/model.md, "GPU vs CPU agreement": there they agree to
// rounding). Crowded ones must see the same neighbours and agree within `tolerance`.
void require_cpu_agreement(const Scenario& scenario, const FlockState& start, std::uint32_t steps,
                           float tolerance, std::optional<SteeredBoid> steered = std::nullopt,
                           const BirthRules& births = {}) {
  if (gl_context().info().renderer.find("llvmpipe") == std::string::npos) {
    tolerance = std::max(tolerance, kRoundingTolerance);
  }
  FlockState state = start;
  GpuFlock flock(scenario, start);
  flock.set_steered(steered);
  flock.set_birth_rules(births);
  std::uint64_t turned = 0;
  for (std::uint32_t step = 0; step < steps; ++step) {
    INFO("step " << step);
    flock.upload(state);
    flock.step();
    CpuStepTrace trace;
    const FlockState cpu = cpu_step(scenario, state, &trace, steered, births);
    const FlockState gpu = flock.download();
    const auto counts = flock.download_neighbour_counts();
    REQUIRE(gpu.boids.size() == cpu.boids.size());
    REQUIRE(counts.size() == state.boids.size());
    for (std::size_t k = 0; k < cpu.boids.size(); ++k) {
      const Boid& c = cpu.boids[k];
      const Boid& g = gpu.boids[k];
      INFO("boid " << c.id);
      REQUIRE(g.id == c.id);
      if (k < counts.size()) {
        REQUIRE(counts[k].visible == trace.sums[k].visible);
        REQUIRE(counts[k].flock == trace.sums[k].flock);
        REQUIRE(counts[k].separating == trace.sums[k].separating);
      }
      glm::vec3 dp = position_of(g) - position_of(c);
      const glm::vec3 dv = velocity_of(g) - velocity_of(c);
      if (tolerance == 0.0f) {
        REQUIRE(same_bits(g.pos.x, c.pos.x));
        REQUIRE(same_bits(g.pos.y, c.pos.y));
        REQUIRE(same_bits(g.z, c.z));
        REQUIRE(same_bits(g.vel.x, c.vel.x));
        REQUIRE(same_bits(g.vel.y, c.vel.y));
        REQUIRE(same_bits(g.vz, c.vz));
      } else {
        // A torus pair may differ by L across a seam: compare the minimum image.
        const glm::vec3 box = world_box(scenario);
        for (int a = 0; a < 3; ++a) {
          if (std::abs(dp[a]) > 0.5f * box[a]) dp[a] -= std::copysign(box[a], dp[a]);
        }
        REQUIRE(std::abs(dp.x) <= tolerance);
        REQUIRE(std::abs(dp.y) <= tolerance);
        REQUIRE(std::abs(dp.z) <= tolerance);
        REQUIRE(std::abs(dv.x) <= tolerance);
        REQUIRE(std::abs(dv.y) <= tolerance);
        REQUIRE(std::abs(dv.z) <= tolerance);
      }
      if (k < state.boids.size() && std::abs(state.boids[k].vz - c.vz) > 0.0f) ++turned;
    }
    state = cpu;
  }
  // Not vacuous: the rules turned boids out of their planes.
  REQUIRE(turned > 0);
}

// Boids `spacing` apart on a jittered lattice, so that a perception radius below the spacing
// leaves every boid alone.
FlockState isolated_state(const Scenario& scenario, float spacing, std::uint32_t seed) {
  FlockState state = random_volume_state(scenario, seed);
  const glm::vec3 box = world_box(scenario);
  const int across = static_cast<int>(box.x / spacing);
  const int up = static_cast<int>(box.y / spacing);
  for (std::size_t k = 0; k < state.boids.size(); ++k) {
    const int i = static_cast<int>(k);
    const glm::vec3 cell{float(i % across), float((i / across) % up), float(i / (across * up))};
    set_motion(state.boids[k], (cell + 0.5f) * spacing, velocity_of(state.boids[k]));
  }
  return state;
}

}  // namespace

TEST_CASE("Isolated 3D boids step as the CPU reference does, bit for bit") {
  gl_context();
  gl::DebugMessenger debug;
  constexpr float kSpacing = 8.0f;
  SECTION("vicsek (uniform cap, both updates) and couzin (Gaussian turn, bounded turn)") {
    Scenario s = volume(test::world(96.0f, 96.0f, 9), 96.0f);
    for (const auto& [rule, distribution, update] :
         {std::tuple{Rule::Vicsek, NoiseDistribution::Uniform, VicsekUpdate::Paper},
          std::tuple{Rule::Vicsek, NoiseDistribution::Gaussian, VicsekUpdate::Forward},
          std::tuple{Rule::Couzin, NoiseDistribution::Gaussian, VicsekUpdate::Paper},
          std::tuple{Rule::Couzin, NoiseDistribution::Uniform, VicsekUpdate::Paper}}) {
      SpeciesParams species = test::species("r", 400, Topology::Wrap, 3.0f, 1.0f);
      species.rule = rule;
      species.noise_distribution = distribution;
      species.vicsek_update = update;
      species.speed = 1.5f;
      species.noise = 2.5f;
      species.max_turn_degrees = 25.0f;
      species.repulsion_radius = 1.0f;
      species.orientation_radius = 2.0f;
      s.species.push_back(species);
    }
    require_cpu_agreement(s, isolated_state(s, kSpacing, 31), 3, 0.0f);
  }
  SECTION("budding: the children's ids follow the parent order of the 3D cells") {
    Scenario s = volume(test::world(96.0f, 96.0f, 9), 96.0f);
    SpeciesParams species = test::species("v", 1000, Topology::Wrap, 3.0f, 1.0f);
    species.rule = Rule::Vicsek;
    species.noise = 1.0f;
    s.species.push_back(species);
    const FlockState start = isolated_state(s, kSpacing, 33);
    // Every third boid buds in the first step; the capacity (the count) drops the rest.
    require_cpu_agreement(s, start, 1, 0.0f, std::nullopt, BirthRules{3});
  }
  SECTION("boids: walls on z, a sphere obstacle, a point target and a steered boid") {
    Scenario s = volume(test::world(96.0f, 96.0f, 9), 64.0f);
    s.species.push_back(test::species("walled", 300, Topology::Bounded, 3.0f, 1.0f));
    s.species.push_back(test::species("torus", 300, Topology::Wrap, 3.0f, 1.0f));
    for (SpeciesParams& species : s.species) {
      species.edge_margin = 10.0f;
      species.edge_gain = 0.05f;
      species.obstacle_weight = 0.5f;
      species.target_weight = 0.02f;
      species.max_force = 0.3f;
    }
    s.species[1].target_pull = TargetPull::Linear;
    s.obstacles.push_back(Obstacle{{40.0f, 40.0f}, 12.0f, 30.0f});
    s.target = Target{{70.0f, 20.0f}, 50.0f};
    const FlockState start = isolated_state(s, kSpacing, 32);
    require_cpu_agreement(s, start, 3, 0.0f,
                          SteeredBoid{start.boids[5].id, {0.5f, -1.0f}, 3.0f});
  }
  REQUIRE(debug.error_count() == 0);
}

TEST_CASE("Crowded 3D flocks see what the CPU reference sees and agree to rounding") {
  gl_context();
  gl::DebugMessenger debug;
  // The sums are added in cell order here and in index order there.
  constexpr float kTolerance = kRoundingTolerance;
  SECTION("boids, metric: a torus and a walled species, a cone of view, across species") {
    Scenario s = volume(test::world(80.0f, 70.0f, 5), 60.0f);
    s.species.push_back(test::species("red", 1500, Topology::Wrap, 8.0f, 3.0f));
    s.species.push_back(test::species("blue", 1000, Topology::Bounded, 6.0f, 2.0f));
    s.species[0].fov_degrees = 240.0f;
    s.species[1].flocks_with = {"red", "blue"};
    require_cpu_agreement(s, random_volume_state(s, 41), 3, kTolerance);
  }
  SECTION("boids, topological") {
    Scenario s = volume(test::world(60.0f, 60.0f, 5), 60.0f);
    s.species.push_back(test::species("a", 2000, Topology::Wrap, 9.0f, 2.0f));
    s.species[0].neighbours = Neighbours::Topological;
    s.species[0].topological_k = 6;
    require_cpu_agreement(s, random_volume_state(s, 42), 3, kTolerance);
  }
  SECTION("vicsek and couzin, noiseless") {
    Scenario s = volume(test::world(60.0f, 60.0f, 5), 60.0f);
    s.species.push_back(test::species("v", 1200, Topology::Wrap, 6.0f, 2.0f));
    s.species.push_back(test::species("c", 1200, Topology::Wrap, 6.0f, 2.0f));
    s.species[0].rule = Rule::Vicsek;
    s.species[1].rule = Rule::Couzin;
    s.species[1].repulsion_radius = 1.0f;
    s.species[1].orientation_radius = 3.0f;
    s.species[1].max_turn_degrees = 40.0f;
    require_cpu_agreement(s, random_volume_state(s, 43), 3, kTolerance);
  }
  REQUIRE(debug.error_count() == 0);
}
