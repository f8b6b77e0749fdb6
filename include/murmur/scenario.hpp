#pragma once
// A scenario: the world and its species, read from TOML (docs/scenarios.md lists every key,
// its default and its accepted range). The simulation core takes only validated scenarios.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "murmur/look.hpp"

namespace murmur {

enum class Topology : std::uint32_t { Wrap = 0, Bounded = 1 };

// At most this many species share a world: flocks_with is a bit mask on the GPU.
inline constexpr std::size_t kMaxSpecies = 32;
// A field of view of this many degrees sees all around (the largest accepted).
inline constexpr float kMaxFovDegrees = 360.0f;
// Obstacles live in a small GPU array that every boid scans.
inline constexpr std::size_t kMaxObstacles = 64;
// Seeds are TOML integers (signed 64-bit), so a larger seed could not be written back.
inline constexpr std::uint64_t kMaxSeed = 9223372036854775807ull;  // 2^63 - 1

struct SpeciesParams {
  std::string name;
  std::uint32_t count = 0;
  Topology topology = Topology::Wrap;
  float perception_radius = 0;   // r
  float separation_radius = 0;   // r_sep <= r
  float fov_degrees = 360;       // (0, 360]
  float align_weight = 0;
  float cohesion_weight = 0;
  float separation_weight = 0;
  float max_force = 0;           // F > 0
  float min_speed = 0;           // 0 <= S_min <= S_max
  float max_speed = 0;           // S_max > 0
  float edge_margin = 0;         // m (bounded only)
  float edge_gain = 0;           // k (bounded only)
  std::vector<std::string> flocks_with;  // species names; empty in a file means "itself"
  glm::vec3 colour{1.0f, 1.0f, 1.0f};    // linear RGB for rendering, key `colour`
  float obstacle_weight = 0;  // w_obs: push away from obstacles (docs/model.md)
  float target_weight = 0;    // w_tgt: pull towards the target, when one is set
  std::uint32_t max_age = 0;  // A: dies when its age reaches this many steps; 0 = never
};

// A disc the boids steer around (key `[[obstacle]] x y radius`; the viewer's left click).
struct Obstacle {
  glm::vec2 centre{0.0f};
  float radius = 0;
};

// A point every boid is pulled towards (key `[target] x y`; the viewer's right click).
struct Target {
  glm::vec2 position{0.0f};
};

struct WorldParams {
  float width = 0;   // Lx
  float height = 0;  // Ly
  std::uint64_t seed = 0;
  std::uint32_t capacity = 0;  // C: the most boids the flock holds; 0 = the total count
};

struct Scenario {
  WorldParams world;
  std::vector<SpeciesParams> species;
  std::vector<Obstacle> obstacles;
  std::optional<Target> target;
  LookParams look;  // the [render] table: how the scenario asks to be drawn
  std::string source;  // file the scenario came from (for messages and manifests)

  glm::vec2 size() const { return {world.width, world.height}; }
  std::uint32_t total_count() const;
  // C of docs/model.md: world.capacity, or the total count when that is larger or unset.
  std::uint32_t capacity() const;
  float max_perception_radius() const;
  // Bit j set when species s flocks with species j (aligns with and coheres to it).
  std::uint32_t flock_mask(std::size_t s) const;
};

// Reads and validates a scenario file. Throws InputError with one line naming the file,
// line, key and accepted range.
Scenario load_scenario(const std::filesystem::path& path);
// Same, from text; `source` names it in messages.
Scenario parse_scenario(std::string_view text, const std::string& source);
// Checks every field of an in-memory scenario (the viewer's panel uses this too).
// Throws InputError naming `source`, the key and the accepted range.
void validate_scenario(const Scenario& scenario);
// Writes a scenario back as TOML that parse_scenario reads to the same values.
std::string scenario_to_toml(const Scenario& scenario);
// `text` as a TOML basic string: quoted, with quotes, backslashes and control characters escaped.
std::string toml_quote(std::string_view text);

}  // namespace murmur
