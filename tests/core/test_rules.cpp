// The rules of motion besides boids (docs/model.md, "Rules of motion") on the CPU reference:
// murmur's own sin, cos and log against the library's, the noise's laws, hand-built Vicsek and
// Couzin neighbourhoods with answers worked out here, the checks of the keys, and one seed
// giving one history.
#include <cmath>
#include <cstring>
#include <numbers>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <glm/geometric.hpp>

#include "murmur/base/errors.hpp"
#include "murmur/flock/cpu_flock.hpp"
#include "murmur/flock/model.hpp"
#include "murmur/flock/state.hpp"

using namespace murmur;
using Catch::Matchers::WithinAbs;

namespace {

constexpr double kPi = std::numbers::pi;

Scenario one_species(const std::string& species_keys, float side = 30.0f) {
  return parse_scenario("[world]\nwidth = " + std::to_string(side) + "\nheight = " +
                            std::to_string(side) + "\nseed = 3\n[[species]]\nname = \"p\"\n" +
                            species_keys,
                        "rules.toml");
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

double angle_of(glm::vec2 v) { return std::atan2(double(v.y), double(v.x)); }

}  // namespace

TEST_CASE("murmur's sin, cos and log agree with the library's to float precision") {
  for (int k = -4000; k <= 4000; ++k) {
    const float angle = float(k) * 0.0025f;  // [-10, 10] radians
    const SinCos sc = sin_cos(angle);
    INFO("angle " << angle);
    REQUIRE_THAT(sc.sin, WithinAbs(std::sin(double(angle)), 4e-7));
    REQUIRE_THAT(sc.cos, WithinAbs(std::cos(double(angle)), 4e-7));
  }
  for (float x : {1.0f, 0.5f, 0.70710677f, 0.9999999f, 1e-7f, 5.9604645e-8f, 0.123f, 0.999f}) {
    INFO("x " << x);
    REQUIRE_THAT(log_of(x), WithinAbs(std::log(double(x)), 4e-7 * std::max(1.0, -std::log(double(x)))));
  }
}

TEST_CASE("Uniform noise fills [-eta/2, eta/2] and Gaussian noise has standard deviation eta") {
  const float eta = 2.0f;
  Scenario s = one_species("rule = \"vicsek\"\nnoise = 2\n");
  SpeciesModel m = species_models(s)[0];
  double low = 1e9, high = -1e9, sum = 0;
  constexpr int kDraws = 20000;
  for (int i = 0; i < kDraws; ++i) {
    const float a = noise_angle(m, std::uint32_t(i), 7, 3);
    low = std::min(low, double(a));
    high = std::max(high, double(a));
    sum += a;
  }
  REQUIRE(low >= -eta / 2);
  REQUIRE(high <= eta / 2);
  REQUIRE(low < -0.99 * eta / 2);
  REQUIRE(high > 0.99 * eta / 2);
  REQUIRE(std::abs(sum / kDraws) < 0.02);

  m.noise_distribution = NoiseDistribution::Gaussian;
  m.noise = 0.3f;
  double sum_sq = 0;
  sum = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double a = noise_angle(m, 5, 7, std::uint64_t(i));
    sum += a;
    sum_sq += a * a;
  }
  const double mean = sum / kDraws;
  REQUIRE(std::abs(mean) < 0.01);
  REQUIRE_THAT(std::sqrt(sum_sq / kDraws - mean * mean), WithinAbs(0.3, 0.01));
  // No noise draws nothing: the angle is 0 whatever the seed.
  m.noise = 0.0f;
  REQUIRE(noise_angle(m, 1, 99, 42) == 0.0f);
}

TEST_CASE("Vicsek without noise: the new heading is the mean of its own and its neighbours'") {
  Scenario s = one_species("rule = \"vicsek\"\ncount = 3\nspeed = 0.5\nperception_radius = 2\n");
  // Particle 0 heads east, particle 1 (within reach) north: 0 turns north-east. Particle 2 is
  // out of reach of both and keeps heading west.
  const FlockState before = state_of({boid(0, {5, 5}, {0.5f, 0}), boid(1, {5.5f, 5}, {0, 0.5f}),
                                      boid(2, {15, 15}, {-0.5f, 0})});
  const FlockState after = cpu_step(s, before);
  REQUIRE_THAT(angle_of(after.boids[0].vel), WithinAbs(kPi / 4, 1e-6));
  REQUIRE_THAT(angle_of(after.boids[1].vel), WithinAbs(kPi / 4, 1e-6));
  REQUIRE_THAT(angle_of(after.boids[2].vel), WithinAbs(kPi, 1e-6));
  REQUIRE_THAT(glm::length(after.boids[0].vel), WithinAbs(0.5, 1e-6));
  // The paper's update moves by the velocity of step t, east; the forward one north-east.
  REQUIRE_THAT(after.boids[0].pos.x, WithinAbs(5.5, 1e-6));
  REQUIRE_THAT(after.boids[0].pos.y, WithinAbs(5.0, 1e-6));
  s.species[0].vicsek_update = VicsekUpdate::Forward;
  const FlockState forward = cpu_step(s, before);
  REQUIRE_THAT(forward.boids[0].pos.x, WithinAbs(5.0 + 0.5 * std::cos(kPi / 4), 1e-6));
  REQUIRE_THAT(forward.boids[0].pos.y, WithinAbs(5.0 + 0.5 * std::sin(kPi / 4), 1e-6));
}

TEST_CASE("Vicsek: the particle counts itself, and keeps its heading when the sum vanishes") {
  Scenario s = one_species("rule = \"vicsek\"\ncount = 3\nspeed = 0.5\nperception_radius = 2\n");
  // Two neighbours heading north: with itself (east) the sum is (1, 2), not (0, 2).
  const FlockState three = state_of({boid(0, {5, 5}, {0.5f, 0}), boid(1, {5.5f, 5}, {0, 0.5f}),
                                     boid(2, {5, 5.5f}, {0, 0.5f})});
  REQUIRE_THAT(angle_of(cpu_step(s, three).boids[0].vel), WithinAbs(std::atan2(2.0, 1.0), 1e-6));
  // Head to head: east plus west is exactly 0, so each keeps its own heading.
  s.species[0].count = 2;
  const FlockState pair = state_of({boid(0, {5, 5}, {0.5f, 0}), boid(1, {5.5f, 5}, {-0.5f, 0})});
  const FlockState after = cpu_step(s, pair);
  REQUIRE(after.boids[0].vel == glm::vec2(0.5f, 0.0f));
  REQUIRE(after.boids[1].vel == glm::vec2(-0.5f, 0.0f));
}

TEST_CASE("Couzin: repulsion first, never from the blind angle, and a bounded turn") {
  Scenario s = one_species(
      "rule = \"couzin\"\ncount = 3\nspeed = 0.2\nperception_radius = 6\nrepulsion_radius = 1\n"
      "orientation_radius = 3\nmax_turn_degrees = 10\nfov_degrees = 270\n");
  // 0 heads east; 1 is 0.5 ahead of it (in repulsion), 2 in its orientation zone heading north.
  // Repulsion wins: 0 wants to head west, and turns by exactly 10 degrees, to the left (its
  // desired direction is straight behind: the side is decided as >= 0).
  FlockState before = state_of({boid(0, {5, 5}, {0.2f, 0}), boid(1, {5.5f, 5}, {0.2f, 0}),
                                boid(2, {5, 7}, {0, 0.2f})});
  FlockState after = cpu_step(s, before);
  REQUIRE_THAT(angle_of(after.boids[0].vel), WithinAbs(10.0 * kPi / 180.0, 1e-5));
  // Behind 0 (in its 90 degree blind angle) a close boid repels nothing: 0 orients to 2
  // instead, north, bounded to 10 degrees.
  before.boids[1].pos = {4.5f, 5.0f};
  after = cpu_step(s, before);
  REQUIRE_THAT(angle_of(after.boids[0].vel), WithinAbs(10.0 * kPi / 180.0, 1e-5));
  // Attraction alone: 2 moved beyond the orientation zone, ahead and to the right at 30
  // degrees; a 45 degree bound lets 0 turn all the way towards it.
  s.species[0].max_turn_degrees = 45.0f;
  before = state_of({boid(0, {5, 5}, {0.2f, 0}),
                     boid(2, {5 + 4 * std::cos(float(kPi / 6)), 5 - 4 * std::sin(float(kPi / 6))},
                          {0, 0.2f})});
  s.species[0].count = 2;
  after = cpu_step(s, before);
  REQUIRE_THAT(angle_of(after.boids[0].vel), WithinAbs(-kPi / 6, 1e-5));
  REQUIRE_THAT(glm::length(after.boids[0].vel), WithinAbs(0.2, 1e-6));
}

TEST_CASE("A vicsek or couzin species is checked by its own keys, and refuses what it lacks") {
  // A boids constraint does not apply: max_speed 3 is more than half this 5-unit world.
  REQUIRE_NOTHROW(one_species("rule = \"vicsek\"\nspeed = 0.03\nperception_radius = 1\n", 5.0f));
  const auto message = [](const std::string& keys, const std::string& extra = "") {
    try {
      parse_scenario("[world]\nwidth = 30\nheight = 30\n" + extra + "[[species]]\nname = \"p\"\n" + keys,
                     "bad.toml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string walls = message("rule = \"vicsek\"\ntopology = \"bounded\"\n");
  CHECK(walls.find("topology") != std::string::npos);
  CHECK(walls.find("rule = \"vicsek\"") != std::string::npos);
  const std::string zones =
      message("rule = \"couzin\"\nrepulsion_radius = 4\norientation_radius = 3\n");
  CHECK(zones.find("repulsion_radius = 4") != std::string::npos);
  CHECK(zones.find("orientation_radius") != std::string::npos);
  const std::string obstacle =
      message("rule = \"couzin\"\n", "[[obstacle]]\nx = 5\ny = 5\nradius = 1\n");
  CHECK(obstacle.find("obstacle") != std::string::npos);
  CHECK(obstacle.find("rule = \"couzin\"") != std::string::npos);
  CHECK(message("rule = \"vicsek\"\nnoise = 7\n").find("noise = 7") != std::string::npos);
  CHECK(message("rule = \"vicsek\"\nspeed = 0\n").find("speed = 0") != std::string::npos);
}

TEST_CASE("Vicsek and Couzin runs: one seed gives one history, another seed another") {
  Scenario s = one_species(
      "rule = \"couzin\"\ncount = 300\nspeed = 0.3\nperception_radius = 6\nnoise = 0.2\n"
      "noise_distribution = \"gaussian\"\n");
  const auto run = [&](std::uint64_t seed) {
    s.world.seed = seed;
    FlockState state = seeded_start(s);
    for (int k = 0; k < 30; ++k) state = cpu_step(s, state);
    return state;
  };
  const FlockState a = run(4), b = run(4), c = run(5);
  REQUIRE(a.boids.size() == b.boids.size());
  REQUIRE(std::memcmp(a.boids.data(), b.boids.data(), a.boids.size() * sizeof(Boid)) == 0);
  REQUIRE(std::memcmp(a.boids.data(), c.boids.data(), a.boids.size() * sizeof(Boid)) != 0);
  // Every velocity is v0 long after a step.
  for (const Boid& boid : a.boids) REQUIRE_THAT(glm::length(boid.vel), WithinAbs(0.3, 1e-6));
}
