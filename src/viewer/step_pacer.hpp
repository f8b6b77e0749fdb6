#pragma once
// How many simulation steps a frame runs: the viewer's frame rate (vsync, window size, the
// panel) must not change how fast the simulation goes when a step rate is asked for, and must
// not let a slow frame snowball into ever more catch-up steps. Header-only so a unit test can
// drive it with a fake clock.
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace murmur::viewer {

class StepPacer {
 public:
  // At most this many steps in one frame at a fixed rate; time beyond it is dropped, so a
  // machine slower than the rate runs slow instead of freezing on catch-up.
  static constexpr std::uint32_t kMaxCatchUpSteps = 8;

  // A fixed number of steps each frame.
  static StepPacer per_frame(std::uint32_t steps) { return StepPacer(steps, 0.0); }
  // A fixed rate in steps per second of wall-clock time.
  static StepPacer at_rate(double steps_per_second) { return StepPacer(0, steps_per_second); }

  bool fixed_rate() const { return rate_ > 0; }
  std::uint32_t steps_per_frame() const { return steps_per_frame_; }
  double rate() const { return rate_; }

  // Steps for a frame that began `elapsed_seconds` after the previous one.
  std::uint32_t steps_for_frame(double elapsed_seconds) {
    if (!fixed_rate()) return steps_per_frame_;
    accumulated_steps_ += std::max(0.0, elapsed_seconds) * rate_;
    const double whole = std::floor(accumulated_steps_);
    if (whole > kMaxCatchUpSteps) {
      accumulated_steps_ = 0;
      return kMaxCatchUpSteps;
    }
    accumulated_steps_ -= whole;
    return static_cast<std::uint32_t>(whole);
  }

  // Forget time owed (after a pause, so that resuming does not burst).
  void reset() { accumulated_steps_ = 0; }

 private:
  StepPacer(std::uint32_t steps_per_frame, double rate)
      : steps_per_frame_(steps_per_frame), rate_(rate) {}

  std::uint32_t steps_per_frame_;
  double rate_;
  double accumulated_steps_ = 0;
};

}  // namespace murmur::viewer
