// Progress: the line's numbers (done/total, percentage, rate, ETA), the final line, a zero
// total, the terminal redraw and the log throttle, on a clock the test moves by hand.
#include <chrono>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "murmur/base/progress.hpp"

using Catch::Matchers::Equals;
using murmur::format_duration;
using murmur::kProgressLogInterval;
using murmur::kProgressRedrawInterval;
using murmur::Progress;
using murmur::ProgressDisplay;

namespace {

// What a Progress wrote, each write kept apart, and the time it reads.
struct FakeStderr {
  std::vector<std::string> writes;
  double now = 100.0;  // any origin: only differences count

  Progress progress(std::uint64_t total, ProgressDisplay display) {
    return Progress("murmur step", "steps", total, display,
                    [this](std::string_view text) { writes.emplace_back(text); },
                    [this] { return now; });
  }
  std::string all() const {
    std::string text;
    for (const std::string& write : writes) text += write;
    return text;
  }
};

const double kLogSeconds = std::chrono::duration<double>(kProgressLogInterval).count();
const double kRedrawSeconds = std::chrono::duration<double>(kProgressRedrawInterval).count();

}  // namespace

TEST_CASE("a progress line shows done/total, the percentage, the rate and the ETA") {
  FakeStderr stderr_text;
  const Progress progress = stderr_text.progress(5000, ProgressDisplay::kLog);
  // 1200 steps in 4 s: 300 steps/s, 3800 steps left take 12.7 s.
  CHECK_THAT(progress.line(1200, 4.0, false),
             Equals("murmur step: 1200/5000 steps (24%), 300 steps/s, ETA 12 s"));
  // The percentage rounds down: 100% only once every step is done.
  CHECK_THAT(progress.line(4999, 10.0, false),
             Equals("murmur step: 4999/5000 steps (99%), 500 steps/s, ETA 0.0 s"));
  // Slow runs keep three significant digits of the rate; long ETAs read in minutes or hours.
  CHECK_THAT(progress.line(3, 2.0, false),
             Equals("murmur step: 3/5000 steps (0%), 1.50 steps/s, ETA 55 min 31 s"));
  // Nothing done yet, or no time passed: no rate and no ETA rather than a division by zero.
  CHECK_THAT(progress.line(0, 3.0, false), Equals("murmur step: 0/5000 steps (0%)"));
  CHECK_THAT(progress.line(10, 0.0, false), Equals("murmur step: 10/5000 steps (0%)"));
}

TEST_CASE("the final progress line gives the time taken and the mean rate") {
  FakeStderr stderr_text;
  Progress progress = stderr_text.progress(5000, ProgressDisplay::kLog);
  CHECK_THAT(progress.line(5000, 14.3, true),
             Equals("murmur step: 5000/5000 steps (100%) in 14 s, 350 steps/s"));
  stderr_text.now += 2.5;
  progress.finish();
  REQUIRE(stderr_text.writes.size() == 1);
  CHECK_THAT(stderr_text.writes[0],
             Equals("murmur step: 5000/5000 steps (100%) in 2.5 s, 2000 steps/s\n"));
  progress.finish();  // a second finish prints nothing more
  CHECK(stderr_text.writes.size() == 1);
}

TEST_CASE("a zero total is complete at once: 0/0 is 100%, with no rate") {
  FakeStderr stderr_text;
  Progress progress = stderr_text.progress(0, ProgressDisplay::kLog);
  progress.update(0);
  progress.finish();
  CHECK_THAT(stderr_text.all(), Equals("murmur step: 0/0 steps (100%) in 0.0 s\n"));
}

TEST_CASE("off a terminal, progress is one plain line per log interval and a final line") {
  FakeStderr stderr_text;
  const double start = stderr_text.now;
  Progress progress = stderr_text.progress(1000, ProgressDisplay::kLog);
  // Within the first interval nothing is printed: a short run logs only its final line.
  for (std::uint64_t done = 1; done < 100; ++done) {
    stderr_text.now = start + (kLogSeconds - 0.5) * static_cast<double>(done) / 100;
    progress.update(done);
  }
  CHECK(stderr_text.writes.empty());
  stderr_text.now = start + kLogSeconds;
  progress.update(100);
  REQUIRE(stderr_text.writes.size() == 1);
  CHECK_THAT(stderr_text.writes[0],
             Equals("murmur step: 100/1000 steps (10%), 20.0 steps/s, ETA 45 s\n"));
  // The next line waits a whole interval after the last one.
  stderr_text.now = start + 2 * kLogSeconds - 0.001;
  progress.update(150);
  CHECK(stderr_text.writes.size() == 1);
  stderr_text.now = start + 2 * kLogSeconds;
  progress.update(200);
  CHECK(stderr_text.writes.size() == 2);
  progress.finish();
  REQUIRE(stderr_text.writes.size() == 3);
  CHECK_THAT(stderr_text.writes[2],
             Equals("murmur step: 1000/1000 steps (100%) in 10 s, 100 steps/s\n"));
  // No carriage returns in a log.
  CHECK(stderr_text.all().find('\r') == std::string::npos);
}

TEST_CASE("on a terminal, progress is one line redrawn in place and ended with a newline") {
  FakeStderr stderr_text;
  const double start = stderr_text.now;
  Progress progress = stderr_text.progress(100, ProgressDisplay::kTerminal);
  stderr_text.now = start + 1.0;
  progress.update(1);  // the first update draws at once
  REQUIRE(stderr_text.writes.size() == 1);
  const std::string first = "\rmurmur step: 1/100 steps (1%), 1.00 steps/s, ETA 1 min 39 s";
  CHECK_THAT(stderr_text.writes[0], Equals(first));
  stderr_text.now += kRedrawSeconds / 2;
  progress.update(2);  // too soon to redraw
  CHECK(stderr_text.writes.size() == 1);
  stderr_text.now = start + 1.0 + 1.5 * kRedrawSeconds;
  progress.update(99);
  REQUIRE(stderr_text.writes.size() == 2);
  // A shorter line blanks what is left of the longer one before it.
  const std::string shorter = "\rmurmur step: 99/100 steps (99%), 76.2 steps/s, ETA 0.0 s";
  REQUIRE(shorter.size() < first.size());
  CHECK_THAT(stderr_text.writes[1],
             Equals(shorter + std::string(first.size() - shorter.size(), ' ')));
  progress.finish();
  REQUIRE(stderr_text.writes.size() == 4);
  CHECK(stderr_text.writes[2].starts_with(
      "\rmurmur step: 100/100 steps (100%) in 1.3 s, 76.9 steps/s"));
  CHECK_THAT(stderr_text.writes[3], Equals("\n"));
}

TEST_CASE("a terminal line can be cleared for other output, and is ended if the run fails") {
  FakeStderr stderr_text;
  {
    Progress progress = stderr_text.progress(100, ProgressDisplay::kTerminal);
    stderr_text.now += 1.0;
    progress.update(50);
    const std::size_t length = stderr_text.writes[0].size() - 1;
    progress.clear_line();
    CHECK_THAT(stderr_text.writes[1], Equals("\r" + std::string(length, ' ') + "\r"));
    progress.clear_line();  // nothing drawn: nothing to clear
    CHECK(stderr_text.writes.size() == 2);
    stderr_text.now += kRedrawSeconds;
    progress.update(60);
    CHECK(stderr_text.writes.size() == 3);
  }  // destroyed without finish(), as when an exception ends the run
  CHECK_THAT(stderr_text.writes.back(), Equals("\n"));
  CHECK(stderr_text.all().find("100/100") == std::string::npos);  // no final line
}

TEST_CASE("a run of phases counts each in turn, and its final line gives the whole run's time") {
  FakeStderr stderr_text;
  const double start = stderr_text.now;
  Progress progress("murmur record", "steps", 1200, ProgressDisplay::kLog,
                    [&](std::string_view text) { stderr_text.writes.emplace_back(text); },
                    [&] { return stderr_text.now; });
  progress.name_phase("skipping");
  stderr_text.now = start + kLogSeconds;
  progress.update(300);
  REQUIRE(stderr_text.writes.size() == 1);
  CHECK_THAT(stderr_text.writes[0],
             Equals("murmur record: skipping 300/1200 steps (25%), 60.0 steps/s, ETA 15 s\n"));
  // The phase's last step is no line of its own: the next phase or the final line tells it.
  stderr_text.now = start + 4 * kLogSeconds;
  progress.update(1200);
  CHECK(stderr_text.writes.size() == 1);
  progress.next_phase("frames", 4);
  // The frames' rate and ETA count from the start of their phase, not of the run.
  stderr_text.now = start + 5 * kLogSeconds;
  progress.update(1);
  REQUIRE(stderr_text.writes.size() == 2);
  CHECK_THAT(stderr_text.writes[1],
             Equals("murmur record: 1/4 frames (25%), 0.200 frames/s, ETA 15 s\n"));
  stderr_text.now = start + 6 * kLogSeconds;
  progress.finish();
  REQUIRE(stderr_text.writes.size() == 3);
  CHECK_THAT(stderr_text.writes[2],
             Equals("murmur record: 4/4 frames (100%) in 30 s (skipping 20 s, frames 10 s), "
                    "0.400 frames/s\n"));
}

TEST_CASE("on a terminal the next phase is drawn at its first update") {
  FakeStderr stderr_text;
  Progress progress = stderr_text.progress(10, ProgressDisplay::kTerminal);
  progress.update(10);
  REQUIRE(stderr_text.writes.size() == 1);
  progress.next_phase("frames", 2, "drawing");
  progress.update(1);  // no time has passed since the last redraw
  REQUIRE(stderr_text.writes.size() == 2);
  CHECK(stderr_text.writes[1].starts_with("\rmurmur step: drawing 1/2 frames (50%)"));
}

TEST_CASE("with progress off (--quiet) nothing is written") {
  FakeStderr stderr_text;
  {
    Progress progress = stderr_text.progress(100, ProgressDisplay::kOff);
    for (std::uint64_t done = 0; done <= 100; ++done) {
      stderr_text.now += kLogSeconds;
      progress.update(done);
    }
    progress.clear_line();
    progress.finish();
  }
  CHECK(stderr_text.writes.empty());
}

TEST_CASE("durations read in seconds, minutes or hours") {
  CHECK_THAT(format_duration(0.42), Equals("0.4 s"));
  CHECK_THAT(format_duration(42.9), Equals("42 s"));
  CHECK_THAT(format_duration(187), Equals("3 min 07 s"));
  CHECK_THAT(format_duration(7500), Equals("2 h 05 min"));
  CHECK_THAT(format_duration(-1), Equals("0.0 s"));
}
