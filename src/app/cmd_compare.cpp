// `murmur compare`: the GPU flock against the CPU reference, or GpuPlan against the plan's CPU
// reference (docs/harness.md).
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backend.hpp"
#include "commands.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/gl/context.hpp"
#include "murmur/plan/gpu/gpu_plan.hpp"
#include "murmur/flock/gpu/harness.hpp"
#include "murmur/plan/gpu/plan_harness.hpp"
#include "murmur/flock/state.hpp"

namespace murmur::cli {
namespace {

constexpr Range kLockstepRange{0, 10000};
constexpr Range kFreeStepRange{0, 1000000};
constexpr Range kSampleRange{1, 1000};
constexpr Range kEnvelopeRange{1, 16};
// The command's free run; CompareOptions' own default is shorter.
constexpr std::uint32_t kDefaultFreeSteps = 200;
// A plan's run: past the last death of seed 003's preset (step 208).
constexpr std::uint32_t kDefaultPlanSteps = 300;
constexpr RealRange kFractionRange{0, 1};

std::string fraction_text(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", fraction);
  return text;
}

struct CompareRequest {
  std::string scenario;
  std::optional<std::string> in;
  std::optional<std::uint64_t> seed;
  CompareOptions options;
  std::optional<std::uint32_t> steps;
  std::optional<double> max_divergent;
  // The flags that apply to one kind of scenario only, to refuse on the other.
  std::vector<std::pair<std::string, CLI::Option*>> flock_only;
  CLI::Option* max_divergent_flag = nullptr;
  bool quiet = false;
};

// A plan scenario: GpuPlan and the CPU reference side by side (docs/harness.md, "Plans").
int run_plan_compare(const CompareRequest& request, const PlanScenario& scenario) {
  for (const auto& [name, flag] : request.flock_only) {
    if (flag->count() > 0) {
      throw InputError(name + ": applies to flock scenarios; " + scenario.source +
                       " is a plan scenario ([plan])");
    }
  }
  PlanCompareOptions options;
  options.steps = request.steps.value_or(kDefaultPlanSteps);
  // Room for each agent the plan may hold (a branching plan's max_agents), or an InputError.
  gpu_plan_point_capacity(options.steps,
                          gpu_plan_agent_capacity(scenario, scenario.plan.total_count()));
  const auto context = gl::create_headless_context();
  const std::string& renderer = context->info().renderer;
  options.max_divergent = request.max_divergent_flag->count() > 0 ? request.max_divergent
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

int run_flock_compare(const CompareRequest& request, const FlockScenario& scenario) {
  if (request.max_divergent_flag->count() > 0) {
    throw InputError("--max-divergent: applies to plan scenarios ([plan]); " + scenario.source +
                     " is a flock scenario");
  }
  CompareOptions options = request.options;
  if (request.steps) options.free_steps = *request.steps;

  const FlockState start = start_state(scenario, request.in);
  const auto context = gl::create_headless_context();
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

int run_compare(const CompareRequest& request) {
  return visit_kind(
      load_any_scenario_with_seed(request.scenario, request.seed),
      [&](const FlockScenario& flock) { return run_flock_compare(request, flock); },
      [&](const PlanScenario& plan) { return run_plan_compare(request, plan); });
}

}  // namespace

Command compare_command(CLI::App& program) {
  CLI::App& command =
      add_command(program, "compare",
                  "check the GPU flock or plan against the CPU reference; exit 1 when they "
                  "disagree");
  auto request = std::make_shared<CompareRequest>();
  CompareOptions& options = request->options;
  options.free_steps = kDefaultFreeSteps;
  Flags flags(command);
  flags.text("--scenario", "FILE", request->scenario, "scenario TOML")->required();
  CLI::Option* in = start_flags(flags, request->in, request->seed);
  flags.integer("--steps", "N", request->steps, kFreeStepRange,
                "free-run length (default 200, 0 skips the free run); a plan's steps, each "
                "compared (default 300)");
  CLI::Option* lockstep = flags.integer("--lockstep", "K", options.lockstep_steps, kLockstepRange,
                                        "lockstep steps, each from the CPU's state");
  CLI::Option* samples = flags.integer("--samples", "M", options.samples, kSampleRange,
                                       "drift samples along the free run");
  CLI::Option* envelope =
      flags.integer("--envelope-runs", "R", options.envelope_runs, kEnvelopeRange,
                    "one-ulp-perturbed CPU runs for the drift envelope");
  CLI::Option* search =
      flags.choice("--search", "S", options.search,
                   {{"grid", NeighbourSearch::Grid}, {"naive", NeighbourSearch::Naive}},
                   "GPU neighbour search");
  request->flock_only = {{"--in", in},
                         {"--lockstep", lockstep},
                         {"--samples", samples},
                         {"--envelope-runs", envelope},
                         {"--search", search}};
  request->max_divergent_flag =
      flags.real("--max-divergent", "F", request->max_divergent, kFractionRange,
                 "a plan passes while at most this fraction of its agents diverged (default: "
                 "exact equality on llvmpipe, else " +
                     fraction_text(kPlanMaxDivergentDefault) + ")");
  quiet_flag(flags, request->quiet);
  command.footer(
      "Checks per boid neighbour counts and one-step results against bounds derived from\n"
      "float32 rounding, and free-run drift against the drift of CPU runs one ulp apart\n"
      "(docs/harness.md). Exit 0 when every check passes, 1 when one fails. Progress (lockstep\n"
      "and free-run steps) goes to stderr unless --quiet.\n"
      "A plan scenario ([plan]): GpuPlan and the CPU reference side by side, every agent and\n"
      "point compared after every step; the first difference, the agents that diverged (fate,\n"
      "turns, moves or drawn point) and the largest location error. PASS when bit-identical,\n"
      "or under --max-divergent while few enough agents diverged (docs/harness.md, \"Plans\").");
  return {&command, [request] { return run_compare(*request); }};
}

}  // namespace murmur::cli
