// Flock state: the seeded start, and the CSV and .npy files (docs/scenarios.md, "State files").
//
// Sections: seeded start; start layouts ([[spawn]]); writing; CSV reading; .npy; the state's
// functions: the start, the food field, reading and writing.
#include "murmur/flock/state.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "murmur/base/atomic_file.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/base/input_file.hpp"
#include "murmur/base/float_text.hpp"
#include "murmur/flock/grid.hpp"
#include "murmur/flock/model.hpp"
#include "murmur/base/random.hpp"

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

// Seed 000's makeboid: boid i sits in a square of side m = spread * i on one of three arms
// (i mod 3), each with its own velocity from the same two uniforms (u, v):
//   arm 0: square centred on the origin,         velocity (u - 1.5, v - 1.5)
//   arm 1: centred m above it,                   velocity (-u, -v)
//   arm 2: centred m to its right,               velocity (1.5 - u, v - 1.5)
struct ClusterArm {
  glm::dvec2 centre_per_side;  // the square's centre from the origin, in units of m
  glm::dvec2 velocity_sign;    // velocity = velocity_sign * (u, v) + velocity_shift
  glm::dvec2 velocity_shift;
};
constexpr double kSeed000VelocityShift = 1.5;
constexpr std::array<ClusterArm, 3> kSeed000Arms = {{
    {{0.0, 0.0}, {1.0, 1.0}, {-kSeed000VelocityShift, -kSeed000VelocityShift}},
    {{0.0, 1.0}, {-1.0, -1.0}, {0.0, 0.0}},
    {{1.0, 0.0}, {-1.0, 1.0}, {kSeed000VelocityShift, -kSeed000VelocityShift}},
}};
constexpr double kSquareCentre = 0.5;  // a uniform in [0, 1) minus this spans the square

void place_in_clusters(Boid& boid, const Scenario& scenario, const SpawnRegion& spawn,
                       std::uint32_t index_in_spawn, bool wraps) {
  const std::uint64_t seed = scenario.world.seed;
  const glm::dvec2 uv{uniform01(seed, boid.id, kStreamX), uniform01(seed, boid.id, kStreamY)};
  const std::uint64_t seed_index = std::uint64_t{spawn.first_index} + index_in_spawn;
  const ClusterArm& arm = kSeed000Arms[seed_index % kSeed000Arms.size()];
  const double side = double(spawn.spread) * double(seed_index);
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

// ---- writing ---------------------------------------------------------------------------

constexpr std::string_view kCsvHeader = "id,species,x,y,vx,vy,age,energy";
constexpr std::size_t kCsvColumns = 8;
// Older files: without the energy column (energy_initial), or without age too (age 0).
constexpr std::string_view kCsvHeaderWithoutEnergy = "id,species,x,y,vx,vy,age";
constexpr std::size_t kCsvColumnsWithoutEnergy = 7;
constexpr std::string_view kCsvHeaderWithoutAge = "id,species,x,y,vx,vy";
constexpr std::size_t kCsvColumnsWithoutAge = 6;
constexpr std::array<std::string_view, kCsvColumns> kCsvColumnNames = {
    "id", "species", "x", "y", "vx", "vy", "age", "energy"};
constexpr std::size_t kAgeColumn = 6;
constexpr std::size_t kEnergyColumn = 7;

// The header of a file with `columns` columns (one of the three accepted).
std::string_view csv_header(std::size_t columns) {
  if (columns == kCsvColumnsWithoutAge) return kCsvHeaderWithoutAge;
  if (columns == kCsvColumnsWithoutEnergy) return kCsvHeaderWithoutEnergy;
  return kCsvHeader;
}

// One boid as a CSV row, its line break included.
void append_csv_row(std::string& row, const Boid& boid) {
  append_integer(row, boid.id);
  row += ',';
  append_integer(row, boid.species);
  for (const float value : {boid.pos.x, boid.pos.y, boid.vel.x, boid.vel.y}) {
    row += ',';
    append_float(row, value);
  }
  row += ',';
  append_integer(row, boid.age);
  row += ',';
  append_float(row, boid.energy);
  row += '\n';
}

// ---- CSV reading -----------------------------------------------------------------------

class CsvReader {
 public:
  CsvReader(std::string name, const Scenario& scenario)
      : name_(std::move(name)), scenario_(scenario) {}

  FlockState parse(std::string_view text) {
    const std::uint32_t total = scenario_.total_count();
    // Ids are any distinct uint32 values, so they are looked up, not used as indices.
    std::unordered_map<std::uint32_t, std::uint32_t> line_of_id;
    line_of_id.reserve(total);
    std::vector<std::uint32_t> species_counts(scenario_.species.size(), 0);
    FlockState state;
    state.boids.reserve(total);

    std::size_t position = 0;
    std::uint32_t line_number = 0;
    while (position < text.size()) {
      std::size_t end = text.find('\n', position);
      if (end == std::string::npos) end = text.size();
      std::string_view line(text.data() + position, end - position);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      position = end + 1;
      ++line_number;
      if (line_number == 1) {
        if (line == kCsvHeaderWithoutAge) {
          columns_ = kCsvColumnsWithoutAge;
        } else if (line == kCsvHeaderWithoutEnergy) {
          columns_ = kCsvColumnsWithoutEnergy;
        } else if (line != kCsvHeader) {
          fail(1, 1, "header must be \"" + std::string(kCsvHeader) +
                         "\" (or, without energies, \"" + std::string(kCsvHeaderWithoutEnergy) +
                         "\", or without ages, \"" +
                         std::string(kCsvHeaderWithoutAge) + "\"), found \"" +
                         std::string(line.substr(0, kCsvHeader.size() + 8)) + "\"");
        }
        continue;
      }
      const Boid boid = parse_row(line, line_number);
      const auto [first, inserted] = line_of_id.try_emplace(boid.id, line_number);
      if (!inserted) {
        fail(line_number, 1,
             "id = " + std::to_string(boid.id) + ": duplicate, first seen on line " +
                 std::to_string(first->second));
      }
      ++species_counts[boid.species];
      state.boids.push_back(boid);
    }
    if (line_number == 0) fail(1, 1, "empty file: expected the header \"" + std::string(kCsvHeader) + "\"");
    // A living population's counts differ from the scenario's starting counts: only the
    // capacity bounds them (docs/model.md, "A living population").
    if (state.boids.size() > scenario_.capacity()) {
      throw InputError(name_ + ": " + std::to_string(state.boids.size()) +
                       " boids, but the scenario" +
                       (scenario_.source.empty() ? "" : " " + scenario_.source) +
                       " holds at most " + std::to_string(scenario_.capacity()) +
                       " (world.capacity, or the species' total count)");
    }
    return state;
  }

 private:
  [[noreturn]] void fail(std::uint32_t line, std::size_t column, const std::string& what) const {
    throw InputError(name_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                     what);
  }

  Boid parse_row(std::string_view line, std::uint32_t line_number) const {
    std::array<std::string_view, kCsvColumns> fields;
    std::array<std::size_t, kCsvColumns> columns{};
    std::size_t count = 0;
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = line.find(',', start);
      const std::size_t stop = comma == std::string_view::npos ? line.size() : comma;
      if (count < kCsvColumns) {
        fields[count] = line.substr(start, stop - start);
        columns[count] = start + 1;
      }
      ++count;
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (count != columns_) {
      fail(line_number, 1,
           std::to_string(count) + " columns, expected " + std::to_string(columns_) + " (" +
               std::string(csv_header(columns_)) + ")");
    }

    Boid boid;
    boid.id = parse_index(fields[0], line_number, columns[0], kCsvColumnNames[0]);
    boid.species = parse_index(fields[1], line_number, columns[1], kCsvColumnNames[1]);
    if (boid.species >= scenario_.species.size()) {
      fail(line_number, columns[1],
           "species = " + std::to_string(boid.species) + ": must be < " +
               std::to_string(scenario_.species.size()) + " (the scenario's species count)");
    }
    const SpeciesParams& species = scenario_.species[boid.species];
    const glm::vec2 world = scenario_.size();
    boid.pos.x = parse_position(fields[2], line_number, columns[2], kCsvColumnNames[2], world.x, species);
    boid.pos.y = parse_position(fields[3], line_number, columns[3], kCsvColumnNames[3], world.y, species);
    boid.vel.x = parse_float(fields[4], line_number, columns[4], kCsvColumnNames[4]);
    boid.vel.y = parse_float(fields[5], line_number, columns[5], kCsvColumnNames[5]);
    if (columns_ > kAgeColumn) {
      boid.age = parse_index(fields[kAgeColumn], line_number, columns[kAgeColumn],
                             kCsvColumnNames[kAgeColumn]);
    }
    boid.energy = columns_ > kEnergyColumn
                      ? parse_energy(fields[kEnergyColumn], line_number, columns[kEnergyColumn],
                                     species)
                      : species.energy_initial;
    return boid;
  }

  std::uint32_t parse_index(std::string_view field, std::uint32_t line, std::size_t column,
                            std::string_view name) const {
    std::uint32_t value = 0;
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (error != std::errc{} || end != field.data() + field.size() || field.empty()) {
      fail(line, column,
           std::string(name) + " = \"" + std::string(field) +
               "\": must be an unsigned 32-bit integer");
    }
    return value;
  }

  float parse_float(std::string_view field, std::uint32_t line, std::size_t column,
                    std::string_view name) const {
    float value = 0.0f;
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (error != std::errc{} || end != field.data() + field.size() || field.empty() ||
        !std::isfinite(value)) {
      fail(line, column,
           std::string(name) + " = \"" + std::string(field) +
               "\": must be a finite float32 number");
    }
    return value;
  }

  // A boid's energy lies in [0, energy_max] (docs/model.md, "An ecosystem"): 0 for a species
  // without energy.
  float parse_energy(std::string_view field, std::uint32_t line, std::size_t column,
                     const SpeciesParams& species) const {
    const std::string_view name = kCsvColumnNames[kEnergyColumn];
    const float value = parse_float(field, line, column, name);
    if (!(value >= 0.0f && value <= species.energy_max)) {
      std::string bound;
      append_float(bound, species.energy_max);
      fail(line, column,
           std::string(name) + " = " + std::string(field) + ": must be >= 0 and <= " + bound +
               " (species " + species.name + "'s energy_max)");
    }
    return value;
  }

  float parse_position(std::string_view field, std::uint32_t line, std::size_t column,
                       std::string_view name, float length, const SpeciesParams& species) const {
    const float value = parse_float(field, line, column, name);
    const bool wraps = species.topology == Topology::Wrap;
    const bool inside = value >= 0.0f && (wraps ? value < length : value <= length);
    if (!inside) {
      std::string bound;
      append_float(bound, length);
      fail(line, column,
           std::string(name) + " = " + std::string(field) + ": outside the world: must be >= 0 and " +
               (wraps ? "< " : "<= ") + bound + " (species " +
               species.name + " is " + (wraps ? "wrap" : "bounded") + ")");
    }
    return value;
  }

  std::string name_;
  const Scenario& scenario_;
  std::size_t columns_ = kCsvColumns;  // from the header: with or without the age column
};

// ---- .npy ------------------------------------------------------------------------------

constexpr char kNpyMagic[] = "\x93NUMPY";
constexpr std::size_t kNpyMagicSize = sizeof kNpyMagic - 1;
constexpr unsigned char kNpyVersionMajor = 1;
constexpr unsigned char kNpyVersionMinor = 0;
// numpy aligns the data to 64 bytes: magic, version, header length and header together.
constexpr std::size_t kNpyAlignment = 64;
constexpr std::size_t kNpyPreambleSize = kNpyMagicSize + 2 + 2;
constexpr std::size_t kNpyRecordSize = 32;  // 2 x u4 + 4 x f4 + u4 + f4
constexpr std::size_t kRecordsPerChunk = 4096;

void put_u32_le(unsigned char* out, std::uint32_t value) {
  for (int byte = 0; byte < 4; ++byte) out[byte] = static_cast<unsigned char>(value >> (8 * byte));
}

std::string npy_header(std::size_t count) {
  std::string header =
      "{'descr': [('id', '<u4'), ('species', '<u4'), ('x', '<f4'), ('y', '<f4'), "
      "('vx', '<f4'), ('vy', '<f4'), ('age', '<u4'), ('energy', '<f4')], "
      "'fortran_order': False, 'shape': (" +
      std::to_string(count) + ",), }";
  const std::size_t unpadded = kNpyPreambleSize + header.size() + 1;  // + the final '\n'
  header.append((kNpyAlignment - unpadded % kNpyAlignment) % kNpyAlignment, ' ');
  header += '\n';
  return header;
}

}  // namespace

// --- the state's functions: the start, the food field, reading and writing ---------------------
void FlockState::sort_by_id() {
  std::sort(boids.begin(), boids.end(), [](const Boid& a, const Boid& b) { return a.id < b.id; });
}

std::uint32_t FlockState::resolved_next_id() const {
  if (next_id) return *next_id;
  std::uint32_t largest = 0;
  for (const Boid& b : boids) largest = std::max(largest, b.id);
  if (boids.empty()) return 0u;
  // Not largest + 1 mod 2^32: that would number the children of a flock holding the last id
  // from 0, over ids that may be alive. Held at the top, next_id lets no child be born.
  return largest == kLastNextId ? kLastNextId : largest + 1u;
}

void require_ids_for_births(std::uint64_t step, std::uint32_t next_id, std::uint64_t born) {
  const std::uint64_t next_id_after = std::uint64_t{next_id} + born;
  if (next_id_after <= kLastNextId) return;
  throw InputError("step " + std::to_string(step) + ": " + std::to_string(born) +
                   (born == 1 ? " birth" : " births") + " would take next_id from " +
                   std::to_string(next_id) + " to " + std::to_string(next_id_after) +
                   ", past " + std::to_string(kLastNextId) +
                   ": ids are 32-bit and never reused while alive (docs/model.md, \"Ids that "
                   "stay unique\"); start from a state with smaller ids");
}

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

std::vector<float> initial_food(const Scenario& scenario) {
  if (!scenario.food) return {};
  const FoodParams& food = *scenario.food;
  const GridShape grid = food_grid_shape(food, scenario.size());
  std::vector<float> field(grid.cell_count());
  for (std::uint32_t c = 0; c < field.size(); ++c) {
    field[c] = food.initial.random
                   ? random_uniform(RandomDraw{scenario.world.seed, c, 0, 0}, 0.0f,
                                    food.max_per_cell)
                   : food.initial.fraction * food.max_per_cell;
  }
  // A patch covers the cells whose centre lies in [x, x + width) x [y, y + height): the
  // columns and the rows inside it, independently.
  const auto centre = [&](int index) {
    return (static_cast<float>(index) + 0.5f) * food.cell_size;
  };
  for (const FoodPatch& patch : food.patches) {
    const float right = patch.x + patch.width;
    const float top = patch.y + patch.height;
    for (int row = 0; row < grid.cells.y; ++row) {
      if (!(centre(row) >= patch.y && centre(row) < top)) continue;
      for (int column = 0; column < grid.cells.x; ++column) {
        if (!(centre(column) >= patch.x && centre(column) < right)) continue;
        field[static_cast<std::size_t>(row) * static_cast<std::size_t>(grid.cells.x) +
              static_cast<std::size_t>(column)] = patch.amount;
      }
    }
  }
  return field;
}

namespace {

// On one axis, the part of old cell `from` (its span clipped to the world, [0, length]) that
// lies in new cell `to`, as a fraction of the clipped span.
struct AxisShare {
  int from;
  int to;
  double fraction;
};

std::vector<AxisShare> axis_shares(int from_cells, double from_size, int to_cells,
                                   double to_size, double length) {
  std::vector<AxisShare> shares;
  for (int k = 0; k < from_cells; ++k) {
    const double low = k * from_size;
    const double high = std::min((k + 1) * from_size, length);
    if (!(high > low)) continue;  // a cell wholly past the world holds no area
    const int first = std::clamp(static_cast<int>(std::floor(low / to_size)), 0, to_cells - 1);
    for (int j = first; j < to_cells && j * to_size < high; ++j) {
      const double overlap = std::min(high, (j + 1) * to_size) - std::max(low, j * to_size);
      if (overlap > 0) shares.push_back({k, j, overlap / (high - low)});
    }
  }
  return shares;
}

}  // namespace

bool food_field_needs_refit(const FoodParams& from, const FoodParams& to) {
  return from.cell_size != to.cell_size || to.max_per_cell < from.max_per_cell;
}

std::vector<float> refit_food_field(const FoodParams& from, const FoodParams& to,
                                    glm::vec2 world, std::span<const float> field) {
  const GridShape old_grid = food_grid_shape(from, world);
  const GridShape new_grid = food_grid_shape(to, world);
  const auto old_columns = static_cast<std::size_t>(old_grid.cells.x);
  const auto new_columns = static_cast<std::size_t>(new_grid.cells.x);
  // Area shares are products of the two axes' shares: spread along x, then along y.
  std::vector<double> by_column(static_cast<std::size_t>(old_grid.cells.y) * new_columns, 0.0);
  for (const AxisShare& x : axis_shares(old_grid.cells.x, from.cell_size, new_grid.cells.x,
                                        to.cell_size, world.x)) {
    for (std::size_t row = 0; row < static_cast<std::size_t>(old_grid.cells.y); ++row) {
      by_column[row * new_columns + x.to] += x.fraction * field[row * old_columns + x.from];
    }
  }
  std::vector<double> spread(new_grid.cell_count(), 0.0);
  for (const AxisShare& y : axis_shares(old_grid.cells.y, from.cell_size, new_grid.cells.y,
                                        to.cell_size, world.y)) {
    for (std::size_t column = 0; column < new_columns; ++column) {
      spread[static_cast<std::size_t>(y.to) * new_columns + column] +=
          y.fraction * by_column[static_cast<std::size_t>(y.from) * new_columns + column];
    }
  }
  std::vector<float> refitted(spread.size());
  for (std::size_t c = 0; c < spread.size(); ++c) {
    refitted[c] = std::min(static_cast<float>(spread[c]), to.max_per_cell);
  }
  return refitted;
}

FlockState read_state_csv(const std::filesystem::path& path, const Scenario& scenario) {
  return parse_state_csv(read_input_file(path, "state file"), path.string(), scenario);
}

FlockState parse_state_csv(std::string_view text, const std::string& source,
                           const Scenario& scenario) {
  FlockState state = CsvReader(source, scenario).parse(text);
  // Files carry boids only: the field and the counters start afresh.
  state.food = initial_food(scenario);
  state.totals.assign(scenario.species.size(), SpeciesTotals{});
  return state;
}

void write_state_csv(const std::filesystem::path& path, const FlockState& state) {
  AtomicFile file(path);
  file.write(std::string(kCsvHeader).append("\n"));
  std::string row;
  for (const Boid& boid : state.boids) {
    if (!file.ok()) break;  // commit() reports the first failed write
    row.clear();
    append_csv_row(row, boid);
    file.write(row);
  }
  file.commit();
}

FlockState carried_state(const FlockState& state, const Scenario& scenario,
                         const std::string& source) {
  // Through the text of its file, so that its boids meet every check a file's meet.
  std::string text = std::string(kCsvHeader) + "\n";
  for (const Boid& boid : state.boids) append_csv_row(text, boid);
  FlockState carried = parse_state_csv(text, source, scenario);
  if (state.food.size() != carried.food.size()) {
    throw InputError(source + ": a food field of " + std::to_string(state.food.size()) +
                     " cells, the scenario's has " + std::to_string(carried.food.size()));
  }
  carried.food = state.food;
  carried.totals = state.totals;
  carried.totals.resize(scenario.species.size());
  carried.step = state.step;
  carried.next_id = state.resolved_next_id();
  return carried;
}

void write_state_npy(const std::filesystem::path& path, const FlockState& state) {
  AtomicFile file(path);
  const std::string header = npy_header(state.boids.size());
  file.write(kNpyMagic, kNpyMagicSize);
  const unsigned char version_and_length[4] = {
      kNpyVersionMajor, kNpyVersionMinor, static_cast<unsigned char>(header.size() & 0xff),
      static_cast<unsigned char>(header.size() >> 8)};
  file.write(version_and_length, sizeof version_and_length);
  file.write(header);

  std::vector<unsigned char> chunk(kRecordsPerChunk * kNpyRecordSize);
  for (std::size_t first = 0; first < state.boids.size() && file.ok(); first += kRecordsPerChunk) {
    const std::size_t n = std::min(kRecordsPerChunk, state.boids.size() - first);
    for (std::size_t k = 0; k < n; ++k) {
      const Boid& boid = state.boids[first + k];
      unsigned char* record = chunk.data() + k * kNpyRecordSize;
      const std::uint32_t fields[] = {boid.id,
                                      boid.species,
                                      std::bit_cast<std::uint32_t>(boid.pos.x),
                                      std::bit_cast<std::uint32_t>(boid.pos.y),
                                      std::bit_cast<std::uint32_t>(boid.vel.x),
                                      std::bit_cast<std::uint32_t>(boid.vel.y),
                                      boid.age,
                                      std::bit_cast<std::uint32_t>(boid.energy)};
      for (std::size_t f = 0; f < std::size(fields); ++f) put_u32_le(record + 4 * f, fields[f]);
    }
    file.write(chunk.data(), n * kNpyRecordSize);
  }
  file.commit();
}

void write_state(const std::filesystem::path& path, const FlockState& state) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".npy") {
    write_state_npy(path, state);
  } else if (extension == ".csv") {
    write_state_csv(path, state);
  } else {
    throw InputError(path.string() + ": unknown state file extension \"" +
                     path.extension().string() + "\" (accepted: .csv, .npy)");
  }
}

}  // namespace murmur
