#pragma once
// The murmur command line, on CLI11. Program turns the words after `murmur` into the command
// to run, with the values of its flags (flags.def, flags.hpp); main() prefixes a usage error
// with "murmur <command>: " and exits 2. What several commands share besides their flags is
// command_support.hpp.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "flags.hpp"

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

}  // namespace murmur::cli
