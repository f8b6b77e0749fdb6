#pragma once
// The three ways `murmur step` and `murmur stats` can advance a flock, behind one interface.
#include <cstdint>
#include <memory>
#include <string_view>

#include "murmur/scenario.hpp"
#include "murmur/state.hpp"

namespace CLI {
class Option;
}

namespace murmur::gl {
class Context;
}

namespace murmur {
class GpuFlock;
}

namespace murmur::cli {

class Flags;

enum class Backend { Gpu, GpuNaive, Cpu };

// Declares --backend B: gpu (grid search, the default), gpu-naive (all pairs) or cpu (k-d tree).
CLI::Option* backend_flag(Flags& flags, Backend& backend);

// A flock being stepped on one backend. The GPU backends create their own headless GL
// context (GpuError when there is none), and a GL error in a step or a read-back is a GpuError
// from that call, before any output is made of it.
class Simulation {
 public:
  Simulation(const Scenario& scenario, const FlockState& initial, Backend backend);
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

}  // namespace murmur::cli
