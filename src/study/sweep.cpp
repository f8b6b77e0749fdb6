#include "murmur/study/sweep.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <system_error>

#include "murmur/base/csv.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/base/float_text.hpp"

namespace murmur::study {
namespace {

constexpr std::string_view kVaryFlag = "--vary";
constexpr std::string_view kVaryWithFlag = "--vary-with";
constexpr std::string_view kSeedsFlag = "--seeds";
constexpr std::size_t kRangeParts = 3;  // FROM:TO:COUNT

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

std::optional<std::uint64_t> whole_unsigned(std::string_view text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc{} || stop != end) return std::nullopt;
  return value;
}

std::optional<double> whole_number(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc{} || stop != end || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

// The values of a list, split at the commas outside brackets and quotes, so that a TOML array
// or a string holding a comma stays one value.
std::optional<std::vector<std::string>> list_values(std::string_view list) {
  std::vector<std::string> values;
  std::string current;
  int depth = 0;
  char quote = 0;
  for (const char c : list) {
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '[') {
      ++depth;
    } else if (c == ']') {
      --depth;
    } else if (c == ',' && depth == 0) {
      values.push_back(std::move(current));
      current.clear();
      continue;
    }
    current += c;
  }
  values.push_back(std::move(current));
  const bool empty_value = std::any_of(values.begin(), values.end(),
                                       [](const std::string& value) { return value.empty(); });
  if (empty_value || depth != 0 || quote != 0) return std::nullopt;
  return values;
}

// COUNT numbers from FROM to TO, as TOML (an integral number as an integer).
std::optional<std::vector<std::string>> range_values(std::string_view range) {
  const std::vector<std::string_view> parts = split(range, ':');
  if (parts.size() != kRangeParts) return std::nullopt;
  const std::optional<double> from = whole_number(parts[0]);
  const std::optional<double> to = whole_number(parts[1]);
  const std::optional<std::uint64_t> count = whole_unsigned(parts[2]);
  if (!from || !to || !count || *count < 2 || *count > kMaxRangeCount) return std::nullopt;
  std::vector<std::string> values;
  for (std::uint64_t i = 0; i < *count; ++i) {
    // The last is TO itself, not FROM plus a sum that may round past it.
    const double value = i + 1 == *count
                             ? *to
                             : *from + (*to - *from) * static_cast<double>(i) /
                                           static_cast<double>(*count - 1);
    std::string text;
    append_double(text, value);  // the shortest text that reads back; 2 reads as an integer
    values.push_back(std::move(text));
  }
  return values;
}

}  // namespace

namespace {
VaryAxis parse_axis(std::string_view word, std::string_view flag) {
  const std::size_t equals = word.find('=');
  std::optional<std::vector<std::string>> values;
  if (equals != std::string_view::npos && equals > 0) {
    const std::string_view spec = word.substr(equals + 1);
    values = spec.find(':') != std::string_view::npos ? range_values(spec) : list_values(spec);
  }
  if (!values) {
    throw InputError(std::string(flag) + " must be KEY=FROM:TO:COUNT (COUNT in [2, " +
                     std::to_string(kMaxRangeCount) + "]) or KEY=V1,V2,..., got " +
                     quoted(word));
  }
  return {std::string(word.substr(0, equals)), std::move(*values), std::string(word)};
}
}  // namespace

VaryAxis parse_vary(std::string_view word) { return parse_axis(word, kVaryFlag); }

VaryAxis parse_vary_with(std::string_view word) {
  VaryAxis axis = parse_axis(word, kVaryWithFlag);
  axis.in_step = true;
  return axis;
}

std::vector<VaryAxis> sweep_axes(std::vector<VaryAxis> vary, std::span<const VaryAxis> vary_with) {
  for (VaryAxis axis : vary_with) {
    axis.in_step = true;
    vary.push_back(std::move(axis));
  }
  return vary;
}

SeedChoice parse_seeds(std::string_view word) {
  const auto refuse = [&]() {
    throw InputError(std::string(kSeedsFlag) + " must be a count N in [1, " +
                     std::to_string(kMaxSeedCount) + "] or a list S1,S2,... of distinct seeds in [0, " +
                     std::to_string(kMaxSeed) + "], got " + quoted(word));
  };
  SeedChoice seeds;
  if (word.find(',') == std::string_view::npos) {
    seeds.count = whole_unsigned(word);
    if (!seeds.count || *seeds.count < 1 || *seeds.count > kMaxSeedCount) refuse();
    return seeds;
  }
  std::set<std::uint64_t> seen;
  for (const std::string_view part : split(word, ',')) {
    const std::optional<std::uint64_t> seed = whole_unsigned(part);
    if (!seed || *seed > kMaxSeed || !seen.insert(*seed).second) refuse();
    seeds.list.push_back(*seed);
  }
  return seeds;
}

std::string seeds_text(const SeedChoice& seeds) {
  if (seeds.count) return std::to_string(*seeds.count);
  std::string text;
  for (const std::uint64_t seed : seeds.list) {
    text += (text.empty() ? "" : ",") + std::to_string(seed);
  }
  return text;
}

std::vector<std::uint64_t> seeds_of(const SeedChoice& seeds, std::uint64_t first) {
  if (!seeds.count) return seeds.list;
  if (*seeds.count - 1 > kMaxSeed - first) {
    throw InputError(std::string(kSeedsFlag) + " " + std::to_string(*seeds.count) +
                     ": the seeds from the scenario's " + std::to_string(first) +
                     " would pass the largest, " + std::to_string(kMaxSeed));
  }
  std::vector<std::uint64_t> list;
  for (std::uint64_t k = 0; k < *seeds.count; ++k) list.push_back(first + k);
  return list;
}

std::uint64_t run_count(std::span<const VaryAxis> axes, std::uint64_t seed_count) {
  std::uint64_t runs = seed_count;
  for (const VaryAxis& axis : axes) {
    if (axis.in_step) continue;  // adds no combinations
    // Compared before multiplying, so that the product cannot wrap around.
    if (runs > kMaxRuns / axis.values.size()) {
      runs = kMaxRuns + 1;
    } else {
      runs *= axis.values.size();
    }
  }
  if (runs > kMaxRuns) {
    throw InputError(std::string(kVaryFlag) + " and " + std::string(kSeedsFlag) +
                     " make more than " + std::to_string(kMaxRuns) +
                     " runs, the most a sweep makes");
  }
  return runs;
}

std::vector<SweepRun> sweep_runs(std::span<const VaryAxis> axes,
                                 std::span<const std::uint64_t> seeds) {
  std::size_t combinations = 1;
  for (const VaryAxis& axis : axes) {
    if (!axis.in_step) combinations *= axis.values.size();
  }
  std::vector<SweepRun> runs;
  runs.reserve(combinations * seeds.size());
  std::vector<std::size_t> place(axes.size());
  for (std::size_t combination = 0; combination < combinations; ++combination) {
    // The combination's digits in the sizes of the axes that combine, the last the fastest.
    std::size_t rest = combination;
    for (std::size_t a = axes.size(); a-- > 0;) {
      if (axes[a].in_step) continue;
      place[a] = rest % axes[a].values.size();
      rest /= axes[a].values.size();
    }
    // An axis in step takes the place of the axis before it (check_axes: there is one).
    for (std::size_t a = 1; a < axes.size(); ++a) {
      if (axes[a].in_step) place[a] = place[a - 1];
    }
    std::vector<Override> overrides(axes.size());
    for (std::size_t a = 0; a < axes.size(); ++a) {
      overrides[a] = {axes[a].key, axes[a].values[place[a]]};
    }
    for (const std::uint64_t seed : seeds) runs.push_back({runs.size(), overrides, seed});
  }
  return runs;
}

std::string describe_run(const SweepRun& run) {
  std::string text;
  for (const Override& override : run.overrides) text += override.key + "=" + override.value + ", ";
  return text + "seed " + std::to_string(run.seed);
}

std::uint64_t SampleWindow::first_sample() const {
  const std::uint64_t k = every;
  return (measure_from + k - 1) / k * k;
}

void check_window(const SampleWindow& window) {
  if (window.first_sample() > window.steps) {
    throw InputError("--measure-from " + std::to_string(window.measure_from) +
                     ": no sample in the window from there to --steps " +
                     std::to_string(window.steps) + " (the samples are at step 0 and every " +
                     std::to_string(window.every) + " steps)");
  }
}

FlockScenario scenario_with(const FlockScenario& base, std::span<const Override> overrides) {
  FlockScenario scenario = base;
  std::string given;
  for (const Override& override : overrides) {
    const std::string word = override.key + "=" + override.value;
    set_scenario_key(scenario, override.key, override.value, std::string(kVaryFlag) + " " + word);
    given += (given.empty() ? "" : ", ") + word;
  }
  // A key's range may name another key, so the whole scenario is checked after every value is
  // set; the message names the values of this run.
  scenario.source = std::string(kVaryFlag) + " " + given;
  validate_scenario(scenario);
  scenario.source = base.source;
  return scenario;
}

void check_axes(const FlockScenario& base, std::span<const VaryAxis> axes) {
  std::set<std::string> keys;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    const VaryAxis& axis = axes[a];
    const std::string refused =
        std::string(axis.in_step ? kVaryWithFlag : kVaryFlag) + " " + axis.given + ": ";
    if (axis.in_step && a == 0) {
      throw InputError(refused + "moves in step with a --vary, and there is none");
    }
    if (axis.in_step && axis.values.size() != axes[a - 1].values.size()) {
      throw InputError(refused + std::to_string(axis.values.size()) +
                       " values, but the --vary it moves in step with (" + axes[a - 1].key +
                       ") has " + std::to_string(axes[a - 1].values.size()) +
                       ": give as many");
    }
    if (!keys.insert(axis.key).second) {
      throw InputError(refused + axis.key + " is varied twice: give its values once");
    }
    if (axis.key == "world.seed") {
      throw InputError(refused + "a run's seed is --seeds' (world.seed is where a count starts)");
    }
    if (axis.key.starts_with("species.") && axis.key.ends_with(".name")) {
      throw InputError(refused + "a species keeps its name: the statistics' columns are named "
                                 "by it");
    }
  }
  run_count(axes, 1);
  const std::uint64_t one_seed[] = {base.world.seed};
  for (const SweepRun& run : sweep_runs(axes, one_seed)) scenario_with(base, run.overrides);
}

SweepDefinition define_sweep(FlockScenario scenario, std::vector<VaryAxis> axes,
                             const SeedChoice& seeds, const SampleWindow& window) {
  check_window(window);
  check_axes(scenario, axes);
  const std::vector<std::uint64_t> seed_list = seeds_of(seeds, scenario.world.seed);
  run_count(axes, seed_list.size());
  std::vector<SweepRun> runs = sweep_runs(axes, seed_list);
  return {std::move(scenario), std::move(axes), std::move(runs), window};
}

std::vector<std::string> sweep_header(const FlockScenario& base, std::span<const VaryAxis> axes) {
  std::vector<std::string> header;
  for (const VaryAxis& axis : axes) header.push_back(axis.key);
  header.push_back("seed");
  for (std::string& name : WindowSummary(flock_stats_columns(base)).header()) {
    header.push_back(std::move(name));
  }
  return header;
}

std::vector<std::string> sweep_row(const FlockScenario& scenario, const SweepRun& run,
                                   const WindowSummary& summary) {
  std::vector<std::string> row;
  for (const Override& override : run.overrides) {
    row.push_back(scenario_key_text(scenario, override.key));
  }
  row.push_back(std::to_string(run.seed));
  for (std::string& cell : summary.cells()) row.push_back(std::move(cell));
  return row;
}

std::string csv_line(std::span<const std::string> cells) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) line += (i == 0 ? "" : ",") + csv_field(cells[i]);
  return line;
}

}  // namespace murmur::study
