// `murmur compare`: the GPU flock against the CPU reference, or GpuPlan against the plan's CPU
// reference (docs/harness.md).
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backend.hpp"
#include "commands.hpp"
#include "memory_check.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/gl/context.hpp"
#include "murmur/plan/gpu/gpu_plan.hpp"
#include "murmur/flock/gpu/harness.hpp"
#include "murmur/plan/gpu/plan_harness.hpp"
#include "murmur/flock/state.hpp"

namespace murmur::cli {
namespace {

// The flags that apply to flock scenarios only, refused on a plan.
const std::vector<std::string> kFlockOnlyFlags = {"--in", "--lockstep", "--samples",
                                                  "--envelope-runs", "--search"};

// A plan scenario: GpuPlan and the CPU reference side by side (docs/harness.md, "Plans").
int run_plan_compare(const FlagValues& request, const PlanScenario& scenario) {
  for (const std::string& name : kFlockOnlyFlags) {
    if (request.given(name)) {
      throw InputError(name + ": applies to flock scenarios; " + scenario.source +
                       " is a plan scenario ([plan])");
    }
  }
  PlanCompareOptions options;
  options.steps = request.compare_steps.value_or(kDefaultPlanCompareSteps);
  // Room for each agent the plan may hold (a branching plan's max_agents), or an InputError.
  gpu_plan_point_capacity(options.steps,
                          gpu_plan_agent_capacity(scenario, scenario.plan.total_count()));
  const auto context = gl::create_headless_context();
  const std::string& renderer = context->info().renderer;
  options.max_divergent = request.given("--max-divergent") ? request.max_divergent
                                                           : default_plan_bound(renderer);
  std::printf("murmur compare: %s, a plan of %u agents, seed %llu, %u steps, on %s\n",
              scenario.source.c_str(), scenario.plan.total_count(),
              static_cast<unsigned long long>(scenario.world.seed), options.steps,
              renderer.c_str());
  std::fflush(stdout);
  Progress progress = command_progress("compare", "steps", options.steps, request.quiet);
  options.steps_done = [&progress](std::uint32_t done) { progress.update(done); };
  const PlanCompareReport report = run_plan_comparison(scenario, options);
  context->check_gl_errors("the comparison");
  progress.finish();
  std::fputs(report.table().c_str(), stdout);
  return report.passed() ? kExitOk : kExitCheckFailed;
}

int run_flock_compare(const FlagValues& request, const FlockScenario& scenario) {
  if (request.given("--max-divergent")) {
    throw InputError("--max-divergent: applies to plan scenarios ([plan]); " + scenario.source +
                     " is a flock scenario");
  }
  CompareOptions options;
  options.lockstep_steps = request.lockstep;
  options.free_steps = request.compare_steps.value_or(kDefaultCompareFreeSteps);
  options.samples = request.samples;
  options.envelope_runs = request.envelope_runs;
  options.search = request.search;

  // The GPU flock and the CPU reference side by side, each read back.
  RunMemory memory = flock_run_memory(scenario, FlockBackend::Gpu, FlockReads::State);
  const RunMemory reference = flock_run_memory(scenario, FlockBackend::Cpu, FlockReads::State);
  memory.host += reference.host;
  const std::uint64_t boids = estimated_boids(scenario);
  require_host_memory(memory, boids);
  const FlockState start = start_state(scenario, request.in);
  const auto context = checked_context(FlockBackend::Gpu, memory, boids);
  std::printf("murmur compare: %s, %u boids, seed %llu, %s search, on %s\n", scenario.source.c_str(),
              scenario.total_count(), static_cast<unsigned long long>(scenario.world.seed),
              options.search == NeighbourSearch::Grid ? "grid" : "naive",
              context->info().renderer.c_str());
  std::fflush(stdout);
  Progress progress = command_progress(
      "compare", "steps", std::uint64_t{options.lockstep_steps} + options.free_steps,
      request.quiet);
  options.steps_done = [&progress](std::uint32_t done) { progress.update(done); };
  const CompareReport report = run_comparison(scenario, start, options);
  context->check_gl_errors("the comparison");  // a report computed from garbage is no report
  progress.finish();
  std::fputs(report.table().c_str(), stdout);
  return report.passed() ? kExitOk : kExitCheckFailed;
}

int run_compare(const FlagValues& request) {
  return visit_kind(
      load_any_scenario_with_seed(request.scenario, request.seed),
      [&](const FlockScenario& flock) { return run_flock_compare(request, flock); },
      [&](const PlanScenario& plan) { return run_plan_compare(request, plan); });
}

}  // namespace

CommandDefinition compare_command() {
  return {"check the GPU flock or plan against the CPU reference; exit 1 when they disagree",
      "Checks per boid neighbour counts and one-step results against bounds derived from\n"
      "float32 rounding, and free-run drift against the drift of CPU runs one ulp apart\n"
      "(docs/harness.md). Exit 0 when every check passes, 1 when one fails. Progress (lockstep\n"
      "and free-run steps) goes to stderr unless --quiet.\n"
      "A plan scenario ([plan]): GpuPlan and the CPU reference side by side, every agent and\n"
      "point compared after every step; the first difference, the agents that diverged (fate,\n"
      "turns, moves or drawn point) and the largest location error. PASS when bit-identical,\n"
      "or under --max-divergent while few enough agents diverged (docs/harness.md, \"Plans\").",
      run_compare};
}

}  // namespace murmur::cli
