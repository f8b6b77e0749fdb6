#pragma once
// The CPU reference: the model of docs/model.md stepped with a k-d tree neighbour search.
#include <optional>
#include <vector>

#include "murmur/model.hpp"
#include "murmur/scenario.hpp"
#include "murmur/state.hpp"

namespace murmur {

// What the step saw: per input boid its neighbour sums (same order as the input state's
// boids), and the children born, in birth order.
struct CpuStepTrace {
  std::vector<NeighbourSums> sums;
  std::vector<BirthRecord> births;
};

// `state` without the boids already at or past their species' max_age: those are dead and take
// no part in a step (docs/model.md, "Ageing and death by age"). Order kept.
FlockState without_the_dead(const Scenario& scenario, const FlockState& state);

// One synchronous step of `in` (any order), after without_the_dead(). The output holds the survivors in the input's
// order, then the children born in the step in birth order (docs/model.md, "A living
// population"), with next_id and step advanced. When `trace` is given it receives every
// living input boid's neighbour sums, in the input's order. `steered`, when set, flies that boid at
// the user's velocity instead of the rules (docs/model.md, "Steered boid").
FlockState cpu_step(const Scenario& scenario, const FlockState& in, CpuStepTrace* trace = nullptr,
                    const std::optional<SteeredBoid>& steered = std::nullopt,
                    const BirthRules& births = {});

// The same step by brute force over all pairs (a second oracle for tests; O(N^2)).
FlockState cpu_step_brute_force(const Scenario& scenario, const FlockState& in,
                                CpuStepTrace* trace = nullptr,
                                const std::optional<SteeredBoid>& steered = std::nullopt,
                                const BirthRules& births = {});

// The events of one step (docs/model.md, "Ageing and death by age", "Births"): given state t
// (`before`) and each boid's stepped record (`stepped`, same order, ages advanced), returns
// state t+1: the survivors in order, then the children in birth order.
// `born`, when given, receives the children born, in birth order.
FlockState settle_population(const Scenario& scenario, const FlockState& before,
                             std::vector<Boid> stepped, const BirthRules& births,
                             std::vector<BirthRecord>* born = nullptr);

}  // namespace murmur
