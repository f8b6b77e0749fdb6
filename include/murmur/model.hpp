#pragma once
// The flocking model of docs/model.md, one boid at a time, in float32 arithmetic. The CPU
// reference (cpu_flock) is built on these functions; shaders/model.glsl is the GPU's copy and
// keeps the same order of operations so the two round alike.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <glm/vec2.hpp>

#include "interface.h"
#include "murmur/scenario.hpp"
#include "murmur/state.hpp"

namespace murmur {

// Per-species constants in the form the step uses, built once from SpeciesParams: the keys
// the table (include/murmur/params/species_params.def) marks Copied, under their own names,
// and the derived fields it lists. The GPU record (generated gpu::Species) holds the same
// floats, so cos_half_fov is computed here, once, for both sides.
struct SpeciesModel {
#define MURMUR_SPECIES_PARAM(key, type, default_value, accepted, unit, widget, gpu, meaning) \
  MURMUR_IF_GPU_COPIED(gpu, type key{};)
#define MURMUR_SPECIES_DERIVED(name, type, meaning) type name{};
#include "murmur/params/species_params.def"
};

std::vector<SpeciesModel> species_models(const Scenario& scenario);

// A child's velocity components are uniform in +-fl(max_speed * K) (docs/model.md, "Births by
// energy"): K is the float just below 1/sqrt(2), so |u| <= max_speed without a square root.
inline constexpr float kChildSpeedFraction = 0.70710677f;
// The Philox draws of a child's velocity, x then y (docs/model.md, "Random numbers"), defined
// in shaders/interface.h for both languages.
inline constexpr std::uint32_t kDrawChildVelocityX = MURMUR_DRAW_CHILD_VELOCITY_X;
inline constexpr std::uint32_t kDrawChildVelocityY = MURMUR_DRAW_CHILD_VELOCITY_Y;

// Ageing (docs/model.md, "Ageing and death by age"): one step older, saturating.
std::uint32_t aged(std::uint32_t age);
// Whether a boid whose age after the step is `age` dies of it.
bool dies_of_age(const SpeciesModel& observer, std::uint32_t age);

// The birth rules in force (docs/model.md, "Births"). The ecosystem's rules join these; until
// then the only one is the test-only budding rule, switched on by tests and the harness.
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

// The boid the user steers: it flies at `velocity` (limited to its species' max_speed) instead
// of following the rules, and the others see it as an ordinary neighbour.
struct SteeredBoid {
  std::uint32_t id = 0;
  glm::vec2 velocity{0.0f};
};

// Displacement from `from` to `to` as seen by an observer of the given topology: the minimum
// image on a torus, computed so that a pair across the seam is rounded only once.
glm::vec2 displacement(glm::vec2 from, glm::vec2 to, Topology observer, glm::vec2 world);

// Whether j at displacement d from observer i (velocity v_i) is within the perception radius
// (strict) and the field of view. The caller excludes j == i.
bool in_view(const SpeciesModel& observer, glm::vec2 d, glm::vec2 v_i);

// Sums over one boid's neighbours, in the order they are added.
struct NeighbourSums {
  glm::vec2 velocity_sum{0.0f};      // over flock neighbours N_i
  glm::vec2 displacement_sum{0.0f};  // over N_i
  glm::vec2 separation_sum{0.0f};    // sum of d / |d|^2 over S_i
  std::uint32_t visible = 0;         // visible boids, any species
  std::uint32_t flock = 0;           // |N_i|
  std::uint32_t separating = 0;      // |S_i|
};

// Adds neighbour j (species `species_j`, velocity v_j) at displacement d, if visible.
void add_neighbour(NeighbourSums& sums, const SpeciesModel& observer, glm::vec2 v_i, glm::vec2 d,
                   glm::vec2 v_j, std::uint32_t species_j);

// What the world adds to a boid's steering besides its neighbours (docs/model.md, steps 6b-6c).
struct Surroundings {
  glm::vec2 world{0.0f};
  std::span<const Obstacle> obstacles;
  std::optional<glm::vec2> target;
};
Surroundings surroundings_of(const Scenario& scenario);

// obs: the sum over obstacles of the push away from each (0 outside reach).
glm::vec2 obstacle_push(const SpeciesModel& observer, glm::vec2 pos, const Surroundings& env);
// tgt: the unit vector towards the target (0 without a target or on it).
glm::vec2 target_pull(const SpeciesModel& observer, glm::vec2 pos, const Surroundings& env);

// Steps 4-11 of the model: steering, force limit, speed limits, move, bounds.
Boid finish_step(const SpeciesModel& observer, const Boid& self, const NeighbourSums& sums,
                 const Surroundings& env);

// The steered boid's step: v' = the user's velocity limited to max_speed, then move and bounds.
Boid steered_step(const SpeciesModel& observer, const Boid& self, glm::vec2 velocity,
                  glm::vec2 world);

}  // namespace murmur
