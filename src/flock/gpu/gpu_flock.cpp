// The flock on the GPU (docs/gpu.md, "The simulation pipeline"): buffers, the grid's counting
// sort, steering, the ecosystem's passes and births, each step's passes dispatched from the live
// count the GPU keeps.
//
// Sections: helpers; the flock's buffers and programs; buffers and parameters; one step: the
// sort, trail slots, the ecosystem, steering, the ids' limit; the public functions: steps,
// parameters, upload and download. The stage clocks of the timed steps are stage_timing.hpp,
// what the ecosystem asks of a step ecosystem_plan.hpp; the planted fault's reading and the
// scan's test entry are gpu_flock_hooks.cpp.
#include "murmur/flock/gpu/gpu_flock.hpp"

#include <algorithm>
#include <optional>
#include <functional>
#include <map>
#include <string>

#include "murmur/gl/gpu_scan.hpp"
#include "murmur/flock/gpu/gpu_flock_memory.hpp"
#include "murmur/flock/gpu/gpu_types.hpp"
#include "common/interface.h"
#include "murmur/base/errors.hpp"
#include "murmur/gl/debug.hpp"
#include "murmur/gl/dispatch.hpp"
#include "murmur/gl/gl.hpp"
#include "murmur/gl/objects.hpp"
#include "murmur/gl/program.hpp"
#include "ecosystem_plan.hpp"
#include "stage_timing.hpp"

namespace murmur {

// --- helpers -----------------------------------------------------------------------------------
namespace {

using gl::dispatch_linear;  // folded past GL's per-dimension limit (murmur/gl/dispatch.hpp)
using gl::groups_for;

// Shader-storage writes of one pass become visible to the next pass's reads, storage loads
// and texel fetches of the buffer-texture views alike.
constexpr GLbitfield kShaderReadBarriers = GL_SHADER_STORAGE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT;
void storage_barrier() { glMemoryBarrier(kShaderReadBarriers); }

// The steering passes' variant with the ecosystem's sensing, steering and energy.
constexpr const char* kEcosystemDefine = "#define MURMUR_ECOSYSTEM\n";
// The grid's steering pass of a flock of one species (fixed for a flock's life: set_parameters
// keeps the species): its candidates' species need no fetch.
constexpr const char* kOneSpeciesDefine = "#define MURMUR_ONE_SPECIES\n";
// The steering passes' variant in which a topological species keeps its k nearest (docs/gpu.md,
// "Topological neighbours"); a scenario without one steps with the metric passes alone.
constexpr const char* kTopologicalDefine = "#define MURMUR_TOPOLOGICAL\n";
// A 64-bit step as the shaders take it (low word, high word).
glm::uvec2 step_words(std::uint64_t step) {
  return {static_cast<std::uint32_t>(step), static_cast<std::uint32_t>(step >> 32)};
}

// Where the dispatch arguments lie in the Population record (gpu::Population).
constexpr GLintptr kLiveGroupsOffset = offsetof(gpu::Population, live_groups);
constexpr GLintptr kCandidateGroupsOffset = offsetof(gpu::Population, candidate_groups);

}  // namespace

// --- the flock's buffers and programs ----------------------------------------------------------
struct GpuFlock::Impl {
  Scenario scenario;
  // A 3D world: every pass compiled with gl::kVolumeDefine (the 48-byte record, vec3 positions
  // and velocities, the grid's layers: docs/gpu.md, "Three dimensions").
  bool volume = false;
  std::string dimension_define;  // gl::kVolumeDefine in 3D, else nothing
  NeighbourSearch search;
  GridShape grid;
  std::uint32_t capacity = 0;
  std::uint32_t cell_count = 0;
  std::uint64_t step_index = 0;  // steps taken by the state on the GPU (FlockState::step)
  GpuFault fault = planted_gpu_fault();
  BirthRules births;
  std::optional<SteeredBoid> steered;
  std::uint64_t steps_taken = 0;
  std::optional<std::uint64_t> planted_gl_error_step = gl::planted_gl_error_step();
  // The most the GPU's next_id can be, exact after an upload or a readback (check_ids_of_births).
  std::uint64_t next_id_bound = 0;
  // Set when a step's births took next_id past the limit: its message. The GPU made that step
  // before the flock could know, so the flock refuses to step or be read until an upload.
  std::optional<std::string> refused_step;

  gl::Program count_pass, scatter_pass, rank_pass, births_pass, population_pass, slots_taken_pass,
      slots_free_pass;
  std::optional<gl::Uniform> population_phase, slots_free_count, count_counting_deaths,
      births_step;
  EcosystemPlan ecosystem{Scenario{}};
  // One variant of the steering passes, the grid's and the all-pairs one, and their step uniforms.
  struct SteerPasses {
    SteerPasses(const std::string& grid_defines, const std::string& naive_defines)
        : grid(gl::Program::compute("flock/steer_grid.comp", grid_defines)),
          naive(gl::Program::compute("flock/steer_naive.comp", naive_defines)) {}
    gl::Program grid, naive;
    gl::Uniform grid_step_index{grid, "step_index"}, naive_step_index{naive, "step_index"};
  };
  // By their defines, each compiled by the first scenario that steps with it (steer_passes).
  std::map<std::string, SteerPasses> steer_variants;
  // The ecosystem's other passes, compiled by the first scenario that needs them
  // (ensure_ecosystem_buffers).
  struct EcosystemPasses {
    gl::Program graze_count = gl::Program::compute("flock/food_graze_count.comp");
    gl::Program food_update = gl::Program::compute("flock/food_update.comp");
    gl::Program catch_prey = gl::Program::compute("flock/catch.comp");
    gl::Program settle = gl::Program::compute("flock/settle.comp");
    gl::Program species_cap = gl::Program::compute("flock/species_cap.comp");
    gl::Uniform cap_phase{species_cap, "cap_phase"}, capped_species{species_cap, "capped_species"};
  };
  std::unique_ptr<EcosystemPasses> eco_passes;
  // child_scan scans the child counts, then (its results consumed) the taken trail slots.
  std::unique_ptr<GpuScan> cell_scan, child_scan;
  // `sorted` holds the current state (cell order, compact, `population.live` boids); `boids`
  // holds the candidates of the step being taken (steered survivors-to-be, the dying, children).
  gl::Buffer boids, sorted, species, obstacles, params, population, cell_counts, cell_starts,
      cell_fill, boid_cell, cell_entries, neighbours, child_counts, child_offsets;
  // Buffer-texture views of the same bytes (docs/gpu.md, "Texel fetches").
  gl::BufferTexture sorted_texels, candidate_texels, cell_start_texels, cell_entry_texels,
      sorted_motion_texels, boid_cell_texels;
  gl::Buffer sorted_motion;
  // Trail slots for children (made by the first set_birth_rules that turns births on).
  gl::Buffer slot_taken, slot_taken_before, free_slots;
  // The ecosystem's: the food field and its grazer counts (food cells), the hunt records
  // (capacity), the per-species tallies (always: every flock counts its births and deaths)
  // and survivor counts.
  gl::Buffer food, food_grazers, hunt, tally, survivors;
  std::optional<GridShape> food_shape;
  std::uint32_t food_cells = 0;

  // --- buffers and parameters ------------------------------------------------------------------
  void write_params() {
    gpu::StepParams p{scenario.size(), glm::vec2(grid.cell_size), glm::ivec2(grid.cells), capacity,
                      cell_count, static_cast<std::uint32_t>(fault)};
    p.obstacle_count = static_cast<std::uint32_t>(scenario.obstacles.size());
    if (scenario.target) {
      p.has_target = 1;
      p.target = scenario.target->position;
      p.target_z = scenario.target->z;
    }
    if (steered) {
      p.has_steered = 1;
      p.steered_id = steered->id;
      p.steered_velocity = steered->velocity;
      p.steered_velocity_z = steered->velocity_z;
    }
    p.budding_period = births.budding_period;
    p.seed[0] = static_cast<std::uint32_t>(scenario.world.seed);
    p.seed[1] = static_cast<std::uint32_t>(scenario.world.seed >> 32);
    p.inverse_cell_size = glm::vec2(grid.inverse_cell_size);
    p.world_depth = world_box(scenario).z;
    p.cell_depth = grid.cell_size.z;
    p.inverse_cell_depth = grid.inverse_cell_size.z;
    p.grid_layers = grid.cells.z;
    if (scenario.food && food_shape) {
      p.has_food = 1;
      p.food_grid = food_shape->cells;
      p.food_inverse_cell_size = food_shape->inverse_cell_size;
      p.food_cell_size = food_shape->cell_size.x;
      p.food_bite = scenario.food->bite;
      p.food_max_per_cell = scenario.food->max_per_cell;
      p.food_regrow_per_step = scenario.food->regrow_per_step;
    }
    p.energy_births = ecosystem.energy_births ? 1 : 0;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // the last step's reads happen first
    params.upload(0, sizeof p, &p);
  }

  // Species and obstacles as the shaders read them.
  void write_parameters() {
    ecosystem = EcosystemPlan(scenario);
    require_supported_in_3d();
    if (ecosystem.on) ensure_ecosystem_buffers();
    steer_passes();  // compiled now, so that a shader error surfaces before the first step
    if (!ecosystem.on) food_shape.reset();  // no [food] table (it would switch the rules on)
    if (ecosystem.energy_births) ensure_trail_slot_buffers();
    std::vector<gpu::Species> records;
    for (const SpeciesModel& model : species_models(scenario)) records.push_back(gpu::to_gpu(model));
    species.upload(0, sizeof(gpu::Species) * records.size(), records.data());
    std::vector<gpu::Obstacle> discs;
    for (const Obstacle& o : scenario.obstacles) discs.push_back(gpu::Obstacle{o.centre, o.radius, o.z});
    if (!discs.empty()) obstacles.upload(0, sizeof(gpu::Obstacle) * discs.size(), discs.data());
    write_params();
  }

  // What a 3D world steps without on the GPU (docs/gpu.md, "Three dimensions").
  void require_supported_in_3d() const {
    if (!volume) return;
    const auto refuse = [&](const std::string& what) {
      throw InputError(scenario.source + ": " + what + " in a 3D world is not on the GPU");
    };
    if (ecosystem.on) refuse("the ecosystem (eats, grazes, energy, [food])");
  }

  // The bytes of one boid's record: 40, or 48 in 3D.
  std::size_t boid_record_bytes() const { return volume ? sizeof(gpu::Boid3D) : sizeof(gpu::Boid); }

  // The steering passes this scenario steps with: MURMUR_ECOSYSTEM with the ecosystem's keys,
  // MURMUR_TOPOLOGICAL with a topological species.
  SteerPasses& steer_passes() {
    std::string defines = ecosystem.on ? kEcosystemDefine : "";
    const auto topological = [](const SpeciesParams& s) { return s.neighbours == Neighbours::Topological; };
    if (std::any_of(scenario.species.begin(), scenario.species.end(), topological)) {
      defines += kTopologicalDefine;
    }
    const bool one_species = scenario.species.size() == 1 && !ecosystem.on;
    return steer_variants.try_emplace(defines,
                                      dimension_define + defines +
                                          (one_species ? kOneSpeciesDefine : ""),
                                      dimension_define + defines).first->second;
  }

  // The ecosystem's passes and buffers, made once, by the first scenario that has its keys.
  void ensure_ecosystem_buffers() {
    if (!eco_passes) eco_passes = std::make_unique<EcosystemPasses>();
    const GpuFlockBufferBytes bytes = gpu_flock_buffer_bytes(scenario, capacity);
    if (hunt.id() == 0) hunt = gl::Buffer("hunt records", bytes.hunt);
    if (survivors.id() == 0) survivors = gl::Buffer("survivors per species", bytes.survivors);
    std::optional<GridShape> shape;
    if (scenario.food) shape = food_grid_shape(*scenario.food, scenario.size());
    const std::uint32_t cells = shape ? shape->cell_count() : 0;
    if (cells != food_cells) {
      // A field of a new shape starts from the scenario's initial one; upload() replaces it
      // with a state's.
      food = gl::Buffer("food field", bytes.food);  // a float per cell, at least one
      food_grazers = gl::Buffer("grazers per food cell", bytes.food);  // a uint per cell
      const std::vector<float> field = initial_food(scenario);
      if (!field.empty()) food.upload(0, sizeof(float) * field.size(), field.data());
      food_cells = cells;
    }
    food_shape = shape;
  }

  // The grid's buffers for the current scenario's largest radius. The counts and starts have
  // one entry more than the cells, never counted into: its start is the total, where the last
  // cell's range ends, so steer_grid.comp ends a run of cells at the next cell's start.
  void allocate_grid() {
    grid = grid_shape_for(scenario, capacity);
    cell_count = grid.cell_count();
    const GpuFlockBufferBytes bytes = gpu_flock_buffer_bytes(scenario, capacity);
    cell_scan = std::make_unique<GpuScan>(cell_count + 1);
    cell_counts = gl::Buffer("cell counts", bytes.cell_starts);
    cell_starts = gl::Buffer("cell starts", bytes.cell_starts);
    cell_fill = gl::Buffer("cell fill cursors", bytes.cell_fill);
    cell_start_texels = gl::BufferTexture("cell starts (texels)", GL_R32UI, cell_starts);
  }

  void bind_simulation_buffers() const {
    boids.bind_storage(MURMUR_BIND_BOIDS);
    sorted.bind_storage(MURMUR_BIND_SORTED);
    species.bind_storage(MURMUR_BIND_SPECIES);
    obstacles.bind_storage(MURMUR_BIND_OBSTACLES);
    params.bind_storage(MURMUR_BIND_STEP_PARAMS);
    population.bind_storage(MURMUR_BIND_POPULATION);
    cell_counts.bind_storage(MURMUR_BIND_CELL_COUNT);
    cell_starts.bind_storage(MURMUR_BIND_CELL_START);
    cell_fill.bind_storage(MURMUR_BIND_CELL_FILL);
    boid_cell.bind_storage(MURMUR_BIND_BOID_CELL);
    cell_entries.bind_storage(MURMUR_BIND_CELL_ENTRIES);
    neighbours.bind_storage(MURMUR_BIND_NEIGHBOURS);
    child_counts.bind_storage(MURMUR_BIND_CHILD_COUNT);
    child_offsets.bind_storage(MURMUR_BIND_CHILD_OFFSET);
    slot_taken.bind_storage(MURMUR_BIND_SLOT_TAKEN);
    slot_taken_before.bind_storage(MURMUR_BIND_SLOT_TAKEN_BEFORE);
    free_slots.bind_storage(MURMUR_BIND_FREE_SLOTS);
    food.bind_storage(MURMUR_BIND_FOOD);
    food_grazers.bind_storage(MURMUR_BIND_FOOD_GRAZERS);
    hunt.bind_storage(MURMUR_BIND_HUNT);
    tally.bind_storage(MURMUR_BIND_TALLY);
    survivors.bind_storage(MURMUR_BIND_SURVIVORS);
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, population.id());
    sorted_texels.bind(MURMUR_TEX_SORTED);
    candidate_texels.bind(MURMUR_TEX_CANDIDATES);
    cell_start_texels.bind(MURMUR_TEX_CELL_START);
    cell_entry_texels.bind(MURMUR_TEX_CELL_ENTRIES);
    sorted_motion.bind_storage(MURMUR_BIND_SORTED_MOTION);
    sorted_motion_texels.bind(MURMUR_TEX_SORTED_MOTION);
    boid_cell_texels.bind(MURMUR_TEX_BOID_CELL);
  }

  std::vector<gl::Handle<gl::delete_query>> stage_queries;  // reused by every timed step

  void update_population(GLuint phase) {
    population_pass.use();
    population_phase->set(std::uint32_t{phase});
    glDispatchCompute(1, 1, 1);
    // The counts feed the next passes' reads and their indirect dispatch arguments.
    glMemoryBarrier(kShaderReadBarriers | GL_COMMAND_BARRIER_BIT);
  }

  // --- one step: the sort, trail slots, the ecosystem, steering --------------------------------
  // The counting sort of the candidates into `sorted`: the dead drop out, the scan's total is
  // the new live count. Ends with the current state in `sorted`.
  // `in_step`: the dead are counted as deaths (an upload drops boids already dead uncounted).
  using StageDone = std::function<void(double GridStageTimes::*)>;
  void sort_candidates(const StageDone& stage_done, bool in_step) {
    {
      gl::DebugGroup group("grid: count");
      cell_counts.clear_to_zero();
      cell_fill.clear_to_zero();
      // Clears are buffer updates; the atomics of grid_count must see them.
      glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
      count_pass.use();
      count_counting_deaths->set(std::uint32_t{in_step ? 1u : 0u});
      glDispatchComputeIndirect(kCandidateGroupsOffset);
      // grid_count writes cell_counts; the copy below reads them as a buffer update.
      glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
      stage_done(&GridStageTimes::count);
    }
    {
      gl::DebugGroup group("grid: scan");
      glCopyNamedBufferSubData(cell_counts.id(), cell_starts.id(), 0, 0,
                               sizeof(std::uint32_t) * (cell_count + 1));
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // the copy feeds scan_blocks
      cell_scan->run(cell_starts, cell_count + 1);
      bind_simulation_buffers();  // the scan bound its own buffers
      update_population(MURMUR_POPULATION_AFTER_SORT);
      stage_done(&GridStageTimes::scan);
    }
    {
      gl::DebugGroup group("grid: scatter");
      scatter_pass.use();
      glDispatchComputeIndirect(kCandidateGroupsOffset);
      storage_barrier();  // grid_scatter writes cell_entries; grid_rank reads them
      stage_done(&GridStageTimes::scatter);
    }
    {
      gl::DebugGroup group("grid: rank");
      rank_pass.use();
      glDispatchComputeIndirect(kCandidateGroupsOffset);
      // grid_rank writes sorted_boids: the next steer, the renderer's vertex pulling and
      // downloads read them.
      glMemoryBarrier(kShaderReadBarriers | GL_BUFFER_UPDATE_BARRIER_BIT);
      stage_done(&GridStageTimes::rank);
    }
  }

  // The trail slots the children take (docs/gpu.md, "Trail slots"): the survivors' slots are
  // taken, the rest listed in ascending order. Only steps with births run it; deaths alone
  // just leave their slots free.
  void list_free_trail_slots() {
    gl::DebugGroup group("births: free trail slots");
    slot_taken.clear_to_zero();
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
    slots_taken_pass.use();
    glDispatchComputeIndirect(kLiveGroupsOffset);
    // trail_slots_taken writes slot_taken; the copy below reads it as a buffer update.
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
    glCopyNamedBufferSubData(slot_taken.id(), slot_taken_before.id(), 0, 0,
                             sizeof(std::uint32_t) * capacity);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // the copy feeds the scan
    child_scan->run(slot_taken_before, capacity);
    bind_simulation_buffers();  // the scan bound its own buffers
    slots_free_pass.use();
    slots_free_count->set(capacity);
    dispatch_linear(groups_for(capacity, MURMUR_STEP_GROUP_SIZE));
    storage_barrier();  // trail_slots_free writes free_slots; births reads them
  }

  // Trail slots for children: made by the first rules (budding, or births by energy) that
  // turn births on; a flock without births never holds these.
  void ensure_trail_slot_buffers() {
    if (free_slots.id() != 0) return;
    const std::size_t slot_bytes = gpu_flock_buffer_bytes(scenario, capacity).slot_words;
    slot_taken = gl::Buffer("trail slot taken", slot_bytes);
    slot_taken_before = gl::Buffer("trail slots taken before", slot_bytes);
    free_slots = gl::Buffer("free trail slots", slot_bytes);
  }

  bool births_on() const { return births.any() || ecosystem.energy_births; }

  // Before steering: n_c, the grazers of state t per food cell, and the survivor counts
  // zeroed for settle.comp.
  void ecosystem_before_steering() {
    gl::DebugGroup group("ecosystem: grazers per food cell");
    survivors.clear_to_zero();
    if (ecosystem.grazing) food_grazers.clear_to_zero();
    // Clears are buffer updates; the atomics of food_graze_count and settle must see them.
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
    if (!ecosystem.grazing) return;
    eco_passes->graze_count.use();
    glDispatchComputeIndirect(kLiveGroupsOffset);
    storage_barrier();  // food_graze_count writes food_grazers; steer and food_update read them
  }

  // After steering (whose reads of state t are done): the food field's step, catching, the
  // settling of energy and deaths, and the species caps on the children wanted.
  void ecosystem_after_steering() {
    if (ecosystem.food) {
      gl::DebugGroup group("ecosystem: food update");
      eco_passes->food_update.use();
      dispatch_linear(groups_for(food_cells, MURMUR_STEP_GROUP_SIZE));
      // food_update writes food: the next step's steer, downloads and the renderer read it.
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    }
    if (ecosystem.hunting) {
      gl::DebugGroup group("ecosystem: catch");
      eco_passes->catch_prey.use();
      glDispatchComputeIndirect(kLiveGroupsOffset);
      storage_barrier();  // catch writes fates and hunt.z (fed); settle reads them
    }
    {
      gl::DebugGroup group("ecosystem: settle");
      eco_passes->settle.use();
      glDispatchComputeIndirect(kLiveGroupsOffset);
      storage_barrier();  // settle writes energies, fates, survivors, wishes; the caps read them
    }
    for (const std::uint32_t s : ecosystem.capped) {
      gl::DebugGroup group("ecosystem: species cap");
      eco_passes->species_cap.use();
      eco_passes->capped_species.set(s);
      eco_passes->cap_phase.set(std::uint32_t{MURMUR_CAP_SELECT});
      dispatch_linear(groups_for(capacity, MURMUR_STEP_GROUP_SIZE));
      storage_barrier();  // species_cap writes the wishes into child_offsets; the scan reads them
      child_scan->run(child_offsets, capacity);
      bind_simulation_buffers();  // the scan bound its own buffers
      eco_passes->species_cap.use();
      eco_passes->cap_phase.set(std::uint32_t{MURMUR_CAP_APPLY});
      glDispatchComputeIndirect(kLiveGroupsOffset);
      storage_barrier();  // species_cap drops wishes in child_counts; births reads them
    }
  }

  // One step: steer (state t in `sorted` -> candidates in `boids`), births, then the counting
  // sort that makes the candidates the next state.
  enum class StageTiming { WallClock, GpuTimestamps };
  void step_once(GridStageTimes* times = nullptr, StageTiming timing = StageTiming::WallClock) {
    std::optional<StageClock> clock;
    std::optional<StageQueries> queries;
    if (times != nullptr && timing == StageTiming::WallClock) {
      glFinish();  // earlier work is not this step's
      clock.emplace();
    } else if (times != nullptr) {
      queries.emplace(stage_queries);
    }
    const StageDone stage_done = [&](double GridStageTimes::*slot) {
      if (clock) clock->lap(times->*slot);
      if (queries) queries->lap(times->*slot);
    };
    bind_simulation_buffers();
    if (ecosystem.on) {
      ecosystem_before_steering();
      stage_done(&GridStageTimes::ecosystem);
    }
    {
      gl::DebugGroup group(search == NeighbourSearch::Grid ? "steer: grid" : "steer: naive");
      if (births_on()) {
        // Slots past the live count must add no children to the scan.
        child_counts.clear_to_zero();
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
      }
      const bool grid_search = search == NeighbourSearch::Grid;
      SteerPasses& passes = steer_passes();
      (grid_search ? passes.grid : passes.naive).use();
      (grid_search ? passes.grid_step_index : passes.naive_step_index).set(step_words(step_index));
      glDispatchComputeIndirect(kLiveGroupsOffset);
      // steer writes the candidates, child counts and neighbour counts; births, the sort and
      // downloads read them.
      glMemoryBarrier(kShaderReadBarriers | GL_BUFFER_UPDATE_BARRIER_BIT);
    }
    if (ecosystem.on) {
      stage_done(&GridStageTimes::steer);
      ecosystem_after_steering();
      stage_done(&GridStageTimes::ecosystem);
    }
    if (births_on()) {
      gl::DebugGroup group("births");
      glCopyNamedBufferSubData(child_counts.id(), child_offsets.id(), 0, 0,
                               sizeof(std::uint32_t) * capacity);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // the copy feeds the scan
      child_scan->run(child_offsets, capacity);
      list_free_trail_slots();
      births_pass.use();
      if (births_step) births_step->set(step_words(step_index));
      glDispatchComputeIndirect(kLiveGroupsOffset);
      storage_barrier();  // children are candidates of the sort below
    }
    update_population(MURMUR_POPULATION_AFTER_BIRTHS);
    stage_done(&GridStageTimes::steer);
    sort_candidates(stage_done, true);
    ++step_index;
    if (queries) queries->resolve();
    if (births_on()) check_ids_of_births();
  }

  // The CPU reference's rule (require_ids_for_births) on the births the GPU just made. A step
  // bears at most `capacity` children: while next_id_bound stays at most kLastNextId nothing
  // is read; past it the Population record (next_id, the children just born) is, once a step.
  void check_ids_of_births() {
    next_id_bound += capacity;
    if (next_id_bound <= kLastNextId) return;
    const gpu::Population p = read_population();
    // population_update.comp added `born` to next_id in uint32: subtracting it is exact.
    const std::uint32_t next_id_before = p.next_id - p.born;
    try {
      require_ids_for_births(step_index, next_id_before, p.born);
    } catch (const InputError& error) {
      refused_step = error.what();
      throw;
    }
    next_id_bound = p.next_id;
  }

  void require_not_refused() const { if (refused_step) throw InputError(*refused_step); }

  gpu::Population read_population() const {
    gpu::Population p{};
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    population.download(0, sizeof p, &p);
    return p;
  }
};

GpuFlock::GpuFlock(const Scenario& scenario, const FlockState& initial, NeighbourSearch search)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.scenario = scenario;
  m.search = search;
  m.volume = is_3d(scenario);
  m.dimension_define = m.volume ? gl::kVolumeDefine : "";
  const std::string& dimension = m.dimension_define;
  m.capacity = std::max<std::uint32_t>(scenario.capacity(),
                                       static_cast<std::uint32_t>(initial.boids.size()));

  m.count_pass = gl::Program::compute("flock/grid_count.comp", dimension);
  m.scatter_pass = gl::Program::compute("flock/grid_scatter.comp", dimension);
  m.rank_pass = gl::Program::compute("flock/grid_rank.comp", dimension);
  m.births_pass = gl::Program::compute("flock/births.comp", dimension);
  m.population_pass = gl::Program::compute("flock/population_update.comp", dimension);
  m.slots_taken_pass = gl::Program::compute("flock/trail_slots_taken.comp", dimension);
  m.slots_free_pass = gl::Program::compute("flock/trail_slots_free.comp", dimension);
  m.slots_free_count.emplace(m.slots_free_pass, "slot_count");
  m.population_phase.emplace(m.population_pass, "update_phase");
  m.count_counting_deaths.emplace(m.count_pass, "counting_deaths");
  // Only births by energy draw (a 2D world's: a 3D one has no ecosystem).
  if (!m.volume) m.births_step.emplace(m.births_pass, "birth_step");

  // The sizes the memory estimate sums (gpu_flock_memory.hpp); a flock of capacity 0 has a slot.
  const std::size_t slots = std::max<std::uint32_t>(m.capacity, 1);
  const GpuFlockBufferBytes bytes = gpu_flock_buffer_bytes(scenario, m.capacity);
  const std::size_t slot_bytes = bytes.slot_words;
  m.boids = gl::Buffer("boids (step candidates)", bytes.boids);
  m.sorted = gl::Buffer("boids by cell (current state)", bytes.boids);
  m.species = gl::Buffer("species", bytes.species);
  m.obstacles = gl::Buffer("obstacles", bytes.obstacles);
  m.params = gl::Buffer("step params", bytes.params);
  m.population = gl::Buffer("population", bytes.population);
  m.boid_cell = gl::Buffer("cell of each boid", slot_bytes);
  m.cell_entries = gl::Buffer("ids listed by cell", slot_bytes);
  m.neighbours = gl::Buffer("neighbour counts", bytes.neighbours);
  m.sorted_texels = gl::BufferTexture("boids by cell (texels)", GL_RG32UI, m.sorted);
  m.sorted_motion = gl::Buffer("positions and velocities by cell", bytes.sorted_motion);
  m.sorted_motion_texels =
      gl::BufferTexture("positions and velocities by cell (texels)", GL_RGBA32F, m.sorted_motion);
  m.candidate_texels = gl::BufferTexture("boids (texels)", GL_RG32UI, m.boids);
  m.cell_entry_texels = gl::BufferTexture("ids listed by cell (texels)", GL_R32UI, m.cell_entries);
  m.boid_cell_texels = gl::BufferTexture("cell of each boid (texels)", GL_R32UI, m.boid_cell);
  m.child_counts = gl::Buffer("children of each boid", slot_bytes);
  m.child_offsets = gl::Buffer("birth offsets", slot_bytes);
  m.child_scan = std::make_unique<GpuScan>(static_cast<std::uint32_t>(slots));
  m.tally = gl::Buffer("event tallies per species", bytes.tally);
  m.allocate_grid();
  m.write_parameters();
  upload(initial);
}

GpuFlock::~GpuFlock() = default;

// --- the public functions: steps, parameters, upload and download ------------------------------
void GpuFlock::step(std::uint32_t steps) {
  impl_->require_not_refused();
  for (std::uint32_t k = 0; k < steps; ++k) {
    if (impl_->steps_taken++ == impl_->planted_gl_error_step) gl::make_planted_gl_error();
    impl_->step_once();
  }
}

GridStageTimes GpuFlock::step_timed() {
  impl_->require_not_refused();
  GridStageTimes times;
  impl_->step_once(&times);
  return times;
}

GridStageTimes GpuFlock::step_gpu_timed() {
  impl_->require_not_refused();
  GridStageTimes times;
  impl_->step_once(&times, Impl::StageTiming::GpuTimestamps);
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
  if (scenario.capacity() > m.capacity) {
    throw InputError("set_parameters: capacity " + std::to_string(scenario.capacity()) +
                     " exceeds the flock's " + std::to_string(m.capacity) +
                     "; a larger capacity needs a new flock");
  }
  if (scenario.obstacles.size() > kMaxObstacles) {
    throw InputError("set_parameters: " + std::to_string(scenario.obstacles.size()) +
                     " obstacles; at most " + std::to_string(kMaxObstacles));
  }
  if (is_3d(scenario) != m.volume) {
    throw InputError("set_parameters: world.dimensions changed; a new dimension needs a new flock");
  }
  const bool regrid = scenario.max_perception_radius() != m.scenario.max_perception_radius() ||
                      world_box(scenario) != world_box(m.scenario);
  // A new food grid or a lower cap keeps the food the field holds (docs/model.md, "The
  // food field"); a one-off readback, as the regrid's below.
  std::vector<float> refitted_food;
  if (m.scenario.food && scenario.food &&
      food_field_needs_refit(*m.scenario.food, *scenario.food)) {
    refitted_food = refit_food_field(*m.scenario.food, *scenario.food, scenario.size(),
                                     download().food);
  }
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // the last step's reads happen first
  if (!regrid) {
    m.scenario = scenario;
    m.write_parameters();
    if (!refitted_food.empty()) {
      m.food.upload(0, sizeof(float) * refitted_food.size(), refitted_food.data());
    }
    return;
  }
  // The state is sorted by the old grid's cells: sort it again by the new grid's.
  FlockState state = download();
  if (!refitted_food.empty()) state.food = std::move(refitted_food);
  m.scenario = scenario;
  m.allocate_grid();
  m.write_parameters();
  upload(state);
}

void GpuFlock::set_steered(std::optional<SteeredBoid> steered) {
  impl_->steered = steered;
  impl_->write_params();
}

void GpuFlock::set_birth_rules(const BirthRules& births) {
  Impl& m = *impl_;
  if (births.any()) m.ensure_trail_slot_buffers();
  m.births = births;
  m.write_params();
}

void GpuFlock::upload(const FlockState& state) {
  Impl& m = *impl_;
  const auto n = static_cast<std::uint32_t>(state.boids.size());
  if (state.boids.size() > m.capacity) {
    throw InputError("state has " + std::to_string(state.boids.size()) +
                     " boids but the flock's capacity is " + std::to_string(m.capacity));
  }
  for (const Boid& b : state.boids) {
    if (b.species >= m.scenario.species.size()) {
      throw InputError("state: boid " + std::to_string(b.id) + " has species " +
                       std::to_string(b.species) + "; the scenario has " +
                       std::to_string(m.scenario.species.size()));
    }
  }
  std::vector<gpu::Boid> records;
  records.reserve(state.boids.size());
  // Trail slots are dense from 0 in the state's order (docs/gpu.md, "Trail slots").
  for (const Boid& b : state.boids) {
    records.push_back(gpu::to_gpu(b));
    records.back().trail_slot = static_cast<std::uint32_t>(records.size() - 1);
  }
  // The uploaded boids are candidates whose sort makes them the state. The sort drops a boid
  // already past its max_age, exactly as a step would have.
  gpu::Population population{};
  population.candidates = n;
  population.next_id = state.resolved_next_id();
  // The same fold as compute_index.glsl's folded_groups, which population_update.comp keeps these
  // arguments with from now on.
  const gl::DispatchShape shape = gl::folded_dispatch(groups_for(n, MURMUR_STEP_GROUP_SIZE));
  population.candidate_groups[0] = shape.x;
  population.candidate_groups[1] = shape.y;
  population.candidate_groups[2] = 1;
  const std::size_t species_count = m.scenario.species.size();
  if (!state.totals.empty() && state.totals.size() != species_count) {
    throw InputError("state: totals for " + std::to_string(state.totals.size()) +
                     " species; the scenario has " + std::to_string(species_count));
  }
  if (!state.food.empty() && state.food.size() != m.food_cells) {
    throw InputError("state: a food field of " + std::to_string(state.food.size()) + " cells; " +
                     (m.scenario.food ? "the scenario's [food] has " + std::to_string(m.food_cells)
                                      : std::string("the scenario has no [food] table")));
  }
  std::vector<gpu::SpeciesTally> tallies(species_count);
  for (std::size_t s = 0; s < state.totals.size(); ++s) tallies[s] = gpu::to_gpu(state.totals[s]);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // earlier shader writes land before this
  if (n > 0 && m.volume) {
    std::vector<gpu::Boid3D> volume_records;
    volume_records.reserve(records.size());
    for (std::size_t k = 0; k < records.size(); ++k) {
      volume_records.push_back(gpu::to_gpu_3d(state.boids[k]));
      volume_records.back().plane.trail_slot = records[k].trail_slot;
    }
    m.boids.upload(0, sizeof(gpu::Boid3D) * volume_records.size(), volume_records.data());
  } else if (n > 0) {
    m.boids.upload(0, sizeof(gpu::Boid) * records.size(), records.data());
  }
  if (species_count > 0) {
    m.tally.upload(0, sizeof(gpu::SpeciesTally) * species_count, tallies.data());
  }
  // A state without a field starts from the scenario's initial one (docs/model.md).
  const std::vector<float> field = state.food.empty() ? initial_food(m.scenario) : state.food;
  if (!field.empty()) m.food.upload(0, sizeof(float) * field.size(), field.data());
  m.population.upload(0, sizeof population, &population);
  m.next_id_bound = population.next_id;
  m.refused_step.reset();
  m.step_index = state.step;
  m.bind_simulation_buffers();
  m.sort_candidates([](double GridStageTimes::*) {}, false);
}

FlockState GpuFlock::download() const {
  impl_->require_not_refused();
  const gpu::Population population = impl_->read_population();
  FlockState state;
  state.boids.reserve(population.live);
  const auto read_records = [&]<class Record>(std::vector<Record> records) {
    if (!records.empty()) impl_->sorted.download(0, sizeof(Record) * records.size(), records.data());
    for (const Record& r : records) state.boids.push_back(gpu::from_gpu(r));
  };
  if (impl_->volume) {
    read_records(std::vector<gpu::Boid3D>(population.live));
  } else {
    read_records(std::vector<gpu::Boid>(population.live));
  }
  state.sort_by_id();
  state.next_id = population.next_id;
  state.step = impl_->step_index;
  const std::size_t species_count = impl_->scenario.species.size();
  std::vector<gpu::SpeciesTally> tallies(species_count);
  if (species_count > 0) {
    impl_->tally.download(0, sizeof(gpu::SpeciesTally) * species_count, tallies.data());
  }
  for (const gpu::SpeciesTally& t : tallies) state.totals.push_back(gpu::from_gpu(t));
  if (impl_->scenario.food) {
    state.food.resize(impl_->food_cells);
    impl_->food.download(0, sizeof(float) * state.food.size(), state.food.data());
  }
  return state;
}

std::uint32_t GpuFlock::live_count() const {
  impl_->require_not_refused();
  return impl_->read_population().live;
}

std::vector<GpuNeighbourCounts> GpuFlock::download_neighbour_counts() const {
  // The counts are per slot of the state the last step started from.
  const std::uint32_t steered = impl_->read_population().steered;
  std::vector<std::uint32_t> raw(4 * static_cast<std::size_t>(steered));
  if (!raw.empty()) impl_->neighbours.download(0, sizeof(std::uint32_t) * raw.size(), raw.data());
  std::vector<GpuNeighbourCounts> counts(steered);
  for (std::size_t k = 0; k < counts.size(); ++k) {
    counts[k] = GpuNeighbourCounts{raw[4 * k + 3], raw[4 * k], raw[4 * k + 1], raw[4 * k + 2]};
  }
  std::sort(counts.begin(), counts.end(),
            [](const GpuNeighbourCounts& a, const GpuNeighbourCounts& b) { return a.id < b.id; });
  return counts;
}

unsigned GpuFlock::boid_buffer() const { return impl_->sorted.id(); }
unsigned GpuFlock::food_buffer() const { return impl_->scenario.food ? impl_->food.id() : 0; }
std::optional<GridShape> GpuFlock::food_grid() const { return impl_->food_shape; }
unsigned GpuFlock::tally_buffer() const { return impl_->tally.id(); }
std::uint32_t GpuFlock::capacity() const { return impl_->capacity; }
std::uint64_t GpuFlock::step_index() const { return impl_->step_index; }
unsigned GpuFlock::population_buffer() const { return impl_->population.id(); }
const GridShape& GpuFlock::grid() const { return impl_->grid; }
const Scenario& GpuFlock::scenario() const { return impl_->scenario; }

void GpuFlock::set_fault(GpuFault fault) {
  impl_->fault = fault;
  impl_->write_params();
}

}  // namespace murmur
