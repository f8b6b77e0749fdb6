#include "cli.hpp"

#include <cstdio>
#include <memory>
#include <stdexcept>
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
    command.group(definition.hidden ? "" : kCommandsGroup);  // CLI11 lists no nameless group
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
    problem = usage_problem(error, selected());
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
  if (!stray.empty()) problem = stray_word_problem(stray.front(), command, &command == &app_);
  // A flag left without its value comes first of all: the words after it follow from it.
  if (const std::string missing = missing_value_problem(command, words); !missing.empty()) {
    problem = missing;
  }
  throw InputError(problem + " (see " + prefix() + " --help)");
}

}  // namespace murmur::cli
