#pragma once
// What the scenario's parser (parse.cpp), checks (check.cpp) and writer (write.cpp) share: the
// source line of each key, the one-line failure, the labels messages name tables by, and which
// [[spawn]] keys a layout takes. Private to src/scenario/.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "murmur/base/errors.hpp"
#include "murmur/scenario/scenario.hpp"

namespace murmur::scenario_internal {

inline std::string quote(std::string_view text) { return toml_quote(text); }

// ---- where each value came from --------------------------------------------------------

// Source lines of one table's keys; 0 means "not from a file".
struct KeyLines {
  std::uint32_t table = 0;
  std::map<std::string, std::uint32_t, std::less<>> keys;
  // A key left out takes its default, which the table header stands for.
  std::uint32_t line_of(std::string_view key) const {
    const auto found = keys.find(key);
    return found != keys.end() ? found->second : table;
  }
};

struct ScenarioLines {
  KeyLines world;
  std::vector<KeyLines> species;
  std::vector<KeyLines> obstacles;
  KeyLines target;
  KeyLines render;
  KeyLines camera;
  KeyLines food;
  std::vector<KeyLines> patches;
  std::vector<KeyLines> spawns;
  KeyLines plan;
  std::vector<KeyLines> plan_groups;
};

[[noreturn]] inline void fail(const std::string& source, std::uint32_t line,
                              const std::string& what) {
  std::string message = source.empty() ? "<scenario>" : source;
  if (line != 0) message += ":" + std::to_string(line);
  throw InputError(message + ": " + what);
}

// ---- labels and keys of the tables -----------------------------------------------------

inline std::string species_label(std::size_t index, std::string_view name) {
  std::string label = "species[" + std::to_string(index) + "]";
  if (!name.empty()) label += " (" + std::string(name) + ")";
  return label;
}

inline std::string spawn_label(std::size_t index) {
  return "spawn[" + std::to_string(index) + "]";
}

// Whether [[spawn]] key `key` means something for `layout`: every layout has a species, a count
// and a point; the region's size and the velocity keys belong to the layouts that use them, so
// that a key which would be ignored is an error instead.
inline bool spawn_key_applies(SpawnLayout layout, std::string_view key) {
  namespace k = params::spawn;
  for (const std::string_view common : {k::species.key, k::count.key, k::layout.key, k::x.key,
                                        k::y.key}) {
    if (key == common) return true;
  }
  const bool speed_key = key == k::min_speed.key || key == k::max_speed.key;
  const bool velocity_key = speed_key || key == k::heading_min.key || key == k::heading_max.key;
  const bool velocity_key_3d =
      speed_key || key == k::direction.key || key == k::spread_degrees.key;
  switch (layout) {
    case SpawnLayout::Rectangle: return velocity_key || key == k::width.key || key == k::height.key;
    case SpawnLayout::Disc: return velocity_key || key == k::radius.key;
    case SpawnLayout::Clusters: return key == k::first_index.key || key == k::spread.key;
    case SpawnLayout::Ball: return velocity_key_3d || key == k::z.key || key == k::radius.key;
    case SpawnLayout::Box:
      return velocity_key_3d || key == k::z.key || key == k::width.key || key == k::height.key ||
             key == k::depth.key;
  }
  return false;
}

// The [[spawn]] keys that only a 3D world has, and those only a 2D world has: a file that gives
// one in the other world is refused by name (world.dimensions), before the layout's keys are.
inline bool spawn_key_is_3d_only(std::string_view key) {
  namespace k = params::spawn;
  return key == k::z.key || key == k::depth.key || key == k::direction.key ||
         key == k::spread_degrees.key;
}
inline bool spawn_key_is_2d_only(std::string_view key) {
  namespace k = params::spawn;
  return key == k::heading_min.key || key == k::heading_max.key;
}

// Why `layout` is refused in a 3D world (`volume`) or a 2D one, or nothing when it is accepted:
// a 2D world takes rectangle, disc and clusters, a 3D one ball and box.
inline std::optional<std::string> spawn_layout_refusal(SpawnLayout layout, bool volume) {
  if (is_3d_layout(layout) == volume) return std::nullopt;
  return volume ? "a 2D layout, refused in a 3D world (world.dimensions = 3): must be "
                  "\"ball\" or \"box\""
                : "a 3D layout, refused in a 2D world (world.dimensions = 2): must be "
                  "\"rectangle\", \"disc\" or \"clusters\"";
}

// Reads `value` into the world's key `key`, or into the key of species `species`, as a file's
// line `key = value` in that table would be read (parse.cpp): TOML, or a bare word read as a
// string; messages name `source` and no line.
void read_key(FlockScenario& scenario, std::optional<std::size_t> species, std::string_view key,
              std::string_view value, const std::string& source);

// Checks every table of `scenario` (check.cpp); `lines`, when the scenario came from a file,
// gives each message its line.
void check_scenario(const FlockScenario& scenario, const ScenarioLines* lines);
void check_scenario(const PlanScenario& scenario, const ScenarioLines* lines);
// A file with a [plan] table is a plan, whose agents follow [plan] alone: any flock's table it
// holds too (read into `tables`) would be silently ignored, so each is an error.
void check_plan_has_no_flock(const FlockScenario& tables, const ScenarioLines& lines);

}  // namespace murmur::scenario_internal
