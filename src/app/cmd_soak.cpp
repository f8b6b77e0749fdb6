// `murmur soak`: a long run that checks the model's invariants every K steps
// (docs/reliability.md, "Soak").
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include "backend.hpp"
#include "commands.hpp"
#include "memory_check.hpp"
#include "murmur/gl/context.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/flock/invariants.hpp"
#include "murmur/flock/state.hpp"

namespace murmur::cli {
namespace {

// The first broken invariant of the flock as it stands, prefixed with its step.
std::optional<std::string> check_flock(const Scenario& scenario, const InvariantBaseline& baseline,
                                       const Simulation& simulation, std::uint64_t step) {
  const FlockState state = simulation.state();
  const std::optional<std::string> broken =
      first_broken_invariant(scenario, baseline, state, simulation.live_count());
  if (!broken) return std::nullopt;
  return "step " + std::to_string(step) + ": " + *broken;
}

int run_soak(const FlagValues& options) {
  const Scenario scenario = load_scenario_with_seed(options.scenario, options.seed);
  const RunMemory memory = flock_run_memory(scenario, options.backend, FlockReads::State);
  const std::uint64_t boids = estimated_boids(scenario);
  require_host_memory(memory, boids);
  std::fprintf(stderr, "seed %llu\n", static_cast<unsigned long long>(scenario.world.seed));
  const FlockState start = seeded_start(scenario);
  const InvariantBaseline baseline = invariant_baseline(scenario, start);
  const auto context = checked_context(options.backend, memory, boids);
  Simulation simulation(scenario, start, options.backend, context.get());
  std::printf("murmur soak: %s, %u boids (capacity %u), %u steps, checked every %u\n",
              scenario.source.c_str(), scenario.total_count(), scenario.capacity(),
              options.soak_steps, options.check_every);
  std::fflush(stdout);

  Progress progress = command_progress("soak", "steps", options.soak_steps, options.quiet);
  std::uint64_t step = 0;
  std::uint64_t checks = 0;
  std::optional<std::string> broken = check_flock(scenario, baseline, simulation, step);
  ++checks;
  while (!broken && step < options.soak_steps) {
    const std::uint32_t chunk =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(options.check_every,
                                                           options.soak_steps - step));
    simulation.step(chunk);
    step += chunk;
    broken = check_flock(scenario, baseline, simulation, step);
    ++checks;
    progress.update(step);
  }
  if (broken) {
    progress.clear_line();  // the message starts at column 0, not after the bar
    std::fprintf(stderr, "murmur soak: invariant broken at %s\n", broken->c_str());
    return kExitCheckFailed;
  }
  progress.finish();
  std::printf("murmur soak: passed: %llu steps, %llu checks, %u boids alive at the end\n",
              static_cast<unsigned long long>(step), static_cast<unsigned long long>(checks),
              simulation.live_count());
  return kExitOk;
}

}  // namespace

CommandDefinition soak_command() {
  return {"run a flock long, checking its invariants; exit 1 when one breaks",
      "Starts from the scenario's seeded start and checks the state at step 0, every K\n"
      "steps and at the end: finite values, positions inside the world, speeds within\n"
      "[min_speed, max_speed], known species, ages below max_age, unique ids, the live count\n"
      "within the capacity and equal to the per-species counts, immortal species losing no\n"
      "boid (docs/reliability.md). Exit 0 when all hold, 1 naming the step, boid and\n"
      "invariant of the first that breaks. Progress goes to stderr unless --quiet.",
      run_soak};
}

}  // namespace murmur::cli
