#pragma once
// The murmur command line, on CLI11. Program turns the words after `murmur` into the command
// to run, with the values of its flags (flags.def, flags.hpp); main() prefixes a usage error
// with "murmur <command>: " and exits 2. Below it, what several commands share.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "flags.hpp"
#include "murmur/base/progress.hpp"
#include "murmur/scenario/scenario.hpp"
#include "murmur/flock/state.hpp"

namespace murmur::cli {

// One subcommand: its CLI11 declaration and what runs it with the parsed flags.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;  // returns the exit status
};

// The whole command line: `murmur <command> [flags]`, every command of commands.hpp.
class Program {
 public:
  Program();
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  // Parses the words after `murmur`. Returns the command to run, or nullptr when --help or
  // --version has been printed on stdout. A bad command line throws InputError with one line
  // naming the flag (or word) at fault and ending "(see murmur <command> --help)". --help wins
  // over whatever else is on the line.
  const Command* parse(const std::vector<std::string>& words);
  // "murmur step" once the words have named a command, else "murmur": for error lines.
  std::string prefix() const;
  // The text of `murmur --help`.
  std::string help() const;

 private:
  // The command the words named, or the program itself before they name one.
  const CLI::App& selected() const;

  FlagValues flags_;
  CLI::App app_;
  std::vector<Command> commands_;
};

// The flock scenario at `path`, with `seed`, when given, replacing its [world] seed. Scenario
// errors propagate as the loader's InputError (file, line, key); a plan scenario is one too
// (load_scenario), before the command does anything else.
FlockScenario load_scenario_with_seed(const std::string& path, std::optional<std::uint64_t> seed);
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
