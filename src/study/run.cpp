#include "murmur/study/run.hpp"

#include <optional>

#include "murmur/flock/stats.hpp"
#include "murmur/study/summary.hpp"

namespace murmur::study {

RunOutcome run_sweep_point(const FlockScenario& scenario, const SweepRun& run,
                           const SampleWindow& window, FlockBackend backend,
                           const RunStart& start, gl::Context* context) {
  FlockScenario run_scenario = scenario_with(scenario, run.overrides);
  run_scenario.world.seed = run.seed;
  const FlockState first = start.carried ? carried_state(*start.carried, start.carried_dimensions,
                                                         run_scenario, start.name)
                                         : seeded_start(run_scenario);
  Simulation simulation(run_scenario, first, backend, context);
  WindowSummary summary(flock_stats_columns(run_scenario));

  // Samples before the window are read only for the totals the window's first events are
  // counted from, the sample just before it.
  const std::uint64_t first_sample = window.first_sample();
  std::optional<std::vector<SpeciesTotals>> previous_totals;
  const auto sample = [&](std::uint64_t step) {
    if (step + window.every < first_sample) return;
    const FlockState state = simulation.state();
    if (step < first_sample) {
      previous_totals = compute_population(run_scenario, state).totals;
      return;
    }
    const StatsSample stats = stats_sample(run_scenario, state, previous_totals);
    previous_totals = stats.population.totals;
    summary.add(stats);
  };
  // Stepped as `murmur stats` steps, `every` steps between samples, so that the samples are
  // its rows'. 64-bit so the last `step += every` cannot wrap around past UINT32_MAX.
  sample(0);
  for (std::uint64_t step = window.every; step <= window.steps; step += window.every) {
    simulation.step(window.every);
    sample(step);
  }
  const std::uint32_t beyond_last_sample = window.steps % window.every;
  if (beyond_last_sample > 0) simulation.step(beyond_last_sample);
  return {sweep_row(run_scenario, run, summary), simulation.state(), run_scenario.world.dimensions};
}

}  // namespace murmur::study
