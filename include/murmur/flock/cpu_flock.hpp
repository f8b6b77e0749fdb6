#pragma once
// The CPU reference: the model of docs/model.md stepped with a k-d tree neighbour search.
#include <optional>
#include <vector>

#include "murmur/flock/model.hpp"
#include "murmur/scenario/scenario.hpp"
#include "murmur/flock/state.hpp"

namespace murmur {

// How an input boid left the step (docs/model.md, "Deaths"). A boid that meets several ends
// dies once; its fate names the first of: eaten, starved, died of age.
enum class Fate : std::uint8_t { Lives, DiedOfAge, Starved, Eaten };

// What became of a boid's wish for a child (docs/model.md, "Births by energy", and budding).
enum class ChildFate : std::uint8_t {
  None,               // wanted none
  Born,
  DroppedAtMaxCount,  // the species' max_count
  DroppedAtCapacity,  // the flock's capacity C
};

// The events of one input boid, and the quantities that decided them, for comparing backends
// event by event (docs/harness.md) and for the ledgers of tests/core/test_ecosystem.cpp.
struct BoidEvents {
  Fate fate = Fate::Lives;
  std::uint32_t eaten_by = 0;  // the winning hunter's id, when eaten
  bool strikes = false;        // it struck its nearest prey (sums.prey_id, sums.prey_dist_sq)
  bool ate_prey = false;       // its strike won the prey
  float food_eaten = 0.0f;     // g_i (0 for a non-grazer)
  float speed = 0.0f;          // s' = |v'|, the cost of moving's distance
  float energy_uncapped = 0.0f;  // e4, before the cap at energy_max
  float energy_after = 0.0f;     // e'_i, before any birth split
  ChildFate child = ChildFate::None;
};

// What the step saw: per input boid its neighbour sums and events (same order as the input
// state's boids), the children born in birth order, and per species the children dropped.
struct CpuStepTrace {
  std::vector<NeighbourSums> sums;
  std::vector<BoidEvents> events;
  std::vector<BirthRecord> births;
  std::vector<std::uint64_t> dropped;  // per species: max_count and capacity together
  double food_eaten = 0.0;            // sum of g_i, in double
};

// `state` without the boids already at or past their species' max_age: those are dead and take
// no part in a step (docs/model.md, "Ageing and death by age"). Order kept.
FlockState without_the_dead(const Scenario& scenario, const FlockState& state);

// One synchronous step of `in` (any order), after without_the_dead(): the flock rules and the
// ecosystem's (docs/model.md, "One step of the ecosystem"). The output holds the survivors in
// the input's order, then the children born in the step in birth order (docs/model.md, "A
// living population"), with next_id, step, the food field and the totals advanced. A state
// whose food field is empty while the scenario has one starts from initial_food(). When `trace`
// is given it receives every living input boid's neighbour sums and events, in the input's
// order. `steered`, when set, flies that boid at the user's velocity instead of the rules
// (docs/model.md, "Steered boid"); it still eats, spends energy and can be eaten. `workers`:
// the threads that share the boids (0: as many as the cores and the flock's size make
// worthwhile); the result does not depend on it, bit for bit. A step whose births would take
// next_id past 2^32 - 1 throws require_ids_for_births' InputError and returns nothing.
FlockState cpu_step(const Scenario& scenario, const FlockState& in, CpuStepTrace* trace = nullptr,
                    const std::optional<SteeredBoid>& steered = std::nullopt,
                    const BirthRules& births = {}, unsigned workers = 0);

// The host bytes cpu_step holds at its peak besides the state it is given and the one it
// returns (the memory estimate, docs/reliability.md): the living boids' copy, their positions
// and k-d tree, the grazing, ids, stepped records, neighbour sums and events per boid, the
// food grid's grazer counts, and the stacks of the threads that share the step.
MemoryNeed cpu_step_memory(const Scenario& scenario);

// The same step by brute force over all pairs (a second oracle for tests; O(N^2)).
FlockState cpu_step_brute_force(const Scenario& scenario, const FlockState& in,
                                CpuStepTrace* trace = nullptr,
                                const std::optional<SteeredBoid>& steered = std::nullopt,
                                const BirthRules& births = {}, unsigned workers = 0);

// The events of one step (docs/model.md, "One step of the ecosystem", steps 3-7, "Ageing and
// death by age", "Births"): given state t (`before`, its food field resolved), each boid's
// stepped record (`stepped`, same order, ages advanced, energy e3 by ecosystem_next_state), its
// neighbour sums (`sums`, same order) and what it grazed (`grazed`, g_i, same order), returns
// state t+1: the survivors in order, then the children in birth order, with the food field and
// totals advanced. `trace`, when given, receives the events and births (its `sums` are left
// alone).
FlockState settle_population(const Scenario& scenario, const FlockState& before,
                             std::vector<Boid> stepped, const std::vector<NeighbourSums>& sums,
                             const std::vector<float>& grazed, const BirthRules& births,
                             CpuStepTrace* trace = nullptr);

// The food field a step starts from: `state.food`, or the scenario's initial field when the
// state has none (a state built in memory). Throws InputError when its size is not the
// scenario's cell count.
std::vector<float> food_field_of(const Scenario& scenario, const FlockState& state);

}  // namespace murmur
