// `murmur compare`: the GPU flock against the CPU reference (docs/harness.md).
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

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
// The command's free run; CompareOptions' own default is shorter.
constexpr std::uint32_t kDefaultFreeSteps = 200;

struct CompareRequest {
  std::string scenario;
  std::optional<std::string> in;
  std::optional<std::uint64_t> seed;
  CompareOptions options;
  bool quiet = false;
};

int run_compare(const CompareRequest& request) {
  const Scenario scenario = load_scenario_with_seed(request.scenario, request.seed);
  CompareOptions options = request.options;

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

}  // namespace

Command compare_command(CLI::App& program) {
  CLI::App& command =
      add_command(program, "compare",
                  "check the GPU flock against the CPU reference; exit 1 when they disagree");
  auto request = std::make_shared<CompareRequest>();
  CompareOptions& options = request->options;
  options.free_steps = kDefaultFreeSteps;
  Flags flags(command);
  flags.text("--scenario", "FILE", request->scenario, "scenario TOML")->required();
  start_flags(flags, request->in, request->seed);
  flags.integer("--steps", "N", options.free_steps, kFreeStepRange,
                "free-run length (0 skips the free run)");
  flags.integer("--lockstep", "K", options.lockstep_steps, kLockstepRange,
                "lockstep steps, each from the CPU's state");
  flags.integer("--samples", "M", options.samples, kSampleRange,
                "drift samples along the free run");
  flags.integer("--envelope-runs", "R", options.envelope_runs, kEnvelopeRange,
                "one-ulp-perturbed CPU runs for the drift envelope");
  flags.choice("--search", "S", options.search,
               {{"grid", NeighbourSearch::Grid}, {"naive", NeighbourSearch::Naive}},
               "GPU neighbour search");
  quiet_flag(flags, request->quiet);
  command.footer(
      "Checks per boid neighbour counts and one-step results against bounds derived from\n"
      "float32 rounding, and free-run drift against the drift of CPU runs one ulp apart\n"
      "(docs/harness.md). Exit 0 when every check passes, 1 when one fails. Progress (lockstep\n"
      "and free-run steps) goes to stderr unless --quiet.");
  return {&command, [request] { return run_compare(*request); }};
}

}  // namespace murmur::cli
