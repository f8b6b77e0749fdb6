#pragma once
// The subcommand table. Each subcommand NAME lives in cmd_NAME.cpp, which defines
// `murmur::cli::Command NAME_command(CLI::App& program)`: it adds the subcommand with its flags
// (add_command, Flags) and returns what runs it. Registering one is one line in MURMUR_COMMANDS
// below (the order is the order `murmur --help` lists them).
#include "cli.hpp"

#define MURMUR_COMMANDS(X) \
  X(step)                  \
  X(stats)                 \
  X(record)                \
  X(compare)               \
  X(bench)                 \
  X(soak)                  \
  X(view)                  \
  X(plan)

namespace murmur::cli {

#define MURMUR_DECLARE_COMMAND(name) Command name##_command(CLI::App& program);
MURMUR_COMMANDS(MURMUR_DECLARE_COMMAND)
#undef MURMUR_DECLARE_COMMAND

}  // namespace murmur::cli
