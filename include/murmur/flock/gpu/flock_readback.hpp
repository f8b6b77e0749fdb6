#pragma once
// Reads of a GpuFlock for a frame loop that must not wait on the GPU: the panel's statistics
// (FlockSummary), one boid found by id (the steered boid), the whole state (LiveStats), and
// the ecosystem's counters (births, deaths, food).
// Each request queues small GPU passes and a copy into a ReadbackRing; its result comes back a
// frame or two later, when the copy's fence has signalled. The *_now variants wait, for tests
// and the command line. Needs a current GL 4.5 context; works from the flock's boid_buffer()
// and count() only, so ids may be any unique uint32 in any slot.
// A 3D flock (docs/model.md, "Three dimensions") reads its boids and its state, with z and vz;
// the summary, the nearest boid and the ecosystem's counters are the plane's alone and throw
// InputError there (a 3D viewer computes its statistics from the state, as LiveStats does, and
// picks on the screen, nearest_on_screen).
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include <glm/vec2.hpp>

#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/flock/state.hpp"

namespace murmur {

// The answer to "where is boid `id`?": `boid` is empty when no boid has that id.
struct BoidLookup {
  std::uint32_t id = 0;
  std::optional<Boid> boid;
};

// The answer to "which boid is nearest to `point`?": `id` is empty for an empty flock.
struct NearestBoid {
  glm::vec2 point{0.0f};
  std::optional<std::uint32_t> id;
};

// The ecosystem's counters (docs/model.md, "An ecosystem"): per species, the events since the
// flock was made (GpuFlock::tally_buffer()), and the food field's total, summed in double on
// the CPU (nullopt without a [food] table).
struct EcosystemCounts {
  std::vector<SpeciesTotals> totals;
  std::optional<double> food;
};

class FlockReadback {
 public:
  FlockReadback();
  ~FlockReadback();
  FlockReadback(const FlockReadback&) = delete;
  FlockReadback& operator=(const FlockReadback&) = delete;

  // Queue a request; false (nothing queued) while every slot of that kind is in flight, so the
  // caller simply asks again on a later frame.
  bool request_summary(const GpuFlock& flock);
  bool request_boid(const GpuFlock& flock, std::uint32_t id);
  bool request_state(const GpuFlock& flock);
  // The boid nearest to `point` by the distance its species sees (the minimum image on a
  // torus); among boids at the same distance, the smallest id.
  bool request_nearest(const GpuFlock& flock, glm::vec2 point);
  // Copies the tallies and the food field (4 bytes a food cell) into one snapshot.
  bool request_ecosystem(const GpuFlock& flock);

  // The newest finished result of each kind not handed out yet, or nothing. Never waits.
  std::optional<FlockSummary> latest_summary();
  std::optional<BoidLookup> latest_boid();
  std::optional<FlockState> latest_state();  // sorted by id
  std::optional<NearestBoid> latest_nearest();
  std::optional<EcosystemCounts> latest_ecosystem();

  // Drops every request in flight: their results are no longer wanted (the flock changed).
  void discard();

  // Waiting variants (they stall the GPU): the same passes, read back at once.
  FlockSummary summary_now(const GpuFlock& flock);
  std::optional<Boid> find_now(const GpuFlock& flock, std::uint32_t id);
  std::optional<std::uint32_t> nearest_now(const GpuFlock& flock, glm::vec2 point);
  EcosystemCounts ecosystem_now(const GpuFlock& flock);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace murmur
