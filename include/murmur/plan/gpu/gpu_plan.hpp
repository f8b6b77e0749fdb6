#pragma once
// The floor-plan generator on the GPU (docs/gpu.md, "The floor-plan generator"): the agents,
// the saved points and the clearance index in shader storage buffers, stepped by compute
// passes that give the CPU reference's plan (murmur/plan/plan.hpp) bit for bit where float
// operations are correctly rounded (llvmpipe). Needs a current GL 4.5 context.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/plan/plan.hpp"
#include "murmur/scenario/scenario.hpp"

namespace murmur {

// The GPU's clearance index as the passes left it, to compare with PlanPointIndex's arrays.
struct GpuPlanIndex {
  std::vector<std::uint32_t> heads;  // per bucket, the buckets in use
  std::vector<std::uint32_t> next;   // per saved point
};

// The plan's counts as plan_summary.comp leaves them (GpuPlan::counts), for readers that must
// not wait on the steps: the viewer's panel, and the growth of the point buffers.
struct GpuPlanCounts {
  std::uint64_t step = 0;        // the steps queued when they were counted
  std::uint32_t agents = 0;
  std::uint32_t living = 0;
  // The dead by cause: too slow, too close, too many turns (PlanDeath 1, 2, 3).
  std::array<std::uint32_t, 3> died{};
  std::uint32_t points = 0;      // saved points
  std::uint32_t error = 0;       // MURMUR_PLAN_OK, or what stopped the plan ...
  std::uint32_t error_step = 0;  // ... at this step, which made no point (the later ones none)
  bool stopped() const { return error != 0; }
  // The step the plan has really reached: an error stops it before error_step.
  std::uint64_t reached_step() const { return stopped() ? error_step - 1u : step; }
};

// The most points a plan can hold after step `step`, from counts taken at an earlier step:
// every step saves at most one point per living agent, agents never come back to life, and a
// branching plan's living never pass those living plus the room for children, `child_room`.
std::uint64_t most_points_at(const GpuPlanCounts& counts, std::uint64_t step,
                             std::uint32_t child_room = 0);

// The buffers the renderer draws a plan from (std430 records of shaders/plan/plan_records.glsl).
struct GpuPlanBuffers {
  unsigned agents = 0;    // PlanAgentRecord[agent_count], by id
  unsigned points = 0;    // PlanPointRecord[point_capacity], the first point_count saved
  unsigned previous = 0;  // uint[point_capacity]: each point's agent's point before it, or
                          // PlanPointIndex::kNone for its first
  unsigned control = 0;   // the uint at point_count_offset is the point count
  std::size_t point_count_offset = 0;
  std::uint32_t agent_count = 0;
  std::uint32_t point_capacity = 0;
};

// Wall-clock milliseconds of each stage of one plan step (benchmarks only: each stage ends in
// glFinish, which serialises the GPU). The stages of docs/gpu.md's table, the grid split in
// its clears, its counting sort and its scan.
struct PlanStageTimes {
  double move = 0;       // plan_move: deaths through the clearance index, the moves
  double points = 0;     // the movers' scan, plan_index_prepare, plan_append
  double index = 0;      // plan_heads_clear (after a doubling), plan_link x 3
  double crowd = 0;      // plan_crowd_blocks, plan_crowd_shape
  double grid_clear = 0;  // the grid's counts and cursors zeroed
  double grid_sort = 0;  // plan_grid's count, scatter and rank
  double grid_scan = 0;  // the scan of the cells' counts
  double steer = 0;      // plan_steer
  double total() const {
    return move + points + index + crowd + grid_clear + grid_sort + grid_scan + steer;
  }
};

// The agents a GpuPlan of `scenario` from a start of `start_agents` holds room for: the start's,
// or max_agents when it branches (docs/model.md, "Branching").
std::uint32_t gpu_plan_agent_capacity(const PlanScenario& scenario, std::uint32_t start_agents);

class GpuPlan {
 public:
  // The buffers hold `point_capacity` saved points (at most 2^32 - 2) and a steering grid of
  // `cell_capacity` cells (0: MURMUR_PLAN_MAX_CELLS_PER_AGENT per agent plus a margin); a step
  // that needs more stops the plan, and step() throws std::length_error naming the step. A
  // branching plan holds gpu_plan_agent_capacity agents.
  GpuPlan(const PlanScenario& scenario, const PlanState& initial, std::uint32_t point_capacity,
          std::uint32_t cell_capacity = 0);
  ~GpuPlan();
  GpuPlan(const GpuPlan&) = delete;
  GpuPlan& operator=(const GpuPlan&) = delete;

  // `steps` steps, then one blocking read of the plan's error word: a step that ran out of
  // points or cells throws std::length_error naming it. Its agents have moved but it saved no
  // point; the steps after it do nothing, and every later step() throws the same.
  void step(std::uint32_t steps = 1);
  // The same steps, queued without reading anything back: a step that runs out of room stops
  // the plan, which counts() then reports (GpuPlanCounts::error).
  void advance(std::uint32_t steps = 1);
  // One step as step(1) makes it, each stage timed (slower, for `murmur bench --plan`).
  PlanStageTimes step_timed();
  // Grows the point buffers to hold `point_capacity` points (at most 2^32 - 2), on the GPU,
  // without waiting: the plan goes on exactly as if it had had the room from the start. A
  // capacity no larger than today's changes nothing.
  void reserve(std::uint32_t point_capacity);
  // Grows the buffers, when they might not hold the points of every step up to `step`, to
  // twice their size or what the bound needs (most_points_at). Throws std::length_error when
  // the bound passes 2^32 - 2 points.
  void make_room(const GpuPlanCounts& known, std::uint64_t step);
  // Counts the agents into counts_buffer() (no wait); counts() also reads them back, waiting.
  void count();
  GpuPlanCounts counts();
  unsigned counts_buffer() const;
  static std::size_t counts_bytes();
  static GpuPlanCounts counts_from(std::span<const std::byte> bytes);
  // The state read back: agents by id, the saved points, and the index rebuilt from them on
  // the CPU (index() gives the GPU's own arrays).
  PlanState plan_state() const;
  // Brings `state` (an earlier plan_state() or update() of this plan) up to the GPU's: the
  // agents and step replaced, the points since then appended and indexed, so that a caller
  // following every step reads each point once.
  void update(PlanState& state) const;
  GpuPlanIndex index() const;
  // The steps made; after advance(), those queued, even past a step that stopped the plan
  // (counts().reached_step() says where it stopped).
  std::uint64_t steps() const;
  std::uint32_t point_capacity() const;
  const PlanScenario& scenario() const;
  GpuPlanBuffers buffers() const;
  // Names this plan's history, unique among the plans made in this process (a restart is a new
  // plan): what the renderer's ink layer keeps apart.
  std::uint64_t history() const;

  void set_fault(GpuFault fault);  // test-only switch for the planted faults

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace murmur
