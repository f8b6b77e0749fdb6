// The seeded start (docs/model.md, "The seeded start" and "The start in 3D"): every boid's
// position, velocity and age drawn from splitmix64 hashes of (seed, id, stream), uniform over
// the world or in the [[spawn]] layouts, in a plane or a volume.
//
// Sections: seeded start (the streams and their draws); start layouts ([[spawn]]); seeded_start.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "murmur/flock/model.hpp"
#include "murmur/flock/state.hpp"
#include "murmur/scenario/scenario.hpp"

namespace murmur {
namespace {

// ---- seeded start ----------------------------------------------------------------------

// Independent random streams per boid, so each value is a pure function of (seed, id, stream)
// and does not depend on the standard library's engines or distributions.
enum Stream : std::uint64_t {
  kStreamX = 0,
  kStreamY = 1,
  kStreamSpeed = 2,
  // 2D: kStreamDirection + 2k and + 2k + 1, the k-th rejection attempt; 3D: + 3k, + 3k + 1 and
  // + 3k + 2. A 3D cone's two uniforms: kStreamDirection and + 1.
  kStreamDirection = 3,
  // 3D only. Stream 2, the next after x and y, was the speed's long before a third axis, and
  // the 2D start must keep its bits: z takes the last stream below age, past every direction
  // attempt's (asserted below).
  kStreamZ = 1023,
  kStreamAge = 1024,
  // A disc spawn's point: kStreamDisc + 2k and + 2k + 1, as for 2D directions; a ball's:
  // kStreamDisc + 3k, + 3k + 1 and + 3k + 2.
  kStreamDisc = 1025,
};
// Drawing a point in the unit disc fails with probability 1 - pi/4 per attempt, in the unit
// ball with 1 - pi/6; 64 failures in a row happen with probability below 1e-20, so the
// fallback direction is never taken in practice.
constexpr int kMaxDirectionAttempts = 64;
constexpr std::uint64_t kDrawsPerAttempt2d = 2;
constexpr std::uint64_t kDrawsPerAttempt3d = 3;
static_assert(kStreamZ >= kStreamDirection + kDrawsPerAttempt3d * kMaxDirectionAttempts);
static_assert(kStreamAge > kStreamZ);
static_assert(kStreamDisc > kStreamAge);
// Points this close to the disc's centre are rejected: their direction would be dominated by
// the 53-bit quantisation of the coordinates.
constexpr double kMinDiscRadiusSq = 1e-12;
constexpr double kTwoToMinus53 = 0x1.0p-53;

// splitmix64 (Steele, Lea, Flood 2014): a bijective mix whose outputs pass BigCrush.
std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t counter_hash(std::uint64_t seed, std::uint64_t id, std::uint64_t stream) {
  return splitmix64(splitmix64(splitmix64(seed) ^ id) ^ stream);
}

// Uniform in [0, 1) with 53 random bits; exact in double, so no platform rounds it differently.
double uniform01(std::uint64_t seed, std::uint64_t id, std::uint64_t stream) {
  return static_cast<double>(counter_hash(seed, id, stream) >> 11) * kTwoToMinus53;
}

// Uniform in [0, length): the float product can round up to `length`, which is outside a
// torus, so that one value steps back by one ulp.
float uniform_coordinate(double u, float length) {
  const auto x = static_cast<float>(u * static_cast<double>(length));
  return x < length ? x : std::nextafter(length, 0.0f);
}

// A starting age uniform in [0, max_age) for a mortal species, so that its boids die over
// max_age steps rather than all in one (docs/model.md, "State of the population"); 0 for a
// species that never dies. The double product can round up to max_age: that one value steps
// back.
std::uint32_t staggered_age(std::uint64_t seed, std::uint64_t id, std::uint32_t max_age) {
  if (max_age == 0) return 0;
  const auto age =
      static_cast<std::uint64_t>(uniform01(seed, id, kStreamAge) * static_cast<double>(max_age));
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(age, max_age - 1));
}

// A uniform point in the unit disc (its centre excluded), by rejection on the streams
// first_stream + 2k and + 2k + 1 of the k-th attempt; nothing when every attempt failed.
std::optional<glm::dvec2> unit_disc_point(std::uint64_t seed, std::uint64_t id,
                                          std::uint64_t first_stream) {
  for (int attempt = 0; attempt < kMaxDirectionAttempts; ++attempt) {
    const std::uint64_t stream =
        first_stream + kDrawsPerAttempt2d * static_cast<std::uint64_t>(attempt);
    const double a = 2.0 * uniform01(seed, id, stream) - 1.0;
    const double b = 2.0 * uniform01(seed, id, stream + 1) - 1.0;
    const double radius_sq = a * a + b * b;
    if (radius_sq > kMinDiscRadiusSq && radius_sq <= 1.0) return glm::dvec2{a, b};
  }
  return std::nullopt;
}

// A uniform heading without sin/cos (whose last bit differs between math libraries): the
// direction of a uniform point in the unit disc; sqrt is exactly rounded.
glm::dvec2 uniform_direction(std::uint64_t seed, std::uint64_t id) {
  const std::optional<glm::dvec2> point = unit_disc_point(seed, id, kStreamDirection);
  if (!point) return {1.0, 0.0};
  const double radius = std::sqrt(point->x * point->x + point->y * point->y);
  return {point->x / radius, point->y / radius};
}

// Uniform in [0, 1) with 24 random bits: exact in float32, for the draws that feed the float32
// formulas of a 3D cone (the top bits of the same hash as uniform01).
float uniform01_float(std::uint64_t seed, std::uint64_t id, std::uint64_t stream) {
  constexpr int kHashBits = 64;
  constexpr int kFloatBits = 24;
  constexpr float kTwoToMinus24 = 0x1.0p-24f;
  return static_cast<float>(counter_hash(seed, id, stream) >> (kHashBits - kFloatBits)) *
         kTwoToMinus24;
}

// The 3D twin of unit_disc_point: a uniform point in the unit ball (its centre excluded), three
// draws per attempt from first_stream + 3k.
std::optional<glm::dvec3> unit_ball_point(std::uint64_t seed, std::uint64_t id,
                                          std::uint64_t first_stream) {
  for (int attempt = 0; attempt < kMaxDirectionAttempts; ++attempt) {
    const std::uint64_t stream =
        first_stream + kDrawsPerAttempt3d * static_cast<std::uint64_t>(attempt);
    const double a = 2.0 * uniform01(seed, id, stream) - 1.0;
    const double b = 2.0 * uniform01(seed, id, stream + 1) - 1.0;
    const double c = 2.0 * uniform01(seed, id, stream + 2) - 1.0;
    const double radius_sq = a * a + b * b + c * c;
    if (radius_sq > kMinDiscRadiusSq && radius_sq <= 1.0) return glm::dvec3{a, b, c};
  }
  return std::nullopt;
}

// v / |v| in double, rounded to float32 once per component; v is not 0.
glm::vec3 rounded_direction(glm::dvec3 v) {
  const double length = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
  return glm::vec3(v / length);
}

// A direction uniform on the sphere without sin/cos: that of a uniform point in the unit ball.
glm::vec3 uniform_direction_3d(std::uint64_t seed, std::uint64_t id) {
  const std::optional<glm::dvec3> point = unit_ball_point(seed, id, kStreamDirection);
  if (!point) return {1.0f, 0.0f, 0.0f};
  return rounded_direction(*point);
}

// ---- start layouts ([[spawn]]) ---------------------------------------------------------

constexpr double kFullCircleDegrees = 360.0;
constexpr double kRadiansPerDegree = 3.14159265358979323846 / 180.0;

// A speed uniform in [min_speed, max_speed] and a heading uniform in [heading_min,
// heading_max] degrees. The full circle takes uniform_direction (no sin/cos); a narrower range
// draws an angle and rounds cos/sin, computed in double, to float32 once.
glm::vec2 start_velocity(std::uint64_t seed, std::uint64_t id, double min_speed,
                         double max_speed, double heading_min, double heading_max) {
  const double speed = min_speed + uniform01(seed, id, kStreamSpeed) * (max_speed - min_speed);
  glm::dvec2 direction;
  if (heading_max - heading_min >= kFullCircleDegrees) {
    direction = uniform_direction(seed, id);
  } else {
    const double degrees =
        heading_min + uniform01(seed, id, kStreamDirection) * (heading_max - heading_min);
    direction = {std::cos(degrees * kRadiansPerDegree), std::sin(degrees * kRadiansPerDegree)};
  }
  return glm::vec2(direction * speed);
}

// A 3D spawn's velocity (docs/model.md, "The start in 3D"): a speed uniform in [min_speed,
// max_speed], as in 2D, times a unit direction d: uniform on the sphere without a `direction`,
// with one uniform on the cap of half-angle spread/2 about it, the cap Vicsek's 3D noise draws
// from (spread 0 draws nothing: d is the axis). The product is taken in double and rounded
// once.
glm::vec3 start_velocity_3d(std::uint64_t seed, std::uint64_t id, const SpawnRegion& spawn) {
  const double speed = double(spawn.min_speed) +
                       uniform01(seed, id, kStreamSpeed) *
                           (double(spawn.max_speed) - double(spawn.min_speed));
  glm::vec3 direction;
  if (spawn.direction == glm::vec3(0.0f)) {
    direction = uniform_direction_3d(seed, id);
  } else {
    const glm::vec3 axis = rounded_direction(glm::dvec3(spawn.direction));
    direction = axis;
    if (spawn.spread_degrees > 0.0f) {
      const auto cos_half_spread =
          static_cast<float>(std::cos(double(spawn.spread_degrees) / 2.0 * kRadiansPerDegree));
      const float u1 = uniform01_float(seed, id, kStreamDirection);
      const float u2 = uniform01_float(seed, id, kStreamDirection + 1);
      const float c = 1.0f - u1 * (1.0f - cos_half_spread);
      const float s = std::sqrt((1.0f - c) * (1.0f + c));
      direction = unit_vector(tilt(axis, c, s, MURMUR_TWO_PI * u2));
    }
  }
  return glm::vec3(glm::dvec3(direction) * speed);
}

// low + a uniform coordinate in [0, extent); for a wrap species also below the world's far
// edge, which the sum can round up to.
float coordinate_in(double u, float low, float extent, float world_length, bool wraps) {
  const float value = low + uniform_coordinate(u, extent);
  return wraps && !(value < world_length) ? std::nextafter(world_length, 0.0f) : value;
}

// A point the clusters layout computed, brought into the world: around the torus for a wrap
// species, onto the nearest wall for a bounded one.
float into_world(double value, float world_length, bool wraps) {
  const double length = world_length;
  if (!wraps) return static_cast<float>(std::clamp(value, 0.0, length));
  const auto wrapped = static_cast<float>(value - length * std::floor(value / length));
  return wrapped < world_length && wrapped >= 0.0f ? wrapped : std::nextafter(world_length, 0.0f);
}

// Origin 000's makeboid: boid i sits in a square of side m = spread * i on one of three arms
// (i mod 3), each with its own velocity from the same two uniforms (u, v):
//   arm 0: square centred on the origin,         velocity (u - 1.5, v - 1.5)
//   arm 1: centred m above it,                   velocity (-u, -v)
//   arm 2: centred m to its right,               velocity (1.5 - u, v - 1.5)
struct ClusterArm {
  glm::dvec2 centre_per_side;  // the square's centre from the origin, in units of m
  glm::dvec2 velocity_sign;    // velocity = velocity_sign * (u, v) + velocity_shift
  glm::dvec2 velocity_shift;
};
constexpr double kOrigin000VelocityShift = 1.5;
constexpr std::array<ClusterArm, 3> kOrigin000Arms = {{
    {{0.0, 0.0}, {1.0, 1.0}, {-kOrigin000VelocityShift, -kOrigin000VelocityShift}},
    {{0.0, 1.0}, {-1.0, -1.0}, {0.0, 0.0}},
    {{1.0, 0.0}, {-1.0, 1.0}, {kOrigin000VelocityShift, -kOrigin000VelocityShift}},
}};
constexpr double kSquareCentre = 0.5;  // a uniform in [0, 1) minus this spans the square

void place_in_clusters(Boid& boid, const Scenario& scenario, const SpawnRegion& spawn,
                       std::uint32_t index_in_spawn, bool wraps) {
  const std::uint64_t seed = scenario.world.seed;
  const glm::dvec2 uv{uniform01(seed, boid.id, kStreamX), uniform01(seed, boid.id, kStreamY)};
  const std::uint64_t origin_index = std::uint64_t{spawn.first_index} + index_in_spawn;
  const ClusterArm& arm = kOrigin000Arms[origin_index % kOrigin000Arms.size()];
  const double side = double(spawn.spread) * double(origin_index);
  const glm::dvec2 point = glm::dvec2(spawn.x, spawn.y) + side * (uv - kSquareCentre) +
                           side * arm.centre_per_side;
  boid.pos = {into_world(point.x, scenario.world.width, wraps),
              into_world(point.y, scenario.world.height, wraps)};
  boid.vel = glm::vec2(arm.velocity_sign * uv + arm.velocity_shift);
}

// Boid `boid.id` of `species` in a ball or a box: the box maps the uniform start's three
// position draws into itself, the ball draws by rejection from kStreamDisc.
void place_in_volume(Boid& boid, const Scenario& scenario, const SpeciesParams& species,
                     const SpawnRegion& spawn) {
  const std::uint64_t seed = scenario.world.seed;
  const bool wraps = species.topology == Topology::Wrap;
  const glm::vec3 world = world_box(scenario);
  glm::vec3 position;
  if (spawn.layout == SpawnLayout::Box) {
    position = {
        coordinate_in(uniform01(seed, boid.id, kStreamX), spawn.x, spawn.width, world.x, wraps),
        coordinate_in(uniform01(seed, boid.id, kStreamY), spawn.y, spawn.height, world.y, wraps),
        coordinate_in(uniform01(seed, boid.id, kStreamZ), spawn.z, spawn.depth, world.z, wraps)};
  } else {
    const glm::dvec3 offset = unit_ball_point(seed, boid.id, kStreamDisc).value_or(glm::dvec3{});
    const glm::dvec3 point =
        glm::dvec3(spawn.x, spawn.y, spawn.z) + double(spawn.radius) * offset;
    position = {into_world(point.x, world.x, wraps), into_world(point.y, world.y, wraps),
                into_world(point.z, world.z, wraps)};
  }
  set_motion(boid, position, start_velocity_3d(seed, boid.id, spawn));
}

// In 3D the boids outside every spawn start as a box spawn over the whole world with the
// species' speeds and no direction places them: one definition of the uniform start in a
// volume.
SpawnRegion whole_world_box(const Scenario& scenario, const SpeciesParams& species) {
  SpawnRegion box;
  box.layout = SpawnLayout::Box;
  box.width = scenario.world.width;
  box.height = scenario.world.height;
  box.depth = scenario.world.depth;
  const SpeedRange speeds = start_speeds(species);
  box.min_speed = speeds.min;
  box.max_speed = speeds.max;
  return box;
}

// Boid `boid.id` of `species`, the `index_in_spawn`-th that `spawn` places.
void place_in_spawn(Boid& boid, const Scenario& scenario, const SpeciesParams& species,
                    const SpawnRegion& spawn, std::uint32_t index_in_spawn) {
  const std::uint64_t seed = scenario.world.seed;
  const bool wraps = species.topology == Topology::Wrap;
  const float width = scenario.world.width;
  const float height = scenario.world.height;
  switch (spawn.layout) {
    case SpawnLayout::Rectangle:
      boid.pos = {coordinate_in(uniform01(seed, boid.id, kStreamX), spawn.x, spawn.width, width,
                                wraps),
                  coordinate_in(uniform01(seed, boid.id, kStreamY), spawn.y, spawn.height,
                                height, wraps)};
      break;
    case SpawnLayout::Disc: {
      const glm::dvec2 offset = unit_disc_point(seed, boid.id, kStreamDisc).value_or(glm::dvec2{});
      const glm::dvec2 point = glm::dvec2(spawn.x, spawn.y) + double(spawn.radius) * offset;
      boid.pos = {into_world(point.x, width, wraps), into_world(point.y, height, wraps)};
      break;
    }
    case SpawnLayout::Clusters:
      place_in_clusters(boid, scenario, spawn, index_in_spawn, wraps);
      return;
    case SpawnLayout::Ball:
    case SpawnLayout::Box:
      place_in_volume(boid, scenario, species, spawn);
      return;
  }
  boid.vel = start_velocity(seed, boid.id, spawn.min_speed, spawn.max_speed, spawn.heading_min,
                            spawn.heading_max);
}

}  // namespace

// ---- seeded_start ----------------------------------------------------------------------

FlockState seeded_start(const Scenario& scenario) {
  FlockState state;
  state.boids.reserve(scenario.total_count());
  const std::uint64_t seed = scenario.world.seed;
  std::uint32_t id = 0;
  for (std::size_t s = 0; s < scenario.species.size(); ++s) {
    const SpeciesParams& species = scenario.species[s];
    // The species' spawns in file order take its first ids, each as many as its count.
    std::vector<const SpawnRegion*> spawns;
    for (const SpawnRegion& spawn : scenario.spawns) {
      if (spawn.species == species.name) spawns.push_back(&spawn);
    }
    std::size_t current = 0;
    std::uint32_t placed_before = 0;  // by the spawns before `current`
    for (std::uint32_t k = 0; k < species.count; ++k, ++id) {
      while (current < spawns.size() && k >= placed_before + spawns[current]->count) {
        placed_before += spawns[current]->count;
        ++current;
      }
      Boid boid;
      boid.id = id;
      boid.species = static_cast<std::uint32_t>(s);
      if (current < spawns.size()) {
        place_in_spawn(boid, scenario, species, *spawns[current], k - placed_before);
      } else if (is_3d(scenario)) {
        place_in_volume(boid, scenario, species, whole_world_box(scenario, species));
      } else {
        boid.pos.x = uniform_coordinate(uniform01(seed, id, kStreamX), scenario.world.width);
        boid.pos.y = uniform_coordinate(uniform01(seed, id, kStreamY), scenario.world.height);
        const SpeedRange speeds = start_speeds(species);
        boid.vel = start_velocity(seed, id, speeds.min, speeds.max, 0.0, kFullCircleDegrees);
      }
      boid.age = staggered_age(seed, id, species.max_age);
      boid.energy = species.energy_initial;
      state.boids.push_back(boid);
    }
  }
  state.next_id = id;
  state.food = initial_food(scenario);
  state.totals.assign(scenario.species.size(), SpeciesTotals{});
  return state;
}

}  // namespace murmur
