#pragma once
// How close two implementations of the model must come (docs/harness.md derives every bound).
// Pure CPU code: the GPU side hands in what it computed.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "murmur/flock/model.hpp"
#include "murmur/scenario/scenario.hpp"
#include "murmur/flock/state.hpp"

namespace murmur {

// Unit of float32 rounding: the gap between 1 and the next float (2^-23).
inline constexpr double kFloatEpsilon = std::numeric_limits<float>::epsilon();
// |d|^2 within this relative band of r^2 or r_sep^2 may be decided either way by a correct
// implementation (docs/harness.md: each side is within 2.5 eps of the exact value).
inline constexpr double kRadiusBand = 8 * kFloatEpsilon;
// facing - threshold within this fraction of |d||v| may be decided either way (the fov test
// takes two square roots, which GPUs need not round correctly).
inline constexpr double kFovBand = 64 * kFloatEpsilon;
// A boid's energy e' may differ between two correct implementations by this many float32 ulps
// at the scale of its species' energy_max: the flock sums are added in different orders and
// s' and f_c / n_c are a square root and a quotient (docs/model.md, "Agreement and
// reproducibility"). An event decided by e' within this band of its threshold (starving at
// 0, a child at reproduce_energy) may go either way (docs/harness.md, "Events").
inline constexpr double kEnergyBandUlps = 64;
double energy_band(const Scenario& scenario, std::uint32_t species);

struct CountRange {
  std::uint32_t definite = 0;   // pairs every correct implementation counts
  std::uint32_t ambiguous = 0;  // pairs inside a rounding band: may or may not be counted
  bool admits(std::uint32_t n) const { return n >= definite && n <= definite + ambiguous; }
};

// What a correct step must see around one boid, from the k-d tree.
struct NeighbourhoodExpectation {
  std::uint32_t id = 0;
  CountRange visible, flock, separating;
  // Magnitudes that bound rounding differences (docs/harness.md, "Lockstep").
  double flock_speed_sum = 0;       // sum of |v_j| over flock neighbours
  double flock_distance_sum = 0;    // sum of |d| over flock neighbours
  double inverse_distance_sum = 0;  // sum of 1/|d| over the separation set
  double separation_distance_sum = 0;  // sum of |d| over the separation set (linear kernel)
  double hunter_inverse_distance_sum = 0;  // sum of 1/|d| over visible hunters (the flee sum)
  // A vicsek or couzin boid (docs/harness.md, "Rules of motion"): how far, in radians, two
  // correct implementations' new headings may lie apart; and whether that direction is too
  // ill-conditioned to compare (its sums nearly cancel, or the couzin turn's bound or side is
  // decided within its rounding band), in which case lockstep skips the boid.
  double heading_error = 0;
  bool ill_conditioned = false;
  // A topological boid: the pairs that may or may not be among its k nearest (docs/harness.md,
  // "Topological neighbours"); its visible range is then one of counts, not of pairs.
  std::uint32_t ranks_ambiguous = 0;
  bool ambiguous() const {
    return visible.ambiguous + flock.ambiguous + separating.ambiguous + ranks_ambiguous > 0;
  }
  // The pairs that may or may not be counted: undecided ranks (a topological boid, whose
  // undecided visibility makes an undecided rank) or visibility, and separations.
  std::uint32_t ambiguous_pairs() const {
    return (ranks_ambiguous > 0 ? ranks_ambiguous : visible.ambiguous) + separating.ambiguous;
  }
  bool skipped_in_lockstep() const { return ambiguous() || ill_conditioned; }
};

// Per boid, sorted by id.
std::vector<NeighbourhoodExpectation> expected_neighbourhoods(const Scenario& scenario,
                                                              const FlockState& state);

struct ObservedCounts {
  std::uint32_t id = 0, visible = 0, flock = 0, separating = 0;
};

struct NeighbourCheck {
  std::uint32_t boids = 0;
  std::uint32_t mismatched_boids = 0;  // a count outside its admissible range
  std::uint32_t ambiguous_pairs = 0;   // reported, never silently dropped
  std::uint32_t ambiguous_boids = 0;
  std::vector<std::string> first_mismatches;  // a few, for the report
  bool passed() const { return mismatched_boids == 0; }
};

// `observed` sorted by id, one per expectation.
NeighbourCheck check_neighbour_counts(const std::vector<NeighbourhoodExpectation>& expected,
                                      const std::vector<ObservedCounts>& observed);

struct LockstepCheck {
  std::uint32_t boids = 0;            // compared
  std::uint32_t skipped_ambiguous = 0;
  std::uint32_t deaths = 0;           // boids that died on both sides
  std::uint32_t births = 0;           // children born on both sides with the same id
  // Events decided by a threshold inside its rounding band (the ecosystem's starvation and
  // births by energy; ages, ids, catches and the parent order are exact). Counted and
  // printed, not failed; children whose ids such an event shifted count here too.
  std::uint32_t ambiguous_events = 0;
  std::uint32_t event_mismatches = 0; // died on one side only, or a child on one side only
  std::uint32_t failed = 0;           // error above tolerance, or an event mismatch
  double max_velocity_error = 0, median_velocity_error = 0;  // absolute, world units / step
  double max_position_error = 0, median_position_error = 0;
  double worst_error_over_tolerance = 0;  // max over boids of error / tolerance (<= 1 passes)
  std::vector<std::string> first_failures;
  bool passed() const { return failed == 0; }
};

// The world's largest side, max(Lx, Ly) or in 3D max(Lx, Ly, Lz): the scale at which adding
// a velocity to a position and a wrap shift round (docs/harness.md).
double world_scale(const Scenario& scenario);

// Per-boid velocity tolerance for one step of boid `before` (docs/harness.md).
double velocity_tolerance(const Scenario& scenario, const Boid& before, const Boid& reference_after,
                          const NeighbourhoodExpectation& hood);

// Compares one step computed two ways from the same `before` state, boid by boid matched by
// id (all three sorted by id): the same boids must die, the same children (ids, positions,
// velocities) be born, and every other boid agree within its tolerance, its energy within
// energy_band. A child is held to its parent's tolerance (its state derives from the
// parent's new state). `reference_energies`, when given (one per boid of `before`: the
// reference's e' before any split, CpuStepTrace events), lets a death or a child that only
// one side has pass as an ambiguous event when e' lies within energy_band of its threshold.
LockstepCheck compare_lockstep(const Scenario& scenario, const FlockState& before,
                               const std::vector<NeighbourhoodExpectation>& expected,
                               const FlockState& reference_after, const FlockState& candidate_after,
                               const std::vector<BirthRecord>& reference_births = {},
                               const std::vector<float>& reference_energies = {});

// Root-mean-square distance between the boids two states share, matched by id (minimum image
// for wrap species); both sorted by id.
double rms_position_drift(const Scenario& scenario, const FlockState& a, const FlockState& b);

// Boids per species (a population that lives, dies and is born is compared by these).
std::vector<std::uint32_t> population_by_species(const Scenario& scenario, const FlockState& state);

// Every position nudged by one ulp along one axis, for drift envelopes: `variant` chooses the
// axis (x, y, then z in 3D) and, past them, the direction (towards the world's centre, then
// away from it; a coordinate that would leave the world moves towards the centre instead).
FlockState perturb_one_ulp(const Scenario& scenario, const FlockState& state, int variant);

// An honest backend's e' may lie anywhere within energy_band of the reference's, so an event
// within the band may go either way, and from there the two histories diverge. The free run's
// envelope runs therefore move, after each of their steps, every energy by a draw uniform in
// [-energy_band, +energy_band] (Philox of (variant, id, step, kEnvelopeEnergyDraw)), kept in
// (0, energy_max]: they decide such events both ways too (docs/harness.md, "Free runs").
// Species without energy are left alone.
inline constexpr std::uint32_t kEnvelopeEnergyDraw = 0;
void jitter_energies_within_band(const Scenario& scenario, FlockState& state, int variant);

}  // namespace murmur
