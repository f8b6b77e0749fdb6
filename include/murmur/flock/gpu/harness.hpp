#pragma once
// The GPU-vs-CPU harness behind `murmur compare` (docs/harness.md): neighbour sets, lockstep
// steps and free runs, each judged against bounds derived from float32 rounding.
// Needs a current GL 4.5 context.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "murmur/flock/agreement.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"

namespace murmur {

// The free run may drift from the CPU by this many times the largest drift between the CPU run
// and a CPU run started one ulp away (docs/harness.md, "Free runs"). Before the runs saturate
// the GPU's drift is orders of magnitude inside the envelope; once they saturate (decorrelated
// flocks), the GPU run is one more sample of the same distance distribution as the envelope's
// runs, and the factor covers that sample's spread.
inline constexpr double kFreeRunDriftFactor = 2.0;

// The free run `murmur compare` and murmur.compare make when not told (CompareOptions' own
// default is shorter, for tests).
inline constexpr std::uint32_t kDefaultCompareFreeSteps = 200;

struct CompareOptions {
  std::uint32_t lockstep_steps = 10;  // each from the CPU's state
  std::uint32_t free_steps = 100;     // 0 skips the free run
  std::uint32_t samples = 10;         // drift samples along the free run
  std::uint32_t envelope_runs = 3;    // perturbed CPU runs that make the envelope
  NeighbourSearch search = NeighbourSearch::Grid;
  GpuFault fault = GpuFault::None;    // test-only
  std::optional<SteeredBoid> steered; // one boid flown by the user's velocity, on both sides
  BirthRules births;                  // birth rules in force on both sides (tests: budding)
  // Called after each lockstep step and each free-run step with the steps done so far, out of
  // lockstep_steps + free_steps (murmur compare's progress).
  std::function<void(std::uint32_t)> steps_done;
};

struct DriftSample {
  std::uint32_t step = 0;
  double gpu_vs_cpu = 0;  // RMS position distance
  double envelope = 0;    // largest RMS distance between the CPU run and a perturbed CPU run
  double limit = 0;       // kFreeRunDriftFactor * max(envelope, one ulp of the world)
};

struct StatAgreement {
  std::string name;
  double gpu = 0, cpu = 0, spread = 0, limit = 0;
  bool passed() const { return std::abs(gpu - cpu) <= limit; }
};

struct FreeRunCheck {
  bool ran = false;
  std::vector<DriftSample> samples;
  std::vector<StatAgreement> stats;
  std::uint32_t envelope_runs = 0;  // the perturbed CPU runs the envelope was made of
  // Events of the CPU run whose e' lay within energy_band of its threshold: each one an honest
  // backend may decide the other way (docs/harness.md, "Free runs").
  std::uint32_t events_within_band = 0;
  bool passed() const;
};

struct CompareReport {
  std::uint32_t boids = 0;
  NeighbourCheck neighbours;  // summed over the lockstep steps
  LockstepCheck lockstep;     // summed over the lockstep steps
  FreeRunCheck free_run;
  bool passed() const { return neighbours.passed() && lockstep.passed() && free_run.passed(); }
  std::string table() const;  // compact, for a terminal
};

CompareReport run_comparison(const Scenario& scenario, const FlockState& start,
                             const CompareOptions& options);

}  // namespace murmur
