// `murmur stats`: the flock statistics of docs/model.md for a state file, or along a run.
#include <cstdio>
#include <filesystem>
#include <string>

#include "backend.hpp"
#include "commands.hpp"
#include "murmur/errors.hpp"
#include "murmur/stats.hpp"

namespace murmur::cli {
namespace {

constexpr Range kStepRange{0, UINT32_MAX};
constexpr Range kEveryRange{1, UINT32_MAX};
constexpr std::uint64_t kDefaultEvery = 1;
constexpr const char* kCsvHeader = "step,polarization,milling,mean_nn,clusters\n";

// Enough digits that two runs differing in the last bits of the state still print apart.
std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

// Milling is left empty in CSV where it is not meaningful (a wrap world), so readers see NaN.
std::string csv_row(std::uint64_t step, const FlockStats& stats) {
  return std::to_string(step) + "," + number(stats.polarization) + "," +
         (stats.milling ? number(*stats.milling) : std::string()) + "," +
         number(stats.mean_nearest_neighbour) + "," + std::to_string(stats.clusters) + "\n";
}

void print_summary(const FlockStats& stats) {
  const std::string milling = stats.milling ? number(*stats.milling) : "n/a (wrap world)";
  std::printf("count         %u\n", stats.count);
  std::printf("polarization  %s\n", number(stats.polarization).c_str());
  std::printf("milling       %s\n", milling.c_str());
  std::printf("mean_nn       %s\n", number(stats.mean_nearest_neighbour).c_str());
  std::printf("clusters      %u\n", stats.clusters);
}

int run_stats(const Args& args) {
  const bool from_file = args.one_of("--in", "--steps");
  for (const char* run_only : {"--every", "--backend", "--seed", "--out"}) {
    args.requires_flag(run_only, "--steps");
  }

  if (from_file) {
    const Scenario scenario = load_scenario_flag(args);
    print_summary(compute_stats(scenario, read_state_csv(*args.text("--in"), scenario)));
    return kExitOk;
  }

  const Backend backend = backend_flag(args);
  const auto steps = static_cast<std::uint32_t>(args.required_unsigned("--steps", kStepRange));
  const auto every = static_cast<std::uint32_t>(args.unsigned_or("--every", kDefaultEvery, kEveryRange));
  const std::optional<std::string> out = args.text("--out");
  const Scenario scenario = load_scenario_flag(args);
  if (out) check_output_file(*out, "--out");

  std::fprintf(stderr, "seed %llu\n", static_cast<unsigned long long>(scenario.world.seed));
  Simulation simulation(scenario, seeded_start(scenario), backend);

  // Rows stream to stdout as they come; a file is written whole at the end, so a failed run
  // leaves no partial CSV behind.
  std::string csv = kCsvHeader;
  auto emit = [&](std::uint64_t step) {
    const std::string row = csv_row(step, compute_stats(scenario, simulation.state()));
    if (out) {
      csv += row;
    } else {
      std::fputs(row.c_str(), stdout);
      std::fflush(stdout);
    }
  };
  if (!out) std::fputs(kCsvHeader, stdout);
  emit(0);
  // 64-bit so the last `step += every` cannot wrap around past UINT32_MAX.
  for (std::uint64_t step = every; step <= steps; step += every) {
    simulation.step(every);
    emit(step);
  }
  if (out) write_text_file_atomically(*out, csv);
  return kExitOk;
}

}  // namespace

const Command& stats_command() {
  static const Command command{
      .name = "stats",
      .summary = "flock statistics of a state file, or every K steps along a run",
      .synopsis = "--scenario FILE (--in FILE | --steps N [--every K] [--backend B] [--seed S] "
                  "[--out FILE])",
      .flags =
          {
              {"--scenario", "FILE", "scenario TOML (required)"},
              {"--in", "FILE", "state CSV to describe"},
              {"--steps", "N", "run N steps from the seeded start, in [0, 4294967295]"},
              {"--every", "K", "a row every K steps (default 1), in [1, 4294967295]"},
              {"--backend", "B", "gpu (grid search, default), gpu-naive (all pairs) or cpu"},
              {"--seed", "S", "replaces the scenario's [world] seed, in [0, 2^63-1]"},
              {"--out", "FILE", "write the run's CSV here instead of stdout"},
          },
      .notes =
          "With --in: prints count, polarization, milling (\"n/a (wrap world)\" where any species\n"
          "wraps), mean_nn (mean nearest-neighbour distance) and clusters, one per line.\n"
          "With --steps: CSV `step,polarization,milling,mean_nn,clusters` at step 0 and every K\n"
          "steps (milling empty where not meaningful); the seed is printed on stderr.",
      .run = run_stats,
  };
  return command;
}

}  // namespace murmur::cli
