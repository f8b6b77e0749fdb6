// The ecosystem on the GPU (docs/model.md, "An ecosystem (origin 001)"; docs/gpu.md, "An
// ecosystem"): hand-made states whose events are worked out here from the model's rules
// (conflicts between hunters, grazers sharing a cell, births by energy with the Philox
// velocity, the species cap, starvation), on the grid and the naive pass, each also checked
// against the CPU reference; lockstep against the CPU reference on a seeded mixed scenario,
// event by event; the tallies; the GPU's determinism by seed; and the planted fault
// GreedyHunter.
//
// Sections: helpers; catching; grazing and food steering; births and starvation; lockstep,
// reproducibility and murmur compare; editing the food keys live.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <vector>

#include "gpu_test_support.hpp"
#include "murmur/flock/agreement.hpp"
#include "murmur/flock/cpu_flock.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/flock/gpu/harness.hpp"
#include "murmur/flock/grid.hpp"
#include "murmur/flock/model.hpp"
#include "murmur/base/random.hpp"

using namespace murmur;
using murmur::test::gl_context;

// --- helpers -----------------------------------------------------------------------------------
namespace {

constexpr float kWorld = 100.0f;
constexpr float kRadius = 10.0f;
// Energies are small integers and halves: every value below is exact in float32, so the
// expected energies are exact too.
constexpr float kEnergyMax = 100.0f;
constexpr float kCostOfLiving = 1.0f;
constexpr float kPreyGain = 20.0f;

// A species that flies straight (no steering weights) with energy, spending kCostOfLiving a
// step and nothing for moving, so its energy after a step is e - 1 plus what it eats.
SpeciesParams living(const char* name, float energy) {
  SpeciesParams s = test::make_species(name, Topology::Wrap, kRadius, 0.0f);
  s.energy_max = kEnergyMax;
  s.energy_initial = energy;
  s.energy_per_step = kCostOfLiving;
  return s;
}

Scenario world_with(std::vector<SpeciesParams> species, std::uint32_t capacity = 64) {
  Scenario sc = test::world(kWorld, kWorld, 11);
  sc.species = std::move(species);
  sc.world.capacity = capacity;
  return sc;
}

// Prey (species 0, no energy) and hunters (species 1) that catch within 3 units.
Scenario hunting_world() {
  SpeciesParams prey = test::make_species("prey", Topology::Wrap, kRadius, 0.0f);
  SpeciesParams hunter = living("hunter", 50.0f);
  hunter.eats = {"prey"};
  hunter.catch_radius = 3.0f;
  hunter.energy_from_prey = kPreyGain;
  return world_with({prey, hunter});
}

Boid boid(std::uint32_t id, std::uint32_t species, glm::vec2 pos, float energy = 0.0f) {
  return Boid{pos, glm::vec2(1.0f, 0.0f), id, species, 0, energy};
}

FlockState state_of(std::vector<Boid> boids) {
  FlockState state;
  state.boids = std::move(boids);
  return state;
}

FlockState gpu_steps(const Scenario& sc, const FlockState& start, NeighbourSearch search,
                     std::uint32_t steps = 1, GpuFault fault = GpuFault::None) {
  GpuFlock flock(sc, start, search);
  flock.set_fault(fault);
  flock.step(steps);
  return flock.download();
}

// The hand-made states' events agree exactly with the CPU reference's: the same boids, the
// same energies (every quantity here is exact, or a quotient within a few ulps), the same food.
void require_cpu_agrees(const Scenario& sc, const FlockState& start, const FlockState& gpu) {
  FlockState cpu = cpu_step(sc, start);
  cpu.sort_by_id();
  REQUIRE(cpu.boids.size() == gpu.boids.size());
  for (std::size_t k = 0; k < cpu.boids.size(); ++k) {
    INFO("boid " << cpu.boids[k].id);
    REQUIRE(cpu.boids[k].id == gpu.boids[k].id);
    CHECK_THAT(gpu.boids[k].energy, Catch::Matchers::WithinULP(cpu.boids[k].energy, 4));
  }
  CHECK(cpu.totals == gpu.totals);
  CHECK(cpu.next_id == gpu.next_id);
  CHECK(cpu.food == gpu.food);
}

const Boid* find(const FlockState& state, std::uint32_t id) {
  for (const Boid& b : state.boids) {
    if (b.id == id) return &b;
  }
  return nullptr;
}

NeighbourSearch any_search() {
  return GENERATE(NeighbourSearch::Grid, NeighbourSearch::Naive);
}

// The two hunters of the conflict below: id 1 nearer its prey (dist_sq 2.25) than id 2 (4).
FlockState two_hunters_one_prey() {
  return state_of({boid(0, 0, {50.0f, 50.0f}), boid(1, 1, {48.5f, 50.0f}, 50.0f),
                   boid(2, 1, {52.0f, 50.0f}, 50.0f)});
}

// How many hunters of a step from two_hunters_one_prey() gained the prey's energy.
int fed_hunters(const FlockState& after) {
  int fed = 0;
  for (const std::uint32_t id : {1u, 2u}) {
    const Boid* hunter = find(after, id);
    if (hunter != nullptr && hunter->energy == 50.0f - kCostOfLiving + kPreyGain) ++fed;
  }
  return fed;
}

}  // namespace

// --- catching ----------------------------------------------------------------------------------
TEST_CASE("Catching: of two hunters striking one prey the nearer eats it, the other goes hungry") {
  gl_context();
  const NeighbourSearch search = any_search();
  const Scenario sc = hunting_world();
  const FlockState after = gpu_steps(sc, two_hunters_one_prey(), search);
  require_cpu_agrees(sc, two_hunters_one_prey(), after);
  CHECK(find(after, 0) == nullptr);  // eaten
  REQUIRE(find(after, 1) != nullptr);
  REQUIRE(find(after, 2) != nullptr);
  CHECK(find(after, 1)->energy == 50.0f - kCostOfLiving + kPreyGain);
  CHECK(find(after, 2)->energy == 50.0f - kCostOfLiving);
  REQUIRE(after.totals.size() == 2);
  CHECK(after.totals[0] == SpeciesTotals{0, 0, 1});
  CHECK(after.totals[1] == SpeciesTotals{0, 0, 0});
}

TEST_CASE("Catching: hunters at the same distance are decided by id, not by their slots") {
  gl_context();
  const NeighbourSearch search = any_search();
  const Scenario sc = hunting_world();
  // Hunter 7 sits in a grid column left of hunter 3's, so it comes first in cell order; both
  // are 2 units from the prey.
  const FlockState start = state_of({boid(0, 0, {55.5f, 50.0f}), boid(7, 1, {53.5f, 50.0f}, 50.0f),
                                     boid(3, 1, {57.5f, 50.0f}, 50.0f)});
  const GridShape grid = grid_shape_for(sc, sc.capacity());
  REQUIRE(grid.cell_of(start.boids[1].pos) < grid.cell_of(start.boids[2].pos));
  const FlockState after = gpu_steps(sc, start, search);
  require_cpu_agrees(sc, start, after);
  CHECK(find(after, 0) == nullptr);
  CHECK(find(after, 3)->energy == 50.0f - kCostOfLiving + kPreyGain);
  CHECK(find(after, 7)->energy == 50.0f - kCostOfLiving);
}

TEST_CASE("Catching: a hunter eats at most one prey a step, the nearest it sees") {
  gl_context();
  const NeighbourSearch search = any_search();
  const Scenario sc = hunting_world();
  const FlockState start = state_of({boid(0, 0, {50.0f, 50.0f}), boid(1, 0, {51.0f, 50.0f}),
                                     boid(2, 1, {48.0f, 50.0f}, 50.0f)});
  const FlockState after = gpu_steps(sc, start, search);
  require_cpu_agrees(sc, start, after);
  CHECK(find(after, 0) == nullptr);  // 2 units away: the nearest
  CHECK(find(after, 1) != nullptr);  // 3 units: outside the catch radius anyway
  CHECK(find(after, 2)->energy == 50.0f - kCostOfLiving + kPreyGain);

  // Two prey inside the catch radius: only the nearer is eaten.
  const FlockState close = state_of({boid(0, 0, {50.0f, 50.0f}), boid(1, 0, {49.0f, 51.5f}),
                                     boid(2, 1, {48.0f, 50.0f}, 50.0f)});
  const FlockState after_close = gpu_steps(sc, close, search);
  require_cpu_agrees(sc, close, after_close);
  CHECK(find(after_close, 0) != nullptr);        // dist_sq 4
  CHECK(find(after_close, 1) == nullptr);        // dist_sq 3.25: the nearest
  CHECK(find(after_close, 2)->energy == 50.0f - kCostOfLiving + kPreyGain);
  CHECK(after_close.totals[0].died == 1);
}

TEST_CASE("Catching across the torus seam: the prey finds its striker in the wrapped cells") {
  gl_context();
  const NeighbourSearch search = any_search();
  const Scenario sc = hunting_world();
  // The prey in the first row of cells, its hunter 2 units away in the last (and likewise
  // in the first and last columns): the catch pass must wrap its 3 x 3 cells.
  for (const bool across_rows : {true, false}) {
    INFO((across_rows ? "rows" : "columns"));
    const glm::vec2 prey_at = across_rows ? glm::vec2{50.0f, 0.5f} : glm::vec2{0.5f, 50.0f};
    const glm::vec2 hunter_at =
        across_rows ? glm::vec2{50.0f, kWorld - 1.5f} : glm::vec2{kWorld - 1.5f, 50.0f};
    const FlockState start = state_of({boid(0, 0, prey_at), boid(1, 1, hunter_at, 50.0f)});
    const FlockState after = gpu_steps(sc, start, search);
    require_cpu_agrees(sc, start, after);
    CHECK(find(after, 0) == nullptr);
    CHECK(find(after, 1)->energy == 50.0f - kCostOfLiving + kPreyGain);
  }
}

TEST_CASE("The planted fault GreedyHunter (every striker eats) is caught") {
  gl_context();
  const Scenario sc = hunting_world();
  // The clean run passes the check the fault must fail: exactly one hunter fed.
  REQUIRE(fed_hunters(gpu_steps(sc, two_hunters_one_prey(), NeighbourSearch::Grid)) == 1);
  const FlockState faulty =
      gpu_steps(sc, two_hunters_one_prey(), NeighbourSearch::Grid, 1, GpuFault::GreedyHunter);
  CHECK(fed_hunters(faulty) == 2);
}

// --- grazing and food steering -----------------------------------------------------------------
TEST_CASE("Grazing: the grazers of a cell share its food equally, and every cell regrows") {
  gl_context();
  const NeighbourSearch search = any_search();
  SpeciesParams grazer = living("grazer", 50.0f);
  grazer.grazes = true;
  grazer.energy_from_food = 10.0f;
  Scenario sc = world_with({grazer});
  FoodParams food;
  food.cell_size = 10.0f;
  food.max_per_cell = 5.0f;
  food.regrow_per_step = 0.25f;
  food.bite = 1.0f;
  sc.food = food;
  const GridShape field = food_grid_shape(food, sc.size());
  REQUIRE(field.cell_count() == 100);

  FlockState start =
      state_of({boid(0, 0, {52.0f, 52.0f}, 50.0f), boid(1, 0, {55.0f, 55.0f}, 50.0f),
                boid(2, 0, {57.0f, 53.0f}, 50.0f), boid(3, 0, {25.0f, 75.0f}, 50.0f)});
  start.food.assign(field.cell_count(), 5.0f);
  const std::uint32_t shared = field.cell_of({52.0f, 52.0f});
  const std::uint32_t alone = field.cell_of({25.0f, 75.0f});
  start.food[shared] = 2.0f;  // three grazers want 3: each gets 2/3
  start.food[alone] = 4.0f;   // one grazer wants 1: it gets its bite
  const FlockState after = gpu_steps(sc, start, search);
  require_cpu_agrees(sc, start, after);

  const float share = 2.0f / 3.0f;
  const float shared_energy = 50.0f - kCostOfLiving + 10.0f * share;
  for (const std::uint32_t id : {0u, 1u, 2u}) {
    INFO("grazer " << id);
    // A GPU's quotient may be a few ulps off the correctly rounded one (docs/model.md).
    CHECK_THAT(find(after, id)->energy, Catch::Matchers::WithinULP(shared_energy, 4));
  }
  CHECK(find(after, 3)->energy == 50.0f - kCostOfLiving + 10.0f);
  REQUIRE(after.food.size() == field.cell_count());
  CHECK(after.food[shared] == 0.25f);        // eaten bare, then regrown
  CHECK(after.food[alone] == 3.25f);         // 4 - 1 + 0.25
  CHECK(after.food[shared + 1] == 5.0f);     // full cells stay at max_per_cell
}

TEST_CASE("Food steering pulls a grazer towards the first richest cell around its own") {
  gl_context();
  const NeighbourSearch search = any_search();
  SpeciesParams grazer = living("grazer", 50.0f);
  grazer.grazes = true;
  grazer.food_weight = 0.05f;
  Scenario sc = world_with({grazer});
  FoodParams food;
  food.cell_size = 10.0f;
  sc.food = food;
  const GridShape field = food_grid_shape(food, sc.size());
  FlockState start = state_of({boid(0, 0, {55.0f, 55.0f}, 50.0f)});
  start.food.assign(field.cell_count(), 0.0f);
  // Two cells tie at the most food: the one below left comes first (dy outer, dx inner).
  start.food[field.cell_of({45.0f, 45.0f})] = 1.0f;
  start.food[field.cell_of({65.0f, 65.0f})] = 1.0f;
  const FlockState after = gpu_steps(sc, start, search);
  require_cpu_agrees(sc, start, after);
  const Boid* moved = find(after, 0);
  REQUIRE(moved != nullptr);
  CHECK(moved->vel.x < 1.0f);
  CHECK(moved->vel.y < 0.0f);
  CHECK(moved->vel.x == Approx(1.0f - 0.05f / std::sqrt(2.0f)).epsilon(1e-5));
  CHECK(moved->vel.y == Approx(-0.05f / std::sqrt(2.0f)).epsilon(1e-5));
}

// --- births and starvation ---------------------------------------------------------------------
TEST_CASE("Births by energy: a child takes half the energy, a Philox velocity, a place beside") {
  gl_context();
  const NeighbourSearch search = any_search();
  SpeciesParams splitter = living("splitter", 80.0f);
  splitter.reproduce_energy = 60.0f;
  const Scenario sc = world_with({splitter});
  FlockState start =
      state_of({boid(5, 0, {40.0f, 60.0f}, 80.0f), boid(6, 0, {70.0f, 20.0f}, 30.0f)});
  start.step = 12;
  start.next_id = 100;
  const FlockState after = gpu_steps(sc, start, search);
  require_cpu_agrees(sc, start, after);

  REQUIRE(after.boids.size() == 3);
  const Boid* parent = find(after, 5);
  const Boid* child = find(after, 100);
  REQUIRE(parent != nullptr);
  REQUIRE(child != nullptr);
  CHECK(after.next_id == 101u);
  CHECK(parent->energy == 39.5f);  // (80 - 1) / 2
  CHECK(child->energy == 39.5f);
  CHECK(child->age == 0);
  CHECK(child->species == 0);
  CHECK(find(after, 6)->energy == 29.0f);  // below reproduce_energy: no child

  const float speed = species_models(sc)[0].child_speed;
  const glm::vec2 u{
      random_uniform({sc.world.seed, 5, 12, kDrawChildVelocityX}, -speed, speed),
      random_uniform({sc.world.seed, 5, 12, kDrawChildVelocityY}, -speed, speed)};
  CHECK(std::memcmp(&child->vel, &u, sizeof u) == 0);
  const glm::vec2 beside = parent->pos + u;  // far from the seams: no wrap
  CHECK(std::memcmp(&child->pos, &beside, sizeof beside) == 0);
  REQUIRE(after.totals.size() == 1);
  CHECK(after.totals[0] == SpeciesTotals{1, 0, 0});
}

TEST_CASE("max_count drops the children of the later parents, and the capacity drops the rest") {
  gl_context();
  const NeighbourSearch search = any_search();
  SpeciesParams splitter = living("splitter", 80.0f);
  splitter.reproduce_energy = 60.0f;
  splitter.max_count = 3;
  // Both parents in one grid cell: parent order is by id there.
  const FlockState start =
      state_of({boid(9, 0, {51.0f, 51.0f}, 80.0f), boid(4, 0, {53.0f, 52.0f}, 80.0f)});
  {
    const FlockState after = gpu_steps(world_with({splitter}), start, search);
    require_cpu_agrees(world_with({splitter}), start, after);
    REQUIRE(after.boids.size() == 3);  // 2 survivors + the first child: the cap of 3
    CHECK(find(after, 4)->energy == 39.5f);
    CHECK(find(after, 9)->energy == 79.0f);  // its child was dropped: it keeps its energy
    CHECK(after.totals[0] == SpeciesTotals{1, 1, 0});
  }
  {
    // No cap, but no room: the flock's capacity is its two boids.
    splitter.max_count = 0;
    const FlockState after = gpu_steps(world_with({splitter}, 2), start, search);
    require_cpu_agrees(world_with({splitter}, 2), start, after);
    CHECK(after.boids.size() == 2);
    CHECK(find(after, 4)->energy == 79.0f);
    CHECK(after.totals[0] == SpeciesTotals{0, 2, 0});
  }
}

TEST_CASE("Starvation: a boid whose energy falls to 0 dies and is counted") {
  gl_context();
  const NeighbourSearch search = any_search();
  const Scenario sc = world_with({living("weak", 1.0f)});
  const FlockState start = state_of({boid(1, 0, {20.0f, 20.0f}, 1.0f),    // 1 - 1 = 0: dies
                                     boid(2, 0, {70.0f, 70.0f}, 1.5f)});   // 0.5: lives
  const FlockState after = gpu_steps(sc, start, search);
  require_cpu_agrees(sc, start, after);
  REQUIRE(after.boids.size() == 1);
  CHECK(after.boids[0].id == 2);
  CHECK(after.boids[0].energy == 0.5f);
  CHECK(after.totals[0] == SpeciesTotals{0, 0, 1});
}

// --- lockstep, reproducibility and murmur compare ----------------------------------------------
namespace {

// A crowded mixed world where every rule fires within a few steps: grazers on a patchy field
// sharing cells, hunters striking several at once, starvation, births by energy against a cap
// and against the capacity.
Scenario mixed_world() {
  Scenario sc = test::world(160.0f, 120.0f, 2024);
  SpeciesParams grazer = test::species("grazer", 900, Topology::Wrap, 8.0f, 2.0f);
  grazer.grazes = true;
  grazer.energy_max = 40.0f;
  grazer.energy_initial = 20.0f;
  grazer.energy_per_step = 0.5f;
  grazer.energy_per_distance = 0.25f;
  grazer.energy_from_food = 4.0f;
  grazer.reproduce_energy = 24.0f;
  grazer.max_count = 1000;
  grazer.flee_weight = 2.0f;
  grazer.food_weight = 0.03f;
  SpeciesParams hunter = test::species("hunter", 150, Topology::Bounded, 9.0f, 2.0f);
  hunter.eats = {"grazer"};
  hunter.catch_radius = 3.0f;
  hunter.chase_weight = 0.05f;
  hunter.energy_max = 60.0f;
  hunter.energy_initial = 30.0f;
  hunter.energy_per_step = 1.0f;
  hunter.energy_per_distance = 0.5f;
  hunter.energy_from_prey = 12.0f;
  hunter.reproduce_energy = 36.0f;
  sc.species = {grazer, hunter};
  sc.world.capacity = 1200;
  FoodParams food;
  food.cell_size = 6.0f;
  food.max_per_cell = 2.0f;
  food.regrow_per_step = 0.05f;
  food.bite = 0.5f;
  food.initial.random = true;
  sc.food = food;
  validate_scenario(sc);
  return sc;
}

// The seeded start with energies spread over each species' range (in quarters, so exact), so
// that boids cross the thresholds on different steps.
FlockState mixed_start(const Scenario& sc) {
  FlockState state = seeded_start(sc);
  for (Boid& b : state.boids) {
    const SpeciesParams& s = sc.species[b.species];
    b.energy = s.energy_max * static_cast<float>(b.id % 16 + 1) / 17.0f;
  }
  return state;
}

struct LockstepCount {
  int events = 0;           // deaths and births, of both sides
  int band_exceptions = 0;  // events that differ with e' within its band of the threshold
};

// One step from the same state on both sides; every event must agree except one whose e' lies
// within energy_band of its threshold (starvation at 0, a child at reproduce_energy).
void compare_step(const Scenario& sc, const FlockState& start, NeighbourSearch search,
                  LockstepCount& count) {
  CpuStepTrace trace;
  FlockState cpu = cpu_step(sc, start, &trace);
  const FlockState gpu = gpu_steps(sc, start, search);
  std::map<std::uint32_t, const Boid*> on_gpu;
  for (const Boid& b : gpu.boids) on_gpu[b.id] = &b;
  bool births_differ = false;
  for (std::size_t i = 0; i < start.boids.size(); ++i) {
    const Boid& before = start.boids[i];
    const BoidEvents& e = trace.events[i];
    // How far apart the two sides may put e' (murmur/flock/agreement.hpp, docs/harness.md).
    const double band = energy_band(sc, before.species);
    const Boid* after = on_gpu.count(before.id) ? on_gpu[before.id] : nullptr;
    INFO("boid " << before.id << " species " << before.species << " e' " << e.energy_after);
    if (e.fate != Fate::Lives) ++count.events;
    if ((e.fate == Fate::Lives) != (after != nullptr)) {
      // Only starvation can go either way: catching and age are decided from exact values.
      const bool near_starving = std::abs(e.energy_after) <= band;
      CHECK(near_starving);
      ++count.band_exceptions;
      births_differ = true;
      continue;
    }
    if (after == nullptr) continue;
    // A parent whose child was born keeps half of e' (exactly); the other survivors e'. A
    // split on one side only leaves the energies apart by e'/2 >= reproduce_energy / 2.
    const bool cpu_born = e.child == ChildFate::Born;
    if (cpu_born) ++count.events;
    const float expected = cpu_born ? e.energy_after * 0.5f : e.energy_after;
    if (std::abs(after->energy - expected) > band) {
      const float threshold = sc.species[before.species].reproduce_energy;
      const bool near_threshold = std::abs(e.energy_after - threshold) <= band;
      CHECK(near_threshold);
      ++count.band_exceptions;
      births_differ = true;
    }
  }
  if (births_differ) return;  // every later child id shifts: nothing more to compare exactly
  cpu.sort_by_id();
  REQUIRE(cpu.boids.size() == gpu.boids.size());
  for (std::size_t k = 0; k < cpu.boids.size(); ++k) REQUIRE(cpu.boids[k].id == gpu.boids[k].id);
  CHECK(cpu.totals == gpu.totals);
  CHECK(cpu.next_id == gpu.next_id);
  // The field's arithmetic is exact on both sides: the same grazer counts, f - demand, 0.
  CHECK(cpu.food == gpu.food);
}

}  // namespace

TEST_CASE("Lockstep: from the same state the GPU's events are the CPU reference's") {
  gl_context();
  const NeighbourSearch search = any_search();
  const Scenario sc = mixed_world();
  FlockState state = mixed_start(sc);
  LockstepCount count;
  constexpr int kSteps = 6;
  for (int t = 0; t < kSteps; ++t) {
    INFO("step " << t);
    compare_step(sc, state, search, count);
    state = cpu_step(sc, state);
  }
  // The world is built so that every kind of event happens; each band exception is counted.
  WARN("lockstep: " << count.events << " events, " << count.band_exceptions
                    << " within the rounding band");
  CHECK(count.events > 100);
  CHECK(count.band_exceptions <= count.events / 100);
  const FlockState last = cpu_step(sc, state);
  CHECK(last.totals[0].born > 0);
  CHECK(last.totals[0].died > 0);
  CHECK(last.totals[1].died + last.totals[1].born > 0);
}

TEST_CASE("The GPU's ecosystem is reproducible: one seed, the same bits, births and deaths too") {
  gl_context();
  const NeighbourSearch search = any_search();
  const Scenario sc = mixed_world();
  const FlockState start = mixed_start(sc);
  constexpr std::uint32_t kSteps = 20;
  const FlockState first = gpu_steps(sc, start, search, kSteps);
  const FlockState second = gpu_steps(sc, start, search, kSteps);
  REQUIRE(first.boids.size() == second.boids.size());
  CHECK(std::memcmp(first.boids.data(), second.boids.data(),
                    sizeof(Boid) * first.boids.size()) == 0);
  CHECK(first.food == second.food);
  CHECK(first.totals == second.totals);
  CHECK(first.next_id == second.next_id);
  CHECK(first.totals[0].born > 0);
  CHECK(first.totals[0].died > 0);
  CHECK(first.totals[1].died > 0);
}

TEST_CASE("murmur compare on an ecosystem: lockstep events and free-run populations pass, and "
          "the planted GreedyHunter fails") {
  gl_context();
  const Scenario sc = mixed_world();
  const FlockState start = mixed_start(sc);
  CompareOptions options;
  options.lockstep_steps = 3;
  options.free_steps = 12;
  options.samples = 3;
  options.envelope_runs = 2;
  const CompareReport clean = run_comparison(sc, start, options);
  INFO(clean.table());
  CHECK(clean.lockstep.passed());
  CHECK(clean.lockstep.deaths > 0);
  CHECK(clean.lockstep.births > 0);
  CHECK(clean.free_run.passed());
  CHECK(clean.passed());

  options.fault = GpuFault::GreedyHunter;
  const CompareReport faulty = run_comparison(sc, start, options);
  INFO(faulty.table());
  CHECK_FALSE(faulty.lockstep.passed());
  CHECK_FALSE(faulty.passed());

  // The free run alone catches it too: the envelope runs' energy jitter (an honest backend's
  // rounding) widens the population check only as far as events within the band can go.
  options.lockstep_steps = 0;
  const CompareReport free_only = run_comparison(sc, start, options);
  INFO(free_only.table());
  CHECK_FALSE(free_only.free_run.passed());
}

// --- editing the food keys live ----------------------------------------------------------------
namespace {

// A few grazers on a rich field whose grid does not divide the world, with no births or
// starvation in the steps below, so that every step's events are exact and both backends
// agree on them.
Scenario grazing_world() {
  Scenario sc = test::world(95.0f, 62.0f, 77);
  SpeciesParams grazer = test::species("grazer", 120, Topology::Wrap, 6.0f, 2.0f);
  grazer.grazes = true;
  grazer.energy_max = 40.0f;
  grazer.energy_initial = 20.0f;
  grazer.energy_per_step = 0.25f;
  grazer.energy_from_food = 1.0f;
  grazer.food_weight = 0.05f;
  sc.species = {grazer};
  FoodParams food;
  food.cell_size = 10.0f;
  food.max_per_cell = 2.0f;
  food.regrow_per_step = 0.05f;
  food.bite = 0.125f;
  food.initial.random = true;
  sc.food = food;
  validate_scenario(sc);
  return sc;
}

}  // namespace

TEST_CASE("set_parameters edits the [food] keys live: the next steps are a fresh flock's with "
          "those keys and the field carried over, and the CPU reference's") {
  gl_context();
  const Scenario before = grazing_world();
  Scenario after = before;
  const char* const edits[] = {"cell_size", "max_per_cell", "regrow_per_step", "bite"};
  const int edit = GENERATE(0, 1, 2, 3);
  INFO("edited key: " << edits[edit]);
  switch (edit) {
    case 0: after.food->cell_size = 7.0f; break;
    case 1: after.food->max_per_cell = 1.25f; break;  // below what many cells hold
    case 2: after.food->regrow_per_step = 0.4f; break;
    default: after.food->bite = 0.5f; break;
  }
  validate_scenario(after);
  constexpr std::uint32_t kStepsBefore = 5;
  constexpr std::uint32_t kStepsAfter = 4;

  GpuFlock edited(before, seeded_start(before));
  edited.step(kStepsBefore);
  FlockState carried = edited.download();
  const std::vector<float> field_before = carried.food;
  if (food_field_needs_refit(*before.food, *after.food)) {
    carried.food = refit_food_field(*before.food, *after.food, before.size(), carried.food);
  }
  edited.set_parameters(after);
  REQUIRE(edited.download().food == carried.food);  // the field as refit_food_field carries it
  if (edit == 0) {
    CHECK(carried.food.size() != field_before.size());
  } else if (edit == 1) {
    CHECK(carried.food != field_before);
  }

  // The CPU reference's first step from the carried state, with the new keys.
  edited.step();
  const FlockState gpu_one = edited.download();
  FlockState cpu_one = cpu_step(after, carried);
  CHECK(cpu_one.food == gpu_one.food);  // grazing and regrowth are exact on both sides
  CHECK(cpu_one.totals == gpu_one.totals);

  edited.step(kStepsAfter - 1);
  GpuFlock fresh(after, carried);
  fresh.step(kStepsAfter);
  const FlockState x = edited.download();
  const FlockState y = fresh.download();
  REQUIRE(x.boids.size() == y.boids.size());
  CHECK(std::memcmp(x.boids.data(), y.boids.data(), sizeof(Boid) * x.boids.size()) == 0);
  CHECK(x.food == y.food);
  CHECK(x.totals == y.totals);
  // The edit changed the run: the old keys, from the same state, give another field.
  FlockState unedited_start = carried;
  unedited_start.food = field_before;
  GpuFlock old_keys(before, unedited_start);
  old_keys.step(kStepsAfter);
  CHECK(old_keys.download().food != x.food);
}
