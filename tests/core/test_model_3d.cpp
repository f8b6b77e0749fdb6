// The model in a volume (docs/model.md, "Three dimensions") on the CPU reference: a flock
// confined to a plane steps as the 2D flock does, bit for bit; the k-d tree's step equals the
// brute-force step in 3D; the field of view is a cone; obstacles are spheres; the 3D noise
// follows its laws (the cap's cosine uniform, a Gaussian angle's mean, the axis isotropic);
// the bounded turn stays in the plane of the two directions.
#include <cmath>
#include <cstring>
#include <numbers>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <glm/geometric.hpp>

#include "murmur/base/random.hpp"
#include "murmur/flock/cpu_flock.hpp"
#include "murmur/flock/model.hpp"
#include "murmur/flock/state.hpp"

using namespace murmur;
using Catch::Matchers::WithinAbs;

namespace {

constexpr double kPi = std::numbers::pi;

// A scenario of one species in a world of side `side`, in 2D or (depth `side`) in 3D.
Scenario one_species(const std::string& species_keys, bool three_d, float side = 40.0f) {
  std::string world = "[world]\nwidth = " + std::to_string(side) +
                      "\nheight = " + std::to_string(side) + "\nseed = 5\n";
  if (three_d) world += "dimensions = 3\ndepth = " + std::to_string(side) + "\n";
  return parse_scenario(world + "[[species]]\nname = \"p\"\n" + species_keys, "model3d.toml");
}

// N boids in [0, side)^3 with velocities of up to max_speed on each axis, from Philox draws
// (so that every test's flock is fixed and none is tuned to its answer).
FlockState random_flock(std::uint32_t n, float side, float max_speed, bool flat) {
  FlockState state;
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto draw = [&](std::uint32_t k) { return random_uniform01({77, i, 0, k}); };
    Boid b;
    b.id = i;
    b.pos = {side * draw(0), side * draw(1)};
    b.vel = {max_speed * (2.0f * draw(3) - 1.0f), max_speed * (2.0f * draw(4) - 1.0f)};
    b.z = flat ? 0.5f * side : side * draw(2);
    b.vz = flat ? 0.0f : max_speed * (2.0f * draw(5) - 1.0f);
    state.boids.push_back(b);
  }
  return state;
}

void require_same_bits(const FlockState& a, const FlockState& b) {
  REQUIRE(a.boids.size() == b.boids.size());
  for (std::size_t i = 0; i < a.boids.size(); ++i) {
    INFO("boid " << i);
    const Boid& p = a.boids[i];
    const Boid& q = b.boids[i];
    REQUIRE(p.id == q.id);
    REQUIRE(std::memcmp(&p.pos, &q.pos, sizeof p.pos) == 0);
    REQUIRE(std::memcmp(&p.vel, &q.vel, sizeof p.vel) == 0);
    REQUIRE(std::memcmp(&p.z, &q.z, sizeof p.z) == 0);
    REQUIRE(std::memcmp(&p.vz, &q.vz, sizeof p.vz) == 0);
  }
}

const std::string kBoidsKeys =
    "count = 1\nperception_radius = 6\nseparation_radius = 2\nmax_speed = 1.5\n"
    "max_force = 0.2\nfov_degrees = 270\n";

}  // namespace

TEST_CASE("A 3D flock in a plane steps as the 2D flock, bit for bit") {
  for (const std::string topology : {"wrap", "bounded"}) {
    for (const std::string neighbours : {"metric", "topological"}) {
      INFO(topology << ", " << neighbours);
      const std::string keys = kBoidsKeys + "topology = \"" + topology + "\"\nneighbours = \"" +
                               neighbours + "\"\n";
      const Scenario plane = one_species(keys, false);
      const Scenario volume = one_species(keys, true);
      FlockState flat = random_flock(300, 40.0f, 1.5f, true);
      FlockState in_volume = flat;
      for (Boid& b : flat.boids) b.z = b.vz = 0.0f;
      for (int step = 0; step < 20; ++step) {
        flat = cpu_step(plane, flat);
        in_volume = cpu_step(volume, in_volume);
      }
      for (std::size_t i = 0; i < flat.boids.size(); ++i) {
        INFO("boid " << i);
        const Boid& p = flat.boids[i];
        const Boid& q = in_volume.boids[i];
        REQUIRE(std::memcmp(&p.pos, &q.pos, sizeof p.pos) == 0);
        REQUIRE(std::memcmp(&p.vel, &q.vel, sizeof p.vel) == 0);
        REQUIRE(q.z == 20.0f);
        REQUIRE(q.vz == 0.0f);
      }
    }
  }
}

TEST_CASE("In 3D the k-d tree's step equals the brute-force step, for every rule and topology") {
  const std::vector<std::string> rules = {
      kBoidsKeys,
      "count = 1\nrule = \"vicsek\"\nperception_radius = 5\nspeed = 0.5\nnoise = 1.0\n",
      "count = 1\nrule = \"couzin\"\nperception_radius = 9\nrepulsion_radius = 1\n"
      "orientation_radius = 4\nspeed = 0.5\nnoise = 0.1\nnoise_distribution = \"gaussian\"\n"
      "max_turn_degrees = 20\nfov_degrees = 270\n"};
  for (const std::string& rule : rules) {
    // Vicsek's and Couzin's rules live on a torus; boids may be walled in.
    const bool walls_allowed = rule == kBoidsKeys;
    for (const std::string topology : {"wrap", "bounded"}) {
      if (topology == "bounded" && !walls_allowed) continue;
      for (const std::string neighbours : {"metric", "topological"}) {
        // Couzin's zones are metric.
        if (neighbours == "topological" && rule.find("couzin") != std::string::npos) continue;
        INFO(rule << topology << ", " << neighbours);
        const Scenario s = one_species(rule + "topology = \"" + topology +
                                           "\"\nneighbours = \"" + neighbours + "\"\n",
                                       true, 30.0f);
        FlockState tree = random_flock(400, 30.0f, 0.5f, false);
        FlockState brute = tree;
        for (int step = 0; step < 5; ++step) {
          tree = cpu_step(s, tree);
          brute = cpu_step_brute_force(s, brute);
          tree.step = brute.step = step + 1u;
        }
        require_same_bits(tree, brute);
        // Something moved along z: the third axis is stepped, not carried.
        const FlockState start = random_flock(400, 30.0f, 0.5f, false);
        std::size_t moved_in_z = 0;
        for (std::size_t i = 0; i < start.boids.size(); ++i) {
          if (tree.boids[i].z != start.boids[i].z) ++moved_in_z;
        }
        REQUIRE(moved_in_z > 300);
      }
    }
  }
}

TEST_CASE("In 3D a wrap neighbour across the z seam is seen, a walled one is not") {
  for (const bool wrap : {true, false}) {
    const Scenario s = one_species(
        "count = 1\nperception_radius = 3\nseparation_radius = 1\nmin_speed = 0\n"
        "max_speed = 1\ntopology = \"" + std::string(wrap ? "wrap" : "bounded") + "\"\n",
        true, 30.0f);
    FlockState state;
    Boid a;
    a.id = 0;
    a.pos = {10.0f, 10.0f};
    a.z = 0.5f;
    a.vel = {0.5f, 0.0f};
    Boid b = a;
    b.id = 1;
    b.z = 29.5f;  // 1 away across the seam, 29 away through the box
    b.vel = {0.0f, 0.0f};
    b.vz = 0.5f;
    state.boids = {a, b};
    CpuStepTrace trace;
    cpu_step(s, state, &trace);
    INFO((wrap ? "wrap" : "bounded"));
    REQUIRE(trace.sums[0].flock == (wrap ? 1u : 0u));
  }
}

TEST_CASE("In 3D the field of view is a cone about the heading") {
  const Scenario s = one_species(kBoidsKeys, true);
  SpeciesModel m = species_models(s)[0];  // fov 270: a half-angle of 135 degrees
  const glm::vec3 heading{0.0f, 0.0f, 1.0f};
  for (const double degrees : {0.0, 60.0, 120.0, 134.0, 136.0, 150.0, 180.0}) {
    for (const double around : {0.0, 1.0, 2.5, 4.0}) {
      const double a = degrees * kPi / 180.0;
      // A neighbour 3 away at `degrees` from +z, towards the azimuth `around`.
      const glm::vec3 d{float(3.0 * std::sin(a) * std::cos(around)),
                        float(3.0 * std::sin(a) * std::sin(around)), float(3.0 * std::cos(a))};
      INFO(degrees << " degrees, azimuth " << around);
      REQUIRE(in_view(m, d, heading) == (degrees < 135.0));
    }
  }
  // Out of the radius, never.
  REQUIRE_FALSE(in_view(m, glm::vec3{0.0f, 0.0f, 6.5f}, heading));
}

TEST_CASE("In 3D an obstacle is a sphere that pushes away from its centre") {
  const Scenario s = parse_scenario(
      "[world]\nwidth = 40\nheight = 40\ndimensions = 3\ndepth = 40\n[[species]]\nname = "
      "\"p\"\ncount = 1\nperception_radius = 4\nseparation_radius = 1\n[[obstacle]]\nx = 20\ny = 20\nz = 20\n"
      "radius = 3\n",
      "sphere.toml");
  const SpeciesModel m = species_models(s)[0];
  const Surroundings3 env = surroundings_3d(s);
  // Above the sphere along z, within reach (3 + 4): pushed straight up, depth (7 - 5) / 4.
  const glm::vec3 push = obstacle_push(m, glm::vec3{20.0f, 20.0f, 25.0f}, env);
  REQUIRE(push.x == 0.0f);
  REQUIRE(push.y == 0.0f);
  REQUIRE_THAT(push.z, WithinAbs(0.5, 1e-6));
  // The same distance in the plane of the centre but off in z by more than the reach: nothing.
  REQUIRE(obstacle_push(m, glm::vec3{20.0f, 20.0f, 28.0f}, env) == glm::vec3(0.0f));
}

TEST_CASE("The 3D noise: a uniform cap, a Gaussian angle, an isotropic axis") {
  const double eta = 1.2;
  for (const std::string law : {"uniform", "gaussian"}) {
    INFO(law);
    const Scenario s = one_species("count = 1\nrule = \"vicsek\"\nspeed = 0.5\nnoise = " +
                                       std::to_string(eta) + "\nnoise_distribution = \"" + law +
                                       "\"\n",
                                   true);
    const SpeciesModel m = species_models(s)[0];
    const glm::vec3 h = glm::normalize(glm::vec3{0.3f, -0.5f, 0.8f});
    const OrthonormalBasis basis = orthonormal_basis(h);
    const int n = 40000;
    double cos_sum = 0.0, angle_sum = 0.0, max_angle = 0.0, e1_sum = 0.0, e2_sum = 0.0;
    for (int id = 0; id < n; ++id) {
      const NoiseTurn turn = noise_turn(m, std::uint32_t(id), 9, 4);
      const glm::vec3 turned = unit_vector(tilt(h, turn.cos, turn.sin, turn.phi));
      REQUIRE_THAT(glm::length(turned), WithinAbs(1.0, 1e-6));
      const double c = std::clamp(double(glm::dot(turned, h)), -1.0, 1.0);
      const double angle = std::acos(c);
      cos_sum += c;
      angle_sum += angle;
      max_angle = std::max(max_angle, angle);
      e1_sum += glm::dot(turned, basis.e1);
      e2_sum += glm::dot(turned, basis.e2);
    }
    if (law == "uniform") {
      // cos theta uniform on [cos(eta/2), 1]: its mean is the middle, theta never past eta/2.
      REQUIRE_THAT(cos_sum / n, WithinAbs(0.5 * (1.0 + std::cos(eta / 2)), 1e-3));
      REQUIRE(max_angle <= eta / 2 + 1e-3);
      REQUIRE(max_angle > eta / 2 - 0.02);
    } else {
      // theta = |eta g|: its mean is eta sqrt(2 / pi).
      REQUIRE_THAT(angle_sum / n, WithinAbs(eta * std::sqrt(2.0 / kPi), 0.01));
    }
    // No direction about h is preferred.
    REQUIRE_THAT(e1_sum / n, WithinAbs(0.0, 0.01));
    REQUIRE_THAT(e2_sum / n, WithinAbs(0.0, 0.01));
  }
}

TEST_CASE("The 3D bounded turn turns by max_turn in the plane of the two directions") {
  const Scenario s = one_species(
      "count = 1\nrule = \"couzin\"\nspeed = 1\nmax_turn_degrees = 30\n", true);
  const SpeciesModel m = species_models(s)[0];
  const glm::vec3 h = glm::normalize(glm::vec3{1.0f, 0.2f, 0.4f});
  const glm::vec3 desired = glm::normalize(glm::vec3{-0.2f, 1.0f, -0.7f});
  const glm::vec3 turned = bounded_turn(m, h, desired);
  REQUIRE_THAT(glm::length(turned), WithinAbs(1.0, 1e-6));
  REQUIRE_THAT(std::acos(double(glm::dot(turned, h))), WithinAbs(kPi / 6, 1e-5));
  // In the plane of h and desired: perpendicular to their normal, on desired's side.
  REQUIRE_THAT(glm::dot(turned, glm::normalize(glm::cross(h, desired))), WithinAbs(0.0, 1e-6));
  REQUIRE(glm::dot(turned, desired) > glm::dot(h, desired));
  // Within reach: the desired direction itself.
  const glm::vec3 near = glm::normalize(h + 0.1f * desired);
  REQUIRE(bounded_turn(m, h, near) == near);
  // Straight back: a turn of max_turn towards some perpendicular, never a NaN.
  const glm::vec3 back = bounded_turn(m, h, -h);
  REQUIRE_THAT(std::acos(double(glm::dot(back, h))), WithinAbs(kPi / 6, 1e-5));
}

TEST_CASE("A 3D step does not depend on the worker count, and one seed gives one history") {
  const Scenario s = one_species(
      "count = 1\nrule = \"vicsek\"\nperception_radius = 3\nspeed = 0.3\nnoise = 2.0\n", true,
      30.0f);
  FlockState one = random_flock(3000, 30.0f, 0.3f, false);
  FlockState two = one;
  FlockState five = one;
  for (int step = 0; step < 3; ++step) {
    one = cpu_step(s, one, nullptr, {}, {}, 1);
    two = cpu_step(s, two, nullptr, {}, {}, 2);
    five = cpu_step(s, five, nullptr, {}, {}, 5);
  }
  require_same_bits(one, two);
  require_same_bits(one, five);
}
