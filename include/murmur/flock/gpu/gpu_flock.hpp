#pragma once
// The flock on the GPU: state in shader storage buffers, stepped by compute passes
// (bin -> scan -> scatter -> rank -> steer), or by the naive all-pairs pass.
// Needs a current GL 4.5 context; never reads state back unless asked.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <glm/vec2.hpp>

#include "murmur/flock/grid.hpp"
#include "murmur/flock/model.hpp"
#include "murmur/scenario/scenario.hpp"
#include "murmur/flock/state.hpp"
#include "murmur/flock/stats.hpp"

namespace murmur {

enum class NeighbourSearch { Grid, Naive };

// Test-only planted faults (GpuFlock::set_fault): the harness must catch each. One line per
// fault: the enum below and the shaders' MURMUR_FAULT_* defines (generated params.glsl) both
// come from this list, numbered in its order.
#define MURMUR_GPU_FAULTS(FAULT)                                                              \
  FAULT(None, NONE, "no fault")                                                               \
  FAULT(DropNeighbourRow, DROP_NEIGHBOUR_ROW, "steer skips the row of cells above")           \
  FAULT(BrokenWrap, BROKEN_WRAP, "torus observers do not look across the seam")               \
  FAULT(UnsortedScatter, UNSORTED_SCATTER, "cell order is not applied to the boids")          \
  FAULT(LastCellOffByOne, LAST_CELL_OFF_BY_ONE, "binning clamps the column to G instead of G-1") \
  FAULT(DropNeighbourLayer, DROP_NEIGHBOUR_LAYER, "3D: steer skips the layer of cells above")   \
  FAULT(BrokenWrapZ, BROKEN_WRAP_Z, "3D: torus observers do not look across the z seam")      \
  FAULT(ReversedBirths, REVERSED_BIRTHS, "children numbered in reverse parent order")         \
  FAULT(GreedyHunter, GREEDY_HUNTER, "every hunter striking a prey eats it, not the nearest alone") \
  FAULT(LinearKernelUnit, LINEAR_KERNEL_UNIT, "linear separation adds d/|d|, not d")          \
  FAULT(SelfWeightIgnored, SELF_WEIGHT_IGNORED, "steering leaves the boid out of its means")  \
  FAULT(NoiseWindowDoubled, NOISE_WINDOW_DOUBLED, "the uniform noise angle spans [-eta, eta], not [-eta/2, eta/2]") \
  FAULT(VicsekWithoutSelf, VICSEK_WITHOUT_SELF, "a vicsek particle leaves its own heading out of the sum") \
  FAULT(NoiseAxisFixed, NOISE_AXIS_FIXED, "3D: the noise turns every direction towards e1 (phi = 0)") \
  FAULT(BlindRepulsion, BLIND_REPULSION, "a couzin boid is repelled by boids in its blind angle") \
  FAULT(TopologicalKPlusOne, TOPOLOGICAL_K_PLUS_ONE, "a topological boid takes k + 1 neighbours") \
  FAULT(LooseSpeedLimit, LOOSE_SPEED_LIMIT, "the speed limit lets a boid fly a little over max_speed") \
  FAULT(DropClearanceCell, DROP_CLEARANCE_CELL, "plan clearance skips the cell to the right")   \
  FAULT(BranchAtParentDrawn, BRANCH_AT_PARENT_DRAWN, "a plan's child starts unsnapped")

enum class GpuFault : std::uint32_t {
#define MURMUR_GPU_FAULT_ENUMERATOR(name, define, meaning) name,
  MURMUR_GPU_FAULTS(MURMUR_GPU_FAULT_ENUMERATOR)
#undef MURMUR_GPU_FAULT_ENUMERATOR
};

// Test aid (docs/harness.md, "Planting a fault from the command line"): the fault every
// GpuFlock starts with, named by MURMUR_TEST_GPU_FAULT (a name of the list above, e.g.
// DropNeighbourRow); None when it is unset or empty. Any other value is an InputError naming
// the variable and the names it accepts.
GpuFault planted_gpu_fault();

// The per-boid neighbour counts of the last step (a debug output of the steering pass).
struct GpuNeighbourCounts {
  std::uint32_t id = 0;
  std::uint32_t visible = 0;
  std::uint32_t flock = 0;
  std::uint32_t separating = 0;
};

// Milliseconds of each stage of one grid step (benchmarks only): wall clock with each stage
// ended by glFinish, which serialises the GPU (step_timed), or GPU time between GL_TIMESTAMP
// queries at the stage boundaries, with no wait between stages (step_gpu_timed).
struct GridStageTimes {
  double count = 0, scan = 0, scatter = 0, rank = 0, steer = 0;
  // The ecosystem's passes (0 without it): food counts and update, catch, settle, caps.
  double ecosystem = 0;
};

// Live statistics reduced on the GPU (docs/model.md, "Flock statistics"): cheap enough to
// show every frame. Partial sums are float32 per workgroup, added in double on the GPU
// (FlockReadback in murmur/flock/gpu/flock_readback.hpp computes them).
struct FlockSummary {
  double polarization = 0;
  // Empty where compute_stats' is: a species wraps and the flock is not compact.
  std::optional<double> milling;
  std::optional<CollectiveState> state;   // collective_state of the two above
  std::vector<std::uint32_t> population;  // boids per species
};

// The grid's exclusive prefix sum run on its own (for tests): values -> exclusive sums.
std::vector<std::uint32_t> exclusive_scan_on_gpu(const std::vector<std::uint32_t>& values);

class GpuFlock {
 public:
  GpuFlock(const Scenario& scenario, const FlockState& initial,
           NeighbourSearch search = NeighbourSearch::Grid);
  ~GpuFlock();
  GpuFlock(const GpuFlock&) = delete;
  GpuFlock& operator=(const GpuFlock&) = delete;

  // A step whose births take next_id past 2^32 - 1 throws the CPU reference's InputError
  // (require_ids_for_births, docs/model.md, "Ids that stay unique"). The GPU has made that step
  // by then, so the flock then refuses to step or be read (the same error) until upload().
  void step(std::uint32_t steps = 1);
  // One grid step with each stage timed (the same work as step(); slower, for `murmur bench`).
  GridStageTimes step_timed();
  // The same with GL timestamp queries, read after the step (waiting for it). Drivers that do
  // not time compute work (llvmpipe) give 0 for every stage.
  GridStageTimes step_gpu_timed();
  // Replaces the state (at most capacity() boids; ids any unique uint32 values). Its next_id
  // and step carry over (docs/model.md, "A living population").
  void upload(const FlockState& state);
  // Replaces the parameters (species weights, radii, speeds, topology, obstacles, target, the
  // [food] keys) for the next steps, keeping the state. The species' counts must stay the same
  // (a new count needs a new GpuFlock); the grid is rebuilt if the largest radius changed; a
  // new food cell_size or a lower max_per_cell carries the field over (refit_food_field).
  void set_parameters(const Scenario& scenario);
  // One boid whose velocity the user sets (docs/model.md, "Steered boid"); nullopt releases it.
  void set_steered(std::optional<SteeredBoid> steered);
  // The birth rules of the next steps (tests and the harness switch on the budding rule).
  void set_birth_rules(const BirthRules& births);
  // Sorted by id, with next_id, step, the food field and the per-species totals.
  FlockState download() const;
  // The live count (a blocking readback: tests and commands, never the viewer's frame).
  std::uint32_t live_count() const;
  // Counts seen by the last step, sorted by id (the naive pass reports them too).
  std::vector<GpuNeighbourCounts> download_neighbour_counts() const;

  // The SSBO holding the current state (Boid records in shaders/common/common.glsl layout, in cell
  // order, the first Population::live of capacity() slots), for renderers; valid until the
  // next step().
  unsigned boid_buffer() const;
  // The SSBO holding the Population record (shaders/common/common.glsl): the live count and
  // indirect dispatch arguments, written by the GPU alone.
  unsigned population_buffer() const;
  std::uint32_t capacity() const;
  // The state's step (FlockState::step), known on the CPU: no readback.
  std::uint64_t step_index() const;
  const GridShape& grid() const;
  // The food field (docs/model.md, "The food field"): an SSBO of float amounts, one per cell
  // of food_grid(), row by row, for renderers; 0 and nullopt without a [food] table.
  unsigned food_buffer() const;
  std::optional<GridShape> food_grid() const;
  // The SSBO of per-species event counters (shaders/common/common.glsl SpeciesTally, one per
  // species), for non-blocking readbacks (the viewer's panel).
  unsigned tally_buffer() const;
  const Scenario& scenario() const;

  void set_fault(GpuFault fault);  // test-only switch for the harness's planted faults

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace murmur
