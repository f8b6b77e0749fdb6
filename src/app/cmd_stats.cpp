// `murmur stats`: the flock statistics of docs/model.md for a state file, or along a run.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend.hpp"
#include "commands.hpp"
#include "murmur/atomic_file.hpp"
#include "murmur/errors.hpp"
#include "murmur/stats.hpp"

namespace murmur::cli {
namespace {

constexpr Range kStepRange{0, UINT32_MAX};
constexpr Range kEveryRange{1, UINT32_MAX};
constexpr std::uint32_t kDefaultEvery = 1;
constexpr const char* kFlockColumns = "step,polarization,milling,mean_nn,clusters";
constexpr int kSummaryKeyWidth = 13;

// Enough digits that two runs differing in the last bits of the state still print apart.
std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

// A species name may hold a comma or a quote: such a header field is quoted as RFC 4180 says.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string csv_header(const Scenario& scenario) {
  std::string header = kFlockColumns;
  for (const SpeciesParams& species : scenario.species) {
    for (const char* column : {"n_", "births_", "deaths_"}) {
      header += "," + csv_field(column + species.name);
    }
  }
  return header + ",food\n";
}

// Milling is left empty in CSV where it is not meaningful (a wrap world), and food where there
// is no field, so readers see NaN. Births and deaths are the events since the previous row.
std::string csv_row(std::uint64_t step, const FlockStats& stats, const PopulationStats& population,
                    const std::vector<SpeciesTotals>& events) {
  std::string row = std::to_string(step) + "," + number(stats.polarization) + "," +
                    (stats.milling ? number(*stats.milling) : std::string()) + "," +
                    number(stats.mean_nearest_neighbour) + "," + std::to_string(stats.clusters);
  for (std::size_t s = 0; s < population.counts.size(); ++s) {
    row += "," + std::to_string(population.counts[s]) + "," + std::to_string(events[s].born) +
           "," + std::to_string(events[s].died);
  }
  return row + "," + (population.food ? number(*population.food) : std::string()) + "\n";
}

void print_summary(const Scenario& scenario, const FlockStats& stats,
                   const PopulationStats& population) {
  const std::string milling = stats.milling ? number(*stats.milling) : "n/a (wrap world)";
  const std::string food = population.food ? number(*population.food) : "n/a (no [food] table)";
  std::printf("%-*s %u\n", kSummaryKeyWidth, "count", stats.count);
  std::printf("%-*s %s\n", kSummaryKeyWidth, "polarization", number(stats.polarization).c_str());
  std::printf("%-*s %s\n", kSummaryKeyWidth, "milling", milling.c_str());
  std::printf("%-*s %s\n", kSummaryKeyWidth, "mean_nn",
              number(stats.mean_nearest_neighbour).c_str());
  std::printf("%-*s %u\n", kSummaryKeyWidth, "clusters", stats.clusters);
  for (std::size_t s = 0; s < population.counts.size(); ++s) {
    std::printf("%-*s %u\n", kSummaryKeyWidth, ("n_" + scenario.species[s].name).c_str(),
                population.counts[s]);
  }
  std::printf("%-*s %s\n", kSummaryKeyWidth, "food", food.c_str());
}

struct StatsOptions {
  std::string scenario;
  std::optional<std::string> in;
  std::optional<std::uint32_t> steps;
  std::uint32_t every = kDefaultEvery;
  Backend backend = Backend::Gpu;
  std::optional<std::uint64_t> seed;
  std::optional<std::string> out;
  bool quiet = false;
};

int run_stats(const StatsOptions& options) {
  if (options.in) {
    const Scenario scenario = load_scenario(options.scenario);
    const FlockState state = read_state_csv(*options.in, scenario);
    print_summary(scenario, compute_stats(scenario, state), compute_population(scenario, state));
    return kExitOk;
  }

  const std::uint32_t steps = *options.steps;  // the command line gives exactly one of the two
  const std::uint32_t every = options.every;
  const std::optional<std::string>& out = options.out;
  const Scenario scenario = load_scenario_with_seed(options.scenario, options.seed);
  if (out) check_output_file(*out, "--out");

  std::fprintf(stderr, "seed %llu\n", static_cast<unsigned long long>(scenario.world.seed));
  Simulation simulation(scenario, seeded_start(scenario), options.backend);

  // Rows stream to stdout as they come; a file is written whole at the end, so a failed run
  // leaves no partial CSV behind.
  const std::string header = csv_header(scenario);
  std::string csv = header;
  // Totals as of the previous row; the first row's are its own, so it shows no events.
  std::optional<std::vector<SpeciesTotals>> previous_totals;
  Progress progress = command_progress("stats", "steps", steps, options.quiet);
  auto emit = [&](std::uint64_t step) {
    const FlockState state = simulation.state();
    const PopulationStats population = compute_population(scenario, state);
    const std::vector<SpeciesTotals> events =
        events_between(previous_totals.value_or(population.totals), population.totals);
    previous_totals = population.totals;
    const std::string row = csv_row(step, compute_stats(scenario, state), population, events);
    if (out) {
      csv += row;
    } else {
      progress.clear_line();  // stdout may be the same terminal
      std::fputs(row.c_str(), stdout);
      std::fflush(stdout);
    }
  };
  if (!out) std::fputs(header.c_str(), stdout);
  emit(0);
  // 64-bit so the last `step += every` cannot wrap around past UINT32_MAX.
  for (std::uint64_t step = every; step <= steps; step += every) {
    simulation.step(every);
    emit(step);
    progress.update(step);
  }
  progress.finish();
  if (out) write_file_atomically(*out, csv);
  return kExitOk;
}

}  // namespace

Command stats_command(CLI::App& program) {
  CLI::App& command = add_command(program, "stats",
                                  "flock statistics of a state file, or every K steps along a run");
  auto options = std::make_shared<StatsOptions>();
  Flags flags(command);
  flags.text("--scenario", "FILE", options->scenario, "scenario TOML")->required();
  CLI::App& source = *command.add_option_group("Source");
  source.require_option(1);
  Flags source_flags(source);
  source_flags.text("--in", "FILE", options->in, "state CSV to describe");
  CLI::Option* steps = source_flags.integer("--steps", "N", options->steps, kStepRange,
                                            "run N steps from the seeded start");
  flags.integer("--every", "K", options->every, kEveryRange, "a row every K steps")->needs(steps);
  backend_flag(flags, options->backend)->needs(steps);
  seed_flag(flags, options->seed)->needs(steps);
  flags.text("--out", "FILE", options->out, "write the run's CSV here instead of stdout")
      ->needs(steps);
  quiet_flag(flags, options->quiet)->needs(steps);
  command.footer(
      "With --in: prints count, polarization, milling (\"n/a (wrap world)\" where any species\n"
      "wraps), mean_nn (mean nearest-neighbour distance), clusters, n_<species> (living boids\n"
      "per species) and food (the food field's total), one per line.\n"
      "With --steps: CSV `step,polarization,milling,mean_nn,clusters`, then per species\n"
      "`n_<species>,births_<species>,deaths_<species>` (births and deaths since the previous\n"
      "row, 0 on the first) and `food`, at step 0 and every K steps (milling empty where not\n"
      "meaningful, food empty without a [food] table); the seed is printed on stderr, then the\n"
      "progress unless --quiet.");
  return {&command, [options] { return run_stats(*options); }};
}

}  // namespace murmur::cli
