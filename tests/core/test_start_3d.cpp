// The seeded start in a volume (docs/model.md, "The start in 3D"): positions uniform in the box
// on their own streams, directions uniform on the sphere, the ball and box spawns and their
// cone, and the orthonormal basis the cone (and the 3D rules) turn with. The 2D start keeps its
// bits: its first boids are recomputed here from the documented splitmix64 formula.
//
// Sections: helpers; the documented hash; the uniform 3D start; spawns; the basis and tilt.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "murmur/flock/model.hpp"
#include "murmur/flock/state.hpp"
#include "murmur/scenario/scenario.hpp"

using namespace murmur;

// --- helpers -----------------------------------------------------------------------------------
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kBins = 10;
// The 99.99th percentile of chi-square with kBins - 1 = 9 degrees of freedom: a fair draw
// fails about once in ten thousand runs, a skewed one (a wrong stream, a cube for a ball) at
// these sample sizes always.
constexpr double kChiSquare9Dof = 33.7;
// |correlation| of two independent uniforms over 20000 boids: sd ~0.007, so 0.05 is 7 sd.
constexpr double kMaxIndependentCorrelation = 0.05;

// A 3D flock of `count` boids of one wrap species in a Lx x Ly x Lz box, with `extra` TOML
// appended (spawns).
Scenario volume(std::uint32_t count, std::uint64_t seed, const std::string& extra = "",
                const std::string& speeds = "min_speed = 1\nmax_speed = 2\n") {
  return parse_scenario("[world]\ndimensions = 3\nwidth = 300\nheight = 200\ndepth = 100\nseed = " +
                            std::to_string(seed) + "\n[[species]]\nname = \"a\"\ncount = " +
                            std::to_string(count) + "\nperception_radius = 10\n" + speeds + extra,
                        "test.toml");
}

// Pearson's chi-square of `values` (each in [0, 1)) against the uniform over kBins bins.
double chi_square_uniform(const std::vector<double>& values) {
  std::array<double, kBins> counts{};
  for (const double v : values) {
    counts[std::clamp(static_cast<int>(v * kBins), 0, kBins - 1)] += 1.0;
  }
  const double expected = static_cast<double>(values.size()) / kBins;
  double chi = 0.0;
  for (const double c : counts) chi += (c - expected) * (c - expected) / expected;
  return chi;
}

double mean(const std::vector<double>& values) {
  double sum = 0.0;
  for (const double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

double correlation(const std::vector<double>& a, const std::vector<double>& b) {
  const double ma = mean(a);
  const double mb = mean(b);
  double ab = 0.0, aa = 0.0, bb = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ab += (a[i] - ma) * (b[i] - mb);
    aa += (a[i] - ma) * (a[i] - ma);
    bb += (b[i] - mb) * (b[i] - mb);
  }
  return ab / std::sqrt(aa * bb);
}

double length_of(glm::vec3 v) {
  return std::sqrt(double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
}

bool same_bits(const FlockState& a, const FlockState& b) {
  if (a.boids.size() != b.boids.size()) return false;
  for (std::size_t i = 0; i < a.boids.size(); ++i) {
    const Boid& p = a.boids[i];
    const Boid& q = b.boids[i];
    if (std::bit_cast<std::array<std::uint32_t, 3>>(position_of(p)) !=
            std::bit_cast<std::array<std::uint32_t, 3>>(position_of(q)) ||
        std::bit_cast<std::array<std::uint32_t, 3>>(velocity_of(p)) !=
            std::bit_cast<std::array<std::uint32_t, 3>>(velocity_of(q)) ||
        p.id != q.id || p.species != q.species || p.age != q.age) {
      return false;
    }
  }
  return true;
}

// --- the documented hash (docs/model.md, "The seeded start" and "The start in 3D") -----------

std::uint64_t documented_splitmix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// uniform01 of (seed, id, stream): the top 53 bits of the hash over 2^53.
double documented_uniform(std::uint64_t seed, std::uint64_t id, std::uint64_t stream) {
  const std::uint64_t hash =
      documented_splitmix64(documented_splitmix64(documented_splitmix64(seed) ^ id) ^ stream);
  return static_cast<double>(hash >> 11) * 0x1.0p-53;
}

// The streams docs/model.md names.
constexpr std::uint64_t kDocStreamX = 0;
constexpr std::uint64_t kDocStreamY = 1;
constexpr std::uint64_t kDocStreamZ = 1023;

}  // namespace

TEST_CASE("the 2D start's positions and the 3D start's are the documented splitmix64 draws",
          "[state][3d]") {
  Scenario flat = volume(8, 11);
  flat.world.dimensions = 2;
  flat.world.depth = 0.0f;
  const FlockState plane = seeded_start(flat);
  const FlockState space = seeded_start(volume(8, 11));
  for (std::uint32_t id = 0; id < 8; ++id) {
    const auto coordinate = [&](std::uint64_t stream, float length) {
      return static_cast<float>(documented_uniform(11, id, stream) * double(length));
    };
    const Boid& p = plane.boids[id];
    CHECK(p.pos.x == coordinate(kDocStreamX, 300.0f));
    CHECK(p.pos.y == coordinate(kDocStreamY, 200.0f));
    CHECK(p.z == 0.0f);
    CHECK(p.vz == 0.0f);
    // The volume keeps the plane's x and y draws and adds z on its own stream.
    const Boid& q = space.boids[id];
    CHECK(q.pos == p.pos);
    CHECK(q.z == coordinate(kDocStreamZ, 100.0f));
  }
}

// --- the uniform 3D start ----------------------------------------------------------------------

TEST_CASE("3D start: every boid in the box, z uniform and independent of x and the speed",
          "[state][3d]") {
  constexpr std::uint32_t kCount = 20000;
  const Scenario s = volume(kCount, 5);
  const FlockState state = seeded_start(s);
  REQUIRE(state.boids.size() == kCount);
  std::vector<double> x, z, speed;
  for (const Boid& b : state.boids) {
    REQUIRE(b.pos.x >= 0.0f);
    REQUIRE(b.pos.x < 300.0f);
    REQUIRE(b.pos.y >= 0.0f);
    REQUIRE(b.pos.y < 200.0f);
    REQUIRE(b.z >= 0.0f);
    REQUIRE(b.z < 100.0f);
    const double v = length_of(velocity_of(b));
    REQUIRE(v >= 1.0 - 1e-6);
    REQUIRE(v <= 2.0 + 1e-6);
    x.push_back(b.pos.x / 300.0);
    z.push_back(b.z / 100.0);
    speed.push_back(v - 1.0);
  }
  CHECK(mean(z) == Approx(0.5).margin(0.01));  // Lz / 2, as a fraction of Lz
  CHECK(chi_square_uniform(z) < kChiSquare9Dof);
  CHECK(std::abs(correlation(x, z)) < kMaxIndependentCorrelation);
  CHECK(std::abs(correlation(speed, z)) < kMaxIndependentCorrelation);
  CHECK(chi_square_uniform(speed) < kChiSquare9Dof);
}

TEST_CASE("3D start: directions are unit vectors uniform on the sphere", "[state][3d]") {
  constexpr std::uint32_t kCount = 20000;
  // One speed: the velocity is the direction, rounded once per component.
  const FlockState state = seeded_start(volume(kCount, 9, "", "min_speed = 1\nmax_speed = 1\n"));
  glm::dvec3 sum(0.0);
  std::array<std::vector<double>, 3> components;
  for (const Boid& b : state.boids) {
    const glm::vec3 d = velocity_of(b);
    REQUIRE(length_of(d) == Approx(1.0).margin(1e-6));
    sum += glm::dvec3(d);
    // On the unit sphere each component is uniform in [-1, 1] (Archimedes): a point drawn in
    // the cube instead of the ball, or the disc's 2D draw, skews it.
    for (int axis = 0; axis < 3; ++axis) components[axis].push_back((d[axis] + 1.0) / 2.0);
  }
  const glm::dvec3 mean_direction = sum / double(kCount);
  CHECK(std::abs(mean_direction.x) < 0.02);
  CHECK(std::abs(mean_direction.y) < 0.02);
  CHECK(std::abs(mean_direction.z) < 0.02);
  for (const auto& component : components) CHECK(chi_square_uniform(component) < kChiSquare9Dof);
}

TEST_CASE("3D start: the same seed gives the same bits, another seed other boids",
          "[state][3d]") {
  const FlockState first = seeded_start(volume(500, 21));
  CHECK(same_bits(first, seeded_start(volume(500, 21))));
  const FlockState other = seeded_start(volume(500, 22));
  std::size_t moved = 0;
  for (std::size_t i = 0; i < first.boids.size(); ++i) {
    moved += first.boids[i].z != other.boids[i].z && velocity_of(first.boids[i]) !=
                                                         velocity_of(other.boids[i]);
  }
  CHECK(moved == first.boids.size());
}

// --- spawns ------------------------------------------------------------------------------------

TEST_CASE("3D spawns: a box over the whole world is the uniform start, a box places inside "
          "itself", "[state][3d][spawn]") {
  const FlockState uniform = seeded_start(volume(300, 4));
  const FlockState whole = seeded_start(volume(
      300, 4,
      "[[spawn]]\nspecies = \"a\"\ncount = 300\nlayout = \"box\"\nx = 0\ny = 0\nz = 0\n"
      "width = 300\nheight = 200\ndepth = 100\n"));
  CHECK(same_bits(uniform, whole));

  const FlockState inset = seeded_start(volume(
      300, 4,
      "[[spawn]]\nspecies = \"a\"\ncount = 200\nlayout = \"box\"\nx = 10\ny = 20\nz = 30\n"
      "width = 40\nheight = 50\ndepth = 60\nmin_speed = 3\nmax_speed = 3\n"));
  for (const Boid& b : inset.boids) {
    if (b.id >= 200) continue;  // the rest start uniform
    CHECK(b.pos.x >= 10.0f);
    CHECK(b.pos.x < 50.0f);
    CHECK(b.pos.y >= 20.0f);
    CHECK(b.pos.y < 70.0f);
    CHECK(b.z >= 30.0f);
    CHECK(b.z < 90.0f);
    CHECK(length_of(velocity_of(b)) == Approx(3.0).margin(1e-5));
  }
  // Ids past the spawn keep the uniform start's boids bit for bit.
  for (std::size_t i = 200; i < 300; ++i) {
    CHECK(position_of(inset.boids[i]) == position_of(uniform.boids[i]));
  }
}

TEST_CASE("3D spawns: a ball's boids lie within its radius, uniform in volume",
          "[state][3d][spawn]") {
  constexpr std::uint32_t kCount = 20000;
  const glm::dvec3 centre(150.0, 100.0, 50.0);
  constexpr double kRadius = 40.0;
  const FlockState state = seeded_start(volume(
      kCount, 8,
      "[[spawn]]\nspecies = \"a\"\ncount = 20000\nlayout = \"ball\"\nx = 150\ny = 100\nz = 50\n"
      "radius = 40\n"));
  std::vector<double> volume_fraction;
  for (const Boid& b : state.boids) {
    const double r = glm::length(glm::dvec3(position_of(b)) - centre);
    REQUIRE(r <= kRadius * (1.0 + 1e-6));
    // Uniform in the ball: (r / R)^3 is uniform in [0, 1) (r / R alone would crowd the rim).
    volume_fraction.push_back(std::pow(r / kRadius, 3.0));
  }
  CHECK(chi_square_uniform(volume_fraction) < kChiSquare9Dof);
}

TEST_CASE("3D spawns: a cone of spread 0 is exactly the direction, a wider cone is uniform on "
          "its cap", "[state][3d][spawn]") {
  const std::string ball =
      "[[spawn]]\nspecies = \"a\"\ncount = 5000\nlayout = \"ball\"\nx = 150\ny = 100\nz = 50\n"
      "radius = 40\nmin_speed = 1.5\nmax_speed = 1.5\ndirection = [1, -2, 2]\n";
  // The axis, divided by its length (3) in double and rounded once; the velocity, its product
  // with the speed in double, rounded once.
  const glm::vec3 axis(glm::dvec3(1.0, -2.0, 2.0) / 3.0);
  const glm::vec3 expected(glm::dvec3(axis) * 1.5);
  for (const Boid& b : seeded_start(volume(5000, 3, ball)).boids) {
    REQUIRE(velocity_of(b) == expected);
  }

  constexpr double kSpreadDegrees = 60.0;
  const double cos_half = std::cos(kSpreadDegrees / 2.0 * kPi / 180.0);
  const FlockState cone =
      seeded_start(volume(5000, 3, ball + "spread_degrees = 60\n"));
  std::vector<double> cap_fraction;
  glm::dvec3 across(0.0);
  for (const Boid& b : cone.boids) {
    const glm::dvec3 d = glm::dvec3(velocity_of(b)) / 1.5;
    REQUIRE(glm::length(d) == Approx(1.0).margin(1e-6));
    const double c = glm::dot(d, glm::dvec3(axis));
    REQUIRE(c >= cos_half - 1e-6);
    // Uniform on the cap: its cosine is uniform in [cos(spread / 2), 1].
    cap_fraction.push_back(std::min((1.0 - c) / (1.0 - cos_half), 1.0 - 1e-12));
    across += d - c * glm::dvec3(axis);
  }
  CHECK(chi_square_uniform(cap_fraction) < kChiSquare9Dof);
  // Every way around the axis alike: the parts across it cancel.
  CHECK(glm::length(across / double(cone.boids.size())) < 0.02);
}

// --- the basis and tilt ------------------------------------------------------------------------

TEST_CASE("orthonormal_basis: (h, e1, e2) is right-handed and orthonormal for every h",
          "[model][3d]") {
  std::vector<glm::vec3> directions = {{0, 0, 1},  {0, 0, -1}, {1, 0, 0},  {0, 1, 0},
                                       {-1, 0, 0}, {0, -1, 0}, {0.6f, 0.8f, 0.0f}};
  // Just either side of h.z = 0, where the basis switches sign.
  for (const double z : {1e-7, -1e-7, 1e-3, -1e-3, -0.999999, 0.999999}) {
    directions.push_back(glm::vec3(glm::normalize(glm::dvec3(0.3, -0.7, z))));
  }
  std::mt19937_64 engine(2026);
  std::normal_distribution<double> gaussian;
  for (int k = 0; k < 10000; ++k) {
    const glm::dvec3 g(gaussian(engine), gaussian(engine), gaussian(engine));
    directions.push_back(glm::vec3(g / glm::length(g)));
  }
  constexpr double kUlps = 1e-6;  // a few float32 ulps of 1
  for (const glm::vec3 h : directions) {
    const OrthonormalBasis basis = orthonormal_basis(h);
    const glm::dvec3 hd(h), e1(basis.e1), e2(basis.e2);
    INFO("h = (" << h.x << ", " << h.y << ", " << h.z << ")");
    REQUIRE(glm::length(e1) == Approx(1.0).margin(kUlps));
    REQUIRE(glm::length(e2) == Approx(1.0).margin(kUlps));
    REQUIRE(std::abs(glm::dot(e1, e2)) < kUlps);
    REQUIRE(std::abs(glm::dot(e1, hd)) < kUlps);
    REQUIRE(std::abs(glm::dot(e2, hd)) < kUlps);
    REQUIRE(glm::length(glm::cross(e1, e2) - hd) < kUlps);
  }
  // The poles, exactly: the basis is the axes themselves.
  CHECK(orthonormal_basis({0, 0, 1}).e1 == glm::vec3(1, 0, 0));
  CHECK(orthonormal_basis({0, 0, 1}).e2 == glm::vec3(0, 1, 0));
  CHECK(orthonormal_basis({0, 0, -1}).e1 == glm::vec3(1, 0, 0));
  CHECK(orthonormal_basis({0, 0, -1}).e2 == glm::vec3(0, -1, 0));
}

TEST_CASE("tilt turns h by the angle of (c, s), towards phi around it", "[model][3d]") {
  const glm::vec3 h(glm::normalize(glm::dvec3(2.0, -1.0, 0.5)));
  // No turn: h itself, bit for bit.
  CHECK(tilt(h, 1.0f, 0.0f, 1.3f) == h);
  for (const float angle : {0.1f, 0.7f, 1.5f, 2.9f}) {
    for (const float phi : {0.0f, 1.0f, 3.0f, 5.5f}) {
      const glm::dvec3 t(tilt(h, std::cos(angle), std::sin(angle), phi));
      CHECK(glm::length(t) == Approx(1.0).margin(1e-6));
      CHECK(glm::dot(t, glm::dvec3(h)) == Approx(std::cos(angle)).margin(1e-6));
    }
  }
  // phi picks the direction around h: a quarter turn of phi is a quarter turn about h.
  const OrthonormalBasis basis = orthonormal_basis(h);
  const glm::dvec3 towards_e1(tilt(h, 0.0f, 1.0f, 0.0f));
  const glm::dvec3 towards_e2(tilt(h, 0.0f, 1.0f, 1.57079637f));
  CHECK(glm::length(towards_e1 - glm::dvec3(basis.e1)) < 1e-6);
  CHECK(glm::length(towards_e2 - glm::dvec3(basis.e2)) < 1e-6);
}
