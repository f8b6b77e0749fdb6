// `murmur step`: advance a flock N steps on one backend and write the state it reaches; a plan
// scenario's state is its paths, written as `murmur plan`'s CSV.
#include <cstdio>
#include <optional>
#include <string>

#include "backend.hpp"
#include "commands.hpp"
#include "memory_check.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/gl/context.hpp"
#include "murmur/plan/export/plan_export.hpp"
#include "murmur/flock/state.hpp"

namespace murmur::cli {
namespace {

// A plan scenario has no flock state: its agents' paths are the state (docs/floor-plan.md).
int run_plan_step(const FlagValues& options) {
  const PlanBackend backend = plan_backend(options.scenario, options.in, options.backend);
  if (plan_format_of(options.step_out) != PlanFormat::Csv) {
    throw InputError("--out: " + options.scenario +
                     " is a plan scenario ([plan]): its paths are written as .csv, got '" +
                     options.step_out + "'");
  }
  return run_plan_steps_to_csv(options.scenario, options.seed, options.steps,
                               backend == PlanBackend::Gpu, options.step_out, options.quiet);
}

int run_flock_step(const FlagValues& options, const FlockScenario& scenario) {
  check_output_file(options.step_out, "--out");
  const RunMemory memory = flock_run_memory(scenario, options.backend, FlockReads::State);
  const std::uint64_t boids = estimated_boids(scenario);
  require_host_memory(memory, boids);

  if (!options.in) {
    std::fprintf(stderr, "seed %llu\n", static_cast<unsigned long long>(scenario.world.seed));
  }
  const FlockState initial = start_state(scenario, options.in);

  const auto context = checked_context(options.backend, memory, boids);
  Simulation simulation(scenario, initial, options.backend, context.get());
  Progress progress = command_progress("step", "steps", options.steps, options.quiet);
  for (std::uint32_t done = 1; done <= options.steps; ++done) {
    simulation.step(1);
    progress.update(done);
  }
  progress.finish();
  write_state(options.step_out, simulation.state(), scenario);
  return kExitOk;
}

int run_step(const FlagValues& options) {
  return visit_kind(
      load_any_scenario_with_seed(options.scenario, options.seed),
      [&](const FlockScenario& flock) { return run_flock_step(options, flock); },
      [&](const PlanScenario&) { return run_plan_step(options); });
}

}  // namespace

CommandDefinition step_command() {
  return {"advance a flock N steps and write the state it reaches",
      "Prints the seed of a seeded start on stderr (`seed 42`), then the progress (steps\n"
      "done, rate, ETA) unless --quiet. The output rows are sorted by id and written only\n"
      "when the run succeeds (temporary file, then rename). A plan scenario ([plan]) writes\n"
      "its paths as `murmur plan --out FILE.csv` does (cpu or gpu).",
      run_step};
}

}  // namespace murmur::cli
