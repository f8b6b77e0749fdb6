// Topological neighbours (docs/model.md, "Topological neighbours"; docs/gpu.md, "Topological
// neighbours") on the GPU against the CPU reference: boids and Vicsek particles, dense (more
// candidates than k around every boid) and sparse (fewer), on the grid and the naive pass, one
// species and several, beside an ecosystem; ties broken by id on a lattice whose sums are exact;
// and the planted fault TopologicalKPlusOne (docs/harness.md, "Planted faults").
#include <cmath>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "murmur/flock/cpu_flock.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/flock/gpu/harness.hpp"
#include "murmur/flock/state.hpp"

using namespace murmur;
using murmur::test::gl_context;

namespace {

CompareOptions quick(std::uint32_t lockstep_steps, std::uint32_t free_steps,
                     NeighbourSearch search = NeighbourSearch::Grid) {
  CompareOptions o;
  o.lockstep_steps = lockstep_steps;
  o.free_steps = free_steps;
  o.search = search;
  return o;
}

CompareReport compare(const Scenario& scenario, const CompareOptions& o) {
  return run_comparison(scenario, seeded_start(scenario), o);
}

void require_agreement(const Scenario& scenario, const CompareOptions& o) {
  const CompareReport report = compare(scenario, o);
  INFO(report.table());
  REQUIRE(report.lockstep.boids > 0);
  REQUIRE(report.lockstep.skipped_ambiguous * 10 < report.lockstep.boids);
  REQUIRE(report.passed());
}

// `count` topological boids with k = 6 in a `side` x `side` torus, perception radius 3: at
// 1000 boids in 30 x 30 a boid sees 26 on average (dense: the k nearest are a choice), at 300
// in 60 x 60 2.3 (sparse: 98% see fewer than k and take them all).
Scenario starlings(std::uint32_t count, float side, float fov = 300.0f) {
  return parse_scenario(
      "[world]\nwidth = " + std::to_string(side) + "\nheight = " + std::to_string(side) +
          "\nseed = 9\n[[species]]\nname = \"starlings\"\nneighbours = \"topological\"\n"
          "topological_k = 6\ncount = " + std::to_string(count) +
          "\nperception_radius = 3\nseparation_radius = 1\nfov_degrees = " + std::to_string(fov) +
          "\nalign_weight = 0.1\ncohesion_weight = 0.02\nseparation_weight = 0.3\n"
          "max_force = 0.08\nmin_speed = 0.3\nmax_speed = 0.6\n",
      "starlings.toml");
}

// Vicsek particles at density 4 (side 20) or 0.25 (side 80), radius 1, k = 7.
Scenario particles(std::uint32_t count, float side) {
  return parse_scenario(
      "[world]\nwidth = " + std::to_string(side) + "\nheight = " + std::to_string(side) +
          "\nseed = 4\n[[species]]\nname = \"p\"\nrule = \"vicsek\"\nneighbours = "
          "\"topological\"\ntopological_k = 7\ncount = " + std::to_string(count) +
          "\nspeed = 0.03\nperception_radius = 1\nnoise = 0.4\n",
      "vicsek.toml");
}

}  // namespace

TEST_CASE("GPU topological boids agree with the CPU reference, dense and sparse, grid and naive") {
  gl_context();
  const Scenario dense = starlings(1000, 30.0f);
  const Scenario sparse = starlings(300, 60.0f, 360.0f);
  require_agreement(dense, quick(4, 60));
  require_agreement(sparse, quick(4, 60));
  require_agreement(dense, quick(2, 20, NeighbourSearch::Naive));
  require_agreement(sparse, quick(2, 20, NeighbourSearch::Naive));
}

TEST_CASE("GPU topological Vicsek particles agree with the CPU reference, dense and sparse") {
  gl_context();
  require_agreement(particles(1600, 20.0f), quick(4, 60));
  require_agreement(particles(1600, 80.0f), quick(4, 60));
  require_agreement(particles(1600, 20.0f), quick(2, 10, NeighbourSearch::Naive));
}

TEST_CASE("GPU topological and metric species share a world, one taking the other as neighbour") {
  gl_context();
  Scenario s = starlings(800, 30.0f);
  SpeciesParams metric = s.species[0];
  metric.name = "metric";
  metric.neighbours = Neighbours::Metric;
  metric.topology = Topology::Bounded;
  metric.count = 400;
  s.species.push_back(metric);
  s.species[0].flocks_with = {"starlings", "metric"};
  require_agreement(s, quick(4, 40));
}

TEST_CASE("GPU topological species beside an ecosystem: the ecosystem's passes and the k nearest") {
  gl_context();
  Scenario s = starlings(600, 30.0f);
  s.food = FoodParams{};
  s.food->cell_size = 5.0f;
  s.food->regrow_per_step = 0.05f;
  SpeciesParams grazer = test::species("grazer", 200, Topology::Wrap, 3.0f, 1.0f);
  grazer.grazes = true;
  grazer.energy_max = 10.0f;
  grazer.energy_initial = 5.0f;
  grazer.energy_per_step = 0.01f;
  grazer.energy_from_food = 1.0f;
  grazer.food_weight = 0.01f;
  SpeciesParams hunter = test::species("hunter", 30, Topology::Wrap, 3.0f, 1.0f);
  hunter.eats = {"grazer"};
  hunter.catch_radius = 1.0f;
  hunter.chase_weight = 0.02f;
  s.species.push_back(grazer);
  s.species.push_back(hunter);
  validate_scenario(s);
  require_agreement(s, quick(3, 20));
}

TEST_CASE("GPU ties at the k-th distance go to the smaller id, as on the CPU") {
  gl_context();
  // A square lattice spaced 1 on a 16 x 16 torus: each boid sees its 4 nearest at exactly
  // distance 1 (and 4 at sqrt 2). With k = 2 the two of the 4 with the smaller ids are taken,
  // and the boid flies at their mean velocity (align weight 1, no other term). The 4 fly in
  // four different directions, so a wrong pick is off by about 1, not by a rounding.
  Scenario s = parse_scenario(
      "[world]\nwidth = 16\nheight = 16\nseed = 1\n[[species]]\nname = \"grid\"\n"
      "neighbours = \"topological\"\ntopological_k = 2\ncount = 256\nperception_radius = 1.2\n"
      "separation_radius = 0\nalign_weight = 1\ncohesion_weight = 0\nseparation_weight = 0\n"
      "max_force = 10\nmin_speed = 0\nmax_speed = 2\n",
      "lattice.toml");
  FlockState state;
  const glm::vec2 headings[] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
  for (std::uint32_t i = 0; i < 256; ++i) {
    Boid b;
    b.pos = {float(i % 16) + 0.5f, float(i / 16) + 0.5f};
    b.vel = headings[((i * 2654435761u) >> 13) % 4];
    b.id = (i * 97u) % 256u;  // a permutation: ids in no order of the positions
    state.boids.push_back(b);
  }
  FlockState cpu = cpu_step(s, state);
  cpu.sort_by_id();
  for (const NeighbourSearch search : {NeighbourSearch::Grid, NeighbourSearch::Naive}) {
    GpuFlock gpu(s, state, search);
    gpu.step();
    const FlockState after = gpu.download();
    REQUIRE(after.boids.size() == cpu.boids.size());
    std::uint32_t wrong = 0;
    for (std::size_t i = 0; i < cpu.boids.size(); ++i) {
      REQUIRE(after.boids[i].id == cpu.boids[i].id);
      const glm::vec2 dv = after.boids[i].vel - cpu.boids[i].vel;
      if (std::hypot(dv.x, dv.y) > 1e-5f) ++wrong;
    }
    CHECK(wrong == 0);
    for (const GpuNeighbourCounts& c : gpu.download_neighbour_counts()) REQUIRE(c.visible == 2);
  }
}

TEST_CASE("Planted fault: a topological boid that takes k + 1 neighbours is caught") {
  gl_context();
  const Scenario dense = starlings(1000, 30.0f);
  CompareOptions o = quick(2, 0);
  REQUIRE(compare(dense, o).passed());
  o.fault = GpuFault::TopologicalKPlusOne;
  const CompareReport faulty = compare(dense, o);
  INFO(faulty.table());
  REQUIRE_FALSE(faulty.neighbours.passed());
  REQUIRE(faulty.neighbours.mismatched_boids * 2 > faulty.neighbours.boids);
  // Vicsek's sum over k + 1 is caught the same way, on the naive pass too.
  CompareOptions naive = quick(1, 0, NeighbourSearch::Naive);
  naive.fault = GpuFault::TopologicalKPlusOne;
  REQUIRE_FALSE(compare(particles(1600, 20.0f), naive).neighbours.passed());
  // A metric flock does not read k: the fault changes nothing there.
  Scenario metric = dense;
  metric.species[0].neighbours = Neighbours::Metric;
  REQUIRE(compare(metric, o).passed());
}
