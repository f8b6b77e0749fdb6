#pragma once
// Option parsing and the helpers every `murmur` subcommand shares: GNU-style flags
// (`--flag value` or `--flag=value`), range-checked numbers, sizes, lists, the scenario with
// its seed override, and output-path checks. A usage error is one line naming the flag and
// the accepted range; main() prefixes it with "murmur <command>: " and exits 2.
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "murmur/scenario.hpp"

namespace murmur::cli {


struct Flag {
  std::string_view name;        // with its dashes: "--steps"
  std::string_view value_name;  // "N", "FILE"; empty for a switch such as --quiet
  std::string_view help;        // one line; says the default and the accepted range
};

class Args;

// One subcommand: what `murmur <name> --help` prints, and what runs it.
struct Command {
  std::string_view name;
  std::string_view summary;   // one line, for `murmur --help`
  std::string_view synopsis;  // printed after "usage: murmur <name> "
  std::vector<Flag> flags;    // --help is implicit
  std::string_view notes;     // printed after the flag list; may be empty
  int (*run)(const Args& args) = nullptr;  // returns the exit status
};

// The text of `murmur <name> --help`.
std::string usage(const Command& command);

struct Range {
  std::uint64_t min = 0;
  std::uint64_t max = 0;
};

struct RealRange {
  double min = 0;
  double max = 0;
};

struct FrameSize {
  int width = 0;
  int height = 0;
};

// The flags of one command line, checked against the command's declared flags. Getters that
// reject a value throw InputError with "<what> (see murmur <name> --help)". Asking for a flag
// the command does not declare is a programming error (std::logic_error).
class Args {
 public:
  // `args` are the words after the command name. Throws InputError for an unknown flag, a
  // flag given twice, a missing value, a value given to a switch, or a stray argument.
  // Parsing stops at --help / -h, so `murmur step --help` works whatever else is there.
  static Args parse(const Command& command, std::span<const std::string> args);

  const Command& command() const { return *command_; }
  bool help_requested() const { return help_requested_; }
  bool has(std::string_view flag) const;
  // Whether the command accepts `flag` at all (shared helpers serve commands with and without it).
  bool declares(std::string_view flag) const;

  std::optional<std::string> text(std::string_view flag) const;
  std::string required_text(std::string_view flag) const;

  // An unsigned integer within `range` (decimal, no sign).
  std::uint64_t required_unsigned(std::string_view flag, Range range) const;
  std::optional<std::uint64_t> optional_unsigned(std::string_view flag, Range range) const;
  std::uint64_t unsigned_or(std::string_view flag, std::uint64_t fallback, Range range) const;
  // A finite decimal number within `range` (inclusive).
  std::optional<double> optional_real(std::string_view flag, RealRange range) const;
  double real_or(std::string_view flag, double fallback, RealRange range) const;
  // A comma-separated list of unsigned integers, each within `range`.
  std::vector<std::uint64_t> unsigned_list_or(std::string_view flag,
                                              std::vector<std::uint64_t> fallback,
                                              Range range) const;

  // One of `choices`; `fallback` when the flag is absent.
  std::string choice_or(std::string_view flag, std::initializer_list<std::string_view> choices,
                        std::string_view fallback) const;
  // A comma-separated, duplicate-free subset of `choices`.
  std::vector<std::string> choice_list_or(std::string_view flag,
                                          std::initializer_list<std::string_view> choices,
                                          std::vector<std::string> fallback) const;

  // WIDTHxHEIGHT, each within `range`.
  FrameSize size_or(std::string_view flag, FrameSize fallback, Range range) const;

  // Exactly one of the two flags must be present; returns whether it is `first`.
  bool one_of(std::string_view first, std::string_view second) const;
  // `dependent` makes sense only together with `required` (e.g. --every with --steps).
  void requires_flag(std::string_view dependent, std::string_view required) const;

  // Throws InputError with the command's "(see murmur <name> --help)" suffix.
  [[noreturn]] void fail(const std::string& what) const;

 private:
  explicit Args(const Command& command) : command_(&command) {}
  const Flag& declared(std::string_view flag) const;

  const Command* command_;
  bool help_requested_ = false;
  std::map<std::string, std::string, std::less<>> values_;  // switches hold ""
};

// The scenario named by --scenario (required), with --seed, when the command has it and it is
// given, replacing its [world] seed. Scenario errors propagate as the loader's InputError (file, line, key).
Scenario load_scenario_flag(const Args& args);
// The --seed flag, when given (any 64-bit unsigned value).
std::optional<std::uint64_t> seed_flag(const Args& args);

// Fails with OutputError naming `flag` and `path` unless the file's directory exists and is
// writable, so that a bad --out is reported before any simulation runs.
void check_output_file(const std::filesystem::path& path, std::string_view flag);
// Writes `text` through an AtomicFile (murmur/atomic_file.hpp): a failed or interrupted write
// never leaves a partial file under the final name. Throws OutputError.
void write_text_file_atomically(const std::filesystem::path& path, std::string_view text);

}  // namespace murmur::cli
