// Scenario files in: TOML read through the parameter tables (include/murmur/scenario/params/)
// into a scenario of its kind (flock or plan), each key's line kept for messages, then checked
// (docs/scenarios.md is the user's reference for every key, default and range).
//
// The tables come in the order of check.cpp, where each table's ranges and cross rules are
// checked, so the read and the check of one table can be held side by side; write.cpp writes
// them back. It is over 800 lines because one Parser reads every table of both kinds, in 2D
// and 3D, through the same value readers and messages, which a split would pass around.
//
// Sections:
//   tables and their keys     the top-level keys, the key lists of messages, a [[spawn]]
//                             layout's keys
//   TOML values               the text of a node in messages, its type's name
//   Parser                    syntax, numbers, strings and choices, then one reader a table:
//                             [world], [[species]], [[obstacle]], [target], [food] and
//                             [[food.patch]], [render], [camera], [[spawn]], [plan] and
//                             [[plan.group]];
//                             then every table's keys and one value as its type asks; the
//                             kind: the one place a file becomes a flock or a plan; and one
//                             key given as text (read_key, for set_scenario_key in keys.cpp)
//   parse_*scenario, load_*scenario   either kind, or one kind (the other's message)
#include <algorithm>
#include <array>
#include <span>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <optional>
#include <type_traits>
#include <vector>

#include <toml++/toml.h>

#include "murmur/base/errors.hpp"
#include "murmur/base/input_file.hpp"
#include "murmur/base/suggest.hpp"
#include "murmur/scenario/scenario.hpp"
#include "param_text.hpp"
#include "scenario_internal.hpp"

namespace murmur {
namespace {

using params::choice_text;
using params::show_double;
using params::show_float;
using scenario_internal::fail;
using scenario_internal::KeyLines;
using scenario_internal::quote;
using scenario_internal::ScenarioLines;
using scenario_internal::spawn_key_applies;
using scenario_internal::spawn_label;
using scenario_internal::species_label;

// ---- tables and their keys -------------------------------------------------------------

// A species whose keys all take their defaults (the table's); its name says its place.
SpeciesParams default_species(std::size_t index) {
  SpeciesParams s;
  s.name = "species" + std::to_string(index);
  return s;
}

constexpr std::string_view kObstacleKeys = "x, y, radius";
constexpr std::string_view kObstacleKeys3d = "x, y, z, radius";
constexpr std::string_view kTargetKeys = "x, y";
constexpr std::string_view kTargetKeys3d = "x, y, z";
// The third coordinate of [[obstacle]] and [target], a 3D world's alone.
constexpr std::string_view kZKey = "z";
constexpr std::string_view kTopLevelKeys =
    "world, species, obstacle, target, food, render, camera, spawn, plan";
constexpr std::array<std::string_view, 9> kTopLevelNames = {
    "world", "species", "obstacle", "target", "food", "render", "camera", "spawn", "plan"};

// What follows "unknown key": the nearest accepted name when one is near, else the accepted
// list (a suggestion alone reads better than one buried in forty names; the docs list them).
std::string unknown_name_help(std::string_view word, std::span<const std::string> names,
                              std::string_view accepted) {
  const std::string suggestion = did_you_mean(word, names);
  if (!suggestion.empty()) return suggestion + " (every key: docs/scenarios.md)";
  return " (accepted: " + std::string(accepted) + ")";
}
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

// The keys of one parameter table, for "did you mean" (include/murmur/base/suggest.hpp).
template <class ForEachParam>
std::vector<std::string> key_names(ForEachParam for_each_param) {
  std::vector<std::string> names;
  for_each_param([&](const auto& info) { names.emplace_back(info.key); });
  return names;
}

// The tables, as arguments for key_list and Parser::read_keys.
const auto world_params = [](auto&& visit) { for_each_world_param(visit); };
const auto species_params = [](auto&& visit) { for_each_species_param(visit); };
const auto render_params = [](auto&& visit) { for_each_render_param(visit); };
const auto camera_params = [](auto&& visit) { for_each_camera_param(visit); };
const auto food_params = [](auto&& visit) { for_each_food_param(visit); };
const auto food_patch_params = [](auto&& visit) { for_each_food_patch_param(visit); };
const auto spawn_params = [](auto&& visit) { for_each_spawn_param(visit); };
const auto plan_params = [](auto&& visit) { for_each_plan_param(visit); };
const auto plan_group_params = [](auto&& visit) { for_each_plan_group_param(visit); };

// The keys of `layout`, for messages ("species, count, layout, x, y, radius, ...").
std::string spawn_keys_of(SpawnLayout layout) {
  std::string list;
  for_each_spawn_param([&](const auto& info) {
    if (!spawn_key_applies(layout, info.key)) return;
    list += (list.empty() ? "" : ", ") + std::string(info.key);
  });
  return list;
}

// ---- TOML values ---------------------------------------------------------------------

constexpr std::size_t kMaxShownValueChars = 40;

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

// ---- parsing ---------------------------------------------------------------------------

class Parser {
 public:
  explicit Parser(std::string source) { scenario_.source = std::move(source); }

  AnyScenario parse(std::string_view text) {
    const toml::table root = parse_toml(text);
    for (const auto& [key, node] : root) {
      if (std::find(kTopLevelNames.begin(), kTopLevelNames.end(), key.str()) ==
          kTopLevelNames.end()) {
        fail(scenario_.source, key.source().begin.line,
             quote(key.str()) + ": unknown table or key" +
                 unknown_name_help(key.str(), std::vector<std::string>(kTopLevelNames.begin(),
                                                                       kTopLevelNames.end()),
                                   kTopLevelKeys));
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
    if (const toml::node* camera = root.get("camera")) parse_camera(*camera);
    if (const toml::node* spawns = root.get("spawn")) parse_spawns(*spawns);
    if (const toml::node* plan = root.get("plan")) parse_plan(*plan);
    return split_into_kind();
  }

  // The keys of `line`, read into the world of `scenario`, or into its species `species`, as
  // the same keys in that table of a file would be (set_scenario_key, keys.cpp).
  void read_line(FlockScenario& scenario, std::optional<std::size_t> species,
                 const toml::table& line) const {
    KeyLines lines;
    if (!species) {
      read_keys(line, "world.", world_params, scenario.world, lines);
      return;
    }
    SpeciesParams& record = scenario.species[*species];
    read_keys(line, species_label(*species, record.name) + ".", species_params, record, lines);
  }

 private:
  // ---- TOML values: syntax, types, numbers, strings and choices ----------------------

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

  // ---- [world] -----------------------------------------------------------------------

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

  // ---- [[species]] -------------------------------------------------------------------

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

  // ---- [[obstacle]] ------------------------------------------------------------------

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
             label + "." + std::string(key.str()) + ": unknown key" +
                 unknown_name_help(key.str(),
                                   std::vector<std::string>(names.begin(), names.end()),
                                   accepted));
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

  // A point's z: required in a 3D world, refused in a 2D one (before the table's other keys,
  // so that the message says why rather than "unknown key").
  void check_z_presence(const std::string& label, const toml::table& table,
                        std::string_view what) const {
    const toml::node* z = table.get(kZKey);
    if (is_3d(scenario_) && z == nullptr) {
      fail(scenario_.source, table.source().begin.line,
           label + "." + std::string(kZKey) + " is missing: a 3D world (world.dimensions = 3) " +
               "places " + std::string(what) + " in z too (a number >= 0 and <= " +
               show_float(scenario_.world.depth) + ", the world's depth)");
    }
    if (!is_3d(scenario_) && z != nullptr) {
      fail(scenario_.source, z->source().begin.line,
           label + "." + std::string(kZKey) + " = " + show_node(*z) +
               ": only a 3D world has z (world.dimensions = 3; this one is 2D)");
    }
  }

  void parse_obstacles(const toml::node& node) {
    const toml::array* list = node.as_array();
    if (list == nullptr) wrong_type("obstacle", node, "an array of tables ([[obstacle]])");
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string label = "obstacle[" + std::to_string(i) + "]";
      const toml::table* table = list->get(i)->as_table();
      if (table == nullptr) wrong_type(label, *list->get(i), "a table ([[obstacle]])");
      check_z_presence(label, *table, "an obstacle's centre");
      KeyLines lines;
      if (is_3d(scenario_)) {
        const auto [x, y, z, radius] = read_point_table<4>(
            label, *table, {"x", "y", kZKey, "radius"}, kObstacleKeys3d, lines);
        scenario_.obstacles.push_back(Obstacle{{x, y}, radius, z});
      } else {
        const auto [x, y, radius] = read_point_table<3>(label, *table, {"x", "y", "radius"},
                                                        kObstacleKeys, lines);
        scenario_.obstacles.push_back(Obstacle{{x, y}, radius});
      }
      lines_.obstacles.push_back(std::move(lines));
    }
  }

  // ---- [target] ----------------------------------------------------------------------

  void parse_target(const toml::node& node) {
    const toml::table* table = node.as_table();
    if (table == nullptr) wrong_type("target", node, "a table ([target])");
    check_z_presence("target", *table, "the target");
    if (is_3d(scenario_)) {
      const auto [x, y, z] =
          read_point_table<3>("target", *table, {"x", "y", kZKey}, kTargetKeys3d, lines_.target);
      scenario_.target = Target{{x, y}, z};
    } else {
      const auto [x, y] =
          read_point_table<2>("target", *table, {"x", "y"}, kTargetKeys, lines_.target);
      scenario_.target = Target{{x, y}};
    }
  }

  // ---- [food] and [[food.patch]] -----------------------------------------------------

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

  // ---- [render] ----------------------------------------------------------------------

  void parse_render(const toml::node& node) {
    const toml::table* table = node.as_table();
    if (table == nullptr) wrong_type("render", node, "a table ([render])");
    lines_.render.table = node.source().begin.line;
    read_keys(*table, "render.", render_params, scenario_.look, lines_.render);
  }

  // ---- [camera] ----------------------------------------------------------------------

  void parse_camera(const toml::node& node) {
    const toml::table* table = node.as_table();
    if (table == nullptr) wrong_type("camera", node, "a table ([camera])");
    lines_.camera.table = node.source().begin.line;
    read_keys(*table, "camera.", camera_params, scenario_.camera, lines_.camera);
  }

  // ---- [[spawn]] ---------------------------------------------------------------------

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
      check_spawn_dimensions(label, *table, spawn.layout);
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
      if (spawn.layout == SpawnLayout::Rectangle || spawn.layout == SpawnLayout::Box) {
        needs(params::spawn::width.key);
        needs(params::spawn::height.key);
      } else if (spawn.layout == SpawnLayout::Disc || spawn.layout == SpawnLayout::Ball) {
        needs(params::spawn::radius.key);
      }
      if (is_3d_layout(spawn.layout)) needs(params::spawn::z.key);
      if (spawn.layout == SpawnLayout::Box) needs(params::spawn::depth.key);
      for (const SpeciesParams& species : scenario_.species) {
        if (species.name != spawn.species) continue;
        const SpeedRange speeds = start_speeds(species);
        if (!table->contains(params::spawn::min_speed.key)) spawn.min_speed = speeds.min;
        if (!table->contains(params::spawn::max_speed.key)) spawn.max_speed = speeds.max;
      }
      scenario_.spawns.push_back(std::move(spawn));
      lines_.spawns.push_back(std::move(lines));
    }
  }

  // A spawn's keys and layout of the other world's dimensions, refused by name before the
  // layout's own keys are checked: z, depth, direction, spread_degrees and the ball and box
  // belong to a 3D world, the headings and the other layouts to a 2D one.
  void check_spawn_dimensions(const std::string& label, const toml::table& table,
                              SpawnLayout layout) const {
    const bool volume = is_3d(scenario_);
    for (const auto& entry : table) {
      const std::string_view key = entry.first.str();
      const std::string shown = label + "." + std::string(key) + " = " + show_node(entry.second);
      if (!volume && scenario_internal::spawn_key_is_3d_only(key)) {
        fail(scenario_.source, entry.first.source().begin.line,
             shown + ": a 3D key, refused in a 2D world (world.dimensions = 2; set " +
                 "world.dimensions = 3 for a volume)");
      }
      if (volume && scenario_internal::spawn_key_is_2d_only(key)) {
        fail(scenario_.source, entry.first.source().begin.line,
             shown + ": a 2D key, refused in a 3D world (world.dimensions = 3): give " +
                 "direction = [dx, dy, dz] and spread_degrees (>= 0 and <= 360) instead");
      }
    }
    if (const auto refusal = scenario_internal::spawn_layout_refusal(layout, volume)) {
      const toml::node* given = table.get(params::spawn::layout.key);
      fail(scenario_.source, given ? given->source().begin.line : table.source().begin.line,
           label + "." + std::string(params::spawn::layout.key) + " = " +
               quote(names_of(layout)[static_cast<std::size_t>(layout)]) +
               (given ? "" : " (the default)") + ": " + *refusal);
    }
  }

  // ---- [plan] and [[plan.group]] -----------------------------------------------------

  void parse_plan(const toml::node& node) {
    const toml::table* table = node.as_table();
    if (table == nullptr) wrong_type("plan", node, "a table ([plan])");
    lines_.plan.table = node.source().begin.line;
    PlanParams plan;
    read_keys(*table, "plan.", plan_params, plan, lines_.plan, kPlanGroupKey);
    if (const toml::node* groups = table->get(kPlanGroupKey)) {
      parse_plan_groups(*groups, plan);
    } else {
      plan.groups = origin003_plan_groups();
    }
    plan_ = std::move(plan);
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

  // ---- every table: its keys, and one value as its type asks -------------------------

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
             label + ": unknown key" +
                 unknown_name_help(key.str(), key_names(for_each_param),
                                   key_list(for_each_param) +
                                       (subtable.empty() ? "" : ", " + std::string(subtable))));
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
    out = read_triple(label, node);
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

  // A colour [r, g, b] or a spawn's direction [dx, dy, dz].
  glm::vec3 read_triple(const std::string& label, const toml::node& node) const {
    const toml::array* list = node.as_array();
    if (list == nullptr || list->size() != 3) {
      const std::string direction_suffix = "." + std::string(params::spawn::direction.key);
      const bool direction = label.ends_with(direction_suffix);
      wrong_type(label, node,
                 direction ? "an array of 3 numbers [dx, dy, dz]" : "an array of 3 numbers [r, g, b]");
    }
    glm::vec3 colour;
    for (int c = 0; c < 3; ++c) {
      colour[c] = read_float(label + "[" + std::to_string(c) + "]", *list->get(static_cast<std::size_t>(c)));
    }
    return colour;
  }

  // ---- the kind -------------------------------------------------------------------------

  // The one place a file becomes one kind: a [plan] table makes it a plan, whose file may hold
  // none of the flock's tables that scenario_ gathered too.
  AnyScenario split_into_kind() {
    if (!plan_) {
      scenario_internal::check_scenario(scenario_, &lines_);
      return std::move(scenario_);
    }
    scenario_internal::check_plan_has_no_flock(scenario_, lines_);
    PlanScenario plan;
    static_cast<ScenarioCommon&>(plan) = std::move(static_cast<ScenarioCommon&>(scenario_));
    plan.plan = std::move(*plan_);
    scenario_internal::check_scenario(plan, &lines_);
    return plan;
  }

  FlockScenario scenario_;  // the [world] and [render] of either kind, the flock's tables
  std::optional<PlanParams> plan_;
  ScenarioLines lines_;
};

std::string scenario_file_text(const std::filesystem::path& path) {
  return read_input_file(path, "scenario file");
}

// `text` as TOML, or nothing when it is not TOML.
std::optional<toml::table> parsed_or_nothing(std::string_view text) {
#if TOML_EXCEPTIONS
  try {
    return toml::parse(text);
  } catch (const toml::parse_error&) {
    return std::nullopt;
  }
#else
  toml::parse_result result = toml::parse(text);
  if (!result) return std::nullopt;
  return std::move(result).table();
#endif
}

}  // namespace

void scenario_internal::read_key(FlockScenario& scenario, std::optional<std::size_t> species,
                                 std::string_view key, std::string_view value,
                                 const std::string& source) {
  constexpr std::string_view kValueKey = "value";
  // The node is copied into `line`, which drops its source position: a value from a command
  // line has no line for messages to name.
  toml::table line;
  const std::optional<toml::table> parsed =
      parsed_or_nothing(std::string(kValueKey) + " = " + std::string(value));
  if (parsed && parsed->size() == 1 && parsed->contains(kValueKey)) {
    line.insert(std::string(key), *parsed->get(kValueKey));
  } else {
    line.insert(std::string(key), std::string(value));  // a bare word: a string
  }
  Parser(source).read_line(scenario, species, line);
}

AnyScenario parse_any_scenario(std::string_view text, const std::string& source) {
  return Parser(source).parse(text);
}

FlockScenario parse_scenario(std::string_view text, const std::string& source) {
  return visit_kind(
      parse_any_scenario(text, source), [](FlockScenario&& flock) { return std::move(flock); },
      [](PlanScenario&& plan) -> FlockScenario {
        throw InputError((plan.source.empty() ? std::string("<scenario>") : plan.source) +
                         ": a plan scenario ([plan]) has no flock to start: `murmur plan` runs it");
      });
}

PlanScenario parse_plan_scenario(std::string_view text, const std::string& source) {
  return visit_kind(
      parse_any_scenario(text, source),
      [](FlockScenario&& flock) -> PlanScenario {
        throw InputError(flock.source + ": no [plan] table: murmur plan draws plan scenarios " +
                         "(docs/floor-plan.md)");
      },
      [](PlanScenario&& plan) { return std::move(plan); });
}

AnyScenario load_any_scenario(const std::filesystem::path& path) {
  return parse_any_scenario(scenario_file_text(path), path.string());
}

FlockScenario load_scenario(const std::filesystem::path& path) {
  return parse_scenario(scenario_file_text(path), path.string());
}

PlanScenario load_plan_scenario(const std::filesystem::path& path) {
  return parse_plan_scenario(scenario_file_text(path), path.string());
}

}  // namespace murmur
