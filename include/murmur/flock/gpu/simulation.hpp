#pragma once
// A flock stepped on one of its three backends behind one interface: what `murmur step`,
// `stats` and `soak` run, and each run of a parameter sweep (include/murmur/study/).
#include <cstdint>
#include <memory>

#include "murmur/flock/state.hpp"
#include "murmur/scenario/scenario.hpp"

namespace murmur::gl {
class Context;
}

namespace murmur {
class GpuFlock;

// Where a flock steps: the GPU's grid search, the GPU's all-pairs pass (O(N^2)) or the CPU
// reference's k-d tree.
enum class FlockBackend { Gpu, GpuNaive, Cpu };

// A flock being stepped on one backend. The GPU backends use `context` when given (current on
// the calling thread, and outliving the simulation: a process that makes many runs makes its
// context once), or else create their own headless GL context (GpuError when there is none).
// A GL error in a step or a read-back is a GpuError from that call, before any output is made
// of it.
class Simulation {
 public:
  Simulation(const Scenario& scenario, const FlockState& initial, FlockBackend backend,
             gl::Context* context = nullptr);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  void step(std::uint32_t steps);
  // The current state, sorted by id whichever backend ran it, so outputs compare byte for byte.
  FlockState state() const;
  // Replaces the boids, their next id, step, food field and totals with `state`'s (checked
  // against the scenario by the caller: carried_state).
  void set_state(const FlockState& state);
  // The backend's own count of living boids: the GPU's Population record (read separately
  // from the state, so a soak can check that the two agree), or the CPU state's size.
  std::uint32_t live_count() const;
  // The steps taken since the flock began (FlockState::step).
  std::uint64_t step_index() const;
  const Scenario& scenario() const { return scenario_; }
  // The GPU backends' flock (for a renderer), nothing on the CPU backend.
  const GpuFlock* gpu_flock() const { return gpu_flock_.get(); }

 private:
  Scenario scenario_;
  FlockState cpu_state_;                      // the Cpu backend's state
  std::unique_ptr<gl::Context> own_context_;  // outlives gpu_flock_ (declared first)
  gl::Context* context_ = nullptr;            // own_context_ or the caller's
  std::unique_ptr<GpuFlock> gpu_flock_;       // the GPU backends' state
};

}  // namespace murmur
