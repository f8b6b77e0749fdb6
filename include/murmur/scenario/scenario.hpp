#pragma once
// A scenario: the world and its species, read from TOML (docs/scenarios.md lists every key,
// its default and its accepted range). The simulation core takes only validated scenarios.
//
// Sections, in order: the species' enums and their TOML names (rules, neighbours, topology,
// ...); the limits; the [[species]] table and which of its keys apply to a species; obstacles
// and the target; the [food] table and its patches; [[spawn]]; the [plan] table and its groups;
// [world]; the two kinds (FlockScenario, PlanScenario, AnyScenario); loading, parsing,
// validating, and a key by name (set_scenario_key).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "common/interface.h"
#include "murmur/scenario/look.hpp"
#include "murmur/scenario/params/param_info.hpp"

namespace murmur {

// The TOML name of an enum's value (every enum below has its names_of).
template <class Enum>
constexpr std::string_view name_of(Enum value) {
  return names_of(value)[static_cast<std::size_t>(value)];
}

// How a species moves (docs/model.md, "Rules of motion"): Reynolds' steering, Vicsek et al.
// 1995's noisy alignment at constant speed, or Couzin et al. 2002's zones. Value k is bit k of
// a key's `Accepted::rules` (param_info.hpp: kBoidsOnly, kVicsekOnly, kCouzinOnly).
enum class Rule : std::uint32_t { Boids = 0, Vicsek = 1, Couzin = 2 };
inline constexpr std::string_view kRuleNames[] = {"boids", "vicsek", "couzin"};
constexpr const auto& names_of(Rule) { return kRuleNames; }
constexpr std::uint8_t rule_bit(Rule rule) {
  return static_cast<std::uint8_t>(1u << static_cast<std::uint32_t>(rule));
}

// Which others a boid's neighbours are (docs/model.md, "Topological neighbours"): all it sees
// within its perception radius, or only the topological_k nearest of those. Value k is bit k
// of a key's `Accepted::neighbours` (param_info.hpp: kMetricOnly, kTopologicalOnly).
enum class Neighbours : std::uint32_t { Metric = 0, Topological = 1 };
inline constexpr std::string_view kNeighboursNames[] = {"metric", "topological"};
constexpr const auto& names_of(Neighbours) { return kNeighboursNames; }
constexpr std::uint8_t neighbours_bit(Neighbours neighbours) {
  return static_cast<std::uint8_t>(1u << static_cast<std::uint32_t>(neighbours));
}

// The noise angle's law (docs/model.md, "Noise"): uniform in [-eta/2, eta/2] or N(0, eta^2).
enum class NoiseDistribution : std::uint32_t { Uniform = 0, Gaussian = 1 };
inline constexpr std::string_view kNoiseDistributionNames[] = {"uniform", "gaussian"};
constexpr const auto& names_of(NoiseDistribution) { return kNoiseDistributionNames; }

// Which velocity moves a Vicsek particle (docs/model.md, "The Vicsek model"): the paper's
// x(t+1) = x(t) + v(t), or the new velocity.
enum class VicsekUpdate : std::uint32_t { Paper = 0, Forward = 1 };
inline constexpr std::string_view kVicsekUpdateNames[] = {"paper", "forward"};
constexpr const auto& names_of(VicsekUpdate) { return kVicsekUpdateNames; }

enum class Topology : std::uint32_t { Wrap = 0, Bounded = 1 };
// The TOML names of Topology's values, in the enum's order.
inline constexpr std::string_view kTopologyNames[] = {"wrap", "bounded"};
constexpr const auto& names_of(Topology) { return kTopologyNames; }

// The separation sum's term per neighbour (docs/model.md, step 3): d / |d|^2 (inverse_square,
// the closer the stronger) or d itself (linear, seeds 000 and 002's tutorial).
enum class SeparationKernel : std::uint32_t { InverseSquare = 0, Linear = 1 };
inline constexpr std::string_view kSeparationKernelNames[] = {"inverse_square", "linear"};
constexpr const auto& names_of(SeparationKernel) { return kSeparationKernelNames; }

// What a bounded species' walls do (docs/model.md, steps 4 and 7): reflect (bounce, with the
// soft edge_margin/edge_gain ramp) or push (origin 000: a constant push back within the margin,
// no bounce; positions are held in the world by a clamp).
enum class Walls : std::uint32_t { Reflect = 0, Push = 1 };
inline constexpr std::string_view kWallsNames[] = {"reflect", "push"};
constexpr const auto& names_of(Walls) { return kWallsNames; }

// The target pull's shape (docs/model.md, "Target"): a unit vector, or the displacement itself
// (linear: the pull grows with distance, origin 000 part 1).
enum class TargetPull : std::uint32_t { Unit = 0, Linear = 1 };
inline constexpr std::string_view kTargetPullNames[] = {"unit", "linear"};
constexpr const auto& names_of(TargetPull) { return kTargetPullNames; }

// How a velocity faster than max_speed is slowed (docs/model.md, step 6): clamped to exactly
// max_speed, or origin 000's `limiter`, which scales it by (max_speed / speed)^2, to below it.
enum class SpeedLimit : std::uint32_t { Clamp = 0, Inverse = 1 };
inline constexpr std::string_view kSpeedLimitNames[] = {"clamp", "inverse"};
constexpr const auto& names_of(SpeedLimit) { return kSpeedLimitNames; }

// At most this many species share a world: flocks_with is a bit mask on the GPU.
inline constexpr std::size_t kMaxSpecies = 32;
// A field of view of this many degrees sees all around (the largest accepted).
inline constexpr float kMaxFovDegrees = 360.0f;
// The widest noise: a uniform angle in [-pi, pi] is already no alignment at all (Vicsek's
// eta runs to 2 pi).
inline constexpr float kMaxNoise = 6.28318548f;  // fl(2 pi)
// A turn of half a circle reaches every direction: the largest bound on a couzin turn.
inline constexpr float kMaxTurnDegrees = 180.0f;
// Obstacles live in a small GPU array that every boid scans.
inline constexpr std::size_t kMaxObstacles = 64;
// The largest velocity_factor: a factor above 1 only drives boids to max_speed sooner, and a
// bound keeps f * v finite.
inline constexpr float kMaxVelocityFactor = 2.0f;
// The most neighbours a topological species may take (topological_k): the GPU's steering pass
// keeps its nearest in a list of this fixed size (shaders/common/interface.h).
inline constexpr std::uint32_t kMaxTopologicalK = MURMUR_MAX_TOPOLOGICAL_K;
// The most times a boid may count itself among its flock neighbours (self_weight): origin 000
// counts itself twice; more would be a different rule, not a quirk kept.
inline constexpr std::uint32_t kMaxSelfWeight = 16;
// Seeds are TOML integers (signed 64-bit), so a larger seed could not be written back.
inline constexpr std::uint64_t kMaxSeed = 9223372036854775807ull;  // 2^63 - 1
// Ids and counts stay exactly representable in a float32 (shaders may carry them as floats),
// and 2^24 boids already need ~400 MB of state and neighbour-grid buffers on the GPU.
inline constexpr std::uint32_t kMaxTotalBoids = std::uint32_t{1} << 24;

// One [[species]] table. Its members, their defaults and accepted ranges are the lines of
// include/murmur/scenario/params/species_params.def (docs/parameters.md).
struct SpeciesParams {
#define MURMUR_SPECIES_PARAM(key, type, default_value, ...) type key = default_value;
#include "murmur/scenario/params/species_params.def"
};

// Whether a species key applies to `species`: its rule of motion and its neighbourhood are
// among those the key's table line names (for_rules, for_neighbours). A key that does not
// apply keeps its value unchecked and does nothing.
inline bool key_applies(const params::Accepted& accepted, const SpeciesParams& species) {
  return (accepted.rules & rule_bit(species.rule)) != 0 &&
         (accepted.neighbours & neighbours_bit(species.neighbours)) != 0;
}

// The speeds a seeded start draws from for a species (docs/model.md, "The seeded start"):
// [min_speed, max_speed] for boids, the constant `speed` for the rules that keep one.
struct SpeedRange {
  float min = 0.0f;
  float max = 0.0f;
};
inline SpeedRange start_speeds(const SpeciesParams& species) {
  if (species.rule == Rule::Boids) return {species.min_speed, species.max_speed};
  return {species.speed, species.speed};
}

namespace params::species {
// One ParamInfo per species key, named after it: params::species::cohesion_weight.key, ...
#define MURMUR_SPECIES_PARAM(key_, type, default_value, accepted, unit, widget, gpu, meaning) \
  inline const ParamInfo<SpeciesParams, type> key_{#key_, default_value, accepted, unit,     \
                                                   widget, Gpu::gpu, meaning, &SpeciesParams::key_};
#include "murmur/scenario/params/species_params.def"
}  // namespace params::species

// Calls visit(info) for each species key's ParamInfo, in table order. `visit` is generic:
// info.member's type says how to read, check, write or edit the key.
template <class Visitor>
void for_each_species_param(Visitor&& visit) {
#define MURMUR_SPECIES_PARAM(key, ...) visit(params::species::key);
#include "murmur/scenario/params/species_params.def"
}

// A disc the boids steer around (key `[[obstacle]] x y radius`; the viewer's left click), or
// in 3D a sphere (x y z radius).
struct Obstacle {
  glm::vec2 centre{0.0f};
  float radius = 0;
  // The centre's z in a 3D world (0 in 2D); last, so that {{x, y}, radius} still reads.
  float z = 0.0f;
};

// A point every boid is pulled towards (key `[target] x y`, and z in 3D; the viewer's right
// click).
struct Target {
  glm::vec2 position{0.0f};
  float z = 0.0f;  // 3D only, as Obstacle::z
};

// `food.initial`: a fraction of max_per_cell in every cell, or the "random" pattern.
struct FoodInitial {
  float fraction = 1.0f;  // in [0, 1]; unused when `random`
  bool random = false;    // uniform in [0, max_per_cell] per cell (docs/model.md, "The food field")
  bool operator==(const FoodInitial&) const = default;
};
// The TOML word of the random pattern.
inline constexpr std::string_view kFoodInitialRandom = "random";
// At most this many food cells: the field is one GPU buffer of floats, and cell indices stay
// exact in float32 like boid counts.
inline constexpr std::uint64_t kMaxFoodCells = std::uint64_t{1} << 24;

// One rectangle of food (`[[food.patch]]`): the cells whose centre lies inside get `amount`.
// Its members are the lines of include/murmur/scenario/params/food_params.def.
struct FoodPatch {
#define MURMUR_FOOD_PATCH_PARAM(key, type, default_value, ...) type key = default_value;
#include "murmur/scenario/params/food_params.def"
};

// The [food] table (docs/model.md, "The food field"): absent = no food field. Its keys are the
// lines of include/murmur/scenario/params/food_params.def.
struct FoodParams {
#define MURMUR_FOOD_PARAM(key, type, default_value, ...) type key = default_value;
#include "murmur/scenario/params/food_params.def"
  std::vector<FoodPatch> patches;
};

namespace params::food {
#define MURMUR_FOOD_PARAM(key_, type, default_value, accepted, unit, widget, meaning)         \
  inline const ParamInfo<FoodParams, type> key_{#key_, default_value, accepted, unit, widget, \
                                                Gpu::None, meaning, &FoodParams::key_};
#include "murmur/scenario/params/food_params.def"
}  // namespace params::food

namespace params::food_patch {
#define MURMUR_FOOD_PATCH_PARAM(key_, type, default_value, accepted, unit, meaning)           \
  inline constexpr ParamInfo<FoodPatch, type> key_{#key_, default_value, accepted, unit,     \
                                                   not_in_panel(), Gpu::None, meaning,       \
                                                   &FoodPatch::key_};
#include "murmur/scenario/params/food_params.def"
}  // namespace params::food_patch

// Calls visit(info) for each [food] key's ParamInfo, in table order.
template <class Visitor>
void for_each_food_param(Visitor&& visit) {
#define MURMUR_FOOD_PARAM(key, ...) visit(params::food::key);
#include "murmur/scenario/params/food_params.def"
}

// Calls visit(info) for each [[food.patch]] key's ParamInfo, in table order.
template <class Visitor>
void for_each_food_patch_param(Visitor&& visit) {
#define MURMUR_FOOD_PATCH_PARAM(key, ...) visit(params::food_patch::key);
#include "murmur/scenario/params/food_params.def"
}

// How a [[spawn]] table places its boids (docs/model.md, "The seeded start" and "The start in
// 3D"): the first three in a 2D world, ball and box in a 3D one.
enum class SpawnLayout : std::uint32_t { Rectangle = 0, Disc = 1, Clusters = 2, Ball = 3, Box = 4 };
// The TOML names of SpawnLayout's values, in the enum's order.
inline constexpr std::string_view kSpawnLayoutNames[] = {"rectangle", "disc", "clusters", "ball",
                                                         "box"};
constexpr const auto& names_of(SpawnLayout) { return kSpawnLayoutNames; }
// Whether a layout places boids in a volume (a 3D world takes only these, a 2D world none).
constexpr bool is_3d_layout(SpawnLayout layout) {
  return layout == SpawnLayout::Ball || layout == SpawnLayout::Box;
}

// One [[spawn]] table: `count` of a species' boids start in a region of the world instead of
// uniformly. Its members are the lines of include/murmur/scenario/params/spawn_params.def.
struct SpawnRegion {
#define MURMUR_SPAWN_PARAM(key, type, default_value, ...) type key = default_value;
#include "murmur/scenario/params/spawn_params.def"
};

namespace params::spawn {
#define MURMUR_SPAWN_PARAM(key_, type, default_value, accepted, unit, meaning)               \
  inline const ParamInfo<SpawnRegion, type> key_{#key_, default_value, accepted, unit,      \
                                                 not_in_panel(), Gpu::None, meaning,        \
                                                 &SpawnRegion::key_};
#include "murmur/scenario/params/spawn_params.def"
}  // namespace params::spawn

// Calls visit(info) for each [[spawn]] key's ParamInfo, in table order.
template <class Visitor>
void for_each_spawn_param(Visitor&& visit) {
#define MURMUR_SPAWN_PARAM(key, ...) visit(params::spawn::key);
#include "murmur/scenario/params/spawn_params.def"
}

// One rectangle where some plan agents start (`[[plan.group]]`; origin 003 has two). Its members
// are the lines of include/murmur/scenario/params/plan_params.def.
struct PlanGroup {
#define MURMUR_PLAN_GROUP_PARAM(key, type, default_value, ...) type key = default_value;
#include "murmur/scenario/params/plan_params.def"
};

// The [plan] table (docs/model.md, "The floor-plan generator (origin 003)"): present = a plan
// scenario (PlanScenario), whose agents draw a floor plan instead of flocking. Its keys are the
// lines of include/murmur/scenario/params/plan_params.def.
struct PlanParams {
#define MURMUR_PLAN_PARAM(key, type, default_value, ...) type key = default_value;
#include "murmur/scenario/params/plan_params.def"
  // In file order. A [plan] table without [[plan.group]] tables gets origin 003's two groups
  // (origin003_plan_groups()).
  std::vector<PlanGroup> groups;
  std::uint32_t total_count() const;
};

// Origin 003's start: two groups of 10 agents in 10 x 10 boxes at (400, 400) and (400, 420).
std::vector<PlanGroup> origin003_plan_groups();

// The plan's clearance index's cell side for a clearance: the smallest power of two >= it.
// A derived quantity of the [plan] table, which its checks bound and the plan's index uses.
float plan_index_cell_side(float clearance);
// The cells of side `cell_side` that cover a canvas, ceil(W / h) * ceil(H / h), in double (a
// canvas may have more cells than a uint32 counts): the plan's coverage counts them.
double plan_canvas_cells(glm::vec2 canvas, float cell_side);

namespace params::plan {
#define MURMUR_PLAN_PARAM(key_, type, default_value, accepted, unit, widget, meaning)         \
  inline const ParamInfo<PlanParams, type> key_{#key_, default_value, accepted, unit, widget,  \
                                                Gpu::None, meaning, &PlanParams::key_};
#include "murmur/scenario/params/plan_params.def"
}  // namespace params::plan

namespace params::plan_group {
#define MURMUR_PLAN_GROUP_PARAM(key_, type, default_value, accepted, unit, widget, meaning)   \
  inline const ParamInfo<PlanGroup, type> key_{#key_, default_value, accepted, unit, widget,   \
                                               Gpu::None, meaning, &PlanGroup::key_};
#include "murmur/scenario/params/plan_params.def"
}  // namespace params::plan_group

// Calls visit(info) for each [plan] key's ParamInfo, in table order.
template <class Visitor>
void for_each_plan_param(Visitor&& visit) {
#define MURMUR_PLAN_PARAM(key, ...) visit(params::plan::key);
#include "murmur/scenario/params/plan_params.def"
}

// Calls visit(info) for each [[plan.group]] key's ParamInfo, in table order.
template <class Visitor>
void for_each_plan_group_param(Visitor&& visit) {
#define MURMUR_PLAN_GROUP_PARAM(key, ...) visit(params::plan_group::key);
#include "murmur/scenario/params/plan_params.def"
}

// The [world] table: the lines of include/murmur/scenario/params/world_params.def.
struct WorldParams {
#define MURMUR_WORLD_PARAM(key, type, default_value, ...) type key = default_value;
#include "murmur/scenario/params/world_params.def"
};

namespace params::world {
// One ParamInfo per [world] key, named after it. Widget and gpu are unused: the world is not
// edited in the panel, and reaches the GPU through StepParams.
#define MURMUR_WORLD_PARAM(key_, type, default_value, accepted, unit, meaning)               \
  inline constexpr ParamInfo<WorldParams, type> key_{#key_, default_value, accepted, unit, \
                                                     not_in_panel(), Gpu::None, meaning,   \
                                                     &WorldParams::key_};
#include "murmur/scenario/params/world_params.def"
}  // namespace params::world

// Calls visit(info) for each [world] key's ParamInfo, in table order.
template <class Visitor>
void for_each_world_param(Visitor&& visit) {
#define MURMUR_WORLD_PARAM(key, ...) visit(params::world::key);
#include "murmur/scenario/params/world_params.def"
}

// What both kinds of scenario have: the world, the look and where they came from.
struct ScenarioCommon;
// Whether the world is a volume ([world] dimensions = 3, docs/model.md, "Three dimensions").
bool is_3d(const ScenarioCommon& scenario);
// Lx, Ly and Lz (0 in 2D).
glm::vec3 world_box(const ScenarioCommon& scenario);
// The smallest side of the world: min(Lx, Ly), or min(Lx, Ly, Lz) in 3D. The perception radius,
// speeds and walls' reach are held below half of it.
float smallest_world_side(const ScenarioCommon& scenario);

struct ScenarioCommon {
  WorldParams world;
  LookParams look;  // the [render] table: how the scenario asks to be drawn
  CameraParams camera;  // the [camera] table: where a 3D world's camera starts
  std::string source;  // file the scenario came from (for messages and manifests)

  glm::vec2 size() const { return {world.width, world.height}; }
};

// A flock: species of boids, and what they steer around, towards and eat.
struct FlockScenario : ScenarioCommon {
  std::vector<SpeciesParams> species;
  std::vector<Obstacle> obstacles;
  std::optional<Target> target;
  std::optional<FoodParams> food;
  std::vector<SpawnRegion> spawns;  // in file order; a species' spawns take its first ids

  std::uint32_t total_count() const;
  // C of docs/model.md: world.capacity, or the total count when that is larger or unset.
  std::uint32_t capacity() const;
  float max_perception_radius() const;
  // Bit j set when species s flocks with species j (aligns with and coheres to it).
  std::uint32_t flock_mask(std::size_t s) const;
  // Bit j set when species s hunts species j (its `eats`).
  std::uint32_t prey_mask(std::size_t s) const;
  // Bit j set when species j hunts species s.
  std::uint32_t hunter_mask(std::size_t s) const;
};

// A floor plan (docs/model.md, "The floor-plan generator (origin 003)"): a file with a [plan]
// table, whose agents draw instead of flocking. It takes no flock's tables.
struct PlanScenario : ScenarioCommon {
  PlanParams plan;
};

// Scenario is the flock kind: the flock's code, most of the project, names it so.
using Scenario = FlockScenario;

// A scenario of either kind, as a file holds it. A command decides once, where it starts, which
// kind it runs (visit_kind); below that, every function takes its own kind.
using AnyScenario = std::variant<FlockScenario, PlanScenario>;

template <class... Callables>
struct Overloaded : Callables... {
  using Callables::operator()...;
};
// Spelled out: clang before 17 deduces no aggregate's template arguments (the fuzz build).
template <class... Callables>
Overloaded(Callables...) -> Overloaded<Callables...>;

// on_flock(flock) or on_plan(plan), for the kind `scenario` holds.
template <class Any, class OnFlock, class OnPlan>
decltype(auto) visit_kind(Any&& scenario, OnFlock&& on_flock, OnPlan&& on_plan) {
  return std::visit(Overloaded{std::forward<OnFlock>(on_flock), std::forward<OnPlan>(on_plan)},
                    std::forward<Any>(scenario));
}

// What either kind has (its world, look and source).
inline const ScenarioCommon& common_of(const AnyScenario& scenario) {
  return std::visit([](const ScenarioCommon& common) -> const ScenarioCommon& { return common; },
                    scenario);
}
inline ScenarioCommon& common_of(AnyScenario& scenario) {
  return std::visit([](ScenarioCommon& common) -> ScenarioCommon& { return common; }, scenario);
}

// Reads and validates a scenario file of either kind. Throws InputError with one line naming
// the file, line, key and accepted range.
AnyScenario load_any_scenario(const std::filesystem::path& path);
// Same, for a flock: a plan scenario is an InputError ("... has no flock to start").
FlockScenario load_scenario(const std::filesystem::path& path);
// Same, for a plan: a flock scenario is an InputError ("no [plan] table").
PlanScenario load_plan_scenario(const std::filesystem::path& path);
// The same three, from text; `source` names it in messages.
AnyScenario parse_any_scenario(std::string_view text, const std::string& source);
FlockScenario parse_scenario(std::string_view text, const std::string& source);
PlanScenario parse_plan_scenario(std::string_view text, const std::string& source);
// Checks every field of an in-memory scenario (the viewers' panels use this too).
// Throws InputError naming `source`, the key and the accepted range.
void validate_scenario(const FlockScenario& scenario);
void validate_scenario(const PlanScenario& scenario);
// A flock scenario's key by its name on a command line (`murmur sweep --vary`, docs/sweep.md):
// `world.<key>` or `species.<name>.<key>`. set_scenario_key reads `value` as a file's line
// `<key> = <value>` in that table would be read (TOML; a bare word is a string), every message
// naming `origin` (InputError for a malformed name, an unknown species or key, a value of the
// wrong type). The caller then checks the whole scenario (validate_scenario), since a key's
// range may name another key.
void set_scenario_key(FlockScenario& scenario, std::string_view key, std::string_view value,
                      const std::string& origin);
// The value of such a key as text: a number as the shortest text that reads back the same, a
// name or a choice bare, a list as a TOML array.
std::string scenario_key_text(const FlockScenario& scenario, std::string_view key);
// Writes a scenario back as TOML that the loader reads to the same values.
std::string scenario_to_toml(const FlockScenario& scenario);
std::string scenario_to_toml(const PlanScenario& scenario);
// `text` as a TOML basic string: quoted, with quotes, backslashes and control characters escaped.
std::string toml_quote(std::string_view text);

}  // namespace murmur
