#include "viewer/live_stats.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "murmur/flock/gpu/flock_readback.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"

namespace murmur::viewer {

LiveStats::~LiveStats() {
  if (pending_.valid()) pending_.wait();
}

void LiveStats::update(FlockReadback& readback, const GpuFlock& flock, double now_seconds,
                       std::uint64_t step) {
  if (pending_.valid() &&
      pending_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    Computed result = pending_.get();
    if (!pending_is_stale_) latest_ = std::move(result.result);
    interval_seconds_ = std::max(kIntervalSeconds, result.seconds / kMaxBusyShare);
    pending_is_stale_ = false;
  }
  if (state_requested_) {
    std::optional<FlockState> state = readback.latest_state();
    if (!state) return;  // still on its way; no computation runs meanwhile
    state_requested_ = false;
    // The worker owns its copies: the flock and its scenario may change meanwhile.
    pending_ = std::async(
        std::launch::async, [scenario = std::move(requested_scenario_), state = std::move(*state),
                             step = requested_step_] {
          const auto start = std::chrono::steady_clock::now();
          StatsAtStep result{compute_stats(scenario, state),
                             LiveCounts{step, compute_population(scenario, state).counts}};
          const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
          return Computed{std::move(result), took.count()};
        });
    return;
  }
  if (pending_.valid() || now_seconds - last_start_ < interval_seconds_) return;
  if (!readback.request_state(flock)) return;
  last_start_ = now_seconds;
  state_requested_ = true;
  requested_scenario_ = flock.scenario();
  requested_step_ = step;
}

void LiveStats::invalidate() {
  latest_.reset();
  pending_is_stale_ = pending_.valid();
  state_requested_ = false;
  last_start_ = -1e9;
}

}  // namespace murmur::viewer
