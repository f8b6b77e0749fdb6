#pragma once
// The subcommand table. Each subcommand NAME lives in cmd_NAME.cpp, which defines
// `murmur::cli::CommandDefinition NAME_command()`: what the command says and what runs it; the
// flags it takes are rows of flags.def. Registering one is one line in MURMUR_COMMANDS below
// (the order is the order `murmur --help` lists them).
#include <functional>

#include "cli.hpp"
#include "command_support.hpp"

#define MURMUR_COMMANDS(X) \
  X(step)                  \
  X(stats)                 \
  X(record)                \
  X(compare)               \
  X(bench)                 \
  X(soak)                  \
  X(view)                  \
  X(plan)                  \
  X(sweep)                 \
  X(sweep_job)

namespace murmur::cli {

// A command besides its flags: its line in `murmur --help`, the text after its flags in its own
// --help, and what runs it with the values of its flags.
struct CommandDefinition {
  std::string summary;
  std::string footer;
  std::function<int(const FlagValues&)> run;  // returns the exit status
  // Left out of `murmur --help`: a command murmur runs itself (sweep_job, a sweep's job).
  bool hidden = false;
};

#define MURMUR_DECLARE_COMMAND(name) CommandDefinition name##_command();
MURMUR_COMMANDS(MURMUR_DECLARE_COMMAND)
#undef MURMUR_DECLARE_COMMAND

// `murmur step` on a plan scenario: the plan's state after `steps` steps is its paths, so it
// writes the CSV that `murmur plan --out FILE.csv` writes (cmd_plan.cpp), on the CPU reference
// or on the GPU.
int run_plan_steps_to_csv(const std::string& scenario, std::optional<std::uint64_t> seed,
                          std::uint32_t steps, bool on_gpu, const std::string& out, bool quiet);

}  // namespace murmur::cli
