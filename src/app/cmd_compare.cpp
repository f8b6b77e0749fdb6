// `murmur compare`: the GPU flock against the CPU reference (docs/harness.md).
#include <cstdio>

#include "commands.hpp"
#include "murmur/errors.hpp"
#include "murmur/gl/context.hpp"
#include "murmur/gpu/harness.hpp"
#include "murmur/state.hpp"

namespace murmur::cli {
namespace {

constexpr Range kLockstepRange{0, 10000};
constexpr Range kFreeStepRange{0, 1000000};
constexpr Range kSampleRange{1, 1000};
constexpr Range kEnvelopeRange{1, 16};

int run_compare(const Args& args) {
  if (args.has("--in") && args.has("--seed")) args.fail("--seed has no effect with --in");
  const Scenario scenario = load_scenario_flag(args);
  CompareOptions options;
  options.lockstep_steps =
      static_cast<std::uint32_t>(args.unsigned_or("--lockstep", options.lockstep_steps, kLockstepRange));
  options.free_steps =
      static_cast<std::uint32_t>(args.unsigned_or("--steps", 200, kFreeStepRange));
  options.samples = static_cast<std::uint32_t>(args.unsigned_or("--samples", options.samples, kSampleRange));
  options.envelope_runs =
      static_cast<std::uint32_t>(args.unsigned_or("--envelope-runs", options.envelope_runs, kEnvelopeRange));
  options.search = args.choice_or("--search", {"grid", "naive"}, "grid") == "grid"
                       ? NeighbourSearch::Grid
                       : NeighbourSearch::Naive;

  FlockState start;
  if (const std::optional<std::string> in = args.text("--in")) {
    start = read_state_csv(*in, scenario);
  } else {
    start = seeded_start(scenario);
  }
  const auto context = gl::create_headless_context();
  std::printf("murmur compare: %s, %u boids, seed %llu, %s search, on %s\n", scenario.source.c_str(),
              scenario.total_count(), static_cast<unsigned long long>(scenario.world.seed),
              options.search == NeighbourSearch::Grid ? "grid" : "naive",
              context->info().renderer.c_str());
  std::fflush(stdout);
  const CompareReport report = run_comparison(scenario, start, options);
  context->check_gl_errors("the comparison");  // a report computed from garbage is no report
  std::fputs(report.table().c_str(), stdout);
  return report.passed() ? kExitOk : kExitCheckFailed;
}

}  // namespace

const Command& compare_command() {
  static const Command command{
      .name = "compare",
      .summary = "check the GPU flock against the CPU reference; exit 1 when they disagree",
      .synopsis = "--scenario FILE [--in FILE | --seed S] [--steps N] [--lockstep K] [--search S]",
      .flags =
          {
              {"--scenario", "FILE", "scenario TOML (required)"},
              {"--in", "FILE", "start from this state CSV (default: the scenario's seeded start)"},
              {"--seed", "S", "replaces the scenario's [world] seed, in [0, 2^63-1]"},
              {"--steps", "N", "free-run length, in [0, 1000000] (default 200; 0 skips the free run)"},
              {"--lockstep", "K", "lockstep steps, each from the CPU's state, in [0, 10000] (default 10)"},
              {"--samples", "M", "drift samples along the free run, in [1, 1000] (default 10)"},
              {"--envelope-runs", "R", "one-ulp-perturbed CPU runs for the drift envelope, in [1, 16] (default 3)"},
              {"--search", "S", "GPU neighbour search: grid (default) or naive"},
          },
      .notes = "Checks per boid neighbour counts and one-step results against bounds derived from\n"
               "float32 rounding, and free-run drift against the drift of CPU runs one ulp apart\n"
               "(docs/harness.md). Exit 0 when every check passes, 1 when one fails.",
      .run = run_compare,
  };
  return command;
}

}  // namespace murmur::cli
