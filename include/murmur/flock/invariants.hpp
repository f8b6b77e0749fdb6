#pragma once
// The invariants a flock keeps at every step (docs/model.md), checked on a downloaded state:
// what `murmur soak` asserts over long runs (docs/reliability.md, "Soak").
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "murmur/scenario/scenario.hpp"
#include "murmur/flock/state.hpp"

namespace murmur {

// A speed recomputed from the stored components may miss a limit by a few ulps: the scale
// factor and each product round once (docs/model.md, "Velocity factor and speed limits").
inline constexpr float kSpeedLimitRelativeSlack = 1e-6f;

// What the first state of a run fixes for the checks of the later ones.
struct InvariantBaseline {
  // Boids per species at the start. A species that cannot die (max_age 0, no energy, no
  // hunters) can only keep or grow this count.
  std::vector<std::uint32_t> species_counts;
};

InvariantBaseline invariant_baseline(const Scenario& scenario, const FlockState& start);

// The first broken invariant of `state`, as one line naming the boid (by id) and the
// invariant, or empty when all hold. `live_count` is the backend's own count of living boids
// (the GPU's Population record), which must equal the state's size. Checked: every position
// and velocity finite; positions in [0, L) (wrap) or [0, L] (bounded, reflecting or pushing
// walls alike: both clamp to the wall, docs/model.md step 7); speeds within
// [min_speed, max_speed] up to kSpeedLimitRelativeSlack (no steered boid is assumed; a boid of
// age 0, possibly a newborn with a drawn velocity, is not held to min_speed); known
// species; ages below a positive max_age; energy in (0, energy_max] for a species with
// energy and 0 otherwise; unique ids; live count within the capacity and equal to the sum of
// the per-species counts; a species that cannot die (max_age 0, no energy, no hunters) losing
// no boids; no species above its max_count (or its start, if that was larger); every food
// cell in [0, max_per_cell] (docs/model.md, "An ecosystem").
std::optional<std::string> first_broken_invariant(const Scenario& scenario,
                                                  const InvariantBaseline& baseline,
                                                  const FlockState& state,
                                                  std::uint32_t live_count);

}  // namespace murmur
