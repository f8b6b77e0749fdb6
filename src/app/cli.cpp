#include "cli.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include "murmur/atomic_file.hpp"
#include "murmur/errors.hpp"

namespace murmur::cli {
namespace {

constexpr std::string_view kHelpFlag = "--help";
constexpr std::string_view kShortHelpFlag = "-h";
// Flag names are padded to this width in --help so the descriptions line up.
constexpr std::size_t kUsageFlagColumn = 28;

std::string in_quotes(std::string_view text) { return "'" + std::string(text) + "'"; }

std::string range_text(Range range) {
  return "[" + std::to_string(range.min) + ", " + std::to_string(range.max) + "]";
}

// A whole-string decimal parse: no sign, no spaces, no trailing characters.
std::optional<std::uint64_t> parse_unsigned(std::string_view text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc{} || stop != end) return std::nullopt;
  return value;
}

std::optional<double> parse_real(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc{} || stop != end || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::string range_text(RealRange range) {
  char text[64];
  std::snprintf(text, sizeof text, "[%g, %g]", range.min, range.max);
  return text;
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

std::string join(std::initializer_list<std::string_view> words, std::string_view separator) {
  std::string out;
  for (std::string_view word : words) {
    if (!out.empty()) out += separator;
    out += word;
  }
  return out;
}

}  // namespace

std::string usage(const Command& command) {
  std::string out = "usage: murmur " + std::string(command.name) + " " +
                    std::string(command.synopsis) + "\n\n" + std::string(command.summary) +
                    "\n\nFlags:\n";
  auto add_flag = [&out](std::string_view name, std::string_view value_name,
                         std::string_view help) {
    std::string left = "  " + std::string(name);
    if (!value_name.empty()) left += " " + std::string(value_name);
    left.resize(std::max(left.size() + 1, kUsageFlagColumn), ' ');
    out += left + std::string(help) + "\n";
  };
  for (const Flag& flag : command.flags) add_flag(flag.name, flag.value_name, flag.help);
  add_flag("-h, --help", "", "print this help and exit");
  if (!command.notes.empty()) out += "\n" + std::string(command.notes) + "\n";
  return out;
}

Args Args::parse(const Command& command, std::span<const std::string> args) {
  Args parsed(command);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word == kHelpFlag || word == kShortHelpFlag) {
      parsed.help_requested_ = true;
      return parsed;
    }
    if (!word.starts_with("-") || word == "-") parsed.fail("unexpected argument " + in_quotes(word));
    if (!word.starts_with("--")) parsed.fail("unknown flag " + word);

    const std::size_t equals = word.find('=');
    const std::string name = word.substr(0, equals);
    const auto flag = std::find_if(command.flags.begin(), command.flags.end(),
                                   [&name](const Flag& f) { return f.name == name; });
    if (flag == command.flags.end()) parsed.fail("unknown flag " + name);
    if (parsed.values_.contains(name)) parsed.fail(name + " given twice");

    std::string value;
    if (flag->value_name.empty()) {
      if (equals != std::string::npos) parsed.fail(name + " takes no value");
    } else if (equals != std::string::npos) {
      value = word.substr(equals + 1);
    } else if (i + 1 < args.size()) {
      // GNU style: the next word is the value even when it starts with '-', so that
      // `--steps -1` is reported as an out-of-range number rather than a missing value.
      value = args[++i];
    } else {
      parsed.fail(name + " needs a value " + std::string(flag->value_name));
    }
    parsed.values_.emplace(name, std::move(value));
  }
  return parsed;
}

const Flag& Args::declared(std::string_view flag) const {
  for (const Flag& f : command_->flags) {
    if (f.name == flag) return f;
  }
  throw std::logic_error("murmur " + std::string(command_->name) + " asked for undeclared flag " +
                         std::string(flag));
}

bool Args::declares(std::string_view flag) const {
  return std::any_of(command_->flags.begin(), command_->flags.end(),
                     [flag](const Flag& f) { return f.name == flag; });
}

bool Args::has(std::string_view flag) const {
  declared(flag);
  return values_.contains(flag);
}

std::optional<std::string> Args::text(std::string_view flag) const {
  declared(flag);
  const auto it = values_.find(flag);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::string Args::required_text(std::string_view flag) const {
  std::optional<std::string> value = text(flag);
  if (!value) fail("missing " + std::string(flag) + " " + std::string(declared(flag).value_name));
  if (value->empty()) fail(std::string(flag) + " must not be empty");
  return *value;
}

std::optional<std::uint64_t> Args::optional_unsigned(std::string_view flag, Range range) const {
  const std::optional<std::string> value = text(flag);
  if (!value) return std::nullopt;
  const std::optional<std::uint64_t> number = parse_unsigned(*value);
  if (!number || *number < range.min || *number > range.max) {
    fail(std::string(flag) + " must be an integer in " + range_text(range) + ", got " +
         in_quotes(*value));
  }
  return number;
}

std::uint64_t Args::required_unsigned(std::string_view flag, Range range) const {
  if (!has(flag)) {
    fail("missing " + std::string(flag) + " " + std::string(declared(flag).value_name) +
         " (an integer in " + range_text(range) + ")");
  }
  return *optional_unsigned(flag, range);
}

std::uint64_t Args::unsigned_or(std::string_view flag, std::uint64_t fallback,
                                Range range) const {
  return optional_unsigned(flag, range).value_or(fallback);
}

std::optional<double> Args::optional_real(std::string_view flag, RealRange range) const {
  const std::optional<std::string> value = text(flag);
  if (!value) return std::nullopt;
  const std::optional<double> number = parse_real(*value);
  if (!number || *number < range.min || *number > range.max) {
    fail(std::string(flag) + " must be a number in " + range_text(range) + ", got " +
         in_quotes(*value));
  }
  return number;
}

double Args::real_or(std::string_view flag, double fallback, RealRange range) const {
  return optional_real(flag, range).value_or(fallback);
}

std::vector<std::uint64_t> Args::unsigned_list_or(std::string_view flag,
                                                  std::vector<std::uint64_t> fallback,
                                                  Range range) const {
  const std::optional<std::string> value = text(flag);
  if (!value) return fallback;
  std::vector<std::uint64_t> numbers;
  for (std::string_view part : split(*value, ',')) {
    const std::optional<std::uint64_t> number = parse_unsigned(part);
    if (!number || *number < range.min || *number > range.max) {
      fail(std::string(flag) + " must be a comma-separated list of integers in " +
           range_text(range) + ", got " + in_quotes(part) + " in " + in_quotes(*value));
    }
    numbers.push_back(*number);
  }
  return numbers;
}

std::string Args::choice_or(std::string_view flag,
                            std::initializer_list<std::string_view> choices,
                            std::string_view fallback) const {
  const std::optional<std::string> value = text(flag);
  if (!value) return std::string(fallback);
  if (std::find(choices.begin(), choices.end(), *value) == choices.end()) {
    fail(std::string(flag) + " must be one of " + join(choices, ", ") + ", got " +
         in_quotes(*value));
  }
  return *value;
}

std::vector<std::string> Args::choice_list_or(std::string_view flag,
                                              std::initializer_list<std::string_view> choices,
                                              std::vector<std::string> fallback) const {
  const std::optional<std::string> value = text(flag);
  if (!value) return fallback;
  std::vector<std::string> picked;
  for (std::string_view part : split(*value, ',')) {
    if (std::find(choices.begin(), choices.end(), part) == choices.end()) {
      fail(std::string(flag) + " must be a comma-separated list of " + join(choices, ", ") +
           ", got " + in_quotes(part) + " in " + in_quotes(*value));
    }
    if (std::find(picked.begin(), picked.end(), part) != picked.end()) {
      fail(std::string(flag) + " names " + in_quotes(part) + " twice");
    }
    picked.emplace_back(part);
  }
  return picked;
}

FrameSize Args::size_or(std::string_view flag, FrameSize fallback, Range range) const {
  const std::optional<std::string> value = text(flag);
  if (!value) return fallback;
  const std::vector<std::string_view> parts = split(*value, 'x');
  std::optional<std::uint64_t> width, height;
  if (parts.size() == 2) {
    width = parse_unsigned(parts[0]);
    height = parse_unsigned(parts[1]);
  }
  auto in_range = [range](std::optional<std::uint64_t> n) {
    return n && *n >= range.min && *n <= range.max;
  };
  if (!in_range(width) || !in_range(height)) {
    fail(std::string(flag) + " must be WIDTHxHEIGHT with each in " + range_text(range) +
         ", got " + in_quotes(*value));
  }
  return {static_cast<int>(*width), static_cast<int>(*height)};
}

bool Args::one_of(std::string_view first, std::string_view second) const {
  const bool has_first = has(first);
  if (has_first == has(second)) {
    fail("give exactly one of " + std::string(first) + " and " + std::string(second));
  }
  return has_first;
}

void Args::requires_flag(std::string_view dependent, std::string_view required) const {
  if (has(dependent) && !has(required)) {
    fail(std::string(dependent) + " applies only with " + std::string(required));
  }
}

void Args::fail(const std::string& what) const {
  throw InputError(what + " (see murmur " + std::string(command_->name) + " --help)");
}

std::optional<std::uint64_t> seed_flag(const Args& args) {
  return args.optional_unsigned("--seed", {0, kMaxSeed});
}

Scenario load_scenario_flag(const Args& args) {
  // Flag errors come before file errors.
  const std::optional<std::uint64_t> seed =
      args.declares("--seed") ? seed_flag(args) : std::nullopt;
  Scenario scenario = load_scenario(args.required_text("--scenario"));
  if (seed) scenario.world.seed = *seed;
  return scenario;
}

void check_output_file(const std::filesystem::path& path, std::string_view flag) {
  namespace fs = std::filesystem;
  const fs::path directory = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code error;
  const std::string problem = [&]() -> std::string {
    if (fs::is_directory(path, error)) return "it is a directory";
    if (!fs::exists(directory, error)) return "directory " + directory.string() + " does not exist";
    if (!fs::is_directory(directory, error)) return directory.string() + " is not a directory";
    if (::access(directory.c_str(), W_OK | X_OK) != 0) {
      return "directory " + directory.string() + " is not writable (" + std::strerror(errno) + ")";
    }
    return {};
  }();
  if (!problem.empty()) {
    throw OutputError("cannot write " + std::string(flag) + " " + path.string() + ": " + problem);
  }
}

void write_text_file_atomically(const std::filesystem::path& path, std::string_view text) {
  write_file_atomically(path, text);
}

}  // namespace murmur::cli
