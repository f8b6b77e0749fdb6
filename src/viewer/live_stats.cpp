#include "viewer/live_stats.hpp"

#include <chrono>

#include "murmur/gpu/gpu_flock.hpp"

namespace murmur::viewer {

LiveStats::~LiveStats() {
  if (pending_.valid()) pending_.wait();
}

void LiveStats::update(const GpuFlock& flock, double now_seconds) {
  if (pending_.valid() &&
      pending_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    FlockStats result = pending_.get();
    if (!pending_is_stale_) latest_ = result;
    pending_is_stale_ = false;
  }
  if (pending_.valid() || now_seconds - last_start_ < kIntervalSeconds) return;
  last_start_ = now_seconds;
  // The worker gets its own copies: the flock and its scenario may change meanwhile.
  pending_ = std::async(std::launch::async,
                        [scenario = flock.scenario(), state = flock.download()] {
                          return compute_stats(scenario, state);
                        });
}

void LiveStats::invalidate() {
  latest_.reset();
  pending_is_stale_ = pending_.valid();
  last_start_ = -1e9;
}

}  // namespace murmur::viewer
