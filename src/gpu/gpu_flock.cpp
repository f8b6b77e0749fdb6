#include "murmur/gpu/gpu_flock.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>

#include "murmur/gpu/gpu_types.hpp"
#include "interface.h"
#include "murmur/errors.hpp"
#include "murmur/gl/debug.hpp"
#include "murmur/gl/dispatch.hpp"
#include "murmur/gl/gl.hpp"
#include "murmur/gl/objects.hpp"
#include "murmur/gl/program.hpp"

namespace murmur {

namespace {

// Binning rounds p / cell_size; a cell slightly wider than the radius keeps every neighbour
// within one cell of its observer whatever that rounding does.
constexpr float kCellWidthOverRadius = 1.001f;
// Empty cells cost scan time and memory: never more cells than this many per boid (the
// cells grow instead, which is still correct, only slower per cell)...
constexpr std::uint32_t kMaxCellsPerBoid = 4;
// ...but small flocks may always have this many.
constexpr std::uint32_t kMinCellCap = 4096;
constexpr std::uint32_t kScanBlock = MURMUR_SCAN_GROUP_SIZE * MURMUR_SCAN_ITEMS_PER_THREAD;

using gl::dispatch_linear;  // folded past GL's per-dimension limit (murmur/gl/dispatch.hpp)
using gl::groups_for;

// Shader-storage writes of one pass become visible to the next pass's reads.
void storage_barrier() { glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT); }

}  // namespace

GridShape grid_shape_for(const Scenario& scenario, std::uint32_t boid_count) {
  const glm::vec2 world = scenario.size();
  const float min_cell = scenario.max_perception_radius() * kCellWidthOverRadius;
  glm::ivec2 cells{std::max(1, static_cast<int>(std::floor(world.x / min_cell))),
                   std::max(1, static_cast<int>(std::floor(world.y / min_cell)))};
  const double cap = std::max<double>(kMinCellCap, double(kMaxCellsPerBoid) * boid_count);
  const double total = double(cells.x) * double(cells.y);
  if (total > cap) {
    const double shrink = std::sqrt(total / cap);
    cells.x = std::max(1, static_cast<int>(std::floor(cells.x / shrink)));
    cells.y = std::max(1, static_cast<int>(std::floor(cells.y / shrink)));
  }
  return GridShape{cells, world / glm::vec2(cells)};
}

// Exclusive prefix sum over a buffer of uints in place, for any length: scan blocks, scan the
// block totals the same way one level up, then add each block's offset.
class GpuScan {
 public:
  explicit GpuScan(std::uint32_t max_length) : max_length_(max_length) {
    for (std::uint32_t n = max_length;;) {
      const std::uint32_t blocks = groups_for(n, kScanBlock);
      level_sums_.emplace_back("scan block totals level " + std::to_string(level_sums_.size()),
                               sizeof(std::uint32_t) * std::max(blocks, 1u));
      if (blocks <= 1) break;
      n = blocks;
    }
  }

  void run(const gl::Buffer& values, std::uint32_t n) const {
    if (n > max_length_) throw GpuError("internal: scan of " + std::to_string(n) + " values exceeds its allocation");
    if (n > 0) run_level(values, n, 0);
  }

 private:
  void run_level(const gl::Buffer& values, std::uint32_t n, std::size_t level) const {
    const std::uint32_t blocks = groups_for(n, kScanBlock);
    values.bind_storage(MURMUR_BIND_SCAN_IN);
    level_sums_[level].bind_storage(MURMUR_BIND_SCAN_SUMS);
    blocks_pass_.use();
    blocks_count_.set(n);
    dispatch_linear(blocks);
    storage_barrier();  // scan_blocks writes values + block totals; the next level reads them
    if (blocks <= 1) return;
    run_level(level_sums_[level], blocks, level + 1);
    values.bind_storage(MURMUR_BIND_SCAN_IN);
    level_sums_[level].bind_storage(MURMUR_BIND_SCAN_SUMS);
    add_pass_.use();
    add_count_.set(n);
    dispatch_linear(groups_for(n, MURMUR_SCAN_GROUP_SIZE));
    storage_barrier();  // scan_add writes values; the caller's next pass reads them
  }

  std::uint32_t max_length_;
  gl::Program blocks_pass_ = gl::Program::compute("scan_blocks.comp");
  gl::Program add_pass_ = gl::Program::compute("scan_add.comp");
  gl::Uniform blocks_count_{blocks_pass_, "element_count"}, add_count_{add_pass_, "element_count"};
  std::vector<gl::Buffer> level_sums_;  // block totals, one buffer per level
};

std::vector<std::uint32_t> exclusive_scan_on_gpu(const std::vector<std::uint32_t>& values) {
  const auto n = static_cast<std::uint32_t>(values.size());
  gl::Buffer buffer("scan test values", sizeof(std::uint32_t) * std::max<std::size_t>(n, 1));
  if (n > 0) buffer.upload(0, sizeof(std::uint32_t) * n, values.data());
  GpuScan scan(n);
  scan.run(buffer, n);
  std::vector<std::uint32_t> out(n);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  if (n > 0) buffer.download(0, sizeof(std::uint32_t) * n, out.data());
  return out;
}

struct GpuFlock::Impl {
  Scenario scenario;
  NeighbourSearch search;
  GridShape grid;
  std::uint32_t count = 0;
  std::uint32_t cell_count = 0;
  GpuFault fault = GpuFault::None;
  std::optional<SteeredBoid> steered;
  std::uint64_t steps_taken = 0;
  std::optional<std::uint64_t> planted_gl_error_step = gl::planted_gl_error_step();

  gl::Program count_pass, scatter_pass, rank_pass, steer_grid_pass, steer_naive_pass;
  std::unique_ptr<GpuScan> scan;
  gl::Buffer boids, sorted, species, obstacles, params, cell_counts, cell_starts, cell_fill,
      boid_cell, cell_entries, neighbours;

  void write_params() {
    gpu::StepParams p{scenario.size(), grid.cell_size, grid.cells, count, cell_count,
                      static_cast<std::uint32_t>(fault)};
    p.obstacle_count = static_cast<std::uint32_t>(scenario.obstacles.size());
    if (scenario.target) {
      p.has_target = 1;
      p.target = scenario.target->position;
    }
    if (steered) {
      p.has_steered = 1;
      p.steered_id = steered->id;
      p.steered_velocity = steered->velocity;
    }
    params.upload(0, sizeof p, &p);
  }

  // Species and obstacles as the shaders read them.
  void write_parameters() {
    std::vector<gpu::Species> records;
    for (const SpeciesModel& model : species_models(scenario)) records.push_back(gpu::to_gpu(model));
    species.upload(0, sizeof(gpu::Species) * records.size(), records.data());
    std::vector<gpu::Obstacle> discs;
    for (const Obstacle& o : scenario.obstacles) discs.push_back(gpu::Obstacle{o.centre, o.radius});
    if (!discs.empty()) obstacles.upload(0, sizeof(gpu::Obstacle) * discs.size(), discs.data());
    write_params();
  }

  // The grid's buffers for the current scenario's largest radius.
  void allocate_grid() {
    grid = grid_shape_for(scenario, count);
    cell_count = static_cast<std::uint32_t>(grid.cells.x) * static_cast<std::uint32_t>(grid.cells.y);
    const std::size_t cell_bytes = sizeof(std::uint32_t) * cell_count;
    scan = std::make_unique<GpuScan>(cell_count);
    cell_counts = gl::Buffer("cell counts", cell_bytes);
    cell_starts = gl::Buffer("cell starts", cell_bytes);
    cell_fill = gl::Buffer("cell fill cursors", cell_bytes);
  }

  void bind_simulation_buffers() const {
    boids.bind_storage(MURMUR_BIND_BOIDS);
    sorted.bind_storage(MURMUR_BIND_SORTED);
    species.bind_storage(MURMUR_BIND_SPECIES);
    obstacles.bind_storage(MURMUR_BIND_OBSTACLES);
    params.bind_storage(MURMUR_BIND_STEP_PARAMS);
    cell_counts.bind_storage(MURMUR_BIND_CELL_COUNT);
    cell_starts.bind_storage(MURMUR_BIND_CELL_START);
    cell_fill.bind_storage(MURMUR_BIND_CELL_FILL);
    boid_cell.bind_storage(MURMUR_BIND_BOID_CELL);
    cell_entries.bind_storage(MURMUR_BIND_CELL_ENTRIES);
    neighbours.bind_storage(MURMUR_BIND_NEIGHBOURS);
  }

  // Ends a stage for step_timed(): waits for the GPU, adds the stage's wall time to `slot`.
  class StageClock {
   public:
    void lap(double& slot) {
      glFinish();
      const auto now = std::chrono::steady_clock::now();
      slot += std::chrono::duration<double, std::milli>(now - last_).count();
      last_ = now;
    }

   private:
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  };

  void step_grid(GridStageTimes* times = nullptr) {
    std::optional<StageClock> clock;
    if (times != nullptr) {
      glFinish();  // earlier work is not this step's
      clock.emplace();
    }
    auto stage_done = [&](double GridStageTimes::*slot) {
      if (clock) clock->lap(times->*slot);
    };
    const std::uint32_t boid_groups = groups_for(count, MURMUR_STEP_GROUP_SIZE);
    bind_simulation_buffers();
    {
      gl::DebugGroup group("grid: count");
      cell_counts.clear_to_zero();
      cell_fill.clear_to_zero();
      // Clears are buffer updates; the atomics of grid_count must see them.
      glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
      count_pass.use();
      dispatch_linear(boid_groups);
      // grid_count writes cell_counts; the copy below reads them as a buffer update.
      glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
      stage_done(&GridStageTimes::count);
    }
    {
      gl::DebugGroup group("grid: scan");
      glCopyNamedBufferSubData(cell_counts.id(), cell_starts.id(), 0, 0,
                               sizeof(std::uint32_t) * cell_count);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // the copy feeds scan_blocks
      scan->run(cell_starts, cell_count);
      stage_done(&GridStageTimes::scan);
    }
    {
      gl::DebugGroup group("grid: scatter");
      scatter_pass.use();
      dispatch_linear(boid_groups);
      storage_barrier();  // grid_scatter writes cell_entries; grid_rank reads them
      stage_done(&GridStageTimes::scatter);
    }
    {
      gl::DebugGroup group("grid: rank");
      rank_pass.use();
      dispatch_linear(boid_groups);
      storage_barrier();  // grid_rank writes sorted_boids; steer_grid reads them
      stage_done(&GridStageTimes::rank);
    }
    {
      gl::DebugGroup group("steer: grid");
      steer_grid_pass.use();
      dispatch_linear(boid_groups);
      // steer_grid writes boids (state t+1) and neighbour counts; the next step's grid_count,
      // the renderer's vertex pulling and downloads read them.
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
      stage_done(&GridStageTimes::steer);
    }
  }

  void step_naive() {
    bind_simulation_buffers();
    gl::DebugGroup group("steer: naive");
    // state t to `sorted`, so steer_naive can write state t+1 over `boids`.
    glCopyNamedBufferSubData(boids.id(), sorted.id(), 0, 0, sizeof(gpu::Boid) * count);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    steer_naive_pass.use();
    dispatch_linear(groups_for(count, MURMUR_STEP_GROUP_SIZE));
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  }
};

GpuFlock::GpuFlock(const Scenario& scenario, const FlockState& initial, NeighbourSearch search)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.scenario = scenario;
  m.search = search;
  m.count = scenario.total_count();

  m.count_pass = gl::Program::compute("grid_count.comp");
  m.scatter_pass = gl::Program::compute("grid_scatter.comp");
  m.rank_pass = gl::Program::compute("grid_rank.comp");
  m.steer_grid_pass = gl::Program::compute("steer_grid.comp");
  m.steer_naive_pass = gl::Program::compute("steer_naive.comp");

  const std::size_t boid_bytes = sizeof(gpu::Boid) * m.count;
  const std::size_t slot_bytes = sizeof(std::uint32_t) * m.count;
  m.boids = gl::Buffer("boids (state t+1)", boid_bytes);
  m.sorted = gl::Buffer("boids by cell (state t)", boid_bytes);
  m.species = gl::Buffer("species", sizeof(gpu::Species) * scenario.species.size());
  m.obstacles = gl::Buffer("obstacles", sizeof(gpu::Obstacle) * kMaxObstacles);
  m.params = gl::Buffer("step params", sizeof(gpu::StepParams));
  m.boid_cell = gl::Buffer("cell of each boid", slot_bytes);
  m.cell_entries = gl::Buffer("boids listed by cell", slot_bytes);
  m.neighbours = gl::Buffer("neighbour counts", 4 * sizeof(std::uint32_t) * m.count);
  m.allocate_grid();
  m.write_parameters();
  upload(initial);
}

GpuFlock::~GpuFlock() = default;

void GpuFlock::step(std::uint32_t steps) {
  for (std::uint32_t k = 0; k < steps; ++k) {
    if (impl_->steps_taken++ == impl_->planted_gl_error_step) gl::make_planted_gl_error();
    if (impl_->search == NeighbourSearch::Grid) impl_->step_grid();
    else impl_->step_naive();
  }
}

GridStageTimes GpuFlock::step_timed() {
  GridStageTimes times;
  impl_->step_grid(&times);
  return times;
}

void GpuFlock::set_parameters(const Scenario& scenario) {
  Impl& m = *impl_;
  if (scenario.species.size() != m.scenario.species.size()) {
    throw InputError("set_parameters: the scenario has " + std::to_string(scenario.species.size()) +
                     " species, the flock " + std::to_string(m.scenario.species.size()));
  }
  for (std::size_t s = 0; s < scenario.species.size(); ++s) {
    if (scenario.species[s].count != m.scenario.species[s].count) {
      throw InputError("set_parameters: species[" + std::to_string(s) + "].count changed from " +
                       std::to_string(m.scenario.species[s].count) + " to " +
                       std::to_string(scenario.species[s].count) + "; a new count needs a new flock");
    }
  }
  if (scenario.obstacles.size() > kMaxObstacles) {
    throw InputError("set_parameters: " + std::to_string(scenario.obstacles.size()) +
                     " obstacles; at most " + std::to_string(kMaxObstacles));
  }
  const bool regrid = scenario.max_perception_radius() != m.scenario.max_perception_radius() ||
                      scenario.size() != m.scenario.size();
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // the last step's reads happen first
  m.scenario = scenario;
  if (regrid) m.allocate_grid();
  m.write_parameters();
}

void GpuFlock::set_steered(std::optional<SteeredBoid> steered) {
  impl_->steered = steered;
  impl_->write_params();
}

void GpuFlock::upload(const FlockState& state) {
  if (state.boids.size() != impl_->count) {
    throw InputError("state has " + std::to_string(state.boids.size()) +
                     " boids but the scenario has " + std::to_string(impl_->count));
  }
  std::vector<gpu::Boid> records;
  records.reserve(state.boids.size());
  for (const Boid& b : state.boids) records.push_back(gpu::to_gpu(b));
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // earlier shader writes land before this
  impl_->boids.upload(0, sizeof(gpu::Boid) * records.size(), records.data());
}

FlockState GpuFlock::download() const {
  std::vector<gpu::Boid> records(impl_->count);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  impl_->boids.download(0, sizeof(gpu::Boid) * records.size(), records.data());
  FlockState state;
  state.boids.reserve(records.size());
  for (const gpu::Boid& r : records) state.boids.push_back(gpu::from_gpu(r));
  state.sort_by_id();
  return state;
}

std::vector<GpuNeighbourCounts> GpuFlock::download_neighbour_counts() const {
  std::vector<std::uint32_t> raw(4 * static_cast<std::size_t>(impl_->count));
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  impl_->neighbours.download(0, sizeof(std::uint32_t) * raw.size(), raw.data());
  std::vector<GpuNeighbourCounts> counts(impl_->count);
  for (std::size_t k = 0; k < counts.size(); ++k) {
    counts[k] = GpuNeighbourCounts{raw[4 * k + 3], raw[4 * k], raw[4 * k + 1], raw[4 * k + 2]};
  }
  std::sort(counts.begin(), counts.end(),
            [](const GpuNeighbourCounts& a, const GpuNeighbourCounts& b) { return a.id < b.id; });
  return counts;
}

unsigned GpuFlock::boid_buffer() const { return impl_->boids.id(); }
std::uint32_t GpuFlock::count() const { return impl_->count; }
const GridShape& GpuFlock::grid() const { return impl_->grid; }
const Scenario& GpuFlock::scenario() const { return impl_->scenario; }

void GpuFlock::set_fault(GpuFault fault) {
  impl_->fault = fault;
  impl_->write_params();
}

}  // namespace murmur
