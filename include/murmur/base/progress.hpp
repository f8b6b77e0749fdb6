#pragma once
// Progress of a long command on stderr (docs/commands.md, "Progress"): on a terminal, one line redrawn in
// place with done/total, percentage, rate and ETA, ended with a newline; elsewhere (a log, a
// pipe, CI) one plain line every kProgressLogInterval and one at the end. `--quiet` turns it
// off. A run of several phases (record's skipped steps, then its frames) counts each in turn on
// the same line, and its final line's time is the whole run's. Shared by record, step, stats,
// compare, bench, soak, plan and sweep; the output and the clock are injectable, so the tests
// drive time without sleeping.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace murmur {

enum class ProgressDisplay {
  kOff,       // --quiet
  kTerminal,  // a line redrawn in place with '\r'
  kLog,       // plain lines, a few seconds apart
};

// Often enough to look alive, rarely enough that redrawing costs nothing.
inline constexpr std::chrono::milliseconds kProgressRedrawInterval{200};
// A log gets a line this often: enough to see a run is alive, few enough to read.
inline constexpr std::chrono::seconds kProgressLogInterval{5};

// kOff when `quiet`, else kTerminal when `stream` is a terminal, else kLog.
ProgressDisplay progress_display_for(std::FILE* stream, bool quiet);

// "42 s", "3 min 07 s", "2 h 05 min": a duration for a person, rounded to what matters.
std::string format_duration(double seconds);

class Progress {
 public:
  using Write = std::function<void(std::string_view)>;
  using SecondsNow = std::function<double()>;  // seconds since any fixed origin

  // Counts `total` units named `unit` ("steps", "frames"); each line starts "<label>: ".
  // The run's time, and the first phase's rate and ETA, are measured from construction. By
  // default it writes to stderr (flushed) and reads the steady clock.
  Progress(std::string label, std::string unit, std::uint64_t total, ProgressDisplay display,
           Write write = {}, SecondsNow seconds_now = {});
  // Ends a line left drawn on a terminal, so that an error message starts on a line of its own;
  // prints no final line (the run did not finish).
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Names the phase being counted: its lines read "<label>: <phase> 12/50 steps ...".
  void name_phase(std::string phase);
  // Ends the phase counted so far (its time is kept for the final line) and counts `total`
  // units named `unit` from now, in a phase named `phase` (empty: unnamed, as a run of one
  // phase is). The rate and ETA are the new phase's; a terminal shows it at its first update.
  void next_phase(std::string unit, std::uint64_t total, std::string phase = {});

  // `done` units of the phase's total are done (counted from its start, not added). Redraws
  // the terminal line at most every kProgressRedrawInterval, or prints a log line when
  // kProgressLogInterval has passed since the last one (or the start) and units are left: a
  // phase's last units are told by the next phase or the final line.
  void update(std::uint64_t done);
  // Erases a line drawn on a terminal, so that output of the caller's own (stdout rows on the
  // same terminal) starts at column 0; the next update draws it again.
  void clear_line();
  // Prints the final line (done = total, the whole run's time and the last phase's mean rate)
  // and, on a terminal, the newline. Later calls do nothing.
  void finish();

  // The line for `done` units after `elapsed` seconds of the phase, without '\r' or '\n':
  // while running "<label>: 1200/5000 steps (24%), 350 steps/s, ETA 11 s", finished
  // "<label>: 5000/5000 steps (100%) in 14.3 s, 350 steps/s". The rate and ETA are left out
  // while unknown. After earlier phases the finished line's time is the whole run's, split by
  // phase: "<label>: 1/1 frames (100%) in 26 s (skipping 26 s, frames 0.1 s), 10.0 frames/s".
  std::string line(std::uint64_t done, double elapsed, bool finished) const;

 private:
  void draw(const std::string& text);

  struct EndedPhase {
    std::string name;  // the phase's name, or its unit when it had none
    double seconds = 0;
  };

  std::string label_;
  std::string unit_;
  std::uint64_t total_;
  std::string phase_;
  ProgressDisplay display_;
  Write write_;
  SecondsNow seconds_now_;
  double start_ = 0;
  double phase_start_ = 0;
  std::vector<EndedPhase> ended_phases_;
  double last_output_ = 0;
  bool drawn_ = false;             // a terminal line is on screen, not yet ended
  std::size_t drawn_length_ = 0;   // its length, to blank what a shorter line leaves
  bool finished_ = false;
};

}  // namespace murmur
