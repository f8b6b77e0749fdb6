#include "cli.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "commands.hpp"
#include "usage.hpp"
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

}  // namespace

Program::Program() : app_(kProgramSummary, kProgramName) {
  app_.formatter(help_formatter());
  app_.option_defaults()->group(kFlagsGroup);
  app_.set_help_flag(kHelpFlag, kHelpText);
  app_.set_version_flag(kVersionFlag, std::string(kProgramName) + " " + kVersion,
                        "print the version and exit");
  app_.require_subcommand(1);
  check_flag_table({
#define MURMUR_COMMAND_NAME(name) #name,
      MURMUR_COMMANDS(MURMUR_COMMAND_NAME)
#undef MURMUR_COMMAND_NAME
  });
  auto add = [this](const std::string& name, CommandDefinition definition) {
    CLI::App& command = *app_.add_subcommand(name, definition.summary);
    command.group(kCommandsGroup);
    // The subcommand copied the help flag before it copied the option defaults; declared
    // again, it is listed with the command's flags.
    command.set_help_flag(kHelpFlag, kHelpText);
    add_flags(command, flags_);
    command.footer(definition.footer);
    commands_.push_back(
        {&command, [this, run = std::move(definition.run)] { return run(flags_); }});
  };
#define MURMUR_ADD_COMMAND(name) add(#name, name##_command());
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

Progress command_progress(const std::string& command, const std::string& unit,
                          std::uint64_t total, bool quiet) {
  return Progress("murmur " + command, unit, total, progress_display_for(stderr, quiet));
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
