// `murmur step`: advance a flock N steps on one backend and write the state it reaches.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>

#include "backend.hpp"
#include "commands.hpp"
#include "murmur/errors.hpp"
#include "murmur/state.hpp"

namespace murmur::cli {
namespace {

constexpr Range kStepRange{0, UINT32_MAX};

int run_step(const Args& args) {
  const Backend backend = backend_flag(args);
  const std::uint32_t steps = static_cast<std::uint32_t>(args.required_unsigned("--steps", kStepRange));
  const std::filesystem::path out = args.required_text("--out");
  // Checked here as well as by write_state, so that a typo fails before the run, not after.
  std::string extension = out.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension != ".csv" && extension != ".npy") {
    args.fail("--out must end in .csv or .npy, got '" + out.string() + "'");
  }
  // The seed only shapes a seeded start; with --in it would silently do nothing.
  if (args.has("--in") && args.has("--seed")) args.fail("--seed has no effect with --in");
  const Scenario scenario = load_scenario_flag(args);
  check_output_file(out, "--out");

  FlockState initial;
  if (const std::optional<std::string> in = args.text("--in")) {
    initial = read_state_csv(*in, scenario);
  } else {
    std::fprintf(stderr, "seed %llu\n", static_cast<unsigned long long>(scenario.world.seed));
    initial = seeded_start(scenario);
  }

  Simulation simulation(scenario, initial, backend);
  simulation.step(steps);
  write_state(out, simulation.state());
  return kExitOk;
}

}  // namespace

const Command& step_command() {
  static const Command command{
      .name = "step",
      .summary = "advance a flock N steps and write the state it reaches",
      .synopsis = "--scenario FILE --steps N --out FILE [--in FILE | --seed S] [--backend B]",
      .flags =
          {
              {"--scenario", "FILE", "scenario TOML (required)"},
              {"--in", "FILE", "start from this state CSV (default: the scenario's seeded start)"},
              {"--steps", "N", "steps to run, in [0, 4294967295] (required)"},
              {"--backend", "B", "gpu (grid search, default), gpu-naive (all pairs) or cpu"},
              {"--seed", "S", "replaces the scenario's [world] seed, in [0, 2^63-1]"},
              {"--out", "FILE", "state to write: .csv or .npy (required)"},
          },
      .notes = "Prints the seed of a seeded start on stderr (`seed 42`). The output rows are sorted\n"
               "by id and written only when the run succeeds (temporary file, then rename).",
      .run = run_step,
  };
  return command;
}

}  // namespace murmur::cli
