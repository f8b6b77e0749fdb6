// murmur: dispatches `murmur <command> [flags]` to the subcommand table (commands.hpp) and
// maps each kind of error to its exit status (README.md, "Exit status").
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "murmur/errors.hpp"
#include "murmur/gl/window.hpp"
#include "murmur/version.hpp"

namespace {

using murmur::cli::Command;

const std::vector<const Command*>& command_table() {
#define MURMUR_COMMAND_ENTRY(name) &murmur::cli::name##_command(),
  static const std::vector<const Command*> table = {MURMUR_COMMANDS(MURMUR_COMMAND_ENTRY)};
#undef MURMUR_COMMAND_ENTRY
  return table;
}

std::string program_usage() {
  std::string out =
      "usage: murmur <command> [flags]\n"
      "       murmur <command> --help\n"
      "       murmur --help | --version\n\n"
      "A GPU boids flock simulator.\n\nCommands:\n";
  constexpr std::size_t kNameColumn = 10;
  for (const Command* command : command_table()) {
    std::string name(command->name);
    name.resize(std::max(name.size() + 1, kNameColumn), ' ');
    out += "  " + name + std::string(command->summary) + "\n";
  }
  out += "\nExit status: 0 ok, 1 check failed, 2 bad input, 3 output error, 4 GPU error,\n"
         "5 internal error.\n";
  return out;
}

const Command* find_command(std::string_view name) {
  for (const Command* command : command_table()) {
    if (command->name == name) return command;
  }
  return nullptr;
}

// "murmur step: " for a known command, "murmur: " before one is known.
void report(const std::string& prefix, const char* message) {
  std::fprintf(stderr, "%s: %s\n", prefix.c_str(), message);
}

int run_command(const Command& command, const std::vector<std::string>& words) {
  const std::string prefix = "murmur " + std::string(command.name);
  try {
    const murmur::cli::Args args = murmur::cli::Args::parse(command, words);
    if (args.help_requested()) {
      std::fputs(murmur::cli::usage(command).c_str(), stdout);
      return murmur::kExitOk;
    }
    return command.run(args);
  } catch (const murmur::InputError& error) {
    report(prefix, error.what());
    return murmur::kExitBadInput;
  } catch (const murmur::OutputError& error) {
    report(prefix, error.what());
    return murmur::kExitOutputError;
  } catch (const murmur::GpuError& error) {
    report(prefix, error.what());
    return murmur::kExitGpuError;
  } catch (const std::exception& error) {
    report(prefix, ("internal error: " + std::string(error.what())).c_str());
    return murmur::kExitInternalError;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> words(argv + 1, argv + argc);
  if (words.empty()) {
    // At a desktop, `murmur` alone opens the viewer. Without a display, scripts that forget
    // the command should fail loudly, not succeed doing nothing.
    if (murmur::gl::display_available()) return run_command(murmur::cli::view_command(), {});
    std::fputs(program_usage().c_str(), stderr);
    return murmur::kExitBadInput;
  }
  const std::string& first = words.front();
  if (first == "--help" || first == "-h") {
    std::fputs(program_usage().c_str(), stdout);
    return murmur::kExitOk;
  }
  if (first == "--version") {
    std::printf("murmur %s\n", murmur::kVersion);
    return murmur::kExitOk;
  }
  const Command* command = find_command(first);
  if (command == nullptr) {
    const bool looks_like_flag = first.starts_with("-");
    report("murmur", ((looks_like_flag ? "unknown flag " : "unknown command ") + first +
                      " (see murmur --help)")
                         .c_str());
    return murmur::kExitBadInput;
  }
  return run_command(*command, {words.begin() + 1, words.end()});
}
