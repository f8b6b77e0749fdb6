// `murmur sweep`: a parameter study (docs/sweep.md). Runs a scenario over every combination of
// the values of its --vary flags, once per seed, the runs made by jobs (`murmur sweep_job`,
// cmd_sweep_job.cpp), each a process of its own, and writes one CSV row per run in run order.
// Each finished run is kept in the journal OUT.partial as it finishes; OUT is written whole once
// every run has.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "commands.hpp"
#include "sweep_jobs.hpp"
#include "murmur/base/atomic_file.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/base/input_file.hpp"
#include "murmur/study/journal.hpp"
#include "murmur/study/sweep.hpp"

namespace murmur::cli {
namespace {

constexpr const char* kCommand = "sweep";
constexpr const char* kJobCommand = "sweep_job";
constexpr const char* kPrefix = "murmur sweep";

// FNV-1a's 64-bit offset basis and prime.
constexpr std::uint64_t kFnvOffset = 14695981039346656037ull;
constexpr std::uint64_t kFnvPrime = 1099511628211ull;

// The scenario file's bytes in one number, so that a resume notices an edited scenario.
std::string fingerprint(const std::string& path) {
  std::uint64_t hash = kFnvOffset;
  for (const unsigned char byte : read_input_file(path, "scenario file")) hash = (hash ^ byte) * kFnvPrime;
  char text[32];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

// What the journal begins with: the flags that shape the rows (those a job takes) and the
// scenario's bytes, then the CSV's header.
study::JournalHead journal_head(const FlagValues& options, const Sweep& sweep) {
  study::JournalHead head;
  for (const std::vector<std::string>& flag : flag_words(options, kJobCommand)) {
    head.definition.push_back(join(flag, " "));
  }
  head.definition.push_back("scenario file FNV-1a 64 " + fingerprint(options.scenario));
  head.header = study::csv_line(study::sweep_header(sweep.scenario, sweep.axes));
  return head;
}

// The jobs' runs: each run alone, or with --carry-state each seed's runs in order, the flock
// handed from one to the next. A job whose runs are all in the journal is left out; a seed's
// runs go again whole when any is missing, the finished ones only to carry their flocks.
std::vector<std::vector<std::size_t>> job_runs(const Sweep& sweep, bool carry_state,
                                               const std::map<std::size_t, std::string>& done) {
  std::vector<std::vector<std::size_t>> jobs;
  if (!carry_state) {
    for (const study::SweepRun& run : sweep.runs) {
      if (done.count(run.index) == 0) jobs.push_back({run.index});
    }
    return jobs;
  }
  std::map<std::uint64_t, std::size_t> job_of_seed;
  for (const study::SweepRun& run : sweep.runs) {
    const auto [at, added] = job_of_seed.emplace(run.seed, jobs.size());
    if (added) jobs.emplace_back();
    jobs[at->second].push_back(run.index);
  }
  std::erase_if(jobs, [&](const std::vector<std::size_t>& runs) {
    return std::all_of(runs.begin(), runs.end(), [&](std::size_t run) { return done.count(run); });
  });
  return jobs;
}

std::vector<std::string> job_words(FlagValues options, const std::vector<std::size_t>& runs) {
  options.runs.assign(runs.begin(), runs.end());
  std::vector<std::string> words{kJobCommand};
  for (const std::vector<std::string>& flag : flag_words(options, kJobCommand)) {
    words.insert(words.end(), flag.begin(), flag.end());
  }
  return words;
}

// A job's line: "<run>,<row>".
std::pair<std::size_t, std::string> parse_job_line(std::string_view line) {
  const std::size_t comma = line.find(',');
  std::size_t run = 0;
  const auto [stop, error] = std::from_chars(line.data(), line.data() + line.size(), run);
  if (comma == std::string_view::npos || error != std::errc{} || stop != line.data() + comma) {
    throw std::logic_error("a sweep job wrote '" + std::string(line) + "', not a run's row");
  }
  return {run, std::string(line.substr(comma + 1))};
}

int run_sweep(const FlagValues& options) {
  const Sweep sweep = load_sweep(options);
  check_output_file(options.sweep_out, "--out");
  const std::filesystem::path journal_path = study::journal_path(options.sweep_out);
  const study::JournalHead head = journal_head(options, sweep);

  std::error_code error;
  const bool journal_exists = std::filesystem::exists(journal_path, error);
  std::map<std::size_t, std::string> rows;
  std::optional<study::JournalFile> journal;
  if (options.resume) {
    if (!journal_exists) {
      throw InputError("--resume: there is no " + journal_path.string() + " to complete");
    }
    study::JournalRows kept =
        study::read_journal(read_input_file(journal_path, "sweep journal"), journal_path.string(), head,
                            sweep.runs.size());
    rows = std::move(kept.rows);
    journal.emplace(study::JournalFile::reopen(journal_path, kept.whole_bytes));
    std::fprintf(stderr, "%s: resuming: %zu of %zu runs are in %s\n", kPrefix, rows.size(),
                 sweep.runs.size(), journal_path.string().c_str());
  } else {
    if (journal_exists) {
      throw InputError("--out " + options.sweep_out + ": " + journal_path.string() +
                       " holds an unfinished sweep: --resume completes it, or remove it");
    }
    journal.emplace(study::JournalFile::create(journal_path, head));
  }

  const std::vector<std::vector<std::size_t>> runs_of_job =
      job_runs(sweep, options.carry_state, rows);
  std::vector<std::vector<std::string>> jobs;
  for (const std::vector<std::size_t>& runs : runs_of_job) jobs.push_back(job_words(options, runs));

  const std::size_t to_make = sweep.runs.size() - rows.size();
  std::size_t made = 0;
  Progress progress = command_progress(kCommand, "runs", to_make, options.quiet);
  std::optional<int> first_failure;
  std::size_t failures = 0;
  const auto report = [&](const std::string& line) {
    progress.clear_line();
    std::fprintf(stderr, "%s: %s\n", kPrefix, line.c_str());
  };
  run_jobs(
      jobs, options.jobs,
      [&](std::size_t, std::string_view line) {
        auto [run, row] = parse_job_line(line);
        if (run >= sweep.runs.size()) throw std::logic_error("a sweep job made an unknown run");
        if (rows.count(run) > 0) return;  // a carried flock's run made again
        journal->append(run, row);
        rows.emplace(run, std::move(row));
        progress.update(++made);
      },
      [&](std::size_t job, const JobEnd& end) {
        std::optional<std::size_t> failed;
        for (const std::size_t run : runs_of_job[job]) {
          if (rows.count(run) > 0) continue;
          const std::string values = study::describe_run(sweep.runs[run]);
          ++failures;
          if (!failed) {
            failed = run;
            first_failure = first_failure.value_or(end.status == kExitOk ? kExitInternalError
                                                                         : end.status);
            report("run " + std::to_string(run) + " (" + values + ") failed: " +
                   (end.error.empty() ? "exit status " + std::to_string(end.status)
                                      : end.error));
          } else {
            report("run " + std::to_string(run) + " (" + values + ") not made: it carries the "
                   "flock of run " + std::to_string(*failed) + ", which failed");
          }
        }
      },
      [&] { progress.update(made); });

  if (first_failure) {
    report(std::to_string(failures) + " of " + std::to_string(sweep.runs.size()) +
           " runs failed; the " + std::to_string(rows.size()) + " finished are kept in " +
           journal_path.string() + ", and --resume makes the others");
    return *first_failure;
  }
  std::string csv = head.header + "\n";
  for (const auto& [run, row] : rows) csv += row + "\n";
  write_file_atomically(options.sweep_out, csv);
  journal.reset();
  if (!std::filesystem::remove(journal_path, error)) {
    report("the sweep is complete, but " + journal_path.string() + " could not be removed (" +
           error.message() + ")");
  }
  progress.finish();
  return kExitOk;
}

}  // namespace

CommandDefinition sweep_command() {
  return {"run a scenario over a grid of parameter values and seeds: one CSV row per run",
      "Runs every combination of the --vary values (the first --vary outermost), once per\n"
      "seed (the seeds innermost), each run --steps steps from its seeded start, and writes\n"
      "one row per run: the values, the seed, then over the window of samples (step 0 and\n"
      "every K steps, from step M to --steps) the mean and std of each column of murmur stats\n"
      "--steps, the polarization's Binder cumulant and the most frequent value of a column of\n"
      "words (docs/sweep.md). Each finished run is kept in FILE.partial; FILE is written\n"
      "whole when every run has, in run order whatever --jobs. A failed run is reported with\n"
      "its values and seed and the sweep ends with its exit status after the others.",
      run_sweep};
}

}  // namespace murmur::cli
