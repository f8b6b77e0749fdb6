#include "murmur/base/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace murmur {
namespace {

constexpr long long kSecondsPerMinute = 60;
constexpr long long kMinutesPerHour = 60;
constexpr long long kSecondsPerHour = kSecondsPerMinute * kMinutesPerHour;
// Below this a duration keeps a tenth of a second: "0.4 s" says more than "0 s".
constexpr double kTenthsBelowSeconds = 10;

double seconds_of(std::chrono::duration<double> interval) { return interval.count(); }

void write_to_stderr(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

double steady_seconds() {
  return seconds_of(std::chrono::steady_clock::now().time_since_epoch());
}

// Three significant digits or more, no exponent: "0.512", "12.5", "4210".
std::string format_rate(double per_second) {
  const int decimals = per_second >= 100 ? 0 : per_second >= 10 ? 1 : per_second >= 1 ? 2 : 3;
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, per_second);
  return text;
}

}  // namespace

ProgressDisplay progress_display_for(std::FILE* stream, bool quiet) {
  if (quiet) return ProgressDisplay::kOff;
  return isatty(fileno(stream)) ? ProgressDisplay::kTerminal : ProgressDisplay::kLog;
}

std::string format_duration(double seconds) {
  char text[48];
  if (!(seconds >= 0)) seconds = 0;  // NaN too
  if (seconds < kTenthsBelowSeconds) {
    std::snprintf(text, sizeof text, "%.1f s", seconds);
  } else if (seconds < static_cast<double>(kSecondsPerMinute)) {
    std::snprintf(text, sizeof text, "%.0f s", std::floor(seconds));
  } else if (seconds < static_cast<double>(kSecondsPerHour)) {
    const auto whole = static_cast<long long>(seconds);
    std::snprintf(text, sizeof text, "%lld min %02lld s", whole / kSecondsPerMinute,
                  whole % kSecondsPerMinute);
  } else {
    const auto minutes = static_cast<long long>(seconds) / kSecondsPerMinute;
    std::snprintf(text, sizeof text, "%lld h %02lld min", minutes / kMinutesPerHour,
                  minutes % kMinutesPerHour);
  }
  return text;
}

Progress::Progress(std::string label, std::string unit, std::uint64_t total,
                   ProgressDisplay display, Write write, SecondsNow seconds_now)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      display_(display),
      write_(write ? std::move(write) : Write(write_to_stderr)),
      seconds_now_(seconds_now ? std::move(seconds_now) : SecondsNow(steady_seconds)) {
  start_ = seconds_now_();
  phase_start_ = start_;
  // A terminal shows the line at the first update; a log waits a whole interval, so a short
  // run logs only its final line.
  last_output_ = display_ == ProgressDisplay::kTerminal
                     ? start_ - seconds_of(kProgressRedrawInterval)
                     : start_;
}

Progress::~Progress() {
  if (drawn_) write_("\n");
}

void Progress::name_phase(std::string phase) { phase_ = std::move(phase); }

void Progress::next_phase(std::string unit, std::uint64_t total, std::string phase) {
  const double now = seconds_now_();
  ended_phases_.push_back({phase_.empty() ? unit_ : phase_, now - phase_start_});
  unit_ = std::move(unit);
  total_ = total;
  phase_ = std::move(phase);
  phase_start_ = now;
  // A terminal line still shows the phase that ended: the next update replaces it at once.
  if (display_ == ProgressDisplay::kTerminal)
    last_output_ = now - seconds_of(kProgressRedrawInterval);
}

void Progress::update(std::uint64_t done) {
  if (display_ == ProgressDisplay::kOff || finished_) return;
  const double now = seconds_now_();
  if (display_ == ProgressDisplay::kTerminal) {
    if (now - last_output_ < seconds_of(kProgressRedrawInterval)) return;
    last_output_ = now;
    draw(line(done, now - phase_start_, false));
    return;
  }
  // A log line of a phase with nothing left would repeat what follows it.
  if (done >= total_) return;
  if (now - last_output_ < seconds_of(kProgressLogInterval)) return;
  last_output_ = now;
  write_(line(done, now - phase_start_, false) + "\n");
}

void Progress::clear_line() {
  if (!drawn_) return;
  write_("\r" + std::string(drawn_length_, ' ') + "\r");
  drawn_ = false;
  drawn_length_ = 0;
}

void Progress::finish() {
  if (display_ == ProgressDisplay::kOff || finished_) return;
  finished_ = true;
  const std::string text = line(total_, seconds_now_() - phase_start_, true);
  if (display_ == ProgressDisplay::kTerminal) {
    draw(text);
    write_("\n");
    drawn_ = false;
    return;
  }
  write_(text + "\n");
}

std::string Progress::line(std::uint64_t done, double elapsed, bool finished) const {
  done = std::min(done, total_);
  // Nothing to do is all done: 0/0 is 100%.
  const std::uint64_t percent = total_ == 0 ? 100 : done * 100 / total_;
  std::string text = label_ + ": " + (phase_.empty() ? "" : phase_ + " ") +
                     std::to_string(done) + "/" + std::to_string(total_) + " " + unit_ + " (" +
                     std::to_string(percent) + "%)";
  std::optional<double> rate;
  if (elapsed > 0 && done > 0) rate = static_cast<double>(done) / elapsed;
  if (finished && ended_phases_.empty()) text += " in " + format_duration(elapsed);
  if (finished && !ended_phases_.empty()) {
    // The whole run's time first, then what each phase took of it.
    std::string split;
    double run_seconds = elapsed;
    for (const EndedPhase& ended : ended_phases_) {
      run_seconds += ended.seconds;
      split += ended.name + " " + format_duration(ended.seconds) + ", ";
    }
    split += (phase_.empty() ? unit_ : phase_) + " " + format_duration(elapsed);
    text += " in " + format_duration(run_seconds) + " (" + split + ")";
  }
  if (rate) text += ", " + format_rate(*rate) + " " + unit_ + "/s";
  if (!finished && rate && done < total_) {
    text += ", ETA " + format_duration(static_cast<double>(total_ - done) / *rate);
  }
  return text;
}

void Progress::draw(const std::string& text) {
  std::string redrawn = "\r" + text;
  // Blank the tail of a longer line drawn before (a shorter ETA, a rate losing a digit).
  if (drawn_length_ > text.size()) redrawn.append(drawn_length_ - text.size(), ' ');
  write_(redrawn);
  drawn_ = true;
  drawn_length_ = text.size();
}

}  // namespace murmur
