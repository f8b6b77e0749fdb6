// `murmur sweep_job`: a job of `murmur sweep` (cmd_sweep.cpp), which runs this binary again with
// the flags of its sweep and the runs the job makes. Each run's row goes to stdout as the line
// "<run>,<row>" when the run has finished; `murmur --help` does not list it.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "commands.hpp"
#include "sweep_jobs.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/gl/context.hpp"
#include "murmur/study/run.hpp"

namespace murmur::cli {
namespace {

int run_sweep_job(const FlagValues& options) {
  const Sweep sweep = load_sweep(options);
  // One context for every run of the job: making one costs more than a short run.
  std::unique_ptr<gl::Context> context;
  if (options.sweep_backend != FlockBackend::Cpu) context = gl::create_headless_context();
  std::optional<study::RunOutcome> previous;
  std::optional<std::size_t> previous_run;
  for (const std::uint64_t index : options.runs) {
    if (index >= sweep.runs.size()) {
      throw InputError("--runs: the sweep has " + std::to_string(sweep.runs.size()) +
                       " runs, no run " + std::to_string(index));
    }
    study::RunStart start;
    if (options.carry_state && previous) {
      start = {&previous->end, "--carry-state: the flock run " + std::to_string(*previous_run) +
                                   " ended with, as a state file",
               previous->dimensions};
    }
    previous = study::run_sweep_point(sweep.scenario, sweep.runs[index], sweep.window,
                                      options.sweep_backend, start, context.get());
    previous_run = index;
    const std::string line = std::to_string(index) + "," + study::csv_line(previous->row) + "\n";
    if (std::fputs(line.c_str(), stdout) < 0 || std::fflush(stdout) != 0) {
      throw OutputError("stdout: cannot write the row of run " + std::to_string(index));
    }
  }
  return kExitOk;
}

}  // namespace

CommandDefinition sweep_job_command() {
  return {"a job of murmur sweep: makes the runs --runs names and writes their rows",
      "Runs by murmur sweep, with its sweep's flags: each run of --runs in turn (with\n"
      "--carry-state each from the flock the one before it ended with), its row written to\n"
      "stdout as \"<run>,<row>\" when it has finished.",
      run_sweep_job, true};
}

}  // namespace murmur::cli
