#pragma once
// The CPU reference: the model of docs/model.md stepped with a k-d tree neighbour search.
#include <optional>
#include <vector>

#include "murmur/model.hpp"
#include "murmur/scenario.hpp"
#include "murmur/state.hpp"

namespace murmur {

// Per boid, what the step saw (same order as the input state's boids).
struct CpuStepTrace {
  std::vector<NeighbourSums> sums;
};

// One synchronous step of `in` (any order; the output keeps the input's order).
// When `trace` is given it receives every boid's neighbour sums. `steered`, when set, flies
// that boid at the user's velocity instead of the rules (docs/model.md, "Steered boid").
FlockState cpu_step(const Scenario& scenario, const FlockState& in, CpuStepTrace* trace = nullptr,
                    const std::optional<SteeredBoid>& steered = std::nullopt);

// The same step by brute force over all pairs (a second oracle for tests; O(N^2)).
FlockState cpu_step_brute_force(const Scenario& scenario, const FlockState& in,
                                CpuStepTrace* trace = nullptr,
                                const std::optional<SteeredBoid>& steered = std::nullopt);

}  // namespace murmur
