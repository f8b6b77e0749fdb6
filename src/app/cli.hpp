#pragma once
// The murmur command line, on CLI11. Each subcommand declares its flags once, through Flags:
// name, value name, accepted range and one line of help; `--help` is generated from those
// declarations, and a bad value is one line naming the flag and the accepted range. Program
// turns the words after `murmur` into the command to run; main() prefixes a usage error with
// "murmur <command>: " and exits 2.
#include <concepts>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "murmur/base/progress.hpp"
#include "murmur/scenario/scenario.hpp"
#include "murmur/flock/state.hpp"

namespace murmur::cli {

struct Range {
  std::uint64_t min = 0;
  std::uint64_t max = 0;
};

struct RealRange {
  double min = 0;
  double max = 0;
};

// A video's frames per second (record --fps, view --record-fps): anything a player accepts;
// 1 fps suits a slide show of a slow flock.
inline constexpr Range kVideoFpsRange{1, 1000};

struct FrameSize {
  int width = 0;
  int height = 0;
};

// The flags of one subcommand. Each declaration binds a flag to its target, which holds the
// default until the command line replaces it; the returned CLI::Option takes CLI11's rules
// (->required(), ->needs(), ->excludes()), which --help and the usage errors both follow.
// A value that does not fit throws InputError naming the flag, the accepted range and the value.
class Flags {
 public:
  explicit Flags(CLI::App& command) : command_(&command) {}

  // A path or name, not empty.
  CLI::Option* text(const std::string& name, const std::string& value_name, std::string& target,
                    const std::string& help);
  CLI::Option* text(const std::string& name, const std::string& value_name,
                    std::optional<std::string>& target, const std::string& help);

  // A decimal integer within `range`, no sign.
  template <std::unsigned_integral T>
  CLI::Option* integer(const std::string& name, const std::string& value_name, T& target,
                       Range range, const std::string& help) {
    return integer_value(name, value_name, fitting<T>(range), help, std::to_string(target),
                         [&target](std::uint64_t number) { target = static_cast<T>(number); });
  }
  template <std::unsigned_integral T>
  CLI::Option* integer(const std::string& name, const std::string& value_name,
                       std::optional<T>& target, Range range, const std::string& help) {
    return integer_value(name, value_name, fitting<T>(range), help, "",
                         [&target](std::uint64_t number) { target = static_cast<T>(number); });
  }

  // A finite decimal number within `range` (inclusive).
  CLI::Option* real(const std::string& name, const std::string& value_name,
                    std::optional<double>& target, RealRange range, const std::string& help);

  // One of the named `choices`; `target` starts as the default.
  template <typename T>
  CLI::Option* choice(const std::string& name, const std::string& value_name, T& target,
                      const std::vector<std::pair<std::string, T>>& choices,
                      const std::string& help) {
    std::vector<std::string> names;
    std::string default_name;
    for (const auto& [choice_name, value] : choices) {
      names.push_back(choice_name);
      if (value == target) default_name = choice_name;
    }
    return choice_value(name, value_name, names, default_name, help,
                        [&target, choices](std::size_t index) { target = choices[index].second; });
  }

  // A comma-separated list of integers, each within `range`.
  CLI::Option* integer_list(const std::string& name, const std::string& value_name,
                            std::vector<std::uint64_t>& target, Range range,
                            const std::string& help);
  // A comma-separated, duplicate-free subset of `choices`.
  CLI::Option* choice_list(const std::string& name, const std::string& value_name,
                           std::vector<std::string>& target,
                           const std::vector<std::string>& choices, const std::string& help);

  // WIDTHxHEIGHT, each within `range`.
  CLI::Option* size(const std::string& name, FrameSize& target, Range range,
                    const std::string& help);
  // The same, without a default: `target` stays empty unless the flag is given.
  CLI::Option* size(const std::string& name, std::optional<FrameSize>& target, Range range,
                    const std::string& help);

  // A switch: present or not, no value.
  CLI::Option* flag(const std::string& name, bool& target, const std::string& help);

  // A flag of the command's own kind: `accept` takes the word given, or throws InputError with
  // a message naming the flag and what it accepts.
  CLI::Option* value(const std::string& name, const std::string& value_name,
                     const std::string& help, const std::string& default_text,
                     std::function<void(const std::string&)> accept);

 private:
  template <std::unsigned_integral T>
  static Range fitting(Range range) {
    if (range.max > std::numeric_limits<T>::max()) {
      throw std::logic_error("flag range exceeds its target type");
    }
    return range;
  }
  CLI::Option* integer_value(const std::string& name, const std::string& value_name, Range range,
                             const std::string& help, const std::string& default_text,
                             std::function<void(std::uint64_t)> accept);
  CLI::Option* size_value(const std::string& name, Range range, const std::string& help,
                          const std::string& default_text, std::function<void(FrameSize)> accept);
  CLI::Option* choice_value(const std::string& name, const std::string& value_name,
                            const std::vector<std::string>& names,
                            const std::string& default_name, const std::string& help,
                            std::function<void(std::size_t)> accept);

  CLI::App* command_;
};

// One subcommand: its CLI11 declaration and what runs it once the command line has parsed.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;  // returns the exit status
};

// Adds subcommand `name` to `program`, with the murmur help flag and layout.
CLI::App& add_command(CLI::App& program, const std::string& name, const std::string& summary);

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
// --seed S, which replaces the scenario's [world] seed: any value in [0, kMaxSeed].
CLI::Option* seed_flag(Flags& flags, std::optional<std::uint64_t>& seed);

// --quiet, on every command that shows progress: no progress on stderr (errors still print).
CLI::Option* quiet_flag(Flags& flags, bool& quiet);
// The progress of `murmur <command>` on stderr, counting `total` units named `unit`: off when
// `quiet`, a redrawn line when stderr is a terminal, else a plain line every few seconds.
Progress command_progress(const std::string& command, const std::string& unit,
                          std::uint64_t total, bool quiet);
// --in FILE, then --seed S (seed_flag): where a run starts (step, compare, record, view), from a
// state CSV or from the scenario's seeded start. A seed shapes only a seeded start, so the two
// exclude each other. Returns the --in option.
CLI::Option* start_flags(Flags& flags, std::optional<std::string>& in,
                         std::optional<std::uint64_t>& seed);
// --skip S: steps before the first frame, so flocks can form (record, view).
CLI::Option* skip_flag(Flags& flags, std::uint32_t& skip);
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
