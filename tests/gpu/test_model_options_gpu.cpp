// The origin presets' model options (docs/model.md: separation_kernel, velocity_factor,
// speed_limit, self_weight, walls, target_pull) on the GPU against the CPU reference, through the harness (neighbour sets,
// lockstep, free run), and a planted fault in the linear kernel that the harness must catch.
#include "gpu_test_support.hpp"
#include "murmur/flock/cpu_flock.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/flock/gpu/harness.hpp"
#include "murmur/flock/state.hpp"

using namespace murmur;
using murmur::test::gl_context;

namespace {

CompareOptions quick(std::uint32_t lockstep_steps, std::uint32_t free_steps) {
  CompareOptions o;
  o.lockstep_steps = lockstep_steps;
  o.free_steps = free_steps;
  return o;
}

void require_agreement(const Scenario& scenario, const CompareOptions& o) {
  const FlockState start = seeded_start(scenario);
  const CompareReport report = run_comparison(scenario, start, o);
  INFO(report.table());
  REQUIRE(report.neighbours.boids == o.lockstep_steps * start.boids.size());
  REQUIRE(report.lockstep.boids > 0);
  REQUIRE(report.passed());
}

// A torus flock whose separation is origin 000's linear kernel, with a force limit that does not
// clip it, so the lockstep sees the kernel's every term.
Scenario linear_separation(std::uint32_t count) {
  Scenario s = test::world(200.0f, 200.0f, 17);
  s.species.push_back(test::species("red", count, Topology::Wrap, 12.0f, 6.0f));
  s.species[0].separation_kernel = SeparationKernel::Linear;
  s.species[0].separation_weight = 0.06f;
  s.species[0].max_force = 1.0f;
  return s;
}

}  // namespace

TEST_CASE("GPU linear separation kernel agrees with the CPU reference") {
  gl_context();
  require_agreement(linear_separation(3000), quick(3, 40));
}

TEST_CASE("GPU velocity factor (1.02 and 0.9) agrees with the CPU reference") {
  gl_context();
  for (float factor : {1.02f, 0.9f}) {
    Scenario s = test::world(200.0f, 200.0f, 3);
    s.species.push_back(test::species("a", 2500, Topology::Wrap, 10.0f, 4.0f));
    s.species[0].velocity_factor = factor;
    INFO("velocity_factor " << factor);
    require_agreement(s, quick(3, 40));
  }
}

TEST_CASE("GPU push walls agree with the CPU reference, boids held on the walls included") {
  gl_context();
  Scenario s = test::world(160.0f, 120.0f, 5);
  s.species.push_back(test::species("blue", 2000, Topology::Bounded, 9.0f, 3.0f));
  s.species[0].walls = Walls::Push;
  s.species[0].edge_margin = 8.0f;
  s.species[0].edge_gain = 0.2f;
  s.species[0].max_force = 1.0f;
  FlockState start = seeded_start(s);
  // A tenth of the flock on or just inside a wall, heading out: the push and the clamp act.
  for (std::size_t i = 0; i < start.boids.size(); i += 10) {
    Boid& b = start.boids[i];
    b.pos.x = (i / 10) % 2 == 0 ? 0.0f : 0.5f;
    b.vel = {-1.5f, b.vel.y};
  }
  const CompareReport report = run_comparison(s, start, quick(3, 40));
  INFO(report.table());
  REQUIRE(report.passed());
}

TEST_CASE("GPU linear target pull agrees with the CPU reference, across the seam") {
  gl_context();
  for (Topology topology : {Topology::Wrap, Topology::Bounded}) {
    Scenario s = test::world(200.0f, 200.0f, 9);
    s.species.push_back(test::species("a", 2000, topology, 10.0f, 4.0f));
    s.species[0].target_pull = TargetPull::Linear;
    s.species[0].target_weight = 0.002f;
    s.target = Target{{190.0f, 20.0f}};
    INFO((topology == Topology::Wrap ? "wrap" : "bounded"));
    require_agreement(s, quick(3, 40));
  }
}

TEST_CASE("GPU inverse speed limit and self weight agree with the CPU reference") {
  gl_context();
  Scenario s = test::world(200.0f, 200.0f, 13);
  s.species.push_back(test::species("a", 2500, Topology::Wrap, 10.0f, 4.0f));
  // A velocity factor that keeps pushing boids past the limit, so the inverse limit acts.
  s.species[0].velocity_factor = 1.3f;
  s.species[0].speed_limit = SpeedLimit::Inverse;
  s.species[0].self_weight = 2;
  require_agreement(s, quick(3, 40));
}

TEST_CASE("Planted fault: steering that leaves the boid out of its means is caught") {
  gl_context();
  Scenario s = test::world(200.0f, 200.0f, 13);
  s.species.push_back(test::species("a", 2000, Topology::Wrap, 10.0f, 4.0f));
  s.species[0].self_weight = 2;
  CompareOptions o = quick(1, 0);
  const CompareReport clean = run_comparison(s, seeded_start(s), o);
  INFO(clean.table());
  REQUIRE(clean.passed());
  o.fault = GpuFault::SelfWeightIgnored;
  const CompareReport faulty = run_comparison(s, seeded_start(s), o);
  INFO(faulty.table());
  REQUIRE(faulty.neighbours.passed());
  REQUIRE_FALSE(faulty.lockstep.passed());
}

TEST_CASE("GPU agrees with every model option at once: origin 000's two populations") {
  gl_context();
  Scenario s = test::world(398.0f, 398.0f, 251);
  s.species.push_back(test::species("red", 151, Topology::Wrap, 25.0f, 12.0f));
  s.species.push_back(test::species("blue", 100, Topology::Bounded, 25.0f, 12.0f));
  for (SpeciesParams& p : s.species) {
    p.flocks_with = {"red", "blue"};
    p.separation_kernel = SeparationKernel::Linear;
    p.velocity_factor = 1.02f;
    p.speed_limit = SpeedLimit::Inverse;
    p.self_weight = 2;
    p.target_pull = TargetPull::Linear;
    p.target_weight = 0.0003f;
    p.max_force = 2.0f;
  }
  s.species[1].walls = Walls::Push;
  s.species[1].edge_margin = 8.0f;
  s.species[1].edge_gain = 1.0f;
  s.target = Target{{300.0f, 100.0f}};
  require_agreement(s, quick(5, 100));
}

TEST_CASE("Planted fault: a linear kernel that adds d/|d| instead of d is caught") {
  gl_context();
  const Scenario s = linear_separation(2000);
  CompareOptions o = quick(1, 0);
  // Without the fault, the same check passes: the failure below is the fault's doing.
  const CompareReport clean = run_comparison(s, seeded_start(s), o);
  INFO(clean.table());
  REQUIRE(clean.passed());
  o.fault = GpuFault::LinearKernelUnit;
  const CompareReport faulty = run_comparison(s, seeded_start(s), o);
  INFO(faulty.table());
  // The neighbour sets are right; only the lockstep's velocities can see this fault.
  REQUIRE(faulty.neighbours.passed());
  REQUIRE_FALSE(faulty.lockstep.passed());
  REQUIRE_FALSE(faulty.passed());
}
