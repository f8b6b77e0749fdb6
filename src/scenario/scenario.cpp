// Scenario files: TOML in, validated Scenario out, and back (docs/scenarios.md is the user's
// reference for every key, default and range below).
#include "murmur/scenario/scenario.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <system_error>
#include <tuple>
#include <type_traits>

#include <toml++/toml.h>

#include "common/interface.h"
#include "murmur/base/errors.hpp"
#include "murmur/plan/plan.hpp"
#include "param_text.hpp"

namespace murmur {
namespace {

using params::choice_text;
using params::show_double;
using params::show_float;

constexpr std::size_t kMaxShownValueChars = 40;
constexpr int kFloatDigits = 9;  // %.9g: enough to read every float32 back exactly

// A species whose keys all take their defaults (the table's); its name says its place.
SpeciesParams default_species(std::size_t index) {
  SpeciesParams s;
  s.name = "species" + std::to_string(index);
  return s;
}

constexpr std::string_view kObstacleKeys = "x, y, radius";
constexpr std::string_view kTargetKeys = "x, y";
constexpr std::string_view kTopLevelKeys =
    "world, species, obstacle, target, food, render, spawn, plan";
// The [food] table's array of [[food.patch]] tables.
constexpr std::string_view kFoodPatchKey = "patch";
// The [plan] table's array of [[plan.group]] tables.
constexpr std::string_view kPlanGroupKey = "group";


// The keys of one parameter table in table order, for messages ("width, height, seed").
// `for_each_param` calls its argument with each key's info (for_each_world_param, ...).
template <class ForEachParam>
std::string key_list(ForEachParam for_each_param) {
  std::string list;
  for_each_param([&](const auto& info) {
    list += (list.empty() ? "" : ", ") + std::string(info.key);
  });
  return list;
}

// The tables, as arguments for key_list and Parser::read_keys.
const auto world_params = [](auto&& visit) { for_each_world_param(visit); };
const auto species_params = [](auto&& visit) { for_each_species_param(visit); };
const auto render_params = [](auto&& visit) { for_each_render_param(visit); };
const auto food_params = [](auto&& visit) { for_each_food_param(visit); };
const auto food_patch_params = [](auto&& visit) { for_each_food_patch_param(visit); };
const auto spawn_params = [](auto&& visit) { for_each_spawn_param(visit); };
const auto plan_params = [](auto&& visit) { for_each_plan_param(visit); };
const auto plan_group_params = [](auto&& visit) { for_each_plan_group_param(visit); };

// Whether [[spawn]] key `key` means something for `layout`: every layout has a species, a count
// and a point; the region's size and the velocity keys belong to the layouts that use them, so
// that a key which would be ignored is an error instead.
bool spawn_key_applies(SpawnLayout layout, std::string_view key) {
  namespace k = params::spawn;
  for (const std::string_view common : {k::species.key, k::count.key, k::layout.key, k::x.key,
                                        k::y.key}) {
    if (key == common) return true;
  }
  const bool velocity_key = key == k::min_speed.key || key == k::max_speed.key ||
                            key == k::heading_min.key || key == k::heading_max.key;
  switch (layout) {
    case SpawnLayout::Rectangle: return velocity_key || key == k::width.key || key == k::height.key;
    case SpawnLayout::Disc: return velocity_key || key == k::radius.key;
    case SpawnLayout::Clusters: return key == k::first_index.key || key == k::spread.key;
  }
  return false;
}

// The keys of `layout`, for messages ("species, count, layout, x, y, radius, ...").
std::string spawn_keys_of(SpawnLayout layout) {
  std::string list;
  for_each_spawn_param([&](const auto& info) {
    if (!spawn_key_applies(layout, info.key)) return;
    list += (list.empty() ? "" : ", ") + std::string(info.key);
  });
  return list;
}

std::string spawn_label(std::size_t index) { return "spawn[" + std::to_string(index) + "]"; }

// ---- text helpers ----------------------------------------------------------------------

// %.9g without the locale (a viewer may have called setlocale).
std::string format_float(float value) {
  char buffer[64];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, kFloatDigits);
  return std::string(buffer, result.ptr);
}

std::string quote(std::string_view text) { return toml_quote(text); }

std::string show_node(const toml::node& node) {
  std::string shown;
  switch (node.type()) {
    case toml::node_type::string: shown = quote(node.as_string()->get()); break;
    case toml::node_type::integer: shown = std::to_string(node.as_integer()->get()); break;
    case toml::node_type::floating_point:
      shown = show_double(node.as_floating_point()->get());
      break;
    case toml::node_type::boolean: shown = node.as_boolean()->get() ? "true" : "false"; break;
    case toml::node_type::array: shown = "[...]"; break;
    case toml::node_type::table: shown = "{...}"; break;
    default: shown = "<date/time>"; break;
  }
  if (shown.size() > kMaxShownValueChars) shown = shown.substr(0, kMaxShownValueChars) + "...";
  return shown;
}

std::string_view type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::array: return "an array";
    case toml::node_type::table: return "a table";
    default: return "a date/time";
  }
}

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
  KeyLines food;
  std::vector<KeyLines> patches;
  std::vector<KeyLines> spawns;
  KeyLines plan;
  std::vector<KeyLines> plan_groups;
};

[[noreturn]] void fail(const std::string& source, std::uint32_t line, const std::string& what) {
  std::string message = source.empty() ? "<scenario>" : source;
  if (line != 0) message += ":" + std::to_string(line);
  throw InputError(message + ": " + what);
}

std::string species_label(std::size_t index, std::string_view name) {
  std::string label = "species[" + std::to_string(index) + "]";
  if (!name.empty()) label += " (" + std::string(name) + ")";
  return label;
}

// ---- validation (shared by files and in-memory scenarios) ------------------------------

class Validator {
  // The owner of a table whose ranges name no other key ([world], [render]).
  static constexpr const SpeciesParams* kNoOwner = nullptr;

 public:
  Validator(const Scenario& scenario, const ScenarioLines* lines)
      : scenario_(scenario), lines_(lines) {}

  void run() {
    check_world();
    if (scenario_.plan) {
      check_plan();
      check_look();
      return;
    }
    check_species_list();
    for (std::size_t i = 0; i < scenario_.species.size(); ++i) check_species(i);
    check_total_count();
    check_obstacles();
    check_target();
    check_food();
    check_look();
    check_spawns();
  }

 private:
  std::uint32_t world_line(std::string_view key) const {
    return lines_ ? lines_->world.line_of(key) : 0;
  }
  std::uint32_t species_line(std::size_t i, std::string_view key) const {
    return lines_ && i < lines_->species.size() ? lines_->species[i].line_of(key) : 0;
  }

  void check_world() const {
    for_each_world_param([&](const auto& info) {
      const auto& value = scenario_.world.*info.member;
      if (auto broken = broken_rule(value, info.accepted, kNoOwner, true)) {
        fail(scenario_.source, world_line(info.key),
             "world." + std::string(info.key) + " = " + shown_value(value) + ": " + *broken);
      }
    });
  }

  void check_species_list() const {
    if (scenario_.species.empty()) {
      fail(scenario_.source, 0, "no [[species]] table: a scenario needs at least one species");
    }
    if (scenario_.species.size() > kMaxSpecies) {
      fail(scenario_.source, species_line(kMaxSpecies, "name"),
           species_label(kMaxSpecies, scenario_.species[kMaxSpecies].name) +
               ": too many species (" + std::to_string(scenario_.species.size()) + "): at most " +
               std::to_string(kMaxSpecies) + " share a world");
    }
  }

  [[noreturn]] void fail_species(std::size_t i, std::string_view key, const std::string& value,
                                 const std::string& requirement) const {
    fail(scenario_.source, species_line(i, key),
         species_label(i, scenario_.species[i].name) + "." + std::string(key) + " = " + value +
             ": " + requirement);
  }

  void check_species(std::size_t i) const {
    check_name(i);
    for_each_species_param([&](const auto& info) { check_finite(i, info); });
    // A range that names another key is checked after every plain one, so that the key it
    // names is known to be good (min_speed <= max_speed is judged with a valid max_speed).
    for (const bool names_a_key : {false, true}) {
      for_each_species_param([&](const auto& info) {
        if (refers_to_key(info.accepted) == names_a_key) check_range(i, info);
      });
    }
    check_species_names(i, params::species::flocks_with.key, scenario_.species[i].flocks_with);
    check_species_names(i, params::species::eats.key, scenario_.species[i].eats);
    if (scenario_.species[i].grazes && !scenario_.food) {
      fail_species(i, params::species::grazes.key, "true",
                   "a grazer needs a [food] table (docs/model.md, \"The food field\")");
    }
    // A boid with energy starts alive only with some: at 0 it would starve in its first step.
    const SpeciesParams& species = scenario_.species[i];
    if (species.energy_max > 0.0f && !(species.energy_initial > 0.0f)) {
      fail_species(i, params::species::energy_initial.key, show_float(species.energy_initial),
                   "must be > 0 for a species with energy (energy_max > 0)");
    }
  }

  template <class Info>
  void check_finite(std::size_t i, const Info& info) const {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(info.default_value)>, float>) {
      const float value = scenario_.species[i].*info.member;
      if (!std::isfinite(value)) fail_species(i, info.key, show_float(value), "must be finite");
    }
  }

  static bool refers_to_key(const params::Accepted& accepted) {
    return accepted.lower.kind == params::Bound::Kind::Key ||
           accepted.upper.kind == params::Bound::Kind::Key;
  }

  // The number `bound` stands for, for the species `owner` (Key bounds name keys of the species
  // table; the [render] table has none). Compared in double: exact for float32 and for every
  // integer key.
  template <class Owner>
  long double bound_value(const Owner* owner, const params::Bound& bound) const {
    switch (bound.kind) {
      case params::Bound::Kind::Value: return bound.value;
      case params::Bound::Kind::HalfWorldSide:
        return 0.5f * std::min(scenario_.world.width, scenario_.world.height);
      case params::Bound::Kind::Key: return owner ? float_key(*owner, bound.key) : 0.0L;
      case params::Bound::Kind::None: break;
    }
    return 0.0L;
  }

  // The float key `key` of `owner`'s table (a Key bound names a key of the same table).
  template <class Owner>
  static float float_key(const Owner& owner, std::string_view key) {
    float value = 0.0f;
    const auto visit = [&](const auto& info) {
      if constexpr (std::is_same_v<std::remove_cvref_t<decltype(info.default_value)>, float>) {
        if (info.key == key) value = owner.*info.member;
      }
    };
    if constexpr (std::is_same_v<Owner, SpeciesParams>) for_each_species_param(visit);
    if constexpr (std::is_same_v<Owner, FoodParams>) for_each_food_param(visit);
    return value;
  }

  template <class Owner>
  bool within(const Owner* owner, const params::Accepted& accepted,
              long double value) const {
    const params::Bound& lower = accepted.lower;
    const params::Bound& upper = accepted.upper;
    if (lower.kind != params::Bound::Kind::None) {
      const long double limit = bound_value(owner, lower);
      if (lower.inclusive ? !(value >= limit) : !(value > limit)) return false;
    }
    if (upper.kind != params::Bound::Kind::None) {
      const long double limit = bound_value(owner, upper);
      if (upper.inclusive ? !(value <= limit) : !(value < limit)) return false;
    }
    return true;
  }

  // One end as a message shows it: "< 40 (half the smaller world side)",
  // "<= perception_radius (12)", ">= 0".
  template <class Owner>
  std::string bound_text(const Owner* owner, const params::Bound& bound,
                         std::string_view op, bool integer) const {
    const long double value = bound_value(owner, bound);
    const std::string number = integer ? std::to_string(static_cast<std::int64_t>(value))
                                        : show_float(static_cast<float>(value));
    switch (bound.kind) {
      case params::Bound::Kind::Value: return std::string(op) + number;
      case params::Bound::Kind::HalfWorldSide:
        return std::string(op) + number + " (half the smaller world side)";
      case params::Bound::Kind::Key:
        return std::string(op) + std::string(bound.key) + " (" + number + ")";
      case params::Bound::Kind::None: break;
    }
    return {};
  }

  // "> 0 and < 1 (the fraction kept per step)". `finite`: the range also says "and finite"
  // where it has no upper end (for tables whose finite check is not a message of its own).
  template <class Owner>
  std::string range_text(const Owner* owner, const params::Accepted& accepted,
                         bool integer, bool finite) const {
    std::string text = params::join_range(
        bound_text(owner, accepted.lower, params::lower_operator(accepted.lower), integer),
        bound_text(owner, accepted.upper, params::upper_operator(accepted.upper), integer));
    if (finite && accepted.upper.kind == params::Bound::Kind::None) text += " and finite";
    if (!accepted.note.empty()) text += " (" + std::string(accepted.note) + ")";
    return text;
  }

  // What `value` breaks of `accepted` ("must be ..."), or nothing. Names (std::string,
  // std::vector<std::string>) are checked by check_name and check_flocks_with instead: their
  // rules relate species to each other.
  template <class T, class Owner>
  std::optional<std::string> broken_rule(const T& value, const params::Accepted& accepted,
                                         const Owner* owner, bool finite) const {
    if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
      constexpr bool integer = std::is_integral_v<T>;
      bool ok = within(owner, accepted, static_cast<long double>(value));
      if constexpr (!integer) ok = ok && (!finite || std::isfinite(value));
      if (!ok) return "must be " + range_text(owner, accepted, integer, finite && !integer);
    } else if constexpr (std::is_enum_v<T>) {
      if (static_cast<std::size_t>(value) >= std::size(names_of(value))) {
        return "must be " + choice_text(names_of(value));
      }
    } else if constexpr (std::is_same_v<T, glm::vec3>) {
      for (int c = 0; c < 3; ++c) {
        if (!within(owner, accepted, value[c])) {
          return "each component must be " + range_text(owner, accepted, false, false);
        }
      }
    }
    return std::nullopt;
  }

  template <class Info>
  void check_range(std::size_t i, const Info& info) const {
    const SpeciesParams& species = scenario_.species[i];
    const auto& value = species.*info.member;
    if (auto broken = broken_rule(value, info.accepted, &species, false)) {
      fail_species(i, info.key, shown_value(value), *broken);
    }
  }

  // A value as messages show it (the shortest float text that reads back the same).
  static std::string shown_value(float value) { return show_float(value); }
  static std::string shown_value(std::uint32_t value) { return std::to_string(value); }
  static std::string shown_value(int value) { return std::to_string(value); }
  static std::string shown_value(std::uint64_t value) { return std::to_string(value); }
  static std::string shown_value(bool value) { return value ? "true" : "false"; }
  static std::string shown_value(const CircleRadius& value) {
    return value.kind == CircleRadiusKind::WorldUnits
               ? show_float(value.world_units)
               : quote(kCircleRadiusNames[static_cast<std::size_t>(value.kind)]);
  }
  static std::string shown_value(const FoodInitial& value) {
    return value.random ? quote(kFoodInitialRandom) : show_float(value.fraction);
  }
  static std::string shown_value(const std::string& value) { return quote(value); }
  static std::string shown_value(const std::vector<std::string>& names) {
    std::string list;
    for (const std::string& name : names) list += (list.empty() ? "" : ", ") + quote(name);
    return "[" + list + "]";
  }
  static std::string shown_value(glm::vec3 value) {
    return "[" + show_float(value.r) + ", " + show_float(value.g) + ", " + show_float(value.b) +
           "]";
  }
  template <class Enum>
    requires std::is_enum_v<Enum>
  static std::string shown_value(Enum value) {
    return std::to_string(static_cast<std::uint32_t>(value));
  }

  void check_name(std::size_t i) const {
    const std::string& name = scenario_.species[i].name;
    const std::string label = species_label(i, "") + ".name = " + quote(name);
    if (name.empty()) fail(scenario_.source, species_line(i, "name"), label + ": must not be empty");
    for (const char c : name) {
      const auto byte = static_cast<unsigned char>(c);
      if (byte < 0x20 || byte == 0x7f) {
        fail(scenario_.source, species_line(i, "name"),
             label + ": must not contain control characters");
      }
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (scenario_.species[j].name == name) {
        fail(scenario_.source, species_line(i, "name"),
             label + ": must be unique, species[" + std::to_string(j) + "] has the same name");
      }
    }
  }

  // flocks_with and eats: every name is a species of the scenario.
  void check_species_names(std::size_t i, std::string_view key,
                           const std::vector<std::string>& list) const {
    for (const std::string& name : list) {
      bool known = false;
      for (const SpeciesParams& other : scenario_.species) known = known || other.name == name;
      if (!known) fail_species(i, key, quote(name), unknown_species_text());
    }
  }

  std::string unknown_species_text() const {
    std::string names;
    for (const SpeciesParams& other : scenario_.species) {
      names += (names.empty() ? "" : ", ") + quote(other.name);
    }
    return "no species has this name (species: " + names + ")";
  }

  void check_total_count() const {
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < scenario_.species.size(); ++i) {
      total += scenario_.species[i].count;
      if (total > kMaxTotalBoids) {
        fail_species(i, "count", std::to_string(scenario_.species[i].count),
                     "the total over all species (" + std::to_string(total) +
                         ") must be <= " + std::to_string(kMaxTotalBoids));
      }
    }
    if (total == 0) {
      fail_species(0, "count", "0",
                   "the total over all species is 0: at least one boid is needed");
    }
  }

  std::uint32_t obstacle_line(std::size_t i, std::string_view key) const {
    return lines_ && i < lines_->obstacles.size() ? lines_->obstacles[i].line_of(key) : 0;
  }

  // A point of the world, walls included: [0, width] x [0, height].
  bool inside_world(glm::vec2 p) const {
    return p.x >= 0.0f && p.x <= scenario_.world.width && p.y >= 0.0f &&
           p.y <= scenario_.world.height;
  }

  std::string world_range() const {
    return "[0, " + show_float(scenario_.world.width) + "] x [0, " +
           show_float(scenario_.world.height) + "] (the world)";
  }

  void check_obstacles() const {
    if (scenario_.obstacles.size() > kMaxObstacles) {
      fail(scenario_.source, obstacle_line(kMaxObstacles, "x"),
           "obstacle[" + std::to_string(kMaxObstacles) + "]: too many obstacles (" +
               std::to_string(scenario_.obstacles.size()) + "): at most " +
               std::to_string(kMaxObstacles));
    }
    for (std::size_t i = 0; i < scenario_.obstacles.size(); ++i) {
      const Obstacle& o = scenario_.obstacles[i];
      const std::string label = "obstacle[" + std::to_string(i) + "]";
      if (!inside_world(o.centre)) {
        fail(scenario_.source, obstacle_line(i, "x"),
             label + " (x, y) = (" + show_float(o.centre.x) + ", " + show_float(o.centre.y) +
                 "): must lie in " + world_range());
      }
      if (!(o.radius > 0.0f) || !std::isfinite(o.radius)) {
        fail(scenario_.source, obstacle_line(i, "radius"),
             label + ".radius = " + show_float(o.radius) + ": must be > 0 and finite");
      }
    }
  }

  void check_target() const {
    if (!scenario_.target) return;
    const glm::vec2 p = scenario_.target->position;
    if (!inside_world(p)) {
      fail(scenario_.source, lines_ ? lines_->target.line_of("x") : 0,
           "target (x, y) = (" + show_float(p.x) + ", " + show_float(p.y) + "): must lie in " +
               world_range());
    }
  }

  std::uint32_t food_line(std::string_view key) const {
    return lines_ ? lines_->food.line_of(key) : 0;
  }
  std::uint32_t patch_line(std::size_t i, std::string_view key) const {
    return lines_ && i < lines_->patches.size() ? lines_->patches[i].line_of(key) : 0;
  }

  void check_food() const {
    if (!scenario_.food) return;
    const FoodParams& food = *scenario_.food;
    // Plain ranges first, then those naming another key (as for species).
    for (const bool names_a_key : {false, true}) {
      for_each_food_param([&](const auto& info) {
        if (refers_to_key(info.accepted) != names_a_key) return;
        const auto& value = food.*info.member;
        if (auto broken = broken_rule(value, info.accepted, &food, true)) {
          fail(scenario_.source, food_line(info.key),
               "food." + std::string(info.key) + " = " + shown_value(value) + ": " + *broken);
        }
      });
    }
    const double cells = std::ceil(double(scenario_.world.width) / double(food.cell_size)) *
                         std::ceil(double(scenario_.world.height) / double(food.cell_size));
    if (cells > double(kMaxFoodCells)) {
      fail(scenario_.source, food_line(params::food::cell_size.key),
           "food.cell_size = " + show_float(food.cell_size) + ": must be large enough for at " +
               "most " + std::to_string(kMaxFoodCells) + " food cells in the world (it gives " +
               show_double(cells) + ")");
    }
    const FoodInitial& initial = food.initial;
    if (!initial.random && !(initial.fraction >= 0.0f && initial.fraction <= 1.0f)) {
      fail(scenario_.source, food_line(params::food::initial.key),
           "food.initial = " + shown_value(initial) + ": must be a number >= 0 and <= 1, or " +
               quote(kFoodInitialRandom));
    }
    for (std::size_t i = 0; i < food.patches.size(); ++i) check_food_patch(i, food);
  }

  void check_food_patch(std::size_t i, const FoodParams& food) const {
    const FoodPatch& patch = food.patches[i];
    const std::string label = "food.patch[" + std::to_string(i) + "].";
    const auto fail_patch = [&](std::string_view key, float value, const std::string& rule) {
      fail(scenario_.source, patch_line(i, key),
           label + std::string(key) + " = " + show_float(value) + ": must be " + rule);
    };
    for_each_food_patch_param([&](const auto& info) {
      const float value = patch.*info.member;
      if (auto broken = broken_rule(value, info.accepted, &patch, true)) {
        fail(scenario_.source, patch_line(i, info.key),
             label + std::string(info.key) + " = " + show_float(value) + ": " + *broken);
      }
    });
    if (!(patch.x >= 0.0f && patch.x <= scenario_.world.width)) {
      fail_patch(params::food_patch::x.key, patch.x,
                 ">= 0 and <= " + show_float(scenario_.world.width) + " (the world's width)");
    }
    if (!(patch.y >= 0.0f && patch.y <= scenario_.world.height)) {
      fail_patch(params::food_patch::y.key, patch.y,
                 ">= 0 and <= " + show_float(scenario_.world.height) + " (the world's height)");
    }
    if (!(patch.amount >= 0.0f && patch.amount <= food.max_per_cell)) {
      fail_patch(params::food_patch::amount.key, patch.amount,
                 ">= 0 and <= max_per_cell (" + show_float(food.max_per_cell) + ")");
    }
  }

  std::uint32_t plan_line(std::string_view key) const {
    return lines_ ? lines_->plan.line_of(key) : 0;
  }
  std::uint32_t plan_group_line(std::size_t i, std::string_view key) const {
    return lines_ && i < lines_->plan_groups.size() ? lines_->plan_groups[i].line_of(key) : 0;
  }

  // A plan scenario's agents follow the [plan] table alone: the flock's tables would be
  // silently ignored, so each is an error.
  void check_plan_has_no_flock() const {
    const auto reject = [&](bool present, std::string_view table) {
      if (!present) return;
      fail(scenario_.source, lines_ ? lines_->plan.table : 0,
           std::string(table) + ": not part of a plan scenario (one with a [plan] table takes " +
               "only [world], [render] and [plan] with its [[plan.group]] tables)");
    };
    reject(!scenario_.species.empty(), "[[species]]");
    reject(!scenario_.spawns.empty(), "[[spawn]]");
    reject(!scenario_.obstacles.empty(), "[[obstacle]]");
    reject(scenario_.target.has_value(), "[target]");
    reject(scenario_.food.has_value(), "[food]");
  }

  void check_plan() const {
    check_plan_has_no_flock();
    const PlanParams& plan = *scenario_.plan;
    for_each_plan_param([&](const auto& info) {
      const auto& value = plan.*info.member;
      if (auto broken = broken_rule(value, info.accepted, &plan, true)) {
        fail(scenario_.source, plan_line(info.key),
             "plan." + std::string(info.key) + " = " + shown_value(value) + ": " + *broken);
      }
    });
    if (plan.groups.empty()) {
      fail(scenario_.source, lines_ ? lines_->plan.table : 0,
           "plan.group: no groups: a plan needs at least one [[plan.group]] (or none written, "
           "for seed 003's two)");
    }
    for (std::size_t i = 0; i < plan.groups.size(); ++i) check_plan_group(i);
    std::uint64_t total = 0;
    for (const PlanGroup& group : plan.groups) total += group.count;
    if (total > kMaxTotalBoids) {
      fail(scenario_.source, plan_group_line(0, params::plan_group::count.key),
           "plan.group counts add up to " + std::to_string(total) + ": must be <= " +
               std::to_string(kMaxTotalBoids) + " agents in all");
    }
    // Branching counts the canvas's coverage cells in a bitmap (docs/model.md, "Branching").
    if (plan.branch_chance > 0.0f) {
      const float side = plan_index_cell_side(plan.clearance);
      const double cells = PlanCoverage::cells_for(scenario_.size(), side);
      if (cells > double(MURMUR_PLAN_MAX_COVERAGE_CELLS)) {
        fail(scenario_.source, plan_line(params::plan::branch_chance.key),
             "plan.branch_chance = " + shown_value(plan.branch_chance) +
                 ": branching needs a canvas of at most " +
                 std::to_string(MURMUR_PLAN_MAX_COVERAGE_CELLS) + " coverage cells (side " +
                 show_float(side) + ", the clearance index's), this one has " +
                 std::to_string(std::uint64_t(cells)));
      }
    }
  }

  void check_plan_group(std::size_t i) const {
    const PlanGroup& group = scenario_.plan->groups[i];
    const std::string label = "plan.group[" + std::to_string(i) + "].";
    for_each_plan_group_param([&](const auto& info) {
      const auto& value = group.*info.member;
      if (auto broken = broken_rule(value, info.accepted, &group, true)) {
        fail(scenario_.source, plan_group_line(i, info.key),
             label + std::string(info.key) + " = " + shown_value(value) + ": " + *broken);
      }
    });
    const auto within_side = [&](std::string_view key, float low, float size, float side,
                                 std::string_view size_key, std::string_view side_name) {
      if (low >= 0.0f && double(low) + double(size) <= double(side)) return;
      fail(scenario_.source, plan_group_line(i, key),
           label + std::string(key) + " = " + show_float(low) + ": must be >= 0 and " +
               std::string(key) + " + " + std::string(size_key) + " (" + show_float(size) +
               ") <= " + show_float(side) + " (the world's " + std::string(side_name) + ")");
    };
    within_side(params::plan_group::x.key, group.x, group.width, scenario_.world.width,
                params::plan_group::width.key, "width");
    within_side(params::plan_group::y.key, group.y, group.height, scenario_.world.height,
                params::plan_group::height.key, "height");
  }

  [[noreturn]] void fail_render(std::string_view key, const std::string& value,
                                const std::string& requirement) const {
    fail(scenario_.source, lines_ ? lines_->render.line_of(key) : 0,
         "render." + std::string(key) + " = " + value + ": " + requirement);
  }

  void check_look() const {
    for_each_render_param([&](const auto& info) {
      const auto& value = scenario_.look.*info.member;
      if (!value) return;
      if (auto broken = broken_rule(*value, info.accepted, kNoOwner, true)) {
        fail_render(info.key, shown_value(*value), *broken);
      }
    });
  }

  std::uint32_t spawn_line(std::size_t i, std::string_view key) const {
    return lines_ && i < lines_->spawns.size() ? lines_->spawns[i].line_of(key) : 0;
  }

  // Each [[spawn]]: a known species, counts within the species' count, a region inside the
  // world and velocity ranges in order (docs/scenarios.md, "[[spawn]]").
  void check_spawns() const {
    std::vector<std::uint64_t> placed(scenario_.species.size(), 0);
    for (std::size_t i = 0; i < scenario_.spawns.size(); ++i) {
      const SpawnRegion& spawn = scenario_.spawns[i];
      const std::string label = spawn_label(i) + ".";
      const auto fail_spawn = [&](std::string_view key, const std::string& value,
                                  const std::string& rule) {
        fail(scenario_.source, spawn_line(i, key),
             label + std::string(key) + " = " + value + ": " + rule);
      };
      namespace k = params::spawn;
      const auto species = std::find_if(
          scenario_.species.begin(), scenario_.species.end(),
          [&](const SpeciesParams& s) { return s.name == spawn.species; });
      if (species == scenario_.species.end()) {
        fail_spawn(k::species.key, quote(spawn.species), unknown_species_text());
      }
      for_each_spawn_param([&](const auto& info) {
        const auto& value = spawn.*info.member;
        using T = std::remove_cvref_t<decltype(value)>;
        if constexpr (std::is_same_v<T, float>) {
          if (!std::isfinite(value)) fail_spawn(info.key, show_float(value), "must be finite");
        }
        if (auto broken = broken_rule(value, info.accepted, &spawn, true)) {
          fail_spawn(info.key, shown_value(value), *broken);
        }
      });
      const auto s = static_cast<std::size_t>(species - scenario_.species.begin());
      placed[s] += spawn.count;
      if (spawn.count == 0) fail_spawn(k::count.key, "0", "must be >= 1");
      if (placed[s] > species->count) {
        fail_spawn(k::count.key, std::to_string(spawn.count),
                   "the spawns of species " + quote(species->name) + " place " +
                       std::to_string(placed[s]) + " boids so far: at most its count (" +
                       std::to_string(species->count) + ")");
      }
      check_spawn_region(spawn, fail_spawn);
      if (spawn.layout == SpawnLayout::Clusters) continue;
      if (!(spawn.min_speed >= 0.0f)) {
        fail_spawn(k::min_speed.key, show_float(spawn.min_speed), "must be >= 0");
      }
      if (!(spawn.max_speed >= spawn.min_speed)) {
        fail_spawn(k::max_speed.key, show_float(spawn.max_speed),
                   "must be >= min_speed (" + show_float(spawn.min_speed) + ")");
      }
      const double heading_span = double(spawn.heading_max) - double(spawn.heading_min);
      if (!(heading_span >= 0.0 && heading_span <= double(kMaxFovDegrees))) {
        fail_spawn(k::heading_max.key, show_float(spawn.heading_max),
                   "must be >= heading_min (" + show_float(spawn.heading_min) +
                       ") and <= heading_min + 360");
      }
    }
  }

  // Every point a layout can place lies in the world (clusters: its origin; the squares that
  // grow from it wrap or meet the walls, docs/model.md).
  template <class Fail>
  void check_spawn_region(const SpawnRegion& spawn, const Fail& fail_spawn) const {
    namespace k = params::spawn;
    const double width = scenario_.world.width;
    const double height = scenario_.world.height;
    const auto check_span = [&](std::string_view key, float low, double extent, double length,
                                std::string_view extent_key, std::string_view side) {
      if (!(low >= 0.0f && double(low) + extent <= length)) {
        fail_spawn(key, show_float(low),
                   "the region must lie in the world: " + std::string(key) + " >= 0 and " +
                       std::string(key) + " + " + std::string(extent_key) + " (" +
                       show_double(extent) + ") <= " + show_double(length) + " (the world's " +
                       std::string(side) + ")");
      }
    };
    switch (spawn.layout) {
      case SpawnLayout::Rectangle:
        if (!(spawn.width > 0.0f)) {
          fail_spawn(k::width.key, show_float(spawn.width), "must be > 0 (a rectangle's width)");
        }
        if (!(spawn.height > 0.0f)) {
          fail_spawn(k::height.key, show_float(spawn.height),
                     "must be > 0 (a rectangle's height)");
        }
        check_span(k::x.key, spawn.x, spawn.width, width, k::width.key, "width");
        check_span(k::y.key, spawn.y, spawn.height, height, k::height.key, "height");
        break;
      case SpawnLayout::Disc:
        if (!(spawn.radius > 0.0f)) {
          fail_spawn(k::radius.key, show_float(spawn.radius), "must be > 0 (a disc's radius)");
        }
        for (const auto& [key, centre, length] : {std::tuple{k::x.key, spawn.x, width},
                                                  std::tuple{k::y.key, spawn.y, height}}) {
          if (!(double(centre) - spawn.radius >= 0.0 && double(centre) + spawn.radius <= length)) {
            fail_spawn(key, show_float(centre),
                       "the disc must lie in the world: radius (" + show_float(spawn.radius) +
                           ") <= " + std::string(key) + " <= " + show_double(length) +
                           " - radius");
          }
        }
        break;
      case SpawnLayout::Clusters:
        if (!inside_world({spawn.x, spawn.y})) {
          fail_spawn(k::x.key, show_float(spawn.x),
                     "the origin (x, y) = (" + show_float(spawn.x) + ", " + show_float(spawn.y) +
                         ") must lie in " + world_range());
        }
        break;
    }
  }

  const Scenario& scenario_;
  const ScenarioLines* lines_;
};

// ---- parsing ---------------------------------------------------------------------------

class Parser {
 public:
  explicit Parser(std::string source) { scenario_.source = std::move(source); }

  Scenario parse(std::string_view text) {
    const toml::table root = parse_toml(text);
    for (const auto& [key, node] : root) {
      if (key != "world" && key != "species" && key != "obstacle" && key != "target" &&
          key != "food" && key != "render" && key != "spawn" && key != "plan") {
        fail(scenario_.source, key.source().begin.line,
             quote(key.str()) + ": unknown table or key (accepted: " + std::string(kTopLevelKeys) +
                 ")");
      }
    }
    const toml::node* world = root.get("world");
    if (world == nullptr) {
      fail(scenario_.source, 0, "no [world] table: it needs width and height");
    }
    parse_world(*world);
    if (const toml::node* species = root.get("species")) parse_species_list(*species);
    if (const toml::node* obstacles = root.get("obstacle")) parse_obstacles(*obstacles);
    if (const toml::node* target = root.get("target")) parse_target(*target);
    if (const toml::node* food = root.get("food")) parse_food(*food);
    if (const toml::node* render = root.get("render")) parse_render(*render);
    if (const toml::node* spawns = root.get("spawn")) parse_spawns(*spawns);
    if (const toml::node* plan = root.get("plan")) parse_plan(*plan);
    Validator(scenario_, &lines_).run();
    return std::move(scenario_);
  }

 private:
  toml::table parse_toml(std::string_view text) {
#if TOML_EXCEPTIONS
    try {
      return toml::parse(text, scenario_.source);
    } catch (const toml::parse_error& error) {
      syntax_error(error);
    }
#else
    toml::parse_result result = toml::parse(text, scenario_.source);
    if (!result) syntax_error(result.error());
    return std::move(result).table();
#endif
  }

  [[noreturn]] void syntax_error(const toml::parse_error& error) const {
    const toml::source_position begin = error.source().begin;
    std::string description(error.description());
    // toml++ descriptions are one line already; keep the message one line regardless.
    for (char& c : description) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    throw InputError((scenario_.source.empty() ? "<scenario>" : scenario_.source) + ":" +
                     std::to_string(begin.line) + ":" + std::to_string(begin.column) +
                     ": TOML syntax error: " + description);
  }

  [[noreturn]] void wrong_type(const std::string& label, const toml::node& node,
                               std::string_view expected) const {
    fail(scenario_.source, node.source().begin.line,
         label + " = " + show_node(node) + ": must be " + std::string(expected) + ", found " +
             std::string(type_name(node)));
  }

  // A number where a float is expected: integers are welcome, NaN, inf and values beyond
  // float32 range are not.
  float read_float(const std::string& label, const toml::node& node) const {
    double value = 0.0;
    if (const auto* integer = node.as_integer()) {
      value = static_cast<double>(integer->get());
    } else if (const auto* floating = node.as_floating_point()) {
      value = floating->get();
    } else {
      wrong_type(label, node, "a number");
    }
    const auto narrowed = static_cast<float>(value);
    if (!std::isfinite(narrowed)) {
      fail(scenario_.source, node.source().begin.line,
           label + " = " + show_node(node) + ": must be a finite number (|x| <= " +
               show_float(std::numeric_limits<float>::max()) + ")");
    }
    return narrowed;
  }

  std::int64_t read_integer(const std::string& label, const toml::node& node,
                            std::int64_t minimum, std::uint64_t maximum) const {
    const auto* integer = node.as_integer();
    if (integer == nullptr) wrong_type(label, node, "an integer");
    const std::int64_t value = integer->get();
    if (value < minimum || static_cast<std::uint64_t>(value) > maximum) {
      fail(scenario_.source, node.source().begin.line,
           label + " = " + std::to_string(value) + ": must be >= " + std::to_string(minimum) +
               " and <= " + std::to_string(maximum));
    }
    return value;
  }

  const std::string& read_string(const std::string& label, const toml::node& node) const {
    const auto* text = node.as_string();
    if (text == nullptr) wrong_type(label, node, "a string");
    return text->get();
  }

  void parse_world(const toml::node& node) {
    const toml::table* table = node.as_table();
    if (table == nullptr) wrong_type("world", node, "a table");
    lines_.world.table = node.source().begin.line;
    read_keys(*table, "world.", world_params, scenario_.world, lines_.world);
    for_each_world_param([&](const auto& info) {
      if (info.accepted.required && !table->contains(info.key)) {
        fail(scenario_.source, lines_.world.table,
             "world." + std::string(info.key) + " is missing: it has no default (a number " +
                 std::string(params::lower_operator(info.accepted.lower)) +
                 show_float(static_cast<float>(info.accepted.lower.value)) + ")");
      }
    });
  }

  void parse_species_list(const toml::node& node) {
    const toml::array* list = node.as_array();
    if (list == nullptr) wrong_type("species", node, "an array of tables ([[species]])");
    for (std::size_t i = 0; i < list->size(); ++i) {
      const toml::node& element = *list->get(i);
      const toml::table* table = element.as_table();
      if (table == nullptr) {
        wrong_type("species[" + std::to_string(i) + "]", element, "a table ([[species]])");
      }
      parse_species(i, *table);
    }
  }

  void parse_species(std::size_t index, const toml::table& table) {
    SpeciesParams species = default_species(index);
    KeyLines lines;
    lines.table = table.source().begin.line;
    // The name comes first so that every other message can show it.
    if (const toml::node* name = table.get("name")) {
      species.name = read_string(species_label(index, "") + ".name", *name);
    }
    read_keys(table, species_label(index, species.name) + ".", species_params, species, lines);
    if (!table.contains(params::species::flocks_with.key)) species.flocks_with = {species.name};
    scenario_.species.push_back(std::move(species));
    lines_.species.push_back(std::move(lines));
  }

  // Reads a table whose keys are all required floats, in the order `names` gives them.
  template <std::size_t N>
  std::array<float, N> read_point_table(const std::string& label, const toml::table& table,
                                        const std::array<std::string_view, N>& names,
                                        std::string_view accepted, KeyLines& lines) const {
    std::array<float, N> values{};
    std::array<bool, N> present{};
    lines.table = table.source().begin.line;
    for (const auto& [key, value] : table) {
      const auto found = std::find(names.begin(), names.end(), key.str());
      if (found == names.end()) {
        fail(scenario_.source, key.source().begin.line,
             label + "." + std::string(key.str()) + ": unknown key (accepted: " +
                 std::string(accepted) + ")");
      }
      const auto k = static_cast<std::size_t>(found - names.begin());
      lines.keys[std::string(key.str())] = value.source().begin.line;
      values[k] = read_float(label + "." + std::string(key.str()), value);
      present[k] = true;
    }
    for (std::size_t k = 0; k < N; ++k) {
      if (!present[k]) {
        fail(scenario_.source, lines.table,
             label + "." + std::string(names[k]) + " is missing: it has no default (a number)");
      }
    }
    return values;
  }

  void parse_obstacles(const toml::node& node) {
    const toml::array* list = node.as_array();
    if (list == nullptr) wrong_type("obstacle", node, "an array of tables ([[obstacle]])");
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string label = "obstacle[" + std::to_string(i) + "]";
      const toml::table* table = list->get(i)->as_table();
      if (table == nullptr) wrong_type(label, *list->get(i), "a table ([[obstacle]])");
      KeyLines lines;
      const auto [x, y, radius] = read_point_table<3>(label, *table, {"x", "y", "radius"},
                                                      kObstacleKeys, lines);
      scenario_.obstacles.push_back(Obstacle{{x, y}, radius});
      lines_.obstacles.push_back(std::move(lines));
    }
  }

  void parse_target(const toml::node& node) {
    const toml::table* table = node.as_table();
    if (table == nullptr) wrong_type("target", node, "a table ([target])");
    const auto [x, y] = read_point_table<2>("target", *table, {"x", "y"}, kTargetKeys, lines_.target);
    scenario_.target = Target{{x, y}};
  }

  // One of `names` (the enum's values in order); the message lists them.
  template <class Enum, std::size_t N>
  Enum read_choice(const std::string& label, const toml::node& node,
                   const std::string_view (&names)[N]) const {
    const std::string& text = read_string(label, node);
    for (std::size_t k = 0; k < N; ++k) {
      if (text == names[k]) return static_cast<Enum>(k);
    }
    fail(scenario_.source, node.source().begin.line,
         label + " = " + quote(text) + ": must be " + choice_text(names));
  }

  void parse_render(const toml::node& node) {
    const toml::table* table = node.as_table();
    if (table == nullptr) wrong_type("render", node, "a table ([render])");
    lines_.render.table = node.source().begin.line;
    read_keys(*table, "render.", render_params, scenario_.look, lines_.render);
  }

  void parse_food(const toml::node& node) {
    const toml::table* table = node.as_table();
    if (table == nullptr) wrong_type("food", node, "a table ([food])");
    lines_.food.table = node.source().begin.line;
    FoodParams food;
    read_keys(*table, "food.", food_params, food, lines_.food, kFoodPatchKey);
    if (const toml::node* patches = table->get(kFoodPatchKey)) parse_food_patches(*patches, food);
    scenario_.food = std::move(food);
  }

  void parse_food_patches(const toml::node& node, FoodParams& food) {
    const toml::array* list = node.as_array();
    if (list == nullptr) wrong_type("food.patch", node, "an array of tables ([[food.patch]])");
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string label = "food.patch[" + std::to_string(i) + "]";
      const toml::table* table = list->get(i)->as_table();
      if (table == nullptr) wrong_type(label, *list->get(i), "a table ([[food.patch]])");
      KeyLines lines;
      lines.table = table->source().begin.line;
      FoodPatch patch;
      read_keys(*table, label + ".", food_patch_params, patch, lines);
      for_each_food_patch_param([&](const auto& info) {
        if (info.accepted.required && !table->contains(info.key)) {
          fail(scenario_.source, lines.table,
               label + "." + std::string(info.key) + " is missing: it has no default");
        }
      });
      if (!table->contains(params::food_patch::amount.key)) patch.amount = food.max_per_cell;
      food.patches.push_back(patch);
      lines_.patches.push_back(std::move(lines));
    }
  }

  void parse_plan(const toml::node& node) {
    const toml::table* table = node.as_table();
    if (table == nullptr) wrong_type("plan", node, "a table ([plan])");
    lines_.plan.table = node.source().begin.line;
    PlanParams plan;
    read_keys(*table, "plan.", plan_params, plan, lines_.plan, kPlanGroupKey);
    if (const toml::node* groups = table->get(kPlanGroupKey)) {
      parse_plan_groups(*groups, plan);
    } else {
      plan.groups = seed_plan_groups();
    }
    scenario_.plan = std::move(plan);
  }

  void parse_plan_groups(const toml::node& node, PlanParams& plan) {
    const toml::array* list = node.as_array();
    if (list == nullptr) wrong_type("plan.group", node, "an array of tables ([[plan.group]])");
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string label = "plan.group[" + std::to_string(i) + "]";
      const toml::table* table = list->get(i)->as_table();
      if (table == nullptr) wrong_type(label, *list->get(i), "a table ([[plan.group]])");
      KeyLines lines;
      lines.table = table->source().begin.line;
      PlanGroup group;
      read_keys(*table, label + ".", plan_group_params, group, lines);
      for_each_plan_group_param([&](const auto& info) {
        if (info.accepted.required && !table->contains(info.key)) {
          fail(scenario_.source, lines.table,
               label + "." + std::string(info.key) + " is missing: it has no default");
        }
      });
      plan.groups.push_back(group);
      lines_.plan_groups.push_back(std::move(lines));
    }
  }

  // After the species: a spawn's speeds default to its species' own.
  void parse_spawns(const toml::node& node) {
    const toml::array* list = node.as_array();
    if (list == nullptr) wrong_type("spawn", node, "an array of tables ([[spawn]])");
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string label = spawn_label(i);
      const toml::table* table = list->get(i)->as_table();
      if (table == nullptr) wrong_type(label, *list->get(i), "a table ([[spawn]])");
      KeyLines lines;
      lines.table = table->source().begin.line;
      SpawnRegion spawn;
      read_keys(*table, label + ".", spawn_params, spawn, lines);
      for_each_spawn_param([&](const auto& info) {
        if (info.accepted.required && !table->contains(info.key)) {
          fail(scenario_.source, lines.table,
               label + "." + std::string(info.key) + " is missing: it has no default");
        }
      });
      const std::string_view layout =
          names_of(spawn.layout)[static_cast<std::size_t>(spawn.layout)];
      for (const auto& entry : *table) {
        const std::string_view key = entry.first.str();
        if (spawn_key_applies(spawn.layout, key)) continue;
        fail(scenario_.source, entry.first.source().begin.line,
             label + "." + std::string(key) + ": not a key of layout = " + quote(layout) +
                 " (its keys: " + spawn_keys_of(spawn.layout) + ")");
      }
      const auto needs = [&](std::string_view key) {
        if (table->contains(key)) return;
        fail(scenario_.source, lines.table,
             label + "." + std::string(key) + " is missing: the " + std::string(layout) +
                 " needs it");
      };
      if (spawn.layout == SpawnLayout::Rectangle) {
        needs(params::spawn::width.key);
        needs(params::spawn::height.key);
      } else if (spawn.layout == SpawnLayout::Disc) {
        needs(params::spawn::radius.key);
      }
      for (const SpeciesParams& species : scenario_.species) {
        if (species.name != spawn.species) continue;
        if (!table->contains(params::spawn::min_speed.key)) spawn.min_speed = species.min_speed;
        if (!table->contains(params::spawn::max_speed.key)) spawn.max_speed = species.max_speed;
      }
      scenario_.spawns.push_back(std::move(spawn));
      lines_.spawns.push_back(std::move(lines));
    }
  }

  // Reads every key of `table` into `record` through one parameter table (`for_each_param`:
  // world_params, ...); a key the table lacks fails, listing the table's keys. `prefix` + key
  // names the key in messages. `subtable`, when given, is a key the caller reads itself (the
  // [food] table's patches): skipped here, and listed with the accepted keys.
  template <class ForEachParam, class Record>
  void read_keys(const toml::table& table, const std::string& prefix,
                 ForEachParam for_each_param, Record& record, KeyLines& lines,
                 std::string_view subtable = {}) const {
    // Named references, not a structured binding: clang before 16 (the fuzz build's) cannot
    // capture a binding in the lambda below.
    for (const auto& entry : table) {
      const toml::key& key = entry.first;
      const toml::node& value = entry.second;
      const std::string label = prefix + std::string(key.str());
      lines.keys[std::string(key.str())] = value.source().begin.line;
      if (!subtable.empty() && key.str() == subtable) continue;
      bool known = false;
      for_each_param([&](const auto& info) {
        if (known || info.key != key.str()) return;
        known = true;
        auto& slot = record.*info.member;
        if constexpr (requires { slot.emplace(); }) {
          read_value(label, value, info.accepted, slot.emplace());  // an optional key
        } else {
          read_value(label, value, info.accepted, slot);
        }
      });
      if (!known) {
        fail(scenario_.source, key.source().begin.line,
             label + ": unknown key (accepted: " + key_list(for_each_param) +
                 (subtable.empty() ? "" : ", " + std::string(subtable)) + ")");
      }
    }
  }

  // One value of a table key, read as its type asks; integers are range-checked here since a
  // TOML integer may not fit the member (the validator checks everything else).
  void read_value(const std::string& label, const toml::node& node, const params::Accepted&,
                  float& out) const {
    out = read_float(label, node);
  }
  void read_value(const std::string& label, const toml::node& node,
                  const params::Accepted& accepted, std::uint32_t& out) const {
    const auto lower = static_cast<std::int64_t>(accepted.lower.value);
    const auto upper = accepted.upper.kind == params::Bound::Kind::Value
                           ? static_cast<std::uint64_t>(accepted.upper.value)
                           : std::uint64_t{std::numeric_limits<std::uint32_t>::max()};
    out = static_cast<std::uint32_t>(read_integer(label, node, lower, upper));
  }
  void read_value(const std::string& label, const toml::node& node,
                  const params::Accepted& accepted, std::uint64_t& out) const {
    out = static_cast<std::uint64_t>(read_integer(label, node,
                                                  static_cast<std::int64_t>(accepted.lower.value),
                                                  static_cast<std::uint64_t>(accepted.upper.value)));
  }
  void read_value(const std::string& label, const toml::node& node,
                  const params::Accepted& accepted, int& out) const {
    const auto upper = accepted.upper.kind == params::Bound::Kind::Value
                           ? static_cast<std::uint64_t>(accepted.upper.value)
                           : std::uint64_t{std::numeric_limits<int>::max()};
    out = static_cast<int>(
        read_integer(label, node, static_cast<std::int64_t>(accepted.lower.value), upper));
  }
  void read_value(const std::string& label, const toml::node& node, const params::Accepted&,
                  bool& out) const {
    const auto* flag = node.as_boolean();
    if (flag == nullptr) wrong_type(label, node, "true or false");
    out = flag->get();
  }
  template <class Enum>
    requires std::is_enum_v<Enum>
  void read_value(const std::string& label, const toml::node& node, const params::Accepted&,
                  Enum& out) const {
    out = read_choice<Enum>(label, node, names_of(Enum{}));
  }
  void read_value(const std::string& label, const toml::node& node, const params::Accepted&,
                  std::string& out) const {
    out = read_string(label, node);
  }
  void read_value(const std::string& label, const toml::node& node, const params::Accepted&,
                  std::vector<std::string>& out) const {
    out = read_names(label, node);
  }
  void read_value(const std::string& label, const toml::node& node, const params::Accepted&,
                  glm::vec3& out) const {
    out = read_colour(label, node);
  }
  // food.initial: a number (the validator checks its range) or the word "random".
  void read_value(const std::string& label, const toml::node& node, const params::Accepted&,
                  FoodInitial& out) const {
    if (const auto* text = node.as_string()) {
      if (text->get() != kFoodInitialRandom) {
        fail(scenario_.source, node.source().begin.line,
             label + " = " + show_node(node) + ": must be a number >= 0 and <= 1, or " +
                 quote(kFoodInitialRandom));
      }
      out = FoodInitial{0.0f, true};
      return;
    }
    if (node.as_integer() == nullptr && node.as_floating_point() == nullptr) {
      wrong_type(label, node, "a number or " + quote(kFoodInitialRandom));
    }
    out = FoodInitial{read_float(label, node), false};
  }

  // render.circle_radius: "sight", "separation" or a number of world units > 0.
  void read_value(const std::string& label, const toml::node& node, const params::Accepted&,
                  CircleRadius& out) const {
    const std::string accepted = quote(kCircleRadiusNames[0]) + ", " +
                                 quote(kCircleRadiusNames[1]) + " or a number > 0 and finite";
    if (const auto* text = node.as_string()) {
      const auto* named = std::find(std::begin(kCircleRadiusNames), std::end(kCircleRadiusNames),
                                    text->get());
      if (named == std::end(kCircleRadiusNames))
        fail(scenario_.source, node.source().begin.line,
             label + " = " + show_node(node) + ": must be " + accepted);
      out = CircleRadius{
          static_cast<CircleRadiusKind>(named - std::begin(kCircleRadiusNames)), 0.0f};
      return;
    }
    if (node.as_integer() == nullptr && node.as_floating_point() == nullptr)
      wrong_type(label, node, accepted);
    const float units = read_float(label, node);
    if (!(units > 0) || !std::isfinite(units))
      fail(scenario_.source, node.source().begin.line,
           label + " = " + show_node(node) + ": must be " + accepted);
    out = CircleRadius{CircleRadiusKind::WorldUnits, units};
  }

  std::vector<std::string> read_names(const std::string& label, const toml::node& node) const {
    const toml::array* list = node.as_array();
    if (list == nullptr) wrong_type(label, node, "an array of species names");
    std::vector<std::string> names;
    for (std::size_t i = 0; i < list->size(); ++i) {
      names.push_back(read_string(label + "[" + std::to_string(i) + "]", *list->get(i)));
    }
    return names;
  }

  glm::vec3 read_colour(const std::string& label, const toml::node& node) const {
    const toml::array* list = node.as_array();
    if (list == nullptr || list->size() != 3) {
      wrong_type(label, node, "an array of 3 numbers [r, g, b]");
    }
    glm::vec3 colour;
    for (int c = 0; c < 3; ++c) {
      colour[c] = read_float(label + "[" + std::to_string(c) + "]", *list->get(static_cast<std::size_t>(c)));
    }
    return colour;
  }

  Scenario scenario_;
  ScenarioLines lines_;
};

// A TOML float: %.9g, with ".0" added where %.9g prints an integer ("3", "-0") so that the
// value stays a float (and -0 keeps its sign).
std::string toml_float(float value) {
  std::string text = format_float(value);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::string toml_value(float value) { return toml_float(value); }
std::string toml_value(std::uint32_t value) { return std::to_string(value); }
std::string toml_value(int value) { return std::to_string(value); }
std::string toml_value(std::uint64_t value) { return std::to_string(value); }
std::string toml_value(bool value) { return value ? "true" : "false"; }
std::string toml_value(const std::string& value) { return toml_quote(value); }
template <class Enum>
  requires std::is_enum_v<Enum>
std::string toml_value(Enum value) {
  return toml_quote(names_of(value)[static_cast<std::size_t>(value)]);
}
std::string toml_value(const std::vector<std::string>& names) {
  std::string out = "[";
  for (std::size_t j = 0; j < names.size(); ++j) out += (j == 0 ? "" : ", ") + toml_quote(names[j]);
  return out + "]";
}
std::string toml_value(const CircleRadius& radius) {
  return radius.kind == CircleRadiusKind::WorldUnits
             ? toml_float(radius.world_units)
             : toml_quote(kCircleRadiusNames[static_cast<std::size_t>(radius.kind)]);
}
std::string toml_value(const FoodInitial& initial) {
  return initial.random ? toml_quote(kFoodInitialRandom) : toml_float(initial.fraction);
}
std::string toml_value(glm::vec3 colour) {
  return "[" + toml_float(colour.r) + ", " + toml_float(colour.g) + ", " + toml_float(colour.b) +
         "]";
}

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& source) {
  return Parser(source).parse(text);
}

Scenario load_scenario(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int error = errno;
    throw InputError(path.string() + ": cannot read scenario file (" + std::strerror(error) + ")");
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    const int error = errno;
    throw InputError(path.string() + ": cannot read scenario file (" + std::strerror(error) + ")");
  }
  return parse_scenario(text.str(), path.string());
}

void validate_scenario(const Scenario& scenario) { Validator(scenario, nullptr).run(); }

std::string toml_quote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte == 0x7f) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", byte);
      out += escape;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::uint32_t PlanParams::total_count() const {
  std::uint64_t total = 0;
  for (const PlanGroup& g : groups) total += g.count;
  return std::uint32_t(std::min<std::uint64_t>(total, kMaxTotalBoids + 1ull));
}

std::vector<PlanGroup> seed_plan_groups() {
  constexpr std::uint32_t kSeedGroupCount = 10;
  constexpr float kSeedGroupX = 400.0f;
  constexpr float kSeedFirstGroupY = 400.0f;
  constexpr float kSeedSecondGroupY = 420.0f;
  PlanGroup first;
  first.count = kSeedGroupCount;
  first.x = kSeedGroupX;
  first.y = kSeedFirstGroupY;
  PlanGroup second = first;
  second.y = kSeedSecondGroupY;
  return {first, second};
}

std::string scenario_to_toml(const Scenario& scenario) {
  std::string out;
  out += "# murmur scenario (docs/scenarios.md describes every key)\n";
  out += "[world]\n";
  for_each_world_param([&](const auto& info) {
    out += std::string(info.key) + " = " + toml_value(scenario.world.*info.member) + "\n";
  });
  for (const SpeciesParams& s : scenario.species) {
    out += "\n[[species]]\n";
    for_each_species_param([&](const auto& info) {
      out += std::string(info.key) + " = " + toml_value(s.*info.member) + "\n";
    });
  }
  for (const Obstacle& o : scenario.obstacles) {
    out += "\n[[obstacle]]\n";
    out += "x = " + toml_float(o.centre.x) + "\n";
    out += "y = " + toml_float(o.centre.y) + "\n";
    out += "radius = " + toml_float(o.radius) + "\n";
  }
  if (!scenario.look.empty()) {
    out += "\n[render]\n";
    for_each_render_param([&](const auto& info) {
      const auto& value = scenario.look.*info.member;
      if (value) out += std::string(info.key) + " = " + toml_value(*value) + "\n";
    });
  }
  if (scenario.target) {
    out += "\n[target]\n";
    out += "x = " + toml_float(scenario.target->position.x) + "\n";
    out += "y = " + toml_float(scenario.target->position.y) + "\n";
  }
  for (const SpawnRegion& spawn : scenario.spawns) {
    out += "\n[[spawn]]\n";
    for_each_spawn_param([&](const auto& info) {
      if (!spawn_key_applies(spawn.layout, info.key)) return;
      out += std::string(info.key) + " = " + toml_value(spawn.*info.member) + "\n";
    });
  }
  if (scenario.food) {
    out += "\n[food]\n";
    for_each_food_param([&](const auto& info) {
      out += std::string(info.key) + " = " + toml_value((*scenario.food).*info.member) + "\n";
    });
    for (const FoodPatch& patch : scenario.food->patches) {
      out += "\n[[food.patch]]\n";
      for_each_food_patch_param([&](const auto& info) {
        out += std::string(info.key) + " = " + toml_value(patch.*info.member) + "\n";
      });
    }
  }
  if (scenario.plan) {
    out += "\n[plan]\n";
    for_each_plan_param([&](const auto& info) {
      out += std::string(info.key) + " = " + toml_value((*scenario.plan).*info.member) + "\n";
    });
    for (const PlanGroup& group : scenario.plan->groups) {
      out += "\n[[plan.group]]\n";
      for_each_plan_group_param([&](const auto& info) {
        out += std::string(info.key) + " = " + toml_value(group.*info.member) + "\n";
      });
    }
  }
  return out;
}

}  // namespace murmur
