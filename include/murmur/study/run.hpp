#pragma once
// One run of a parameter sweep, from a scenario, its overrides and a seed to its row
// (docs/sweep.md): the one function `murmur sweep`'s jobs call for each run, on the CPU
// reference or the GPU.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "murmur/flock/gpu/simulation.hpp"
#include "murmur/flock/state.hpp"
#include "murmur/scenario/scenario.hpp"
#include "murmur/study/sweep.hpp"

namespace murmur::study {

// Where a run starts: the seeded start of its seed, or a flock carried from the run before it
// (--carry-state), named in messages by `name`.
struct RunStart {
  const FlockState* carried = nullptr;
  std::string name;
  std::uint32_t carried_dimensions = 0;  // world.dimensions of the run the flock came from
};

struct RunOutcome {
  std::vector<std::string> row;  // sweep_row's cells
  FlockState end;                // the flock after the last step, for the next run to carry
  std::uint32_t dimensions = 0;  // world.dimensions of the run, the world `end` lives in
};

// `scenario` with the run's overrides (scenario_with) and seed, stepped window.steps steps on
// `backend` from `start`, sampled as `murmur stats --steps --every` samples (the same rows),
// and summarised over the window. The GPU backends step in `context` when given (a process
// making many runs makes its context once), else in one of their own. Errors are the
// scenario's, the carried flock's (carried_state) and the GPU's, as exceptions.
RunOutcome run_sweep_point(const FlockScenario& scenario, const SweepRun& run,
                           const SampleWindow& window, FlockBackend backend,
                           const RunStart& start = {}, gl::Context* context = nullptr);

}  // namespace murmur::study
