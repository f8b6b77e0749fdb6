#include "cli.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <system_error>

#include "commands.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/version.hpp"

namespace murmur::cli {
namespace {

constexpr const char* kProgramName = "murmur";
constexpr const char* kProgramSummary = "A GPU boids flock simulator.";
constexpr const char* kHelpFlag = "-h,--help";
constexpr const char* kHelpText = "print this help and exit";
constexpr const char* kVersionFlag = "--version";
// The headings of --help: a command's flags, and the program's commands.
constexpr const char* kFlagsGroup = "Flags";
constexpr const char* kCommandsGroup = "Commands";
constexpr const char* kExitStatusNote =
    "Exit status: 0 ok, 1 check failed, 2 bad input, 3 output error, 4 GPU error,\n"
    "5 internal error.";
// CLI11 records a switch given bare as this word; any other word came after an '='.
constexpr const char* kBareSwitch = "true";

std::string in_quotes(std::string_view text) { return "'" + std::string(text) + "'"; }

std::string range_text(Range range) {
  return "[" + std::to_string(range.min) + ", " + std::to_string(range.max) + "]";
}

std::string range_text(RealRange range) {
  char text[64];
  std::snprintf(text, sizeof text, "[%g, %g]", range.min, range.max);
  return text;
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

template <typename Words>
std::string join(const Words& words, std::string_view separator) {
  std::string out;
  for (const auto& word : words) {
    if (!out.empty()) out += separator;
    out += word;
  }
  return out;
}

// --- reading the parsed command line back from CLI11 ---------------------------------------

// A command's option groups (CLI11's nameless subcommands), e.g. "exactly one of".
std::vector<const CLI::App*> option_groups(const CLI::App& command) {
  return command.get_subcommands([](const CLI::App* sub) { return sub->get_name().empty(); });
}

bool exactly_one(const CLI::App& group) {
  return group.get_require_option_min() == 1 && group.get_require_option_max() == 1;
}

// The flags of `options`, without the help flag that CLI11 gives every command and group.
std::vector<const CLI::Option*> flags_of(const CLI::App& command) {
  return command.get_options(
      [&command](const CLI::Option* option) { return option != command.get_help_ptr(); });
}

// Every flag of `command`, its option groups' included, in declaration order.
std::vector<const CLI::Option*> all_flags_of(const CLI::App& command) {
  std::vector<const CLI::Option*> flags = flags_of(command);
  for (const CLI::App* group : option_groups(command)) {
    const std::vector<const CLI::Option*> more = flags_of(*group);
    flags.insert(flags.end(), more.begin(), more.end());
  }
  return flags;
}

std::vector<std::string> names_of(const std::vector<const CLI::Option*>& flags) {
  std::vector<std::string> names;
  for (const CLI::Option* flag : flags) names.push_back(flag->get_name());
  return names;
}

// "--steps N", or "--quiet" for a switch.
std::string flag_synopsis(const CLI::Option& flag) {
  return flag.get_type_name().empty() ? flag.get_name()
                                      : flag.get_name() + " " + flag.get_type_name();
}

// murmur's --help layout: usage line first, each flag with its value name, and each flag's
// default, requirement and companions generated from its declaration.
class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override {
    return make_usage(app, name) + "\n" + app->get_description() + "\n" +
           make_groups(app, mode) + make_subcommands(app, mode) + "\n" + make_footer(app);
  }

  // The program: its three forms. A command: its required flags, one of each exactly-one
  // group, and "[flags]" when it has optional ones.
  std::string make_usage(const CLI::App* app, std::string name) const override {
    if (!app->get_subcommands([](const CLI::App* sub) { return !sub->get_name().empty(); })
             .empty()) {
      const std::string indent = "       ";
      return "usage: " + name + " <command> [flags]\n" + indent + name + " <command> --help\n" +
             indent + name + " --help | " + kVersionFlag + "\n";
    }
    std::string usage = "usage: " + name;
    bool has_optional_flags = false;
    for (const CLI::Option* flag : flags_of(*app)) {
      if (flag->get_required()) {
        usage += " " + flag_synopsis(*flag);
      } else {
        has_optional_flags = true;
      }
    }
    for (const CLI::App* group : option_groups(*app)) {
      if (!exactly_one(*group)) {
        has_optional_flags = true;
        continue;
      }
      std::vector<std::string> choices;
      for (const CLI::Option* flag : flags_of(*group)) choices.push_back(flag_synopsis(*flag));
      usage += " (" + join(choices, " | ") + ")";
    }
    return usage + (has_optional_flags ? " [flags]\n" : "\n");
  }

  std::string make_option_opts(const CLI::Option* flag) const override {
    return flag->get_type_name().empty() ? "" : " " + flag->get_type_name();
  }

  std::string make_option_desc(const CLI::Option* flag) const override {
    std::vector<std::string> notes;
    if (flag->get_required()) {
      notes.push_back("required");
    } else if (!flag->get_default_str().empty()) {
      notes.push_back("default " + flag->get_default_str());
    }
    for (const CLI::Option* needed : flag->get_needs()) {
      notes.push_back("only with " + needed->get_name());
    }
    for (const CLI::Option* excluded : flag->get_excludes()) {
      notes.push_back("not with " + excluded->get_name());
    }
    const std::string description = flag->get_description();
    return notes.empty() ? description : description + " (" + join(notes, "; ") + ")";
  }

  // Only option groups are expanded (murmur has no --help-all): their flags under a heading.
  std::string make_expanded(const CLI::App* group) const override {
    std::string out =
        "\n" + group->get_group() + (exactly_one(*group) ? " (give exactly one)" : "") + ":\n";
    for (const CLI::Option* flag : flags_of(*group)) out += make_option(flag, false);
    return out;
  }
};

// A word CLI11 could not place: an unknown flag, or a stray argument (a command, at the top).
std::string stray_word_problem(const std::string& word, bool at_top) {
  if (word.starts_with("-") && word != "-") return "unknown flag " + word.substr(0, word.find('='));
  return at_top ? "unknown command " + word : "unexpected argument " + in_quotes(word);
}

// The one line for a command line CLI11 refused, read from the flags' counts and rules after
// the parse rather than from CLI11's message texts, so that it names the flag in murmur's words.
std::string usage_problem(const CLI::ParseError& error, const CLI::App& command,
                          const std::vector<std::string>& words) {
  const std::vector<const CLI::Option*> flags = all_flags_of(command);
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) != nullptr && !words.empty()) {
    // Every flag takes all its values (a repeat is caught by the flag itself) and switches
    // accept overrides, so CLI11 raises this only when the words ran out before a flag's
    // value: that flag is the last word.
    const std::string name = words.back().substr(0, words.back().find('='));
    if (const CLI::Option* flag = command.get_option_no_throw(name)) {
      return name + " needs a value " + flag->get_type_name();
    }
  }
  if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr) {
    for (const CLI::Option* flag : flags) {
      if (flag->get_required() && flag->count() == 0) {
        return "missing " + flag_synopsis(*flag) + ": " + flag->get_description();
      }
    }
    for (const CLI::App* group : option_groups(command)) {
      const std::vector<const CLI::Option*> members = flags_of(*group);
      const auto given = std::count_if(members.begin(), members.end(),
                                       [](const CLI::Option* flag) { return flag->count() > 0; });
      if (exactly_one(*group) && given != 1) {
        return "give exactly one of " + join(names_of(members), " and ");
      }
    }
  }
  for (const CLI::Option* flag : flags) {
    if (flag->count() == 0) continue;
    if (dynamic_cast<const CLI::ExcludesError*>(&error) != nullptr) {
      for (const CLI::Option* excluded : flag->get_excludes()) {
        if (excluded->count() > 0) {
          return flag->get_name() + " and " + excluded->get_name() +
                 " exclude each other: give one";
        }
      }
    }
    if (dynamic_cast<const CLI::RequiresError*>(&error) != nullptr) {
      for (const CLI::Option* needed : flag->get_needs()) {
        if (needed->count() == 0) {
          return flag->get_name() + " applies only with " + needed->get_name();
        }
      }
    }
  }
  return error.what();
}

}  // namespace

// --- declaring flags ---------------------------------------------------------------------------

CLI::Option* Flags::value(const std::string& name, const std::string& value_name,
                          const std::string& help, const std::string& default_text,
                          std::function<void(const std::string&)> accept) {
  CLI::Option* option = command_->add_option(
      name,
      [name, accept = std::move(accept)](const CLI::results_t& words) {
        if (words.size() > 1) throw InputError(name + " given twice");
        accept(words.front());
        return true;
      },
      help);
  // All occurrences reach the callback above, which refuses a repeat in murmur's words.
  option->type_name(value_name)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->default_str(default_text);
  return option;
}

CLI::Option* Flags::text(const std::string& name, const std::string& value_name,
                         std::string& target, const std::string& help) {
  return value(name, value_name, help, target, [name, &target](const std::string& word) {
    if (word.empty()) throw InputError(name + " must not be empty");
    target = word;
  });
}

CLI::Option* Flags::text(const std::string& name, const std::string& value_name,
                         std::optional<std::string>& target, const std::string& help) {
  return value(name, value_name, help, "", [name, &target](const std::string& word) {
    if (word.empty()) throw InputError(name + " must not be empty");
    target = word;
  });
}

CLI::Option* Flags::integer_value(const std::string& name, const std::string& value_name,
                                  Range range, const std::string& help,
                                  const std::string& default_text,
                                  std::function<void(std::uint64_t)> accept) {
  return value(name, value_name, help + ", in " + range_text(range), default_text,
               [name, range, accept = std::move(accept)](const std::string& word) {
                 const std::optional<std::uint64_t> number = parse_unsigned(word);
                 if (!number || *number < range.min || *number > range.max) {
                   throw InputError(name + " must be an integer in " + range_text(range) +
                                    ", got " + in_quotes(word));
                 }
                 accept(*number);
               });
}

CLI::Option* Flags::real(const std::string& name, const std::string& value_name,
                         std::optional<double>& target, RealRange range,
                         const std::string& help) {
  return value(name, value_name, help + ", in " + range_text(range), "",
               [name, range, &target](const std::string& word) {
                 const std::optional<double> number = parse_real(word);
                 if (!number || *number < range.min || *number > range.max) {
                   throw InputError(name + " must be a number in " + range_text(range) +
                                    ", got " + in_quotes(word));
                 }
                 target = number;
               });
}

CLI::Option* Flags::choice_value(const std::string& name, const std::string& value_name,
                                 const std::vector<std::string>& names,
                                 const std::string& default_name, const std::string& help,
                                 std::function<void(std::size_t)> accept) {
  return value(name, value_name, help + "; one of " + join(names, ", "), default_name,
               [name, names, accept = std::move(accept)](const std::string& word) {
                 const auto found = std::find(names.begin(), names.end(), word);
                 if (found == names.end()) {
                   throw InputError(name + " must be one of " + join(names, ", ") + ", got " +
                                    in_quotes(word));
                 }
                 accept(static_cast<std::size_t>(found - names.begin()));
               });
}

CLI::Option* Flags::integer_list(const std::string& name, const std::string& value_name,
                                 std::vector<std::uint64_t>& target, Range range,
                                 const std::string& help) {
  std::vector<std::string> defaults;
  for (std::uint64_t number : target) defaults.push_back(std::to_string(number));
  return value(name, value_name, help + ", each in " + range_text(range), join(defaults, ","),
               [name, range, &target](const std::string& word) {
                 std::vector<std::uint64_t> numbers;
                 for (std::string_view part : split(word, ',')) {
                   const std::optional<std::uint64_t> number = parse_unsigned(part);
                   if (!number || *number < range.min || *number > range.max) {
                     throw InputError(name + " must be a comma-separated list of integers in " +
                                      range_text(range) + ", got " + in_quotes(part) + " in " +
                                      in_quotes(word));
                   }
                   numbers.push_back(*number);
                 }
                 target = std::move(numbers);
               });
}

CLI::Option* Flags::choice_list(const std::string& name, const std::string& value_name,
                                std::vector<std::string>& target,
                                const std::vector<std::string>& choices,
                                const std::string& help) {
  return value(name, value_name, help + ", any of " + join(choices, ","), join(target, ","),
               [name, choices, &target](const std::string& word) {
                 std::vector<std::string> picked;
                 for (std::string_view part : split(word, ',')) {
                   if (std::find(choices.begin(), choices.end(), part) == choices.end()) {
                     throw InputError(name + " must be a comma-separated list of " +
                                      join(choices, ", ") + ", got " + in_quotes(part) + " in " +
                                      in_quotes(word));
                   }
                   if (std::find(picked.begin(), picked.end(), part) != picked.end()) {
                     throw InputError(name + " names " + in_quotes(part) + " twice");
                   }
                   picked.emplace_back(part);
                 }
                 target = std::move(picked);
               });
}

CLI::Option* Flags::size(const std::string& name, FrameSize& target, Range range,
                         const std::string& help) {
  const std::string default_text =
      std::to_string(target.width) + "x" + std::to_string(target.height);
  return size_value(name, range, help, default_text,
                    [&target](FrameSize size) { target = size; });
}

CLI::Option* Flags::size(const std::string& name, std::optional<FrameSize>& target, Range range,
                         const std::string& help) {
  return size_value(name, range, help, "", [&target](FrameSize size) { target = size; });
}

CLI::Option* Flags::size_value(const std::string& name, Range range, const std::string& help,
                               const std::string& default_text,
                               std::function<void(FrameSize)> accept) {
  return value(name, "WxH", help + ", each side in " + range_text(range), default_text,
               [name, range, accept](const std::string& word) {
                 const std::vector<std::string_view> parts = split(word, 'x');
                 std::optional<std::uint64_t> width, height;
                 if (parts.size() == 2) {
                   width = parse_unsigned(parts[0]);
                   height = parse_unsigned(parts[1]);
                 }
                 auto in_range = [range](std::optional<std::uint64_t> n) {
                   return n && *n >= range.min && *n <= range.max;
                 };
                 if (!in_range(width) || !in_range(height)) {
                   throw InputError(name + " must be WIDTHxHEIGHT with each in " +
                                    range_text(range) + ", got " + in_quotes(word));
                 }
                 accept({static_cast<int>(*width), static_cast<int>(*height)});
               });
}

CLI::Option* Flags::flag(const std::string& name, bool& target, const std::string& help) {
  CLI::Option* option = command_->add_option(
      name,
      [name, &target](const CLI::results_t& words) {
        if (words.size() > 1) throw InputError(name + " given twice");
        if (words.front() != kBareSwitch) throw InputError(name + " takes no value");
        target = true;
        return true;
      },
      help);
  option->expected(0)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  return option;
}

// --- the program ---------------------------------------------------------------------------------

CLI::App& add_command(CLI::App& program, const std::string& name, const std::string& summary) {
  CLI::App& command = *program.add_subcommand(name, summary);
  command.group(kCommandsGroup);
  // The subcommand copied the help flag before it copied the option defaults; declared again,
  // it is listed with the command's flags.
  command.set_help_flag(kHelpFlag, kHelpText);
  return command;
}

Program::Program() : app_(kProgramSummary, kProgramName) {
  app_.formatter(std::make_shared<HelpFormatter>());
  app_.option_defaults()->group(kFlagsGroup);
  app_.set_help_flag(kHelpFlag, kHelpText);
  app_.set_version_flag(kVersionFlag, std::string(kProgramName) + " " + kVersion,
                        "print the version and exit");
  app_.require_subcommand(1);
#define MURMUR_ADD_COMMAND(name) commands_.push_back(name##_command(app_));
  MURMUR_COMMANDS(MURMUR_ADD_COMMAND)
#undef MURMUR_ADD_COMMAND
  // After the commands, which would otherwise inherit it.
  app_.footer(kExitStatusNote);
}

const CLI::App& Program::selected() const {
  const std::vector<CLI::App*> commands = app_.get_subcommands();  // those the words named
  return commands.empty() ? app_ : *commands.front();
}

std::string Program::prefix() const {
  const CLI::App& command = selected();
  return &command == &app_ ? kProgramName : std::string(kProgramName) + " " + command.get_name();
}

std::string Program::help() const { return app_.help(); }

const Command* Program::parse(const std::vector<std::string>& words) {
  std::vector<std::string> last_first(words.rbegin(), words.rend());  // CLI11's order
  std::string problem;
  try {
    app_.parse(last_first);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app_.help().c_str(), stdout);
    return nullptr;
  } catch (const CLI::CallForVersion& version) {
    std::printf("%s\n", version.what());
    return nullptr;
  } catch (const CLI::ParseError& error) {
    problem = usage_problem(error, selected(), words);
  } catch (const InputError& error) {
    problem = error.what();  // a flag's value, refused by its declaration
  }

  const CLI::App& command = selected();
  if (problem.empty()) {
    for (const Command& candidate : commands_) {
      if (candidate.app == &command) return &candidate;
    }
    throw std::logic_error("the command line parsed without naming a command");
  }
  // --help wins over a refused value or a stray word on the same line.
  if (command.get_help_ptr()->count() > 0) {
    std::fputs(app_.help().c_str(), stdout);
    return nullptr;
  }
  // Words CLI11 could not place come first: a misspelt flag explains what follows from it.
  const std::vector<std::string> stray = command.remaining();
  if (!stray.empty()) problem = stray_word_problem(stray.front(), &command == &app_);
  throw InputError(problem + " (see " + prefix() + " --help)");
}

// --- shared by the commands -----------------------------------------------------------------

CLI::Option* seed_flag(Flags& flags, std::optional<std::uint64_t>& seed) {
  return flags.integer("--seed", "S", seed, {0, kMaxSeed}, "replaces the scenario's [world] seed");
}

CLI::Option* quiet_flag(Flags& flags, bool& quiet) {
  return flags.flag("--quiet", quiet, "no progress on stderr (errors still print)");
}

Progress command_progress(const std::string& command, const std::string& unit,
                          std::uint64_t total, bool quiet) {
  return Progress("murmur " + command, unit, total, progress_display_for(stderr, quiet));
}

CLI::Option* start_flags(Flags& flags, std::optional<std::string>& in,
                         std::optional<std::uint64_t>& seed) {
  CLI::Option* in_option =
      flags.text("--in", "FILE", in, "start from this state CSV instead of the seeded start");
  seed_flag(flags, seed)->excludes(in_option);
  return in_option;
}

CLI::Option* skip_flag(Flags& flags, std::uint32_t& skip) {
  return flags.integer("--skip", "S", skip, {0, UINT32_MAX},
                       "steps before the first frame, so flocks can form");
}

FlockState start_state(const Scenario& scenario, const std::optional<std::string>& in) {
  return in ? read_state_csv(*in, scenario) : seeded_start(scenario);
}

std::optional<FlockState> flock_start_state(const FlockScenario& scenario,
                                            const std::optional<std::string>& in) {
  return start_state(scenario, in);
}

std::optional<FlockState> flock_start_state(const PlanScenario& scenario,
                                            const std::optional<std::string>& in) {
  if (in) {
    throw InputError("--in " + *in + ": " + scenario.source +
                     " is a plan scenario, which starts from its [[plan.group]] tables");
  }
  return std::nullopt;
}

AnyScenario load_any_scenario_with_seed(const std::string& path,
                                        std::optional<std::uint64_t> seed) {
  AnyScenario scenario = load_any_scenario(path);
  if (seed) common_of(scenario).world.seed = *seed;
  return scenario;
}

FlockScenario load_scenario_with_seed(const std::string& path, std::optional<std::uint64_t> seed) {
  FlockScenario scenario = load_scenario(path);
  if (seed) scenario.world.seed = *seed;
  return scenario;
}

PlanScenario load_plan_scenario_with_seed(const std::string& path,
                                          std::optional<std::uint64_t> seed) {
  PlanScenario scenario = load_plan_scenario(path);
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

}  // namespace murmur::cli
