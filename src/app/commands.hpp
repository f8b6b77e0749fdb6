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

// `murmur step` on a plan scenario: the plan's state after `steps` steps is its paths, so it
// writes the CSV that `murmur plan --out FILE.csv` writes (cmd_plan.cpp), on the CPU reference
// or on the GPU.
int run_plan_steps_to_csv(const std::string& scenario, std::optional<std::uint64_t> seed,
                          std::uint32_t steps, bool on_gpu, const std::string& out, bool quiet);

}  // namespace murmur::cli
