// The rules of motion besides boids (docs/model.md, "Rules of motion") on the GPU against the
// CPU reference, through the harness: Vicsek (both updates, both noises, a limited field of
// view, beside a boids species), Couzin (its zones, blind angle and bounded turn), and the
// faults the harness must catch (docs/harness.md, "Planted faults").
#include <string>

#include "gpu_test_support.hpp"
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

CompareReport compare(const Scenario& scenario, const CompareOptions& o) {
  return run_comparison(scenario, seeded_start(scenario), o);
}

void require_agreement(const Scenario& scenario, const CompareOptions& o) {
  const CompareReport report = compare(scenario, o);
  INFO(report.table());
  REQUIRE(report.lockstep.boids > 0);
  // Most boids are compared, not skipped as ill-conditioned.
  REQUIRE(report.lockstep.skipped_ambiguous * 10 < report.lockstep.boids);
  REQUIRE(report.passed());
}

// Vicsek et al.'s setting: density 4, radius 1, v0 = 0.03.
Scenario vicsek(std::uint32_t count, float side, float noise) {
  return parse_scenario("[world]\nwidth = " + std::to_string(side) + "\nheight = " +
                            std::to_string(side) +
                            "\nseed = 11\n[[species]]\nname = \"p\"\nrule = \"vicsek\"\ncount = " +
                            std::to_string(count) +
                            "\nspeed = 0.03\nperception_radius = 1\nnoise = " +
                            std::to_string(noise) + "\n",
                        "vicsek.toml");
}

// Couzin et al.'s fish in 2D: zones 1, 3 and 14 body lengths, a 270 degree view, 4 degrees of
// turn a step and Gaussian noise.
Scenario couzin(std::uint32_t count, float side) {
  return parse_scenario("[world]\nwidth = " + std::to_string(side) + "\nheight = " +
                            std::to_string(side) +
                            "\nseed = 5\n[[species]]\nname = \"fish\"\nrule = \"couzin\"\ncount = " +
                            std::to_string(count) +
                            "\nspeed = 0.3\nperception_radius = 14\nrepulsion_radius = 1\n"
                            "orientation_radius = 3\nmax_turn_degrees = 4\nfov_degrees = 270\n"
                            "noise = 0.05\nnoise_distribution = \"gaussian\"\n",
                        "couzin.toml");
}

}  // namespace

TEST_CASE("GPU Vicsek agrees with the CPU reference, with the paper's update and the forward one") {
  gl_context();
  Scenario s = vicsek(1600, 20.0f, 2.0f);
  require_agreement(s, quick(4, 60));
  s.species[0].vicsek_update = VicsekUpdate::Forward;
  require_agreement(s, quick(4, 60));
}

TEST_CASE("GPU Vicsek agrees with Gaussian noise, a limited view and a boids species beside it") {
  gl_context();
  Scenario s = vicsek(1200, 20.0f, 0.6f);
  s.species[0].noise_distribution = NoiseDistribution::Gaussian;
  s.species[0].fov_degrees = 200.0f;
  SpeciesParams birds = test::species("birds", 300, Topology::Wrap, 2.0f, 0.5f);
  birds.max_speed = 0.1f;
  birds.min_speed = 0.02f;
  birds.max_force = 0.01f;
  s.species.push_back(birds);
  s.species[0].flocks_with = {"p", "birds"};
  require_agreement(s, quick(4, 60));
}

TEST_CASE("GPU Couzin agrees with the CPU reference: zones, blind angle, bounded turn") {
  gl_context();
  Scenario s = couzin(400, 40.0f);
  require_agreement(s, quick(5, 100));
}

TEST_CASE("Planted fault: a noise window twice as wide is caught by lockstep") {
  gl_context();
  const Scenario s = vicsek(800, 14.0f, 1.0f);
  CompareOptions o = quick(2, 0);
  REQUIRE(compare(s, o).passed());
  o.fault = GpuFault::NoiseWindowDoubled;
  const CompareReport faulty = compare(s, o);
  INFO(faulty.table());
  REQUIRE(faulty.neighbours.passed());
  REQUIRE_FALSE(faulty.lockstep.passed());
}

TEST_CASE("Planted fault: a Vicsek particle that leaves itself out is caught by lockstep") {
  gl_context();
  const Scenario s = vicsek(800, 14.0f, 0.5f);
  CompareOptions o = quick(2, 0);
  REQUIRE(compare(s, o).passed());
  o.fault = GpuFault::VicsekWithoutSelf;
  const CompareReport faulty = compare(s, o);
  INFO(faulty.table());
  REQUIRE(faulty.neighbours.passed());
  REQUIRE_FALSE(faulty.lockstep.passed());
}

TEST_CASE("Planted fault: Couzin repulsion from the blind angle is caught") {
  gl_context();
  // Crowded, so that many fish have a neighbour behind them within the repulsion zone.
  const Scenario s = couzin(900, 30.0f);
  CompareOptions o = quick(2, 0);
  REQUIRE(compare(s, o).passed());
  o.fault = GpuFault::BlindRepulsion;
  const CompareReport faulty = compare(s, o);
  INFO(faulty.table());
  REQUIRE_FALSE(faulty.passed());
}
