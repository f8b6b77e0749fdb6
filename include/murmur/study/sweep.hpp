#pragma once
// A parameter sweep (docs/sweep.md): the values each --vary gives its key, the seeds, the runs
// they make in order, the window of samples a run is summarised over, the scenario of each run,
// and the CSV a sweep writes (its header, a run's row). GL-free; a run itself is run.hpp's.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "murmur/scenario/scenario.hpp"
#include "murmur/study/summary.hpp"

namespace murmur::study {

// One value given to one key for a run: the key's name on the command line (world.<key> or
// species.<name>.<key>, set_scenario_key) and the value as TOML text.
struct Override {
  std::string key;
  std::string value;
};

// The most values a FROM:TO:COUNT range spreads.
inline constexpr std::uint64_t kMaxRangeCount = 100000;

// One --vary: a key and the values it takes, in order.
struct VaryAxis {
  std::string key;
  std::vector<std::string> values;  // TOML texts, one a run
  std::string given;                // the word as given, KEY=SPEC
  // A --vary-with: the key takes its values in step with the axis before it (its k-th value
  // with that axis' k-th) rather than making combinations with it, so that two keys move
  // together (a zone's outer radius that keeps its width as its inner one grows).
  bool in_step = false;
};

// KEY=FROM:TO:COUNT (COUNT evenly spaced numbers from FROM to TO, both included, COUNT >= 2)
// or KEY=V1,V2,... (any values in any order; a comma inside brackets or quotes belongs to its
// value). Only the form is checked here, an InputError naming --vary: the key and its values
// meet the scenario in check_axes.
VaryAxis parse_vary(std::string_view word);
// The same form for --vary-with: an axis in step with the one before it.
VaryAxis parse_vary_with(std::string_view word);
// The axes of a sweep: the --vary axes in order, then the --vary-with axes, each in step with
// the last --vary (docs/sweep.md, "Keys that move together").
std::vector<VaryAxis> sweep_axes(std::vector<VaryAxis> vary, std::span<const VaryAxis> vary_with);

// The most seeds a count gives.
inline constexpr std::uint64_t kMaxSeedCount = 1000000;

// --seeds: N seeds from the scenario's own, or a list of distinct seeds.
struct SeedChoice {
  std::optional<std::uint64_t> count;
  std::vector<std::uint64_t> list;
};
// N (no comma) or S1,S2,...; an InputError naming --seeds.
SeedChoice parse_seeds(std::string_view word);
// The text --seeds was given as.
std::string seeds_text(const SeedChoice& seeds);
// The seeds: `first` (the scenario's [world] seed) to first + N - 1, or the list. An
// InputError naming --seeds when a count passes kMaxSeed.
std::vector<std::uint64_t> seeds_of(const SeedChoice& seeds, std::uint64_t first);

// A run of the sweep: its place in the CSV, its values and its seed.
struct SweepRun {
  std::size_t index = 0;
  std::vector<Override> overrides;  // one per --vary, in their order
  std::uint64_t seed = 0;
};

// The most runs a sweep makes.
inline constexpr std::uint64_t kMaxRuns = 1000000;
// The number of runs the axes and `seed_count` seeds make; an InputError naming --vary and
// --seeds above kMaxRuns.
std::uint64_t run_count(std::span<const VaryAxis> axes, std::uint64_t seed_count);

// Every run: the Cartesian product of the axes' values, the first --vary outermost, an axis in
// step taking the value of the same place as the axis before it, and each combination once per
// seed, the seeds innermost.
std::vector<SweepRun> sweep_runs(std::span<const VaryAxis> axes,
                                 std::span<const std::uint64_t> seeds);
// "species.a.align_weight=0.05, seed 3": a run in messages.
std::string describe_run(const SweepRun& run);

// The samples of a run and its window: a sample at step 0 and every `every` steps up to
// `steps`, as `murmur stats --steps` takes them; the window holds those at `measure_from` or
// later.
struct SampleWindow {
  std::uint32_t steps = 0;
  std::uint32_t every = 1;
  std::uint32_t measure_from = 0;
  // The step of the window's first sample: the least multiple of `every` at or after
  // measure_from.
  std::uint64_t first_sample() const;
};
// An InputError naming --measure-from unless the window holds a sample (every >= 1).
void check_window(const SampleWindow& window);

// `base` with `overrides` set (set_scenario_key) and then checked as a whole
// (validate_scenario): every refusal one line naming --vary, the key and what it accepts.
FlockScenario scenario_with(const FlockScenario& base, std::span<const Override> overrides);
// Refuses, naming --vary, a key given twice, world.seed (the seeds are --seeds'), a species'
// name (the statistics' columns are named by it) and every combination of values that
// scenario_with refuses, so that a sweep fails before its first run.
void check_axes(const FlockScenario& base, std::span<const VaryAxis> axes);

// A sweep as its runs will make it: the scenario, its axes, every run in order and the window.
struct SweepDefinition {
  FlockScenario scenario;
  std::vector<VaryAxis> axes;
  std::vector<SweepRun> runs;
  SampleWindow window;
};
// Checks the window (check_window), the axes against the scenario (check_axes) and the number
// of runs (run_count), then lists the runs: every refusal an InputError before any run.
SweepDefinition define_sweep(FlockScenario scenario, std::vector<VaryAxis> axes,
                             const SeedChoice& seeds, const SampleWindow& window);

// The header of a sweep's CSV: each --vary's key, seed, then the summary of the flock
// statistics of `base` (WindowSummary::header).
std::vector<std::string> sweep_header(const FlockScenario& base, std::span<const VaryAxis> axes);
// A run's row: its keys' values as `scenario` (the run's, scenario_with) holds them, its seed,
// the summary's cells.
std::vector<std::string> sweep_row(const FlockScenario& scenario, const SweepRun& run,
                                   const WindowSummary& summary);
// Cells as one CSV line, without its line break (RFC 4180 quoting where a cell needs it).
std::string csv_line(std::span<const std::string> cells);

}  // namespace murmur::study
