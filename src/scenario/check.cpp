// The checks of a scenario and their messages: every table's ranges and the rules that relate
// keys, species and tables to each other (docs/scenarios.md is the user's reference). Files
// (parse.cpp, which reads each table before these run) and in-memory scenarios (the viewer's
// panel, through validate_scenario) are held to the same rules.
//
// The tables come in the order of parse.cpp, so the read and the check of one table can be held
// side by side; the writer (write.cpp) writes them. It is over 800 lines because one Validator
// checks every table of both kinds (ten of them), in 2D and 3D: its range texts, lines and labels are shared
// by all of them, and split across files they would be passed around instead.
//
// Sections of the Validator:
//   ranges                    whether a value lies in its key's range, and the message when not
//   [world]
//   [[species]]               names, ranges, the names they refer to, the total count
//   [[obstacle]], [target]    points and discs inside the world
//   [food], [[food.patch]]
//   [render]
//   [camera]                  a 3D world's alone; its eye apart from its target
//   [[spawn]]                 a known species, counts, a region inside the world
//   [plan], [[plan.group]]    a plan scenario: its groups, its canvas
// and, after it, the rule of a plan file: no flock's tables (check_plan_has_no_flock).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "common/interface.h"
#include "murmur/scenario/scenario.hpp"
#include "param_text.hpp"
#include "scenario_internal.hpp"

namespace murmur {
namespace {

using params::choice_text;
using params::show_double;
using params::show_float;
using scenario_internal::fail;
using scenario_internal::quote;
using scenario_internal::ScenarioLines;
using scenario_internal::spawn_label;
using scenario_internal::species_label;

// Checks one kind of scenario (FlockScenario or PlanScenario); a kind's tables are checked only
// by the Validator of that kind.
template <class Kind>
class Validator {
  // The owner of a table whose ranges name no other key ([world], [render]).
  static constexpr const SpeciesParams* kNoOwner = nullptr;

 public:
  Validator(const Kind& scenario, const ScenarioLines* lines)
      : scenario_(scenario), lines_(lines) {}

  void run() {
    check_world();
    check_tables_of(scenario_);
  }

 private:
  void check_tables_of(const PlanScenario&) {
    if (is_3d(scenario_)) {
      fail(scenario_.source, lines_ ? lines_->plan.table : 0,
           "[plan]: the floor plan is a 2D model, refused in a 3D world (world.dimensions = 3): "
           "must be 2 for a plan");
    }
    check_plan();
    check_look();
    check_camera();
  }

  void check_tables_of(const FlockScenario&) {
    check_species_list();
    // Before the species' own checks, whose rules of the ecosystem (a grazer's [food]) would
    // otherwise answer a 3D file that names the ecosystem at all.
    check_ecosystem_is_2d();
    for (std::size_t i = 0; i < scenario_.species.size(); ++i) check_species(i);
    check_total_count();
    check_rule_combinations();
    check_obstacles();
    check_target();
    check_food();
    check_look();
    check_camera();
    check_spawns();
  }

  // ---- ranges: whether a value lies in its key's range, and the message when not -----

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
        return 0.5f * smallest_world_side(scenario_);
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

  // ---- [world] -----------------------------------------------------------------------

  std::uint32_t world_line(std::string_view key) const {
    return lines_ ? lines_->world.line_of(key) : 0;
  }

  void check_world() const {
    for_each_world_param([&](const auto& info) {
      const auto& value = scenario_.world.*info.member;
      if (auto broken = broken_rule(value, info.accepted, kNoOwner, true)) {
        fail(scenario_.source, world_line(info.key),
             "world." + std::string(info.key) + " = " + shown_value(value) + ": " + *broken);
      }
    });
    const float depth = scenario_.world.depth;
    const std::string depth_key = "world." + std::string(params::world::depth.key);
    if (is_3d(scenario_) && !(depth > 0.0f && std::isfinite(depth))) {
      fail(scenario_.source, world_line(params::world::depth.key),
           depth_key + " = " + show_float(depth) +
               ": must be > 0 and finite in a 3D world (world.dimensions = 3)");
    }
    if (!is_3d(scenario_) && depth != 0.0f) {
      fail(scenario_.source, world_line(params::world::depth.key),
           depth_key + " = " + show_float(depth) +
               ": only a 3D world has a depth (set world.dimensions = 3, or leave depth out)");
    }
  }

  // ---- [[species]] -------------------------------------------------------------------

  std::uint32_t species_line(std::size_t i, std::string_view key) const {
    return lines_ && i < lines_->species.size() ? lines_->species[i].line_of(key) : 0;
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

  // Whether a species key belongs to species i's rule of motion and neighbourhood: the keys of
  // the other rules (docs/model.md, "Rules of motion") and topological_k of a metric species
  // keep their values, unchecked.
  template <class Info>
  bool applies(std::size_t i, const Info& info) const {
    return key_applies(info.accepted, scenario_.species[i]);
  }

  template <class Info>
  void check_finite(std::size_t i, const Info& info) const {
    if (!applies(i, info)) return;
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(info.default_value)>, float>) {
      const float value = scenario_.species[i].*info.member;
      if (!std::isfinite(value)) fail_species(i, info.key, show_float(value), "must be finite");
    }
  }

  template <class Info>
  void check_range(std::size_t i, const Info& info) const {
    if (!applies(i, info)) return;
    const SpeciesParams& species = scenario_.species[i];
    const auto& value = species.*info.member;
    if (auto broken = broken_rule(value, info.accepted, &species, false)) {
      fail_species(i, info.key, shown_value(value), *broken);
    }
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

  // ---- rules of motion ---------------------------------------------------------------

  // What a vicsek or couzin species does not combine with (docs/model.md, "Rules of motion"):
  // walls, the ecosystem, obstacles and the target; and what topological neighbours do not
  // (docs/model.md, "Topological neighbours"). Each message names both keys.
  void check_rule_combinations() const {
    for (std::size_t i = 0; i < scenario_.species.size(); ++i) {
      check_topological_combinations(i);
      const SpeciesParams& species = scenario_.species[i];
      if (species.rule == Rule::Boids) continue;
      const std::string rule = "rule = " + quote(std::string(name_of(species.rule)));
      const auto refuse = [&](std::string_view key, const std::string& value,
                              const std::string& why) {
        fail_species(i, key, value, why + ", and this one has " + rule);
      };
      if (species.topology != Topology::Wrap) {
        refuse(params::species::topology.key, quote(std::string(name_of(species.topology))),
               "must be \"wrap\" for a vicsek or couzin species");
      }
      if (!species.eats.empty()) {
        refuse(params::species::eats.key, quote(species.eats.front()),
               "only a boids species hunts");
      }
      if (species.grazes) refuse(params::species::grazes.key, "true", "only a boids species grazes");
      if (species.energy_max > 0.0f) {
        refuse(params::species::energy_max.key, show_float(species.energy_max),
               "only a boids species has energy");
      }
      for (std::size_t h = 0; h < scenario_.species.size(); ++h) {
        const std::vector<std::string>& eats = scenario_.species[h].eats;
        if (std::find(eats.begin(), eats.end(), species.name) != eats.end()) {
          fail_species(h, params::species::eats.key, quote(species.name),
                       "only a boids species is prey, and " + species_label(i, species.name) +
                           "." + rule);
        }
      }
      if (!scenario_.obstacles.empty()) {
        fail(scenario_.source, obstacle_line(0, "x"),
             "obstacle[0]: only boids species steer around obstacles, and " +
                 species_label(i, species.name) + "." + rule);
      }
      if (scenario_.target) {
        fail(scenario_.source, lines_ ? lines_->target.line_of("x") : 0,
             "[target]: only boids species steer towards a target, and " +
                 species_label(i, species.name) + "." + rule);
      }
    }
  }

  // A topological species moves by boids or vicsek, and takes no part in the ecosystem: its
  // sensing would read the neighbours it chose, not every prey or hunter it sees.
  void check_topological_combinations(std::size_t i) const {
    const SpeciesParams& species = scenario_.species[i];
    if (species.neighbours != Neighbours::Topological) return;
    const std::string topological =
        "neighbours = " + quote(std::string(name_of(species.neighbours)));
    const auto refuse = [&](std::string_view key, const std::string& value,
                            const std::string& why) {
      fail_species(i, key, value, why + ", and this one has " + topological);
    };
    if (species.rule == Rule::Couzin) {
      refuse(params::species::rule.key, quote(std::string(name_of(species.rule))),
             "must be \"boids\" or \"vicsek\" for topological neighbours (Couzin's zones are "
             "metric)");
    }
    if (!species.eats.empty()) {
      refuse(params::species::eats.key, quote(species.eats.front()),
             "only a metric species hunts");
    }
    if (species.grazes) refuse(params::species::grazes.key, "true", "only a metric species grazes");
    for (std::size_t h = 0; h < scenario_.species.size(); ++h) {
      const std::vector<std::string>& eats = scenario_.species[h].eats;
      if (std::find(eats.begin(), eats.end(), species.name) != eats.end()) {
        fail_species(h, params::species::eats.key, quote(species.name),
                     "only a metric species is prey, and " + species_label(i, species.name) +
                         "." + topological);
      }
    }
  }

  // ---- the ecosystem, a 2D model ----------------------------------------------------

  // The species keys of the ecosystem (docs/model.md, "An ecosystem": its per-species keys
  // but max_count, a cap that any population may have).
  static bool is_ecosystem_key(std::string_view key) {
    namespace k = params::species;
    for (const std::string_view ecosystem :
         {k::eats.key, k::grazes.key, k::energy_max.key, k::energy_initial.key,
          k::energy_per_step.key, k::energy_per_distance.key, k::energy_from_food.key,
          k::energy_from_prey.key, k::reproduce_energy.key, k::catch_radius.key,
          k::chase_weight.key, k::flee_weight.key, k::food_weight.key}) {
      if (key == ecosystem) return true;
    }
    return false;
  }

  // The ecosystem is specified in 2D only (docs/model.md, "World and state in 3D"): a 3D world
  // refuses a species that sets one of its keys, and the [food] table.
  void check_ecosystem_is_2d() const {
    if (!is_3d(scenario_)) return;
    const std::string why =
        "the ecosystem is a 2D model, refused in a 3D world (world.dimensions = 3): must be ";
    for (std::size_t i = 0; i < scenario_.species.size(); ++i) {
      for_each_species_param([&](const auto& info) {
        if (!is_ecosystem_key(info.key)) return;
        const auto& value = scenario_.species[i].*info.member;
        if (value == info.default_value) return;
        fail_species(i, info.key, shown_value(value),
                     why + shown_value(info.default_value) + " (the default)");
      });
    }
    if (scenario_.food) {
      fail(scenario_.source, lines_ ? lines_->food.table : 0,
           "[food]: the ecosystem's food field is a 2D model, refused in a 3D world "
           "(world.dimensions = 3): leave the [food] table out");
    }
  }

  // ---- [[obstacle]] ------------------------------------------------------------------

  std::uint32_t obstacle_line(std::size_t i, std::string_view key) const {
    return lines_ && i < lines_->obstacles.size() ? lines_->obstacles[i].line_of(key) : 0;
  }

  // A point of the world, walls included: [0, width] x [0, height], and [0, depth] on z in
  // 3D (z is 0 in 2D).
  bool inside_world(glm::vec2 p, float z = 0.0f) const {
    const bool on_z = is_3d(scenario_) ? z >= 0.0f && z <= scenario_.world.depth : z == 0.0f;
    return p.x >= 0.0f && p.x <= scenario_.world.width && p.y >= 0.0f &&
           p.y <= scenario_.world.height && on_z;
  }

  std::string world_range() const {
    return "[0, " + show_float(scenario_.world.width) + "] x [0, " +
           show_float(scenario_.world.height) + "]" +
           (is_3d(scenario_) ? " x [0, " + show_float(scenario_.world.depth) + "]" : "") +
           " (the world)";
  }

  // A point's coordinates as messages name them: "(x, y) = (1, 2)", or with z in 3D.
  std::string point_text(glm::vec2 p, float z) const {
    if (!is_3d(scenario_)) return " (x, y) = (" + show_float(p.x) + ", " + show_float(p.y) + ")";
    return " (x, y, z) = (" + show_float(p.x) + ", " + show_float(p.y) + ", " + show_float(z) +
           ")";
  }

  // An in-memory 2D scenario's point with a z (a file's is refused as it is read).
  void check_no_z(const std::string& label, float z, std::uint32_t line) const {
    if (is_3d(scenario_) || z == 0.0f) return;
    fail(scenario_.source, line,
         label + ".z = " + show_float(z) +
             ": only a 3D world has z (world.dimensions = 3; this one is 2D)");
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
      check_no_z(label, o.z, obstacle_line(i, "x"));
      if (!inside_world(o.centre, o.z)) {
        fail(scenario_.source, obstacle_line(i, "x"),
             label + point_text(o.centre, o.z) + ": must lie in " + world_range());
      }
      if (!(o.radius > 0.0f) || !std::isfinite(o.radius)) {
        fail(scenario_.source, obstacle_line(i, "radius"),
             label + ".radius = " + show_float(o.radius) + ": must be > 0 and finite");
      }
    }
  }

  // ---- [target] ----------------------------------------------------------------------

  void check_target() const {
    if (!scenario_.target) return;
    const glm::vec2 p = scenario_.target->position;
    const float z = scenario_.target->z;
    const std::uint32_t line = lines_ ? lines_->target.line_of("x") : 0;
    check_no_z("target", z, line);
    if (!inside_world(p, z)) {
      fail(scenario_.source, line, "target" + point_text(p, z) + ": must lie in " + world_range());
    }
  }

  // ---- [food] and [[food.patch]] -----------------------------------------------------

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

  // ---- [render] ----------------------------------------------------------------------

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

  // ---- [camera] ----------------------------------------------------------------------

  // Only a 3D world has a camera to place; its keys within their ranges, its position and
  // target finite and apart (the view's direction is the one from the first to the second).
  void check_camera() const {
    if (scenario_.camera.empty()) return;
    const auto line_of = [&](std::string_view key) {
      return lines_ ? lines_->camera.line_of(key) : 0;
    };
    if (!is_3d(scenario_)) {
      fail(scenario_.source, lines_ ? lines_->camera.table : 0,
           "[camera]: only a 3D world has a camera to place (world.dimensions = 3; this one is "
           "2D): leave the [camera] table out");
    }
    for_each_camera_param([&](const auto& info) {
      const auto& value = scenario_.camera.*info.member;
      if (!value) return;
      if (auto broken = broken_rule(*value, info.accepted, kNoOwner, true)) {
        fail(scenario_.source, line_of(info.key),
             "camera." + std::string(info.key) + " = " + shown_value(*value) + ": " + *broken);
      }
    });
    const auto check_point = [&](std::string_view key, const std::optional<glm::vec3>& point) {
      if (point && !(std::isfinite(point->x) && std::isfinite(point->y) &&
                     std::isfinite(point->z))) {
        fail(scenario_.source, line_of(key),
             "camera." + std::string(key) + " = " + shown_value(*point) +
                 ": each component must be finite");
      }
    };
    check_point(params::camera::position.key, scenario_.camera.position);
    check_point(params::camera::target.key, scenario_.camera.target);
    const glm::vec3 target = scenario_.camera.target.value_or(0.5f * world_box(scenario_));
    if (scenario_.camera.position && *scenario_.camera.position == target) {
      fail(scenario_.source, line_of(params::camera::position.key),
           "camera.position = " + shown_value(*scenario_.camera.position) +
               ": must differ from camera.target (" + shown_value(target) +
               "), which the camera looks towards");
    }
  }

  // ---- [[spawn]] ---------------------------------------------------------------------

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
      if (const auto refusal =
              scenario_internal::spawn_layout_refusal(spawn.layout, is_3d(scenario_))) {
        fail_spawn(k::layout.key, quote(name_of(spawn.layout)), *refusal);
      }
      check_spawn_region(spawn, fail_spawn);
      if (spawn.layout == SpawnLayout::Clusters) continue;
      if (is_3d_layout(spawn.layout)) check_spawn_direction(spawn, fail_spawn);
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

  // A 3D spawn's cone: a finite axis, which a spread needs (docs/model.md, "The start in 3D").
  template <class Fail>
  void check_spawn_direction(const SpawnRegion& spawn, const Fail& fail_spawn) const {
    namespace k = params::spawn;
    const glm::vec3 d = spawn.direction;
    if (!(std::isfinite(d.x) && std::isfinite(d.y) && std::isfinite(d.z))) {
      fail_spawn(k::direction.key, shown_value(d), "each component must be finite");
    }
    if (spawn.spread_degrees > 0.0f && d == glm::vec3(0.0f)) {
      fail_spawn(k::spread_degrees.key, show_float(spawn.spread_degrees),
                 "a cone needs its axis: give direction = [dx, dy, dz] (not [0, 0, 0]), or "
                 "leave spread_degrees at 0");
    }
  }

  // Every point a layout can place lies in the world (clusters: its origin; the squares that
  // grow from it wrap or meet the walls, docs/model.md).
  template <class Fail>
  void check_spawn_region(const SpawnRegion& spawn, const Fail& fail_spawn) const {
    namespace k = params::spawn;
    const double width = scenario_.world.width;
    const double height = scenario_.world.height;
    const double depth = scenario_.world.depth;
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
      case SpawnLayout::Box:
        if (!(spawn.width > 0.0f)) {
          fail_spawn(k::width.key, show_float(spawn.width), "must be > 0 (a box's width)");
        }
        if (!(spawn.height > 0.0f)) {
          fail_spawn(k::height.key, show_float(spawn.height), "must be > 0 (a box's height)");
        }
        if (!(spawn.depth > 0.0f)) {
          fail_spawn(k::depth.key, show_float(spawn.depth), "must be > 0 (a box's depth)");
        }
        check_span(k::x.key, spawn.x, spawn.width, width, k::width.key, "width");
        check_span(k::y.key, spawn.y, spawn.height, height, k::height.key, "height");
        check_span(k::z.key, spawn.z, spawn.depth, depth, k::depth.key, "depth");
        break;
      case SpawnLayout::Disc:
      case SpawnLayout::Ball: {
        const bool ball = spawn.layout == SpawnLayout::Ball;
        const std::string shape = ball ? "ball" : "disc";
        if (!(spawn.radius > 0.0f)) {
          fail_spawn(k::radius.key, show_float(spawn.radius),
                     "must be > 0 (a " + shape + "'s radius)");
        }
        std::vector<std::tuple<std::string_view, float, double>> axes = {
            {k::x.key, spawn.x, width}, {k::y.key, spawn.y, height}};
        if (ball) axes.emplace_back(k::z.key, spawn.z, depth);
        for (const auto& [key, centre, length] : axes) {
          if (!(double(centre) - spawn.radius >= 0.0 && double(centre) + spawn.radius <= length)) {
            fail_spawn(key, show_float(centre),
                       "the " + shape + " must lie in the world: radius (" +
                           show_float(spawn.radius) + ") <= " + std::string(key) + " <= " +
                           show_double(length) + " - radius");
          }
        }
        break;
      }
      case SpawnLayout::Clusters:
        if (!inside_world({spawn.x, spawn.y})) {
          fail_spawn(k::x.key, show_float(spawn.x),
                     "the origin (x, y) = (" + show_float(spawn.x) + ", " + show_float(spawn.y) +
                         ") must lie in " + world_range());
        }
        break;
    }
  }

  // ---- [plan] and [[plan.group]] -----------------------------------------------------

  std::uint32_t plan_line(std::string_view key) const {
    return lines_ ? lines_->plan.line_of(key) : 0;
  }
  std::uint32_t plan_group_line(std::size_t i, std::string_view key) const {
    return lines_ && i < lines_->plan_groups.size() ? lines_->plan_groups[i].line_of(key) : 0;
  }

  void check_plan() const {
    const PlanParams& plan = scenario_.plan;
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
           "for origin 003's two)");
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
      const double cells = plan_canvas_cells(scenario_.size(), side);
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
    const PlanGroup& group = scenario_.plan.groups[i];
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

  const Kind& scenario_;
  const ScenarioLines* lines_;
};

}  // namespace

void scenario_internal::check_scenario(const FlockScenario& scenario, const ScenarioLines* lines) {
  Validator(scenario, lines).run();
}

void scenario_internal::check_scenario(const PlanScenario& scenario, const ScenarioLines* lines) {
  Validator(scenario, lines).run();
}

void scenario_internal::check_plan_has_no_flock(const FlockScenario& tables,
                                                const ScenarioLines& lines) {
  const auto reject = [&](bool present, std::string_view table) {
    if (!present) return;
    fail(tables.source, lines.plan.table,
         std::string(table) + ": not part of a plan scenario (one with a [plan] table takes " +
             "only [world], [render] and [plan] with its [[plan.group]] tables)");
  };
  reject(!tables.species.empty(), "[[species]]");
  reject(!tables.spawns.empty(), "[[spawn]]");
  reject(!tables.obstacles.empty(), "[[obstacle]]");
  reject(tables.target.has_value(), "[target]");
  reject(tables.food.has_value(), "[food]");
}

void validate_scenario(const FlockScenario& scenario) { Validator(scenario, nullptr).run(); }

void validate_scenario(const PlanScenario& scenario) { Validator(scenario, nullptr).run(); }

}  // namespace murmur
