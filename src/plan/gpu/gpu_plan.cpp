// The floor-plan generator on the GPU (docs/gpu.md, "The floor-plan generator"). A step is the
// CPU reference's four parts as compute passes, every one over agents, points, buckets or
// blocks in parallel: deaths and moves; the points appended in agent order (a scan of the
// moves) and linked into the clearance index; the steering grid (block totals, its shape, a
// stable counting sort); separation and cohesion.
//
// Sections: the records the passes share with C++; the plan's buffers and programs; the start:
// buffers, the index, the first list; a step's passes; reads: the state, the index, the counts;
// room for points, counts and faults.
#include "murmur/plan/gpu/gpu_plan.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <tuple>
#include <stdexcept>
#include <string>

#include "common/interface.h"
#include "murmur/base/errors.hpp"
#include "murmur/gl/dispatch.hpp"
#include "murmur/gl/gl.hpp"
#include "murmur/gl/objects.hpp"
#include "murmur/gl/program.hpp"
#include "murmur/gl/gpu_scan.hpp"

namespace murmur {

// --- the records the passes share with C++ -----------------------------------------------------
namespace {

// std430 mirrors of shaders/plan/plan_buffers.glsl.
struct PlanAgentRecord {
  glm::vec2 location, velocity, acceleration, last_move, drawn;
  std::uint32_t id, turns, steps, death;
  std::uint32_t died_at[2];  // low word, high word
  std::uint32_t alive, moved;
  glm::vec2 origin;
  std::uint32_t parent, born;
};
static_assert(sizeof(PlanAgentRecord) == 88 && offsetof(PlanAgentRecord, id) == 40 &&
              offsetof(PlanAgentRecord, died_at) == 56 && offsetof(PlanAgentRecord, moved) == 68 &&
              offsetof(PlanAgentRecord, origin) == 72 && offsetof(PlanAgentRecord, born) == 84);

// PlanPoint is already the std430 record (shaders/plan/plan_buffers.glsl PlanPointRecord).
static_assert(sizeof(PlanPoint) == 32 && offsetof(PlanPoint, move) == 16 &&
              offsetof(PlanPoint, agent) == 24 && offsetof(PlanPoint, step) == 28);
static_assert(PlanPointIndex::kNone == MURMUR_PLAN_NONE);

struct PlanControl {
  alignas(16) double location_total[2];
  glm::vec2 grid_origin;
  glm::ivec2 grid_cells;
  float grid_cell;
  std::uint32_t point_count, bucket_count, error, error_step, error_need;
  std::uint32_t append_first, link_first, link_end;
  std::uint32_t link_groups[3], clear_groups[3];
  std::uint32_t listed[2];  // the movers of the steps of each parity
  std::uint32_t grid_entries;
  std::uint32_t agent_count, covered, covered_before;
  std::uint32_t births_dropped[2];  // low word, high word
};
static_assert(offsetof(PlanControl, grid_origin) == 16 && offsetof(PlanControl, grid_cell) == 32 &&
              offsetof(PlanControl, bucket_count) == 40 &&
              offsetof(PlanControl, error_need) == 52 && offsetof(PlanControl, link_groups) == 68 &&
              offsetof(PlanControl, clear_groups) == 80 && offsetof(PlanControl, listed) == 92 &&
              offsetof(PlanControl, grid_entries) == 100 &&
              offsetof(PlanControl, agent_count) == 104 &&
              offsetof(PlanControl, births_dropped) == 116);
constexpr GLintptr kLinkGroupsOffset = offsetof(PlanControl, link_groups);
constexpr GLintptr kClearGroupsOffset = offsetof(PlanControl, clear_groups);

// std430 mirror of plan_summary.comp's record.
struct PlanSummaryRecord {
  std::uint32_t step[2];  // low word, high word
  std::uint32_t agents, living;
  std::uint32_t died[MURMUR_PLAN_DEATH_CAUSES];
  std::uint32_t points, error, error_step;
};
static_assert(sizeof(PlanSummaryRecord) == 40 && offsetof(PlanSummaryRecord, points) == 28);
static_assert(std::tuple_size_v<decltype(GpuPlanCounts::died)> == MURMUR_PLAN_DEATH_CAUSES);
static_assert(static_cast<std::uint32_t>(PlanDeath::TooManyTurns) == MURMUR_PLAN_DEATH_CAUSES);

struct PlanPartial {
  double total[2];
  glm::vec2 low, high;
};
static_assert(sizeof(PlanPartial) == 32);

// plan_link.comp's and plan_grid.comp's phases, in their order.
enum LinkPhase : std::uint32_t { kLinkPush = 0, kLinkOrder = 1, kLinkCommit = 2 };
enum GridPhase : std::uint32_t { kGridCount = 0, kGridScatter = 1, kGridRank = 2 };
enum BranchPhase : std::uint32_t {
  kBranchFlag = MURMUR_PLAN_BRANCH_FLAG,
  kBranchBirth = MURMUR_PLAN_BRANCH_BIRTH,
  kBranchCount = MURMUR_PLAN_BRANCH_COUNT
};

struct PlanParamsRecord {
  float max_speed, max_force, snap, separation_radius, separation_weight, cohesion_min_distance,
      cohesion_weight, min_speed, clearance, index_cell_side, reach;
  std::int32_t index_rings;
  std::uint32_t warmup, max_turns, agent_capacity, point_capacity, cell_capacity,
      bucket_capacity, fault;
  // Branching (docs/model.md, "Branching"): off when branch_chance is 0.
  float branch_chance = 0;
  std::uint32_t coverage_target = 0;  // ceil(branch_coverage * cells): branching while below
  std::uint32_t coverage_columns = 0, coverage_cells = 0;
  float canvas_width = 0, canvas_height = 0, coverage_inverse_side = 0;
  std::uint32_t seed[2] = {0, 0};  // low word, high word
};
static_assert(sizeof(PlanParamsRecord) == 28 * 4);

// The default steering grid's room beyond MURMUR_PLAN_MAX_CELLS_PER_AGENT cells per agent: a
// bounding box's border cells, for agents strung out along a line.
constexpr std::uint32_t kSpareCells = 1u << 16;

void storage_barrier() { glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT); }

PlanAgentRecord record_of(const PlanAgent& a) {
  return {a.location, a.velocity, a.acceleration, a.last_move, a.drawn, a.id, a.turns, a.steps,
          static_cast<std::uint32_t>(a.death),
          {static_cast<std::uint32_t>(a.died_at), static_cast<std::uint32_t>(a.died_at >> 32)},
          a.alive ? 1u : 0u, 0u, a.origin, a.parent, a.born};
}

PlanAgent agent_of(const PlanAgentRecord& r) {
  PlanAgent a;
  a.location = r.location;
  a.velocity = r.velocity;
  a.acceleration = r.acceleration;
  a.last_move = r.last_move;
  a.drawn = r.drawn;
  a.id = r.id;
  a.turns = r.turns;
  a.steps = r.steps;
  a.death = static_cast<PlanDeath>(r.death);
  a.died_at = std::uint64_t(r.died_at[0]) | (std::uint64_t(r.died_at[1]) << 32);
  a.alive = r.alive != 0;
  a.origin = r.origin;
  a.parent = r.parent;
  a.born = r.born;
  return a;
}

// The next plan's history(): plans made in any thread are told apart.
std::atomic<std::uint64_t> next_history{1};

}  // namespace

// --- the plan's buffers and programs -----------------------------------------------------------
struct GpuPlan::Impl {
  PlanScenario scenario;
  std::uint64_t history = next_history.fetch_add(1);
  PlanParamsRecord params{};
  std::uint64_t step_index = 0;
  std::uint64_t seed = 0;  // the start's (PlanState::seed)
  bool branching = false;  // branch_chance > 0: the branch passes run
  gl::Program move_pass = gl::Program::compute("plan/plan_move.comp");
  gl::Program prepare_pass = gl::Program::compute("plan/plan_index_prepare.comp");
  gl::Program append_pass = gl::Program::compute("plan/plan_append.comp");
  gl::Program clear_pass = gl::Program::compute("plan/plan_heads_clear.comp");
  gl::Program link_pass = gl::Program::compute("plan/plan_link.comp");
  gl::Program blocks_pass = gl::Program::compute("plan/plan_crowd_blocks.comp");
  gl::Program shape_pass = gl::Program::compute("plan/plan_crowd_shape.comp");
  gl::Program grid_pass = gl::Program::compute("plan/plan_grid.comp");
  gl::Program steer_pass = gl::Program::compute("plan/plan_steer.comp");
  gl::Program summary_pass = gl::Program::compute("plan/plan_summary.comp");
  gl::Program branch_pass = gl::Program::compute("plan/plan_branch.comp");
  gl::Uniform move_step{move_pass, "step_index"}, prepare_step{prepare_pass, "step_number"},
      append_step{append_pass, "step_number"}, shape_step{shape_pass, "step_number"},
      link_phase{link_pass, "link_phase"}, grid_phase{grid_pass, "grid_phase"},
      summary_step{summary_pass, "step_index"}, steer_step{steer_pass, "step_number"},
      branch_step{branch_pass, "step_number"}, branch_phase{branch_pass, "branch_phase"};
  gl::Buffer agents, points, heads, next, cell_start, sorted, control, params_buffer, movers,
      agent_cell, cell_fill, cell_entries, link_next, partials, previous, last_point, summary,
      coverage;
  // The movers of the steps of each parity, by index (shaders/plan/plan_listed.glsl).
  std::array<gl::Buffer, 2> movers_of_parity;
  std::unique_ptr<GpuScan> mover_scan, cell_scan;

  // Step `step`'s lists: the previous step's movers in, this one's out.
  void bind_lists(std::uint32_t step) const {
    movers_of_parity[(step + 1) & 1].bind_storage(MURMUR_BIND_PLAN_LISTED);
    movers_of_parity[step & 1].bind_storage(MURMUR_BIND_PLAN_MOVERS_OUT);
  }

  void bind() const {
    agents.bind_storage(MURMUR_BIND_PLAN_AGENTS);
    points.bind_storage(MURMUR_BIND_PLAN_POINTS);
    heads.bind_storage(MURMUR_BIND_PLAN_HEADS);
    next.bind_storage(MURMUR_BIND_PLAN_NEXT);
    cell_start.bind_storage(MURMUR_BIND_PLAN_CELL_START);
    sorted.bind_storage(MURMUR_BIND_PLAN_SORTED);
    control.bind_storage(MURMUR_BIND_PLAN_CONTROL);
    params_buffer.bind_storage(MURMUR_BIND_PLAN_PARAMS);
    movers.bind_storage(MURMUR_BIND_PLAN_MOVERS);
    agent_cell.bind_storage(MURMUR_BIND_PLAN_AGENT_CELL);
    cell_fill.bind_storage(MURMUR_BIND_PLAN_CELL_FILL);
    cell_entries.bind_storage(MURMUR_BIND_PLAN_CELL_ENTRIES);
    link_next.bind_storage(MURMUR_BIND_PLAN_LINK_NEXT);
    partials.bind_storage(MURMUR_BIND_PLAN_PARTIALS);
    previous.bind_storage(MURMUR_BIND_PLAN_PREVIOUS);
    last_point.bind_storage(MURMUR_BIND_PLAN_LAST_POINT);
    summary.bind_storage(MURMUR_BIND_PLAN_SUMMARY);
    coverage.bind_storage(MURMUR_BIND_PLAN_COVERAGE);
  }

  PlanControl read_control() const {
    PlanControl c{};
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    control.download(0, sizeof c, &c);
    return c;
  }

  // The link passes, dispatched from the arguments plan_index_prepare wrote.
  void link(LinkPhase phase) const {
    link_pass.use();
    link_phase.set(static_cast<std::uint32_t>(phase));
    glDispatchComputeIndirect(kLinkGroupsOffset);
  }

  void grid(GridPhase phase, std::uint32_t agent_groups) const {
    grid_pass.use();
    grid_phase.set(static_cast<std::uint32_t>(phase));
    gl::dispatch_linear(agent_groups);
  }

  // `times`: each stage ended by glFinish and its wall time added there (step_timed).
  void one_step(std::uint32_t step, PlanStageTimes* times = nullptr);
  void branch(std::uint32_t step, std::uint32_t agent_groups);
  void advance(std::uint32_t steps, PlanStageTimes* times = nullptr);
  // Reads the error word: a step that ran out of room throws std::length_error naming it.
  void throw_if_stopped();
  // The buckets the heads buffer holds for a point capacity: every bucket count the index can
  // double to while its points fit.
  static std::uint32_t buckets_for(std::uint32_t point_capacity) {
    return std::bit_ceil(std::max<std::uint32_t>(
        MURMUR_PLAN_MIN_BUCKETS, point_capacity / MURMUR_PLAN_MAX_POINTS_PER_BUCKET));
  }
};

// --- the start: buffers, the index, the first list ---------------------------------------------

std::uint32_t gpu_plan_agent_capacity(const PlanScenario& scenario, std::uint32_t start_agents) {
  if (scenario.plan.branch_chance == 0.0f) return start_agents;
  return std::max(start_agents, scenario.plan.max_agents);
}

GpuPlan::GpuPlan(const PlanScenario& scenario, const PlanState& initial,
                 std::uint32_t point_capacity, std::uint32_t cell_capacity)
    : impl_(std::make_unique<Impl>()) {
  if (point_capacity >= PlanPointIndex::kNone || initial.points.size() > point_capacity) {
    throw std::length_error("GPU plan: point capacity " + std::to_string(point_capacity) +
                            " must hold the start's " + std::to_string(initial.points.size()) +
                            " points and be below " + std::to_string(PlanPointIndex::kNone));
  }
  Impl& m = *impl_;
  m.scenario = scenario;
  m.step_index = initial.step;
  m.seed = initial.seed;
  const PlanParams& plan = scenario.plan;
  const auto start_count = static_cast<std::uint32_t>(initial.agents.size());
  // Room for every agent a branching plan can grow (docs/model.md, "Branching").
  const std::uint32_t agent_count = gpu_plan_agent_capacity(scenario, start_count);
  if (cell_capacity == 0) {
    cell_capacity = MURMUR_PLAN_MAX_CELLS_PER_AGENT * agent_count + kSpareCells;
  }
  const std::uint32_t bucket_capacity = Impl::buckets_for(point_capacity);
  const PlanPointIndex& index = initial.index;
  m.params = {plan.max_speed, plan.max_force, plan.snap, plan.separation_radius,
              plan.separation_weight, plan.cohesion_min_distance, plan.cohesion_weight,
              plan.min_speed, plan.clearance, index.cell_side(),
              std::max(plan.separation_radius, plan.cohesion_min_distance), index.rings(),
              plan.warmup, plan.max_turns, agent_count, point_capacity, cell_capacity,
              bucket_capacity, static_cast<std::uint32_t>(GpuFault::None)};
  const PlanCoverage& coverage = initial.coverage;
  m.params.branch_chance = plan.branch_chance;
  m.params.coverage_target = static_cast<std::uint32_t>(
      std::ceil(double(plan.branch_coverage) * double(coverage.cells())));
  m.params.coverage_columns = coverage.shape().x;
  m.params.coverage_cells = coverage.cells();
  m.params.canvas_width = scenario.world.width;
  m.params.canvas_height = scenario.world.height;
  m.params.coverage_inverse_side = 1.0f / index.cell_side();
  m.params.seed[0] = static_cast<std::uint32_t>(initial.seed);
  m.params.seed[1] = static_cast<std::uint32_t>(initial.seed >> 32);
  m.branching = plan.branch_chance > 0.0f;

  std::vector<PlanAgentRecord> records;
  records.reserve(agent_count);
  for (const PlanAgent& a : initial.agents) records.push_back(record_of(a));
  records.resize(agent_count, PlanAgentRecord{});  // the room for children: none alive
  const auto bytes = [](std::size_t count, std::size_t each) {
    return std::max<std::size_t>(count, 1) * each;
  };
  m.agents = gl::Buffer("plan agents", bytes(agent_count, sizeof(PlanAgentRecord)));
  if (agent_count > 0) m.agents.upload(0, records.size() * sizeof(PlanAgentRecord), records.data());
  m.points = gl::Buffer("plan points", bytes(point_capacity, sizeof(PlanPoint)));
  if (!initial.points.empty()) {
    m.points.upload(0, initial.points.size() * sizeof(PlanPoint), initial.points.data());
  }
  // The start's index as the CPU built it; the passes extend it the same way.
  std::vector<std::uint32_t> heads(bucket_capacity, PlanPointIndex::kNone);
  std::copy(index.heads().begin(), index.heads().end(), heads.begin());
  m.heads = gl::Buffer("plan index heads", heads.size() * sizeof(std::uint32_t), heads.data());
  m.next = gl::Buffer("plan index next", bytes(point_capacity, sizeof(std::uint32_t)));
  if (!index.next().empty()) m.next.upload(0, index.next().size_bytes(), index.next().data());
  m.cell_start =
      gl::Buffer("plan grid starts", (std::size_t(cell_capacity) + 1) * sizeof(std::uint32_t));
  m.sorted = gl::Buffer("plan grid agents", bytes(agent_count, sizeof(std::uint32_t)));
  PlanControl control{};
  // The start's living agents, the list the first step takes (as if the step before moved them).
  std::vector<std::uint32_t> living;
  for (std::uint32_t i = 0; i < start_count; ++i) {
    if (initial.agents[i].alive) living.push_back(i);
  }
  control.listed[initial.step & 1] = static_cast<std::uint32_t>(living.size());
  living.resize(std::max<std::uint32_t>(agent_count, 1), 0u);
  const std::size_t list_bytes = bytes(agent_count, sizeof(std::uint32_t));
  m.movers_of_parity[initial.step & 1] = gl::Buffer("plan movers", list_bytes, living.data());
  m.movers_of_parity[(initial.step + 1) & 1] = gl::Buffer("plan movers", list_bytes);
  control.agent_count = start_count;
  control.covered = coverage.covered();
  control.covered_before = coverage.covered();
  control.births_dropped[0] = static_cast<std::uint32_t>(initial.births_dropped);
  control.births_dropped[1] = static_cast<std::uint32_t>(initial.births_dropped >> 32);
  control.point_count = static_cast<std::uint32_t>(initial.points.size());
  control.bucket_count = static_cast<std::uint32_t>(index.heads().size());
  m.control = gl::Buffer("plan control", sizeof control, &control);
  m.params_buffer = gl::Buffer("plan params", sizeof m.params, &m.params);
  m.movers = gl::Buffer("plan mover ranks", bytes(agent_count, sizeof(std::uint32_t)));
  m.agent_cell = gl::Buffer("plan agent cells", bytes(agent_count, sizeof(std::uint32_t)));
  m.cell_fill = gl::Buffer("plan grid fill", std::size_t(cell_capacity) * sizeof(std::uint32_t));
  m.cell_entries = gl::Buffer("plan grid entries", bytes(agent_count, sizeof(std::uint32_t)));
  m.link_next = gl::Buffer("plan index link order", bytes(point_capacity, sizeof(std::uint32_t)));
  m.partials = gl::Buffer("plan block totals",
                          bytes(gl::groups_for(agent_count, MURMUR_PLAN_TOTAL_BLOCK),
                                sizeof(PlanPartial)));
  // Each point's link to its agent's point before it, and each agent's newest point, as the
  // append pass keeps them: the start's points linked here in their order.
  std::vector<std::uint32_t> previous(initial.points.size(), PlanPointIndex::kNone);
  std::vector<std::uint32_t> last_point(agent_count, PlanPointIndex::kNone);
  for (std::size_t p = 0; p < initial.points.size(); ++p) {
    const std::uint32_t agent = initial.points[p].agent;
    if (agent >= start_count) throw std::invalid_argument("GPU plan: a point of no agent");
    previous[p] = last_point[agent];
    last_point[agent] = static_cast<std::uint32_t>(p);
  }
  m.previous = gl::Buffer("plan previous points", bytes(point_capacity, sizeof(std::uint32_t)));
  if (!previous.empty()) {
    m.previous.upload(0, previous.size() * sizeof(std::uint32_t), previous.data());
  }
  m.last_point = gl::Buffer("plan last points", bytes(agent_count, sizeof(std::uint32_t)),
                            last_point.empty() ? nullptr : last_point.data());
  m.summary = gl::Buffer("plan summary", sizeof(PlanSummaryRecord));
  // The coverage cells' bits (one word when not branching: nothing sets them).
  const std::size_t words = m.branching ? (std::size_t(coverage.cells()) + 31) / 32 : 0;
  std::vector<std::uint32_t> bits(std::max<std::size_t>(words, 1), 0u);
  std::copy(coverage.bits().begin(), coverage.bits().begin() + std::ptrdiff_t(words), bits.begin());
  m.coverage = gl::Buffer("plan coverage", bits.size() * sizeof(std::uint32_t), bits.data());
  m.mover_scan = std::make_unique<GpuScan>(agent_count);
  m.cell_scan = std::make_unique<GpuScan>(cell_capacity + 1);
}

GpuPlan::~GpuPlan() = default;

// --- a step's passes ---------------------------------------------------------------------------
void GpuPlan::Impl::one_step(std::uint32_t step, PlanStageTimes* times) {
  const std::uint32_t agent_count = params.agent_capacity;
  if (agent_count == 0) return;
  using Clock = std::chrono::steady_clock;
  Clock::time_point lap_start;
  if (times != nullptr) {
    glFinish();  // earlier work is not this step's
    lap_start = Clock::now();
  }
  const auto stage_done = [&](double PlanStageTimes::*stage) {
    if (times == nullptr) return;
    glFinish();
    const Clock::time_point now = Clock::now();
    times->*stage += std::chrono::duration<double, std::milli>(now - lap_start).count();
    lap_start = now;
  };
  const std::uint32_t agent_groups = gl::groups_for(agent_count, MURMUR_STEP_GROUP_SIZE);
  const std::uint32_t block_groups =
      gl::groups_for(gl::groups_for(agent_count, MURMUR_PLAN_TOTAL_BLOCK), MURMUR_STEP_GROUP_SIZE);
  bind();
  bind_lists(step);
  // 1-2. Deaths and moves.
  move_pass.use();
  move_step.set(glm::uvec2(step, 0u));
  gl::dispatch_linear(agent_groups);
  storage_barrier();  // plan_move writes the agents and the movers; the scan reads the movers
  stage_done(&PlanStageTimes::move);
  // 3. The points in agent order, and the clearance index.
  // Over the list's length, which the previous step left on the GPU.
  mover_scan->run(movers, agent_count, control,
                  offsetof(PlanControl, listed) + ((step + 1) & 1) * sizeof(std::uint32_t));
  bind();  // the scan took two binding points of its own
  bind_lists(step);
  prepare_pass.use();
  prepare_step.set(step);
  glDispatchCompute(1, 1, 1);
  // plan_index_prepare writes control (counts and dispatch arguments); the next passes read it
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
  append_pass.use();
  append_step.set(step);
  gl::dispatch_linear(agent_groups);
  storage_barrier();  // plan_append writes the points; the link passes read them
  stage_done(&PlanStageTimes::points);
  clear_pass.use();
  glDispatchComputeIndirect(kClearGroupsOffset);
  storage_barrier();  // plan_heads_clear empties the heads; the push fills them
  link(kLinkPush);
  storage_barrier();  // the push writes heads and next; the order pass walks them
  link(kLinkOrder);
  storage_barrier();  // the order pass writes link_next; the commit reads it
  link(kLinkCommit);
  storage_barrier();  // the committed index feeds the next step's deaths
  stage_done(&PlanStageTimes::index);
  // 4. The steering grid and the steering.
  blocks_pass.use();
  gl::dispatch_linear(block_groups);
  storage_barrier();  // plan_crowd_blocks writes the partials; plan_crowd_shape reads them
  shape_pass.use();
  shape_step.set(step);
  glDispatchCompute(1, 1, 1);
  stage_done(&PlanStageTimes::crowd);
  // the previous step's steering read cell_start; the clears must come after it
  glMemoryBarrier(GL_ALL_BARRIER_BITS);
  cell_start.clear_to_zero();
  cell_fill.clear_to_zero();
  glMemoryBarrier(GL_ALL_BARRIER_BITS);  // the cleared counts and the shape reach the grid passes
  stage_done(&PlanStageTimes::grid_clear);
  grid(kGridCount, agent_groups);
  storage_barrier();  // the counts feed the scan
  stage_done(&PlanStageTimes::grid_sort);
  // Over the grid's cells, not the capacity: plan_crowd_shape wrote their number.
  cell_scan->run(cell_start, params.cell_capacity + 1, control,
                 offsetof(PlanControl, grid_entries));
  bind();
  bind_lists(step);
  stage_done(&PlanStageTimes::grid_scan);
  grid(kGridScatter, agent_groups);
  storage_barrier();  // the scatter writes cell_entries; the rank reads them
  grid(kGridRank, agent_groups);
  storage_barrier();  // the rank writes sorted_agents; the steering reads them
  stage_done(&PlanStageTimes::grid_sort);
  steer_pass.use();
  steer_step.set(step);
  gl::dispatch_linear(agent_groups);
  storage_barrier();  // the accelerations feed the next move
  stage_done(&PlanStageTimes::steer);
  if (branching) branch(step, agent_groups);
}

// 5. Branches (docs/model.md, "Branching"): each of this step's movers flags its branch, the
// flags' exclusive scan ranks them in index order, and the flagged write their children at the
// agent count plus their rank; one invocation then counts them in.
void GpuPlan::Impl::branch(std::uint32_t step, std::uint32_t agent_groups) {
  branch_pass.use();
  branch_step.set(step);
  branch_phase.set(static_cast<std::uint32_t>(kBranchFlag));
  gl::dispatch_linear(agent_groups);
  storage_barrier();  // the flags feed the scan
  mover_scan->run(movers, params.agent_capacity, control,
                  offsetof(PlanControl, listed) + (step & 1) * sizeof(std::uint32_t));
  bind();
  bind_lists(step);
  branch_pass.use();
  branch_phase.set(static_cast<std::uint32_t>(kBranchBirth));
  gl::dispatch_linear(agent_groups);
  storage_barrier();  // the children and their list entries, before the count moves on
  branch_phase.set(static_cast<std::uint32_t>(kBranchCount));
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_ALL_BARRIER_BITS);  // the agent count feeds every later pass
}

void GpuPlan::Impl::advance(std::uint32_t steps, PlanStageTimes* times) {
  if (step_index + steps > PlanPointIndex::kNone - 1) {
    throw std::length_error("GPU plan: more than " + std::to_string(PlanPointIndex::kNone - 1) +
                            " steps, the most a plan holds");
  }
  glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, control.id());
  for (std::uint32_t s = 0; s < steps; ++s) {
    one_step(static_cast<std::uint32_t>(step_index + 1), times);
    ++step_index;
  }
}

void GpuPlan::advance(std::uint32_t steps) { impl_->advance(steps); }

PlanStageTimes GpuPlan::step_timed() {
  PlanStageTimes times;
  impl_->advance(1, &times);
  impl_->throw_if_stopped();
  return times;
}

void GpuPlan::Impl::throw_if_stopped() {
  const PlanControl c = read_control();
  if (c.error == MURMUR_PLAN_OK) return;
  step_index = c.error_step - 1;  // the failing step did not finish
  const std::string what = c.error == MURMUR_PLAN_POINTS_FULL
                               ? "saved points, its point capacity is " +
                                     std::to_string(params.point_capacity)
                               : "steering grid cells, its cell capacity is " +
                                     std::to_string(params.cell_capacity);
  throw std::length_error("GPU plan step " + std::to_string(c.error_step) + " needs " +
                          std::to_string(c.error_need) + " " + what);
}

// --- reads: the state, the index, the counts ---------------------------------------------------
void GpuPlan::step(std::uint32_t steps) {
  impl_->advance(steps);
  impl_->throw_if_stopped();
}

PlanState GpuPlan::plan_state() const {
  PlanState state;
  state.seed = impl_->seed;
  state.index = PlanPointIndex(impl_->scenario.plan.clearance);
  state.coverage = plan_coverage(impl_->scenario);
  update(state);
  return state;
}

void GpuPlan::update(PlanState& state) const {
  const Impl& m = *impl_;
  const PlanControl control = m.read_control();
  if (state.points.size() > control.point_count) {
    throw std::invalid_argument("GpuPlan::update: the state holds more points than the plan");
  }
  state.step = m.step_index;
  state.births_dropped =
      std::uint64_t{control.births_dropped[0]} | (std::uint64_t{control.births_dropped[1]} << 32);
  std::vector<PlanAgentRecord> records(control.agent_count);
  if (!records.empty()) {
    m.agents.download(0, records.size() * sizeof(PlanAgentRecord), records.data());
  }
  state.agents.clear();
  for (const PlanAgentRecord& r : records) state.agents.push_back(agent_of(r));
  const std::size_t known = state.points.size();
  state.points.resize(control.point_count);
  if (state.points.size() > known) {
    m.points.download(known * sizeof(PlanPoint), (state.points.size() - known) * sizeof(PlanPoint),
                      state.points.data() + known);
  }
  state.index.add(state.points);
  state.coverage.add(state.points);
}

GpuPlanIndex GpuPlan::index() const {
  const Impl& m = *impl_;
  const PlanControl control = m.read_control();
  GpuPlanIndex index;
  index.heads.resize(control.bucket_count);
  m.heads.download(0, index.heads.size() * sizeof(std::uint32_t), index.heads.data());
  index.next.resize(control.point_count);
  if (!index.next.empty()) {
    m.next.download(0, index.next.size() * sizeof(std::uint32_t), index.next.data());
  }
  return index;
}

std::uint64_t most_points_at(const GpuPlanCounts& counts, std::uint64_t step,
                             std::uint32_t child_room) {
  const std::uint64_t steps = step > counts.step ? step - counts.step : 0;
  return std::uint64_t{counts.points} + steps * (std::uint64_t{counts.living} + child_room);
}

// --- room for points, counts and faults --------------------------------------------------------
void GpuPlan::reserve(std::uint32_t point_capacity) {
  Impl& m = *impl_;
  if (point_capacity <= m.params.point_capacity) return;
  if (point_capacity >= PlanPointIndex::kNone) {
    throw std::length_error("GPU plan: point capacity " + std::to_string(point_capacity) +
                            " must be below " + std::to_string(PlanPointIndex::kNone));
  }
  // Every buffer sized by the points, grown with its contents; a copy of the whole old buffer,
  // so that nothing waits to learn how much of it is in use.
  const auto grown = [](const gl::Buffer& old, const char* label, std::size_t old_bytes,
                        std::size_t new_bytes) {
    gl::Buffer buffer(label, new_bytes);
    glCopyNamedBufferSubData(old.id(), buffer.id(), 0, 0, static_cast<GLsizeiptr>(old_bytes));
    return buffer;
  };
  const std::size_t old_points = std::max<std::size_t>(m.params.point_capacity, 1);
  const std::size_t new_points = point_capacity;
  // Shader writes to the old buffers reach the copies.
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  m.points = grown(m.points, "plan points", old_points * sizeof(PlanPoint),
                   new_points * sizeof(PlanPoint));
  m.next = grown(m.next, "plan index next", old_points * sizeof(std::uint32_t),
                 new_points * sizeof(std::uint32_t));
  m.link_next = grown(m.link_next, "plan index link order", old_points * sizeof(std::uint32_t),
                      new_points * sizeof(std::uint32_t));
  m.previous = grown(m.previous, "plan previous points", old_points * sizeof(std::uint32_t),
                     new_points * sizeof(std::uint32_t));
  const std::uint32_t buckets = Impl::buckets_for(point_capacity);
  if (buckets > m.params.bucket_capacity) {
    // The heads past the index's bucket count are cleared before the index doubles into them.
    m.heads = grown(m.heads, "plan index heads", m.params.bucket_capacity * sizeof(std::uint32_t),
                    buckets * sizeof(std::uint32_t));
  }
  m.params.point_capacity = point_capacity;
  m.params.bucket_capacity = std::max(buckets, m.params.bucket_capacity);
  m.params_buffer.upload(0, sizeof m.params, &m.params);
}

void GpuPlan::make_room(const GpuPlanCounts& known, std::uint64_t step) {
  const std::uint32_t room = impl_->params.agent_capacity - std::min(known.agents,
                                                                     impl_->params.agent_capacity);
  const std::uint64_t needed = most_points_at(known, step, room);
  const std::uint32_t capacity = point_capacity();
  if (needed <= capacity) return;
  const std::uint64_t most = PlanPointIndex::kNone - 1;
  if (needed > most) {
    throw std::length_error("GPU plan: step " + std::to_string(step) + " may need " +
                            std::to_string(needed) + " points, more than the " +
                            std::to_string(most) + " a plan holds");
  }
  reserve(static_cast<std::uint32_t>(std::min(std::max(needed, 2 * std::uint64_t{capacity}),
                                              most)));
}

void GpuPlan::count() {
  Impl& m = *impl_;
  m.summary.clear_to_zero();
  m.bind();
  m.summary_pass.use();
  m.summary_step.set(glm::uvec2(static_cast<std::uint32_t>(m.step_index),
                                static_cast<std::uint32_t>(m.step_index >> 32)));
  // The clear is a buffer update; the pass adds to the cleared record.
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
  gl::dispatch_linear(gl::groups_for(std::max<std::uint32_t>(m.params.agent_capacity, 1),
                                     MURMUR_STEP_GROUP_SIZE));
  storage_barrier();
}

GpuPlanCounts GpuPlan::counts() {
  count();
  std::array<std::byte, sizeof(PlanSummaryRecord)> bytes{};
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  impl_->summary.download(0, bytes.size(), bytes.data());
  return counts_from(bytes);
}

unsigned GpuPlan::counts_buffer() const { return impl_->summary.id(); }
std::size_t GpuPlan::counts_bytes() { return sizeof(PlanSummaryRecord); }

GpuPlanCounts GpuPlan::counts_from(std::span<const std::byte> bytes) {
  if (bytes.size() < sizeof(PlanSummaryRecord)) {
    throw std::invalid_argument("GpuPlan::counts_from: " + std::to_string(bytes.size()) +
                                " bytes, fewer than a summary");
  }
  PlanSummaryRecord record{};
  std::memcpy(&record, bytes.data(), sizeof record);
  GpuPlanCounts counts;
  counts.step = std::uint64_t{record.step[0]} | (std::uint64_t{record.step[1]} << 32);
  counts.agents = record.agents;
  counts.living = record.living;
  std::copy(std::begin(record.died), std::end(record.died), counts.died.begin());
  counts.points = record.points;
  counts.error = record.error;
  counts.error_step = record.error_step;
  return counts;
}

std::uint64_t GpuPlan::steps() const { return impl_->step_index; }
std::uint32_t GpuPlan::point_capacity() const { return impl_->params.point_capacity; }
const PlanScenario& GpuPlan::scenario() const { return impl_->scenario; }
std::uint64_t GpuPlan::history() const { return impl_->history; }

GpuPlanBuffers GpuPlan::buffers() const {
  const Impl& m = *impl_;
  return {m.agents.id(),
          m.points.id(),
          m.previous.id(),
          m.control.id(),
          offsetof(PlanControl, point_count),
          m.params.agent_capacity,
          m.params.point_capacity};
}

void GpuPlan::set_fault(GpuFault fault) {
  Impl& m = *impl_;
  m.params.fault = static_cast<std::uint32_t>(fault);
  m.params_buffer.upload(0, sizeof m.params, &m.params);
}

}  // namespace murmur
