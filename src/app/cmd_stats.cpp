// `murmur stats`: the flock statistics of docs/model.md for a state file, or along a run; a
// plan scenario's statistics (docs/model.md, "Plan statistics") along its run.
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "backend.hpp"
#include "commands.hpp"
#include "memory_check.hpp"
#include "murmur/gl/context.hpp"
#include "murmur/base/atomic_file.hpp"
#include "murmur/base/csv.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/plan/plan.hpp"
#include "murmur/flock/stats.hpp"

namespace murmur::cli {
namespace {

constexpr const char* kPlanColumns =
    "step,living,points,died_too_slow,died_too_close,died_too_many_turns,drawn_length,"
    "drawn_length_horizontal,drawn_length_vertical,agents,births,births_dropped,coverage\n";
constexpr int kSummaryKeyWidth = 13;

std::string csv_header(const std::vector<StatsColumn>& columns) {
  std::string header = "step";
  for (const StatsColumn& column : columns) header += "," + csv_field(column.name);
  return header + "\n";
}

std::string csv_row(std::uint64_t step, const std::vector<StatsColumn>& columns,
                    const StatsSample& sample) {
  std::string row = std::to_string(step);
  for (const StatsColumn& column : columns) row += "," + column.value(sample).text;
  return row + "\n";
}

void print_summary(const Scenario& scenario, const FlockStats& stats,
                   const PopulationStats& population) {
  const char* why_not = stats.count == 0 ? "n/a (no boids)" : "n/a (wrap world, flock not compact)";
  const std::string milling = stats.milling ? stats_number_text(*stats.milling) : why_not;
  const std::string state = stats.state ? std::string(state_name(*stats.state)) : why_not;
  const std::string food =
      population.food ? stats_number_text(*population.food) : "n/a (no [food] table)";
  std::printf("%-*s %u\n", kSummaryKeyWidth, "count", stats.count);
  std::printf("%-*s %s\n", kSummaryKeyWidth, "polarization",
              stats_number_text(stats.polarization).c_str());
  std::printf("%-*s %s\n", kSummaryKeyWidth, "milling", milling.c_str());
  std::printf("%-*s %s\n", kSummaryKeyWidth, "state", state.c_str());
  std::printf("%-*s %s\n", kSummaryKeyWidth, "mean_nn",
              stats_number_text(stats.mean_nearest_neighbour).c_str());
  std::printf("%-*s %u\n", kSummaryKeyWidth, "clusters", stats.clusters);
  for (std::size_t s = 0; s < population.counts.size(); ++s) {
    std::printf("%-*s %u\n", kSummaryKeyWidth, ("n_" + scenario.species[s].name).c_str(),
                population.counts[s]);
  }
  std::printf("%-*s %s\n", kSummaryKeyWidth, "food", food.c_str());
}

// The rows of a run: streamed to stdout as they come, or written whole to --out at the end, so
// that a failed run leaves no partial CSV behind.
class CsvRows {
 public:
  CsvRows(const std::optional<std::string>& out, Progress& progress, const std::string& header)
      : out_(out), progress_(progress), csv_(header) {
    if (!out_) std::fputs(header.c_str(), stdout);
  }
  void add(const std::string& row) {
    if (out_) {
      csv_ += row;
      return;
    }
    progress_.clear_line();  // stdout may be the same terminal
    std::fputs(row.c_str(), stdout);
    std::fflush(stdout);
  }
  void finish() {
    if (out_) write_file_atomically(*out_, csv_);
  }

 private:
  const std::optional<std::string>& out_;
  Progress& progress_;
  std::string csv_;
};

// Calls step(every) and then row(step) for every K-th step up to `steps`, after row(0).
template <typename Step, typename Row>
void along_the_run(std::uint32_t steps, std::uint32_t every, Progress& progress, Step&& step,
                   Row&& row) {
  row(0);
  // 64-bit so the last `done += every` cannot wrap around past UINT32_MAX.
  for (std::uint64_t done = every; done <= steps; done += every) {
    step(every);
    row(done);
    progress.update(done);
  }
  progress.finish();
}

std::string plan_csv_row(const PlanSummary& s) {
  return std::to_string(s.step) + "," + std::to_string(s.living) + "," +
         std::to_string(s.points) + "," + std::to_string(s.died_too_slow) + "," +
         std::to_string(s.died_too_close) + "," + std::to_string(s.died_too_many_turns) + "," +
         stats_number_text(s.drawn_length) + "," +
         stats_number_text(s.drawn_length_horizontal) + "," +
         stats_number_text(s.drawn_length_vertical) + "," + std::to_string(s.agents) + "," +
         std::to_string(s.births) + "," + std::to_string(s.births_dropped) + "," +
         (s.cells == 0 ? std::string() : stats_number_text(s.coverage())) + "\n";
}

// A plan scenario's statistics along its run, on the CPU reference or GpuPlan (the same rows).
int run_plan_stats(const FlagValues& options, const PlanScenario& scenario) {
  const PlanBackend backend = plan_backend(options.scenario, options.stats_in, options.backend);
  const std::uint32_t steps = *options.stats_steps;  // no --in, so --steps was given
  if (options.stats_out) check_output_file(*options.stats_out, "--out");
  PlanRun run(scenario, backend, steps);
  std::fprintf(stderr, "seed %llu\n", static_cast<unsigned long long>(scenario.world.seed));
  Progress progress = command_progress("stats", "steps", steps, options.quiet);
  CsvRows rows(options.stats_out, progress, kPlanColumns);
  PlanSummaryTracker tracker;  // each point is read once, whatever the row count
  along_the_run(
      steps, options.every, progress,
      [&](std::uint32_t every) {
        for (std::uint32_t k = 0; k < every; ++k) run.step();
      },
      [&](std::uint64_t) { rows.add(plan_csv_row(tracker.summary(run.state()))); });
  rows.finish();
  return kExitOk;
}

int run_flock_stats(const FlagValues& options, const FlockScenario& scenario) {
  if (options.stats_in) {
    const FlockState state = read_state_csv(*options.stats_in, scenario);
    print_summary(scenario, compute_stats(scenario, state), compute_population(scenario, state));
    return kExitOk;
  }

  // The command line gives exactly one of --in and --steps.
  const std::uint32_t steps = *options.stats_steps;
  if (options.stats_out) check_output_file(*options.stats_out, "--out");
  const RunMemory memory = flock_run_memory(scenario, options.backend, FlockReads::StateAndStats);
  const std::uint64_t boids = estimated_boids(scenario);
  require_host_memory(memory, boids);

  std::fprintf(stderr, "seed %llu\n", static_cast<unsigned long long>(scenario.world.seed));
  FlockState start = seeded_start(scenario);
  const auto context = checked_context(options.backend, memory, boids);
  Simulation simulation(scenario, start, options.backend, context.get());
  start = FlockState{};  // the simulation holds its own

  Progress progress = command_progress("stats", "steps", steps, options.quiet);
  const std::vector<StatsColumn> columns = flock_stats_columns(scenario);
  CsvRows rows(options.stats_out, progress, csv_header(columns));
  // Totals as of the previous row, which the events of a row are counted from.
  std::optional<std::vector<SpeciesTotals>> previous_totals;
  along_the_run(
      steps, options.every, progress, [&](std::uint32_t every) { simulation.step(every); },
      [&](std::uint64_t step) {
        const StatsSample sample = stats_sample(scenario, simulation.state(), previous_totals);
        previous_totals = sample.population.totals;
        rows.add(csv_row(step, columns, sample));
      });
  rows.finish();
  return kExitOk;
}

int run_stats(const FlagValues& options) {
  return visit_kind(
      load_any_scenario_with_seed(options.scenario, options.seed),
      [&](const FlockScenario& flock) { return run_flock_stats(options, flock); },
      [&](const PlanScenario& plan) { return run_plan_stats(options, plan); });
}

}  // namespace

CommandDefinition stats_command() {
  return {"flock statistics of a state file, or flock or plan statistics along a run",
      "With --in: prints count, polarization, milling (\"n/a (wrap world, flock not compact)\"\n"
      "where a species wraps and some boid is over a quarter of the side from the circular\n"
      "centroid), state (polarized, milling, swarm or transition, Tunstrom et al. 2013; n/a\n"
      "with milling), mean_nn (mean nearest-neighbour distance), clusters, n_<species>\n"
      "(living boids per species) and food (the food field's total), one per line.\n"
      "With --steps: CSV `step,polarization,milling,state,mean_nn,clusters`, then per species\n"
      "`n_<species>,births_<species>,deaths_<species>` (births and deaths since the previous\n"
      "row, 0 on the first) and `food`, at step 0 and every K steps (milling and state empty\n"
      "where not meaningful, food empty without a [food] table); the seed is printed on\n"
      "stderr, then the progress unless --quiet.\n"
      "A plan scenario ([plan]) takes --steps (backend cpu or gpu, the same rows): CSV\n"
      "`step,living,points,died_too_slow,died_too_close,died_too_many_turns,drawn_length,\n"
      "drawn_length_horizontal,drawn_length_vertical,agents,births,births_dropped,coverage`\n"
      "(deaths and births since the start; the lengths of the drawn segments, by the pen of the\n"
      "move that drew them; branches past max_agents; the share of the canvas's cells holding\n"
      "a point, empty on a canvas too large to count; docs/model.md).",
      run_stats};
}

}  // namespace murmur::cli
