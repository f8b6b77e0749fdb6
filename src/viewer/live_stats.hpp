#pragma once
// Polarization, milling and the rest of murmur stats for the panel, computed on the CPU from a
// downloaded state on a worker thread, at most twice a second: the download is a short stall,
// the statistics (a k-d tree over the flock) never hold up a frame.
#include <future>
#include <optional>

#include "murmur/scenario.hpp"
#include "murmur/stats.hpp"

namespace murmur {
class GpuFlock;
}

namespace murmur::viewer {

class LiveStats {
 public:
  static constexpr double kIntervalSeconds = 0.5;

  ~LiveStats();  // waits for a computation in flight

  // Collects a finished computation, and starts the next one when the interval has passed.
  void update(const GpuFlock& flock, double now_seconds);
  // Drops the last result (the flock was replaced); a computation in flight is ignored.
  void invalidate();

  const std::optional<FlockStats>& latest() const { return latest_; }

 private:
  std::future<FlockStats> pending_;
  std::optional<FlockStats> latest_;
  double last_start_ = -1e9;
  bool pending_is_stale_ = false;
};

}  // namespace murmur::viewer
