#pragma once
// What several commands share besides their flags: the scenario loaded with --seed, the state a
// run starts from, the check of an output path before a run, and the progress line.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "murmur/base/progress.hpp"
#include "murmur/flock/state.hpp"
#include "murmur/scenario/scenario.hpp"

namespace murmur::cli {

// The flock scenario at `path`, with `seed`, when given, replacing its [world] seed. Scenario
// errors propagate as the loader's InputError (file, line, key); a plan scenario is one too
// (load_scenario), before the command does anything else. A flock dense enough to slow every
// step is told on stderr, one "warning:" line (warn_if_dense), before the first step.
FlockScenario load_scenario_with_seed(const std::string& path, std::optional<std::uint64_t> seed);
// Prints density_warning's line for `scenario`, when it has one.
void warn_if_dense(const FlockScenario& scenario);
// Either kind, flock or plan: the command visits it once (`murmur step` runs both).
AnyScenario load_any_scenario_with_seed(const std::string& path,
                                        std::optional<std::uint64_t> seed);
// The same for `murmur plan`: a scenario without a [plan] table is an InputError.
PlanScenario load_plan_scenario_with_seed(const std::string& path,
                                          std::optional<std::uint64_t> seed);
// The progress of `murmur <command>` on stderr, counting `total` units named `unit`: off when
// `quiet`, a redrawn line when stderr is a terminal, else a plain line every few seconds.
Progress command_progress(const std::string& command, const std::string& unit,
                          std::uint64_t total, bool quiet);
// The state a run starts from: the --in file read against `scenario` (InputError naming the
// file, line and column), or the scenario's seeded start.
FlockState start_state(const Scenario& scenario, const std::optional<std::string>& in);
// For a command that shows flocks and plans (view, record): a flock's start_state, or nothing
// for a plan scenario, which starts from its [[plan.group]] tables (an --in is InputError).
std::optional<FlockState> flock_start_state(const FlockScenario& scenario,
                                            const std::optional<std::string>& in);
std::optional<FlockState> flock_start_state(const PlanScenario& scenario,
                                            const std::optional<std::string>& in);

// Fails with OutputError naming `flag` and `path` unless the file's directory exists and is
// writable, so that a bad --out is reported before any simulation runs.
void check_output_file(const std::filesystem::path& path, std::string_view flag);

}  // namespace murmur::cli
