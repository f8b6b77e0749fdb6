#pragma once
// Polarization, milling and the rest of murmur stats for the panel, computed on the CPU at
// most twice a second from a state read back through a FlockReadback ring (no wait for the
// GPU) on a worker thread (the statistics, a k-d tree over the flock, never hold up a frame).
// A large flock's statistics take long enough that the worker would take a core's share from
// the frame (llvmpipe renders on the same cores): the interval grows so that the worker is
// busy at most kMaxBusyShare of the time.
#include <cstdint>
#include <future>
#include <optional>

#include "murmur/scenario/scenario.hpp"
#include "murmur/flock/stats.hpp"
#include "viewer/live_counts.hpp"

namespace murmur {
class GpuFlock;
class FlockReadback;
}

namespace murmur::viewer {

// compute_stats of a state read back, and the live boids of each species in it with the step it
// is of (a 3D world's live counts: its GPU summary is the plane's alone).
struct StatsAtStep {
  FlockStats stats;
  LiveCounts counts;
};

class LiveStats {
 public:
  static constexpr double kIntervalSeconds = 0.5;
  static constexpr double kMaxBusyShare = 0.1;

  ~LiveStats();  // waits for a computation in flight

  // Collects a finished computation, hands an arrived state to the worker, and asks for the
  // next state when the interval has passed: that of the viewer's `step`.
  void update(FlockReadback& readback, const GpuFlock& flock, double now_seconds,
              std::uint64_t step);
  // Drops the last result (the flock was replaced); a state or computation in flight is
  // ignored (the caller discards the readback's requests).
  void invalidate();

  const std::optional<StatsAtStep>& latest() const { return latest_; }

 private:
  struct Computed {
    StatsAtStep result;
    double seconds = 0;  // how long the worker took
  };
  std::future<Computed> pending_;
  std::optional<StatsAtStep> latest_;
  double last_start_ = -1e9;
  double interval_seconds_ = kIntervalSeconds;
  bool pending_is_stale_ = false;
  bool state_requested_ = false;
  Scenario requested_scenario_;  // the flock's scenario when its state was asked for
  std::uint64_t requested_step_ = 0;  // the viewer's step then
};

}  // namespace murmur::viewer
