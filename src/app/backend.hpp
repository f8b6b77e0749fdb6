#pragma once
// The two ways a plan scenario runs (`murmur plan`, `step` and `stats`); a flock's backends are
// murmur/flock/gpu/simulation.hpp's.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "murmur/plan/plan.hpp"
#include "murmur/scenario/scenario.hpp"
#include "murmur/flock/gpu/simulation.hpp"
#include "murmur/flock/state.hpp"

namespace murmur::gl {
class Context;
}

namespace murmur {
class GpuPlan;
}

namespace murmur::cli {

// Where a plan runs: the CPU reference or GpuPlan, which give the same plan bit for bit on
// llvmpipe (docs/gpu.md, "The floor-plan generator").
enum class PlanBackend { Cpu, Gpu };

// The backend a plan runs on for --backend B, and a plan's refusal of what does not apply to
// it: --in FILE (a plan starts from its groups) and gpu-naive. InputErrors naming the flag.
PlanBackend plan_backend(const std::string& scenario, const std::optional<std::string>& in,
                         FlockBackend backend);

// The points a GPU plan must hold for `steps` steps of `agents` agents (each one a step); an
// InputError naming `steps_flag` when that passes what GpuPlan can index (2^32 - 2).
std::uint32_t gpu_plan_point_capacity(std::uint64_t steps, std::uint64_t agents,
                                      const std::string& steps_flag = "--steps");

// A plan stepped on either backend, from the scenario's seeded start. On the GPU the buffers
// hold every point `steps` steps can save (each agent one a step), so no step runs out of room
// (a run that could pass 2^32 - 2 points is an InputError naming --steps); state() reads back
// only what is new since the last call.
class PlanRun {
 public:
  PlanRun(const PlanScenario& scenario, PlanBackend backend, std::uint32_t steps);
  ~PlanRun();
  PlanRun(const PlanRun&) = delete;
  PlanRun& operator=(const PlanRun&) = delete;

  void step();
  const PlanState& state();

 private:
  const PlanScenario& scenario_;
  PlanState state_;
  std::unique_ptr<gl::Context> context_;  // outlives gpu_ (declared first)
  std::unique_ptr<GpuPlan> gpu_;
  bool gpu_state_stale_ = false;
};

}  // namespace murmur::cli
