#pragma once
// What `murmur sweep` (cmd_sweep.cpp) and its jobs (cmd_sweep_job.cpp) share: the sweep its
// flags describe, and the jobs themselves, each this murmur binary run again in a process of
// its own (its own GL context, so that how many run at once changes no byte).
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "flags.hpp"
#include "murmur/scenario/scenario.hpp"
#include "murmur/study/sweep.hpp"

namespace murmur::cli {

// The sweep the flags describe: its scenario, its runs in order and their window.
using Sweep = study::SweepDefinition;

// Every refusal of the flags and the scenario (InputError naming the flag, the key and what
// it accepts) comes here, before any run.
study::SweepDefinition load_sweep(const FlagValues& options);

// How a job ended: its exit status, and the error it reported (its last line on stderr
// without its "murmur <command>: "), or why it has no status.
struct JobEnd {
  int status = 0;
  std::string error;
};

// Runs each job of `jobs` (the words after `murmur`) as this binary, at most `at_once` at a
// time, in their order. Each line a job writes on stdout reaches on_line as it comes; on_end
// follows its last line. `tick` is called a few times a second, for a progress line. A job
// dies with this process (PR_SET_PDEATHSIG), so that a killed sweep leaves no job running.
void run_jobs(const std::vector<std::vector<std::string>>& jobs, std::size_t at_once,
              const std::function<void(std::size_t job, std::string_view line)>& on_line,
              const std::function<void(std::size_t job, const JobEnd& end)>& on_end,
              const std::function<void()>& tick);

}  // namespace murmur::cli
