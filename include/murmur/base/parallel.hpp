#pragma once
// Splitting a step's independent items (boids, plan agents) between threads by index range.
// Each item's result depends only on the state its phase started from, so the split never
// changes a bit of the result: the thread count is a speed setting only.
#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace murmur {

// More workers than this gain nothing on the machines the project targets.
inline constexpr unsigned kMaxWorkers = 8;

// The threads to use for `count` items: `requested` when > 0 (at most one per item), else as
// many as the cores allow with at least `min_per_worker` items each (fewer would not pay for
// a thread's start-up).
inline std::size_t workers_for(std::size_t count, unsigned requested, std::size_t min_per_worker) {
  if (requested > 0) return std::clamp<std::size_t>(requested, 1, std::max<std::size_t>(count, 1));
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  return std::clamp<std::size_t>(count / min_per_worker, 1, std::min(hardware, kMaxWorkers));
}

// Runs body(begin, end) over [0, count) in `workers` contiguous chunks, the first on the
// calling thread; returns when all are done.
template <class Body>
void for_each_chunk(std::size_t count, std::size_t workers, Body&& body) {
  if (workers <= 1) {
    body(std::size_t{0}, count);
    return;
  }
  const std::size_t chunk = (count + workers - 1) / workers;
  std::vector<std::jthread> threads;  // joined on every exit path
  threads.reserve(workers - 1);
  for (std::size_t w = 1; w < workers; ++w) {
    const std::size_t begin = std::min(count, w * chunk);
    const std::size_t end = std::min(count, begin + chunk);
    threads.emplace_back([&body, begin, end] { body(begin, end); });
  }
  body(std::size_t{0}, std::min(count, chunk));
}

}  // namespace murmur
