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

// A flock being stepped on one backend. The GPU backends create their own headless GL
// context (GpuError when there is none), and a GL error in a step or a read-back is a GpuError
// from that call, before any output is made of it.
class Simulation {
 public:
  Simulation(const Scenario& scenario, const FlockState& initial, FlockBackend backend);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  void step(std::uint32_t steps);
  // The current state, sorted by id whichever backend ran it, so outputs compare byte for byte.
  FlockState state() const;
  // The backend's own count of living boids: the GPU's Population record (read separately
  // from the state, so a soak can check that the two agree), or the CPU state's size.
  std::uint32_t live_count() const;

 private:
  Scenario scenario_;
  FlockState cpu_state_;                      // the Cpu backend's state
  std::unique_ptr<gl::Context> context_;      // outlives gpu_flock_ (declared first)
  std::unique_ptr<GpuFlock> gpu_flock_;       // the GPU backends' state
};

}  // namespace murmur
