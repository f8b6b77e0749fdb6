// The code the flag table (flags.def) drives.
//
// Sections:
//   words         whole-word parses of numbers and lists
//   kinds         what a flag accepts (its `accepts` column): each kind's parse, with the one
//                 line that refuses a word, its default as --help shows it, and its note
//   declaration   one row as a CLI11 option whose callback parses into FlagValues
//   the table     a command's rows and their rules, FlagValues' defaults, the values as a
//                 command line's words again, the table's check
#include "flags.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <system_error>
#include <type_traits>
#include <utility>

#include <CLI/CLI.hpp>

#include "cmd_bench_plan.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/flock/gpu/harness.hpp"
#include "murmur/plan/gpu/plan_harness.hpp"
#include "murmur/render/recording.hpp"
#include "murmur/scenario/scenario.hpp"
#include "murmur/study/sweep.hpp"
#include "viewer/viewer.hpp"

namespace murmur::cli {
namespace {

// --- words ---------------------------------------------------------------------------------------

std::string number_text(double number) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", number);
  return text;
}

std::string range_text(Range range) {
  return "[" + std::to_string(range.min) + ", " + std::to_string(range.max) + "]";
}

std::string range_text(RealRange range) {
  return "[" + number_text(range.min) + ", " + number_text(range.max) + "]";
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

// The space-separated words of a column of flags.def.
std::vector<std::string_view> words_of(std::string_view column) {
  std::vector<std::string_view> words = split(column, ' ');
  std::erase(words, std::string_view());
  return words;
}

// --- kinds: what a flag accepts ------------------------------------------------------------------
// Each kind has parse(kind, flag, word), which returns the value or throws InputError naming
// the flag, format(kind, value), its default as --help shows it, and note(kind), which --help
// adds to the flag's line.

// A path or a name.
struct NonEmpty {};
std::string parse(NonEmpty, const std::string& flag, const std::string& word) {
  if (word.empty()) throw InputError(flag + " must not be empty");
  return word;
}
std::string format(NonEmpty, const std::string& value) { return value; }
std::string note(NonEmpty) { return ""; }

// A file name with one of these extensions, in any case.
struct Extensions {
  std::vector<std::string> extensions;
};
std::string parse(const Extensions& kind, const std::string& flag, const std::string& word) {
  std::string extension = std::filesystem::path(word).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (std::find(kind.extensions.begin(), kind.extensions.end(), extension) ==
      kind.extensions.end()) {
    throw InputError(flag + " must end in " + join(kind.extensions, " or ") + ", got " +
                     in_quotes(word));
  }
  return word;
}
std::string format(const Extensions&, const std::string& value) { return value; }
std::string note(const Extensions&) { return ""; }

// A decimal integer within the range, no sign.
std::uint64_t parse(Range range, const std::string& flag, const std::string& word) {
  const std::optional<std::uint64_t> number = parse_unsigned(word);
  if (!number || *number < range.min || *number > range.max) {
    throw InputError(flag + " must be an integer in " + range_text(range) + ", got " +
                     in_quotes(word));
  }
  return *number;
}
std::string format(Range, std::uint64_t value) { return std::to_string(value); }
std::string note(Range range) { return ", in " + range_text(range); }

// A finite decimal number within the range (inclusive).
double parse(RealRange range, const std::string& flag, const std::string& word) {
  const std::optional<double> number = parse_real(word);
  if (!number || *number < range.min || *number > range.max) {
    throw InputError(flag + " must be a number in " + range_text(range) + ", got " +
                     in_quotes(word));
  }
  return *number;
}
std::string format(RealRange, double value) { return number_text(value); }
std::string note(RealRange range) { return ", in " + range_text(range); }

// One of the named values.
template <typename T>
struct Choices : std::vector<std::pair<std::string, T>> {
  using std::vector<std::pair<std::string, T>>::vector;
  std::vector<std::string> names() const {
    std::vector<std::string> names;
    for (const auto& choice : *this) names.push_back(choice.first);
    return names;
  }
};
template <typename T>
T parse(const Choices<T>& choices, const std::string& flag, const std::string& word) {
  for (const auto& [name, value] : choices) {
    if (name == word) return value;
  }
  throw InputError(flag + " must be one of " + join(choices.names(), ", ") + ", got " +
                   in_quotes(word));
}
template <typename T>
std::string format(const Choices<T>& choices, const T& value) {
  for (const auto& [name, choice] : choices) {
    if (choice == value) return name;
  }
  return "";
}
template <typename T>
std::string note(const Choices<T>& choices) {
  return "; one of " + join(choices.names(), ", ");
}

// A comma-separated list of integers, each within the range.
struct IntegerList {
  Range each;
};
std::vector<std::uint64_t> parse(const IntegerList& kind, const std::string& flag,
                                 const std::string& word) {
  std::vector<std::uint64_t> numbers;
  for (std::string_view part : split(word, ',')) {
    const std::optional<std::uint64_t> number = parse_unsigned(part);
    if (!number || *number < kind.each.min || *number > kind.each.max) {
      throw InputError(flag + " must be a comma-separated list of integers in " +
                       range_text(kind.each) + ", got " + in_quotes(part) + " in " +
                       in_quotes(word));
    }
    numbers.push_back(*number);
  }
  return numbers;
}
std::string format(const IntegerList&, const std::vector<std::uint64_t>& numbers) {
  std::vector<std::string> words;
  for (std::uint64_t number : numbers) words.push_back(std::to_string(number));
  return join(words, ",");
}
std::string note(const IntegerList& kind) { return ", each in " + range_text(kind.each); }

// A comma-separated, duplicate-free subset of the names.
struct NameList {
  std::vector<std::string> names;
};
std::vector<std::string> parse(const NameList& kind, const std::string& flag,
                               const std::string& word) {
  std::vector<std::string> picked;
  for (std::string_view part : split(word, ',')) {
    if (std::find(kind.names.begin(), kind.names.end(), part) == kind.names.end()) {
      throw InputError(flag + " must be a comma-separated list of " + join(kind.names, ", ") +
                       ", got " + in_quotes(part) + " in " + in_quotes(word));
    }
    if (std::find(picked.begin(), picked.end(), part) != picked.end()) {
      throw InputError(flag + " names " + in_quotes(part) + " twice");
    }
    picked.emplace_back(part);
  }
  return picked;
}
std::string format(const NameList&, const std::vector<std::string>& names) {
  return join(names, ",");
}
std::string note(const NameList& kind) { return ", any of " + join(kind.names, ","); }

// WIDTHxHEIGHT, each side within the range.
struct Sides {
  Range each;
};
FrameSize parse(const Sides& kind, const std::string& flag, const std::string& word) {
  const std::vector<std::string_view> parts = split(word, 'x');
  std::optional<std::uint64_t> width, height;
  if (parts.size() == 2) {
    width = parse_unsigned(parts[0]);
    height = parse_unsigned(parts[1]);
  }
  auto in_range = [&kind](std::optional<std::uint64_t> n) {
    return n && *n >= kind.each.min && *n <= kind.each.max;
  };
  if (!in_range(width) || !in_range(height)) {
    throw InputError(flag + " must be WIDTHxHEIGHT with each in " + range_text(kind.each) +
                     ", got " + in_quotes(word));
  }
  return {static_cast<int>(*width), static_cast<int>(*height)};
}
std::string format(const Sides&, FrameSize size) {
  return std::to_string(size.width) + "x" + std::to_string(size.height);
}
std::string note(const Sides& kind) { return ", each side in " + range_text(kind.each); }

// KEY=FROM:TO:COUNT or KEY=V1,V2,...: a key of the scenario and its values
// (study::parse_vary, which says what it refuses).
struct VarySpec {};
study::VaryAxis parse(VarySpec, const std::string&, const std::string& word) {
  return study::parse_vary(word);
}
std::string format(VarySpec, const study::VaryAxis& axis) { return axis.given; }
std::string note(VarySpec) { return ""; }

// The same form, for a key in step with the last --vary (study::parse_vary_with).
struct VaryWithSpec {};
study::VaryAxis parse(VaryWithSpec, const std::string&, const std::string& word) {
  return study::parse_vary_with(word);
}
std::string format(VaryWithSpec, const study::VaryAxis& axis) { return axis.given; }
std::string note(VaryWithSpec) { return ""; }

// A count of seeds, or a list of them (study::parse_seeds).
struct SeedSpec {};
study::SeedChoice parse(SeedSpec, const std::string&, const std::string& word) {
  return study::parse_seeds(word);
}
std::string format(SeedSpec, const study::SeedChoice& seeds) { return study::seeds_text(seeds); }
std::string note(SeedSpec) { return ""; }

// A flag that may be given several times, each time a value of the kind `each`; its values
// are kept in the order given.
template <typename Kind>
struct Repeatable {
  Kind each;
};

// Present or not: no value.
struct Switch {};

// --- declaration ---------------------------------------------------------------------------------

// CLI11 records a switch given bare as this word; any other word came after an '='.
constexpr const char* kBareSwitch = "true";

struct FlagText {
  std::string name;
  std::string value_name;
  std::string help;
};

template <typename T>
struct OptionalOf {
  using type = void;
};
template <typename T>
struct OptionalOf<std::optional<T>> {
  using type = T;
};

// Declares a flag that takes a value of `kind` into `target`, which holds its default. A
// `target` of std::optional<V> where the kind reads a V stays empty unless the flag is given.
// Every occurrence reaches the callback, which refuses a repeat in murmur's words.
template <typename T, typename Kind>
CLI::Option* declare(CLI::App& where, const FlagText& flag, T& target, const Kind& kind,
                     std::vector<std::string>& given) {
  using Value = decltype(parse(kind, flag.name, flag.name));
  constexpr bool kValueOrNothing = !std::is_same_v<T, Value> &&
                                   !std::is_void_v<typename OptionalOf<T>::type>;
  using Stored = std::conditional_t<kValueOrNothing, typename OptionalOf<T>::type, T>;
  if constexpr (std::is_same_v<Kind, Range>) {
    if (kind.max > std::numeric_limits<Stored>::max()) {
      throw std::logic_error(flag.name + ": its range exceeds its type");
    }
  }
  std::string default_text;
  if constexpr (kValueOrNothing) {
    if (target) default_text = format(kind, static_cast<Value>(*target));
  } else {
    default_text = format(kind, static_cast<Value>(target));
  }
  const std::string name = flag.name;
  CLI::Option* option = where.add_option(
      name,
      [name, kind, &target, &given](const CLI::results_t& words) {
        if (words.size() > 1) throw InputError(name + " given twice");
        target = static_cast<Stored>(parse(kind, name, words.front()));
        given.push_back(name);
        return true;
      },
      flag.help + note(kind));
  option->type_name(flag.value_name)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->default_str(default_text);
  return option;
}

template <typename T, typename Kind>
CLI::Option* declare(CLI::App& where, const FlagText& flag, std::vector<T>& target,
                     const Repeatable<Kind>& kind, std::vector<std::string>& given) {
  const std::string name = flag.name;
  CLI::Option* option = where.add_option(
      name,
      [name, kind, &target, &given](const CLI::results_t& words) {
        target.clear();
        for (const std::string& word : words) target.push_back(parse(kind.each, name, word));
        given.push_back(name);
        return true;
      },
      flag.help + note(kind.each) + "; give it again for another");
  option->type_name(flag.value_name)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  return option;
}

CLI::Option* declare(CLI::App& where, const FlagText& flag, bool& target, Switch,
                     std::vector<std::string>& given) {
  const std::string name = flag.name;
  CLI::Option* option = where.add_option(
      name,
      [name, &target, &given](const CLI::results_t& words) {
        if (words.size() > 1) throw InputError(name + " given twice");
        if (words.front() != kBareSwitch) throw InputError(name + " takes no value");
        target = true;
        given.push_back(name);
        return true;
      },
      flag.help);
  option->expected(0)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  return option;
}

// --- the table -----------------------------------------------------------------------------------

// A video's frames per second (record --fps, view --record-fps): anything a player accepts;
// 1 fps suits a slide show of a slow flock.
constexpr Range kVideoFpsRange{1, 1000};
// A frame or a window: GL 4.5 guarantees textures at least this large on every implementation.
constexpr Range kTextureSideRange{1, 16384};
// Every backend `murmur bench` times, and its default: all of them.
const std::vector<std::string> kBenchBackends = {"grid", "naive", "cpu"};

bool takes(std::string_view commands, std::string_view command) {
  const std::vector<std::string_view> names = words_of(commands);
  return std::find(names.begin(), names.end(), command) != names.end();
}

// `option`'s rules with the flags of its command named in `only_with` and `not_with`.
void add_rules(const std::map<std::string, CLI::Option*>& declared, CLI::Option* option,
               std::string_view only_with, std::string_view not_with) {
  for (std::string_view id : words_of(only_with)) {
    if (const auto found = declared.find(std::string(id)); found != declared.end()) {
      option->needs(found->second);
    }
  }
  for (std::string_view id : words_of(not_with)) {
    if (const auto found = declared.find(std::string(id)); found != declared.end()) {
      option->excludes(found->second);
    }
  }
}

}  // namespace

FlagValues::FlagValues() {
  const RecordRequest kRecordDefaults;
  const viewer::ViewerOptions kViewerDefaults;
  const CompareOptions kCompareDefaults;
#define MURMUR_FLAG(id, name, value_name, type, accepts, default_value, ...) id = default_value;
#include "flags.def"
}

bool FlagValues::given(std::string_view name) const {
  return std::find(given_names.begin(), given_names.end(), name) != given_names.end();
}

void add_flags(CLI::App& command, FlagValues& values) {
  const std::string& command_name = command.get_name();
  std::map<std::string, CLI::Option*> declared;  // by id
  std::map<std::string, CLI::App*> groups;        // by name, made when first used
  auto place = [&command, &groups](Need need) -> CLI::App& {
    if (need.exactly_one_of == nullptr) return command;
    CLI::App*& group = groups[need.exactly_one_of];
    if (group == nullptr) {
      group = command.add_option_group(need.exactly_one_of);
      group->require_option(1);
    }
    return *group;
  };
#define MURMUR_FLAG(id, name, value_name, type, accepts, default_value, help, commands, need, \
                    only_with, not_with)                                                     \
  if (takes(commands, command_name)) {                                                       \
    CLI::Option* option = declare(place(need), {name, value_name, help}, values.id, accepts,  \
                                  values.given_names);                                       \
    if ((need).required) option->required();                                                \
    declared[#id] = option;                                                                  \
  }
#include "flags.def"
  // The rules, once both flags of each are declared.
#define MURMUR_FLAG(id, name, value_name, type, accepts, default_value, help, commands, need, \
                    only_with, not_with)                                                     \
  if (declared.count(#id) > 0) add_rules(declared, declared[#id], only_with, not_with);
#include "flags.def"
}

namespace {

// The words that give `value`, a flag's value of `kind`, to a command line: its name and its
// value as --help shows a default; nothing for a flag without a value (an optional one unset,
// an empty text or list).
template <typename T, typename Kind>
void append_words(std::vector<std::vector<std::string>>& flags, const std::string& name,
                  const T& value, const Kind& kind) {
  if constexpr (!std::is_void_v<typename OptionalOf<T>::type>) {
    if (value) append_words(flags, name, *value, kind);
  } else {
    std::string text = format(kind, static_cast<decltype(parse(kind, name, name))>(value));
    if (!text.empty()) flags.push_back({name, std::move(text)});
  }
}
template <typename T, typename Kind>
void append_words(std::vector<std::vector<std::string>>& flags, const std::string& name,
                  const std::vector<T>& values, const Repeatable<Kind>& kind) {
  for (const T& value : values) append_words(flags, name, value, kind.each);
}
void append_words(std::vector<std::vector<std::string>>& flags, const std::string& name,
                  bool value, Switch) {
  if (value) flags.push_back({name});
}

}  // namespace

std::vector<std::vector<std::string>> flag_words(const FlagValues& values,
                                                 std::string_view command) {
  std::vector<std::vector<std::string>> flags;
#define MURMUR_FLAG(id, name, value_name, type, accepts, default_value, help, commands, need, \
                    only_with, not_with)                                                     \
  if (takes(commands, command)) append_words(flags, name, values.id, accepts);
#include "flags.def"
  return flags;
}

void check_flag_table(const std::vector<std::string>& commands) {
  struct Row {
    std::string id, name, commands, only_with, not_with;
  };
  const std::vector<Row> rows = {
#define MURMUR_FLAG(id, name, value_name, type, accepts, default_value, help, commands, need, \
                    only_with, not_with)                                                     \
  {#id, name, commands, only_with, not_with},
#include "flags.def"
  };
  std::set<std::string_view> ids;
  for (const Row& row : rows) ids.insert(row.id);
  std::set<std::pair<std::string_view, std::string_view>> names_in_commands;
  for (const Row& row : rows) {
    for (std::string_view command : words_of(row.commands)) {
      if (std::find(commands.begin(), commands.end(), command) == commands.end()) {
        throw std::logic_error("flags.def: " + row.id + " names no command " +
                               std::string(command));
      }
      if (!names_in_commands.emplace(command, row.name).second) {
        throw std::logic_error("flags.def: " + std::string(command) + " takes " + row.name +
                               " twice");
      }
    }
    const std::string rules = row.only_with + " " + row.not_with;
    for (std::string_view other : words_of(rules)) {
      if (ids.count(other) == 0) {
        throw std::logic_error("flags.def: " + row.id + " names no flag " + std::string(other));
      }
    }
  }
}

}  // namespace murmur::cli
