#pragma once
// The floor-plan generator on the GPU (docs/gpu.md, "The floor-plan generator"): the agents,
// the saved points and the clearance index in shader storage buffers, stepped by compute
// passes that give the CPU reference's plan (murmur/plan.hpp) bit for bit where float
// operations are correctly rounded (llvmpipe). Needs a current GL 4.5 context.
#include <cstdint>
#include <memory>
#include <vector>

#include "murmur/gpu/gpu_flock.hpp"
#include "murmur/plan.hpp"
#include "murmur/scenario.hpp"

namespace murmur {

// The GPU's clearance index as the passes left it, to compare with PlanPointIndex's arrays.
struct GpuPlanIndex {
  std::vector<std::uint32_t> heads;  // per bucket, the buckets in use
  std::vector<std::uint32_t> next;   // per saved point
};

class GpuPlan {
 public:
  // The buffers hold `point_capacity` saved points (at most 2^32 - 2) and a steering grid of
  // `cell_capacity` cells (0: MURMUR_PLAN_MAX_CELLS_PER_AGENT per agent plus a margin); a step
  // that needs more stops the plan, and step() throws std::length_error naming the step.
  GpuPlan(const Scenario& scenario, const PlanState& initial, std::uint32_t point_capacity,
          std::uint32_t cell_capacity = 0);
  ~GpuPlan();
  GpuPlan(const GpuPlan&) = delete;
  GpuPlan& operator=(const GpuPlan&) = delete;

  // `steps` steps, then one blocking read of the plan's error word: a step that ran out of
  // points or cells throws std::length_error naming it. Its agents have moved but it saved no
  // point; the steps after it do nothing, and every later step() throws the same.
  void step(std::uint32_t steps = 1);
  // The state read back: agents by id, the saved points, and the index rebuilt from them on
  // the CPU (index() gives the GPU's own arrays).
  PlanState plan_state() const;
  // Brings `state` (an earlier plan_state() or update() of this plan) up to the GPU's: the
  // agents and step replaced, the points since then appended and indexed, so that a caller
  // following every step reads each point once.
  void update(PlanState& state) const;
  GpuPlanIndex index() const;
  std::uint64_t steps() const;
  std::uint32_t point_capacity() const;

  void set_fault(GpuFault fault);  // test-only switch for the planted faults

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace murmur
