#pragma once
// The flocking model of docs/model.md, one boid at a time, in float32 arithmetic. The CPU
// reference (cpu_flock) is built on these functions; shaders/flock/model.glsl is the GPU's copy and
// keeps the same order of operations so the two round alike.
#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "common/interface.h"
#include "murmur/flock/grid.hpp"
#include "murmur/scenario/scenario.hpp"
#include "murmur/flock/state.hpp"

namespace murmur {

// Per-species constants in the form the step uses, built once from SpeciesParams: the keys
// the table (include/murmur/scenario/params/species_params.def) marks Copied, under their own names,
// and the derived fields it lists. The GPU record (generated gpu::Species) holds the same
// floats, so cos_half_fov is computed here, once, for both sides.
struct SpeciesModel {
#define MURMUR_SPECIES_PARAM(key, type, default_value, accepted, unit, widget, gpu, meaning) \
  MURMUR_IF_GPU_COPIED(gpu, type key{};)
#define MURMUR_SPECIES_DERIVED(name, type, meaning) type name{};
#include "murmur/scenario/params/species_params.def"
};

std::vector<SpeciesModel> species_models(const Scenario& scenario);

// A child's velocity components are uniform in +-fl(max_speed * K) (docs/model.md, "Births by
// energy"): K is the float just below 1/sqrt(2), so |u| <= max_speed without a square root.
inline constexpr float kChildSpeedFraction = 0.70710677f;
// The Philox draws of a child's velocity, x then y (docs/model.md, "Random numbers"), defined
// in shaders/common/interface.h for both languages.
inline constexpr std::uint32_t kDrawChildVelocityX = MURMUR_DRAW_CHILD_VELOCITY_X;
inline constexpr std::uint32_t kDrawChildVelocityY = MURMUR_DRAW_CHILD_VELOCITY_Y;
// The Philox draws of a vicsek or couzin boid's noise angle (docs/model.md, "Noise").
inline constexpr std::uint32_t kDrawNoiseUniform = MURMUR_DRAW_NOISE_UNIFORM;
inline constexpr std::uint32_t kDrawNoiseGaussianRadius = MURMUR_DRAW_NOISE_GAUSSIAN_RADIUS;
inline constexpr std::uint32_t kDrawNoiseGaussianAngle = MURMUR_DRAW_NOISE_GAUSSIAN_ANGLE;
inline constexpr std::uint32_t kDrawNoiseAxis = MURMUR_DRAW_NOISE_AXIS;

// Ageing (docs/model.md, "Ageing and death by age"): one step older, saturating.
std::uint32_t aged(std::uint32_t age);
// Whether a boid whose age after the step is `age` dies of it.
bool dies_of_age(const SpeciesModel& observer, std::uint32_t age);

// The test-only birth rule (docs/model.md, "Births"), switched on by tests and the harness.
// When on, it replaces the ecosystem's births by energy.
struct BirthRules {
  std::uint32_t budding_period = 0;  // P: one child when (id + step) mod P == 0; 0 = off
  bool any() const { return budding_period != 0; }
};
// A child born in a step, and its parent.
struct BirthRecord {
  std::uint32_t child_id = 0;
  std::uint32_t parent_id = 0;
};

// c_i: how many children `parent` (its state t) has in the step from `step` to step + 1.
std::uint32_t children_of(const BirthRules& rules, const Boid& parent, std::uint64_t step);
// Child `k` of a parent whose state t+1 is `parent_after`, given its id.
Boid child_of(const BirthRules& rules, const Boid& parent_after, std::uint32_t k, std::uint32_t id);

// The model's vectors: 2 components in a plane, 3 in a volume (docs/model.md, "Three
// dimensions"). The rules are written once over either; the 2D instances keep the 2D bits,
// since every 3D sum of squares only appends its z term (`dot_in_order`).
template <class V>
concept ModelVector = std::same_as<V, glm::vec2> || std::same_as<V, glm::vec3>;

// A boid's position and velocity as the model's vectors of one dimension.
template <ModelVector V>
V position_in(const Boid& boid) {
  if constexpr (V::length() == 2) return boid.pos;
  else return position_of(boid);
}
template <ModelVector V>
V velocity_in(const Boid& boid) {
  if constexpr (V::length() == 2) return boid.vel;
  else return velocity_of(boid);
}
// An obstacle's centre as the model's vector: (x, y) or (x, y, z).
template <ModelVector V>
V centre_of(const Obstacle& obstacle) {
  if constexpr (V::length() == 2) return obstacle.centre;
  else return {obstacle.centre, obstacle.z};
}
// A 3D world's sizes as the model's vector: (Lx, Ly) or (Lx, Ly, Lz).
template <ModelVector V>
V world_in(const Scenario& scenario) {
  if constexpr (V::length() == 2) return scenario.size();
  else return world_box(scenario);
}

// a.x*b.x + a.y*b.y (+ a.z*b.z), each product rounded, summed left to right.
float dot_in_order(glm::vec2 a, glm::vec2 b);
float dot_in_order(glm::vec3 a, glm::vec3 b);

// The boid the user steers: it flies at `velocity` (limited to its species' max_speed) instead
// of following the rules, and the others see it as an ordinary neighbour.
struct SteeredBoid {
  std::uint32_t id = 0;
  glm::vec2 velocity{0.0f};
  float velocity_z = 0.0f;  // in a 3D world
};
// The steered velocity as the model's vector.
template <ModelVector V>
V steered_velocity(const SteeredBoid& steered) {
  if constexpr (V::length() == 2) return steered.velocity;
  else return {steered.velocity, steered.velocity_z};
}

// Displacement from `from` to `to` as seen by an observer of the given topology: the minimum
// image on a torus, computed so that a pair across the seam is rounded only once.
glm::vec2 displacement(glm::vec2 from, glm::vec2 to, Topology observer, glm::vec2 world);
// The same in a 3D world (docs/model.md, "Three dimensions"): each axis as above.
glm::vec3 displacement(glm::vec3 from, glm::vec3 to, Topology observer, glm::vec3 world);

// |v| = sqrt(dot_in_order(v, v)): the observer's speed in the fov test, and s' = |v'| as the
// energy cost reads it.
template <ModelVector V>
float speed_of(V velocity);

// Whether j at displacement d from observer i (velocity v_i) is within the perception radius
// (strict) and the field of view (a cone about the heading in 3D). The caller excludes j == i.
template <ModelVector V>
bool in_view(const SpeciesModel& observer, V d, V v_i);

// Whether a candidate at squared distance dist_sq_a (fl(|d|^2), as in_view computes it) with
// id id_a ranks before one at dist_sq_b with id_b: nearer, or as near with the smaller id. The
// order of a topological boid's neighbours and of a hunter's prey (docs/model.md,
// "Topological neighbours").
bool ranks_nearer(float dist_sq_a, std::uint32_t id_a, float dist_sq_b, std::uint32_t id_b);
// How many neighbours a topological observer takes: its topological_k.
std::uint32_t neighbour_limit(const SpeciesModel& observer);

// Sums over one boid's neighbours, in the order they are added, and what it senses of prey
// and hunters (docs/model.md, "One step of the ecosystem", 1). The three vector sums and their
// counts are each rule's own (docs/model.md, "Rules of motion"), kept in the same fields so
// that the GPU's steering pass carries no registers a rule does not use:
//   boids:  velocity_sum, displacement_sum over N_i (flock); separation_sum over S_i
//   vicsek: velocity_sum = sum of unit(v_j) over the flock neighbours (flock)
//   couzin: separation_sum = sum of unit(d) over R (separating), velocity_sum = sum of
//           unit(v_j) over O (flock), displacement_sum = sum of unit(d) over A (attracting)
// The ecosystem's sensing (flee_sum, prey) is 2D only: a 3D world has no ecosystem.
template <ModelVector V>
struct NeighbourSumsIn {
  V velocity_sum{0.0f};      // over flock neighbours N_i
  V displacement_sum{0.0f};  // over N_i
  V separation_sum{0.0f};    // sum of d / |d|^2 over S_i
  std::uint32_t visible = 0;         // visible boids, any species
  std::uint32_t flock = 0;           // |N_i|
  std::uint32_t separating = 0;      // |S_i|
  std::uint32_t attracting = 0;      // couzin: |A|
  V flee_sum{0.0f};          // sum of d / |d|^2 over visible hunters with |d|^2 > 0
  // P_i, the nearest visible prey (least dist_sq, ties to the smaller id); valid if has_prey.
  bool has_prey = false;
  std::uint32_t prey_id = 0;
  float prey_dist_sq = 0.0f;
  V prey_displacement{0.0f};
};
using NeighbourSums = NeighbourSumsIn<glm::vec2>;
using NeighbourSums3 = NeighbourSumsIn<glm::vec3>;

// A separating neighbour's term of separation_sum: d / dist_sq, or d for the linear kernel.
template <ModelVector V>
V separation_term(const SpeciesModel& observer, V d, float dist_sq);

// Adds neighbour j (id `id_j`, species `species_j`, velocity v_j) at displacement d, if
// visible: to the flock and separation sums, and to the prey and hunter sensing.
template <ModelVector V>
void add_neighbour(NeighbourSumsIn<V>& sums, const SpeciesModel& observer, V v_i, V d, V v_j,
                   std::uint32_t species_j, std::uint32_t id_j);
// A visible neighbour's terms for a vicsek or couzin observer (`flocks`: it flocks with j).
template <ModelVector V>
void add_rule_neighbour(NeighbourSumsIn<V>& sums, const SpeciesModel& observer, V d, V v_j,
                        bool flocks);
// Sensing (ecosystem step 1) of a visible neighbour j at displacement d: the nearest prey and
// the push away from hunters.
template <ModelVector V>
void sense_neighbour(NeighbourSumsIn<V>& sums, const SpeciesModel& observer, V d,
                     std::uint32_t species_j, std::uint32_t id_j);

// The food field as a grazer's steering reads it (docs/model.md, "The food field").
struct FoodView {
  GridShape grid;                // food_grid_shape(): F_x x F_y cells of side c_f
  std::span<const float> amounts;  // f_c, row by row
};

// What the world adds to a boid's steering besides its neighbours (docs/model.md, steps 6b-6c,
// and the ecosystem's food term). In 3D the obstacles are spheres and the target a point in
// space; the food field is 2D only.
template <ModelVector V>
struct SurroundingsIn {
  V world{0.0f};
  std::span<const Obstacle> obstacles;
  std::optional<V> target;
  std::optional<FoodView> food;  // set when the scenario has a [food] table
};
using Surroundings = SurroundingsIn<glm::vec2>;
using Surroundings3 = SurroundingsIn<glm::vec3>;
// `food`: the state's food field (FlockState::food), which the result views; it must outlive
// the result. Empty, or a scenario without [food]: no field.
Surroundings surroundings_of(const Scenario& scenario, std::span<const float> food = {});
// A 3D world's surroundings: its box, spheres and target point.
Surroundings3 surroundings_3d(const Scenario& scenario);

// obs: the sum over obstacles of the push away from each (0 outside reach).
template <ModelVector V>
V obstacle_push(const SpeciesModel& observer, V pos, const SurroundingsIn<V>& env);
// tgt: the unit vector towards the target (0 without a target or on it), or for
// target_pull = linear the displacement to it.
template <ModelVector V>
V target_pull(const SpeciesModel& observer, V pos, const SurroundingsIn<V>& env);
// chase: the unit vector towards the nearest visible prey (0 without one, or on it).
glm::vec2 chase_pull(const NeighbourSums& sums);
// food: the unit vector towards the richest food cell around a grazer (0 for a non-grazer,
// without a field, or when no neighbouring cell holds more than its own).
glm::vec2 food_pull(const SpeciesModel& observer, glm::vec2 pos, const Surroundings& env);

// Catching (ecosystem step 3): whether the hunter strikes its nearest visible prey.
bool strikes(const SpeciesModel& hunter, const NeighbourSums& sums);

// Grazing (ecosystem step 4): g_i, what each of the `grazers` > 0 grazers of a food cell
// holding `amount` eats; they share it equally.
float grazed_amount(std::uint32_t grazers, float amount, float bite);
// A food cell's amount after its `grazers` (any number) ate, then regrowth:
// min(K_f, f + regrow_per_step).
float food_after_step(std::uint32_t grazers, float amount, const FoodParams& food);

// Energy (ecosystem step 5). e3: the energy `energy` of state t after the costs of living and
// moving (at the speed of `velocity`, v') and the food eaten (`grazed`, g_i). A species without
// energy keeps its own.
float energy_after_moving(const SpeciesModel& observer, float energy, glm::vec2 velocity,
                          float grazed);
// e'_i: e3 plus the prey eaten (`ate_prey`), capped at E_max; e4, before the cap, goes to
// `uncapped` when given.
float energy_after_eating(const SpeciesModel& observer, float e3, bool ate_prey,
                          float* uncapped = nullptr);
// Whether a boid with energy e' starves (ecosystem step 6).
bool starves(const SpeciesModel& observer, float energy_after);
// Whether a boid that survives with energy e' wants one child (births by energy).
bool wants_child(const SpeciesModel& observer, float energy);

// The energy a parent keeps when its child is born: half (exact); the child takes the rest.
float parent_share(float energy);

// The child of a birth by energy (docs/model.md, "Births by energy"): beside the parent (state
// t+1 record `parent_after`, before its energy is split), with velocity from Philox draws
// kDrawChildVelocityX/Y of (seed, parent id, step), moved and bounded like a step; age 0, the
// given id, and the energy the parent's share leaves.
Boid child_by_energy(const SpeciesModel& observer, const Boid& parent_after, std::uint32_t id,
                     std::uint64_t seed, std::uint64_t step, glm::vec2 world);

// acc of step 4: the flock's and the world's steering terms, before the force limit.
template <ModelVector V>
V steering_acc(const SpeciesModel& observer, const Boid& self, const NeighbourSumsIn<V>& sums,
               const SurroundingsIn<V>& env);
// `steering` plus the ecosystem's chase, flee and food terms (ecosystem step 2).
glm::vec2 with_ecosystem_terms(const SpeciesModel& observer, const Boid& self,
                               const NeighbourSums& sums, glm::vec2 steering,
                               const Surroundings& env);
// Steps 5-7 of the model under the steering acceleration `steering`: force limit, speed
// limits, move, bounds.
template <ModelVector V>
Boid finish_step(const SpeciesModel& observer, const Boid& self, V steering, V world);

// The steered boid's step: v' = the user's velocity limited to max_speed, then move and bounds.
template <ModelVector V>
Boid steered_step(const SpeciesModel& observer, const Boid& self, V velocity, V world);

// Whether `self` is the boid the user steers.
bool is_steered(const std::optional<SteeredBoid>& steered, const Boid& self);
// One boid's state t+1 under the steering acceleration `acc`, or the user's velocity for the
// steered boid.
template <ModelVector V>
Boid next_state(const SpeciesModel& observer, const Boid& self, V acc,
                const SurroundingsIn<V>& env, const std::optional<SteeredBoid>& steered);
// State t+1 with the ecosystem's steering terms, and its energy e3 after eating `grazed` (g_i).
Boid ecosystem_next_state(const SpeciesModel& observer, const Boid& self,
                          const NeighbourSums& sums, const Surroundings& env,
                          const std::optional<SteeredBoid>& steered, float grazed);

// ---- the rules of motion besides boids (docs/model.md, "Rules of motion") ---------------

// sin and cos of `angle` by murmur's own polynomials (the same bits on the GPU).
struct SinCos {
  float sin = 0.0f;
  float cos = 1.0f;
};
SinCos sin_cos(float angle);
// The natural logarithm of x > 0 by murmur's own series (the noise's Box-Muller transform).
float log_of(float x);
// unit(v): v / |v|, or 0 for v = 0.
template <ModelVector V>
V unit_vector(V v);
// h rotated by the angle whose cosine and sine are c and s.
glm::vec2 rotated(glm::vec2 h, float c, float s);
// The heading of a velocity: unit(v), or (1, 0) ((1, 0, 0) in 3D) for v = 0.
template <ModelVector V>
V heading_of(V velocity);
// The noise angle of boid `id` at step `step` (0 without noise).
float noise_angle(const SpeciesModel& observer, std::uint32_t id, std::uint64_t seed,
                  std::uint64_t step);

// Two directions that make (h, e1, e2) a right-handed orthonormal basis, for a unit h: the
// branch-free construction of Duff et al. 2017, in float32 (docs/model.md, "The rules in 3D").
struct OrthonormalBasis {
  glm::vec3 e1{1.0f, 0.0f, 0.0f};
  glm::vec3 e2{0.0f, 1.0f, 0.0f};
};
OrthonormalBasis orthonormal_basis(glm::vec3 h);
// h turned by the angle whose cosine and sine are c and s, towards the direction phi about it:
// c h + s (cos phi e1 + sin phi e2).
glm::vec3 tilt(glm::vec3 h, float c, float s, float phi);
// The 3D noise of boid `id` at step `step` (docs/model.md, "The rules in 3D"): the cosine and
// sine of the angle it turns its direction by, and the direction phi about it of the turn.
struct NoiseTurn {
  float cos = 1.0f;
  float sin = 0.0f;
  float phi = 0.0f;
};
NoiseTurn noise_turn(const SpeciesModel& observer, std::uint32_t id, std::uint64_t seed,
                     std::uint64_t step);

// A vicsek boid's new heading before the noise: unit of its own (velocity v_i) and its
// neighbours' headings.
template <ModelVector V>
V vicsek_direction(const NeighbourSumsIn<V>& sums, V velocity);
// A couzin boid's desired direction before the noise, from its three zones.
template <ModelVector V>
V couzin_direction(const NeighbourSumsIn<V>& sums, V heading);
// The couzin turn towards `desired` from `heading`, at most max_turn_degrees: a rotation in
// the plane, in 3D a turn in the plane of the two directions.
glm::vec2 bounded_turn(const SpeciesModel& observer, glm::vec2 heading, glm::vec2 desired);
glm::vec3 bounded_turn(const SpeciesModel& observer, glm::vec3 heading, glm::vec3 desired);
// One vicsek or couzin boid's state t+1 (or the steered boid's), step `step` of the run keyed
// by `seed`.
template <ModelVector V>
Boid rule_next_state(const SpeciesModel& observer, const Boid& self,
                     const NeighbourSumsIn<V>& sums, const SurroundingsIn<V>& env,
                     const std::optional<SteeredBoid>& steered, std::uint64_t seed,
                     std::uint64_t step);

}  // namespace murmur
