// `murmur step`: advance a flock N steps on one backend and write the state it reaches; a plan
// scenario's state is its paths, written as `murmur plan`'s CSV.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "backend.hpp"
#include "commands.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/plan/export/plan_export.hpp"
#include "murmur/flock/state.hpp"

namespace murmur::cli {
namespace {

constexpr Range kStepRange{0, UINT32_MAX};

struct StepOptions {
  std::string scenario;
  std::optional<std::string> in;
  std::uint32_t steps = 0;
  Backend backend = Backend::Gpu;
  std::optional<std::uint64_t> seed;
  std::string out;
  bool quiet = false;
};

// Checked here as well as by write_state, so that a typo fails before the run, not after.
bool is_state_file_name(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension == ".csv" || extension == ".npy";
}

// A plan scenario has no flock state: its agents' paths are the state (docs/floor-plan.md).
int run_plan_step(const StepOptions& options) {
  const PlanBackend backend = plan_backend(options.scenario, options.in, options.backend);
  if (plan_format_of(options.out) != PlanFormat::Csv) {
    throw InputError("--out: " + options.scenario +
                     " is a plan scenario ([plan]): its paths are written as .csv, got '" +
                     options.out + "'");
  }
  return run_plan_steps_to_csv(options.scenario, options.seed, options.steps,
                               backend == PlanBackend::Gpu, options.out, options.quiet);
}

int run_flock_step(const StepOptions& options, const FlockScenario& scenario) {
  check_output_file(options.out, "--out");

  if (!options.in) {
    std::fprintf(stderr, "seed %llu\n", static_cast<unsigned long long>(scenario.world.seed));
  }
  const FlockState initial = start_state(scenario, options.in);

  Simulation simulation(scenario, initial, options.backend);
  Progress progress = command_progress("step", "steps", options.steps, options.quiet);
  for (std::uint32_t done = 1; done <= options.steps; ++done) {
    simulation.step(1);
    progress.update(done);
  }
  progress.finish();
  write_state(options.out, simulation.state());
  return kExitOk;
}

int run_step(const StepOptions& options) {
  return visit_kind(
      load_any_scenario_with_seed(options.scenario, options.seed),
      [&](const FlockScenario& flock) { return run_flock_step(options, flock); },
      [&](const PlanScenario&) { return run_plan_step(options); });
}

}  // namespace

Command step_command(CLI::App& program) {
  CLI::App& command =
      add_command(program, "step", "advance a flock N steps and write the state it reaches");
  auto options = std::make_shared<StepOptions>();
  Flags flags(command);
  flags.text("--scenario", "FILE", options->scenario, "scenario TOML")->required();
  start_flags(flags, options->in, options->seed);
  flags.integer("--steps", "N", options->steps, kStepRange, "steps to run")->required();
  backend_flag(flags, options->backend);
  flags
      .value("--out", "FILE", "state to write, .csv or .npy", "",
             [&out = options->out](const std::string& word) {
               if (!is_state_file_name(word)) {
                 throw InputError("--out must end in .csv or .npy, got '" + word + "'");
               }
               out = word;
             })
      ->required();
  quiet_flag(flags, options->quiet);
  command.footer(
      "Prints the seed of a seeded start on stderr (`seed 42`), then the progress (steps\n"
      "done, rate, ETA) unless --quiet. The output rows are sorted by id and written only\n"
      "when the run succeeds (temporary file, then rename). A plan scenario ([plan]) writes\n"
      "its paths as `murmur plan --out FILE.csv` does (cpu or gpu).");
  return {&command, [options] { return run_step(*options); }};
}

}  // namespace murmur::cli
