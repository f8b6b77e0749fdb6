// The GPU's live statistics (FlockReadback::summary_now) against compute_stats on the same
// state: polarization, milling and the collective state in walls, on a torus and with both
// kinds of species (docs/model.md, "Flock statistics").
#include <cmath>
#include <random>

#include "gpu_test_support.hpp"
#include "murmur/flock/gpu/flock_readback.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/flock/state.hpp"
#include "murmur/flock/stats.hpp"

using namespace murmur;
using murmur::test::gl_context;

TEST_CASE("The GPU summary matches the CPU statistics") {
  gl_context();
  // Walled world: milling is meaningful. A ring of boids circling the centre mills (~1).
  Scenario s = test::world(200.0f, 200.0f, 2);
  s.species.push_back(test::species("ring", 600, Topology::Bounded, 5.0f, 2.0f));
  s.species.push_back(test::species("loose", 400, Topology::Bounded, 5.0f, 2.0f));
  FlockState state = seeded_start(s);
  for (std::size_t i = 0; i < 600; ++i) {
    const float angle = 6.2831853f * float(i) / 600.0f;
    state.boids[i].pos = glm::vec2(100.0f) + 60.0f * glm::vec2(std::cos(angle), std::sin(angle));
    state.boids[i].vel = 1.5f * glm::vec2(-std::sin(angle), std::cos(angle));
  }
  GpuFlock flock(s, state);
  FlockReadback readback;
  const FlockSummary gpu = readback.summary_now(flock);
  const FlockStats cpu = compute_stats(s, state);
  REQUIRE_THAT(gpu.polarization, Catch::Matchers::WithinAbs(cpu.polarization, 1e-5));
  REQUIRE(gpu.milling.has_value());
  REQUIRE_THAT(*gpu.milling, Catch::Matchers::WithinAbs(*cpu.milling, 1e-5));
  REQUIRE(*gpu.milling > 0.5);  // the ring dominates
  REQUIRE(gpu.population == std::vector<std::uint32_t>{600, 400});
  // A torus with a flock spread all over it has no centroid to mill about, as on the CPU.
  Scenario t = test::world(100.0f, 100.0f, 7);
  t.species.push_back(test::species("a", 300, Topology::Wrap, 10.0f, 4.0f));
  GpuFlock wrapped(t, seeded_start(t));
  const FlockSummary w = readback.summary_now(wrapped);
  REQUIRE_FALSE(w.milling.has_value());
  REQUIRE_THAT(w.polarization,
               Catch::Matchers::WithinAbs(compute_stats(t, seeded_start(t)).polarization, 1e-5));
}

TEST_CASE("The GPU summary's milling and state on a torus match the CPU statistics") {
  gl_context();
  // A 200 x 160 torus: a ring of 400 boids of radius 30 circling the corner (0, 0), across both
  // seams, and 200 boids of a second species up to 20 from the corner on the positive side, on
  // random headings. Every boid is within a quarter side (50, 40) of the circular centroid.
  const glm::vec2 world{200.0f, 160.0f};
  Scenario s = test::world(world.x, world.y, 2);
  s.species.push_back(test::species("ring", 400, Topology::Wrap, 5.0f, 2.0f));
  s.species.push_back(test::species("loose", 200, Topology::Wrap, 5.0f, 2.0f));
  FlockState state = seeded_start(s);
  const auto wrapped = [&](glm::vec2 p) {
    return glm::vec2(p.x < 0.0f ? p.x + world.x : p.x, p.y < 0.0f ? p.y + world.y : p.y);
  };
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> offset(2.0f, 20.0f), turn(0.0f, 6.2831853f);
  for (std::size_t i = 0; i < state.boids.size(); ++i) {
    Boid& b = state.boids[i];
    if (b.species == 0) {
      const float angle = 6.2831853f * float(i) / 400.0f;
      b.pos = wrapped(30.0f * glm::vec2(std::cos(angle), std::sin(angle)));
      b.vel = 1.5f * glm::vec2(-std::sin(angle), std::cos(angle));
    } else {
      b.pos = {offset(rng), offset(rng)};
      const float heading = turn(rng);
      b.vel = glm::vec2(std::cos(heading), std::sin(heading));
    }
  }
  FlockReadback readback;
  const auto require_agreement_with_cpu = [&](const Scenario& scenario, const FlockState& start) {
    GpuFlock flock(scenario, start);
    const FlockSummary gpu = readback.summary_now(flock);
    const FlockStats cpu = compute_stats(scenario, start);
    REQUIRE_THAT(gpu.polarization, Catch::Matchers::WithinAbs(cpu.polarization, 1e-5));
    REQUIRE(gpu.milling.has_value() == cpu.milling.has_value());
    if (cpu.milling) REQUIRE_THAT(*gpu.milling, Catch::Matchers::WithinAbs(*cpu.milling, 1e-5));
    REQUIRE(gpu.state == cpu.state);
    return cpu;
  };

  SECTION("every species wraps") {
    const FlockStats cpu = require_agreement_with_cpu(s, state);
    REQUIRE(cpu.milling.has_value());
    REQUIRE(*cpu.milling > 0.5);  // the ring dominates
  }
  SECTION("the loose species bounded: near the centroid it counts, across the seam it does not") {
    Scenario mixed = s;
    mixed.species[1].topology = Topology::Bounded;
    REQUIRE(require_agreement_with_cpu(mixed, state).milling.has_value());
    FlockState across = state;
    across.boids.back().pos = {world.x - 1.0f, 5.0f};  // the whole width away, seen from walls
    REQUIRE_FALSE(require_agreement_with_cpu(mixed, across).milling.has_value());
  }
  SECTION("a flock spread over the torus has neither") {
    const FlockState spread = seeded_start(s);
    REQUIRE_FALSE(require_agreement_with_cpu(s, spread).milling.has_value());
  }
}
