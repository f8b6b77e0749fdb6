// The ecosystem of docs/model.md ("An ecosystem (origin 001)") on the CPU reference: the energy
// and food ledgers, the conflict rules (nearest hunter wins, ties to the smaller id; one prey
// per hunter; grazers share a cell), births by energy (exact split, max_count in parent order),
// determinism, the two neighbour searches, and default keys that change no bit of a flock.
//
// Sections: helpers; ledgers; conflicts; births; determinism and the two searches; default keys;
// editing the food field.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "murmur/base/errors.hpp"
#include "murmur/flock/cpu_flock.hpp"
#include "murmur/flock/grid.hpp"
#include "murmur/flock/invariants.hpp"
#include "murmur/base/random.hpp"
#include "murmur/flock/state.hpp"
#include "test_scenarios.hpp"

// --- helpers -----------------------------------------------------------------------------------
namespace {

using murmur::Boid;
using murmur::BoidEvents;
using murmur::ChildFate;
using murmur::CpuStepTrace;
using murmur::Fate;
using murmur::FlockState;
using murmur::FoodParams;
using murmur::Scenario;
using murmur::SpeciesParams;
using murmur::Topology;
using murmur::test::world_of;

// float32's unit roundoff: one correctly rounded operation errs by at most this, relatively.
constexpr double kUnitRoundoff = 0x1.0p-24;

// Grazers: flock, eat food, flee the hunters, split at 16 energy, capped at 330 boids.
SpeciesParams sheep() {
  SpeciesParams s = murmur::test::make_species("sheep", Topology::Wrap, 10.0f, 3.0f,
                                               {.align = 0.05f, .cohesion = 0.005f,
                                                .separation = 1.0f});
  s.count = 300;
  s.grazes = true;
  s.energy_max = 20.0f;
  s.energy_initial = 10.0f;
  s.energy_per_step = 0.05f;
  s.energy_per_distance = 0.02f;
  s.energy_from_food = 4.0f;
  s.reproduce_energy = 16.0f;
  s.food_weight = 0.05f;
  s.flee_weight = 2.0f;
  s.max_count = 330;
  s.max_age = 400;
  return s;
}

// Hunters: faster, chase the nearest sheep they see, catch inside 2.5, split at 50 energy.
SpeciesParams wolves() {
  SpeciesParams s = murmur::test::make_species("wolf", Topology::Bounded, 15.0f, 4.0f,
                                               {.align = 0.02f, .cohesion = 0.002f,
                                                .separation = 1.0f},
                                               {.margin = 10.0f, .gain = 0.02f});
  s.count = 20;
  s.max_speed = 2.5f;
  s.fov_degrees = 270.0f;
  s.eats = {"sheep"};
  s.energy_max = 60.0f;
  s.energy_initial = 30.0f;
  s.energy_per_step = 0.1f;
  s.energy_per_distance = 0.03f;
  s.energy_from_prey = 20.0f;
  s.reproduce_energy = 50.0f;
  s.catch_radius = 2.5f;
  s.chase_weight = 0.1f;
  return s;
}

FoodParams meadow() {
  FoodParams food;
  food.cell_size = 10.0f;
  food.max_per_cell = 5.0f;
  food.regrow_per_step = 0.02f;
  food.bite = 0.5f;
  food.initial = murmur::FoodInitial{0.0f, true};
  food.patches = {murmur::FoodPatch{20.0f, 20.0f, 60.0f, 40.0f, 5.0f}};
  return food;
}

// Both species and the field in a 200 x 150 world with room for births.
Scenario ecosystem() {
  Scenario scenario = world_of(200.0f, 150.0f, {sheep(), wolves()}, 11);
  scenario.world.capacity = 2000;
  scenario.food = meadow();
  scenario.source = "ecosystem";
  return scenario;
}

// A start in which some boids are close to starving, so every kind of event happens early.
FlockState ecosystem_start(const Scenario& scenario) {
  FlockState state = murmur::seeded_start(scenario);
  for (Boid& b : state.boids) {
    if (b.id % 7 == 0) b.energy = 0.2f;
  }
  return state;
}

bool same_bits(const Boid& a, const Boid& b) {
  return std::memcmp(&a, &b, sizeof(Boid)) == 0;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Boids, food, totals, next_id and step, all to the bit.
bool same_state(const FlockState& a, const FlockState& b) {
  if (a.boids.size() != b.boids.size()) return false;
  for (std::size_t i = 0; i < a.boids.size(); ++i) {
    if (!same_bits(a.boids[i], b.boids[i])) return false;
  }
  return same_bits(a.food, b.food) && a.totals == b.totals && a.next_id == b.next_id &&
         a.step == b.step;
}

bool same_events(const BoidEvents& a, const BoidEvents& b) {
  return a.fate == b.fate && a.eaten_by == b.eaten_by && a.strikes == b.strikes &&
         a.ate_prey == b.ate_prey &&
         std::bit_cast<std::uint32_t>(a.food_eaten) == std::bit_cast<std::uint32_t>(b.food_eaten) &&
         std::bit_cast<std::uint32_t>(a.energy_after) ==
             std::bit_cast<std::uint32_t>(b.energy_after) &&
         a.child == b.child;
}

double total_energy(const FlockState& state) {
  double sum = 0.0;
  for (const Boid& b : state.boids) sum += b.energy;
  return sum;
}

double total_food(const FlockState& state) {
  double sum = 0.0;
  for (const float f : state.food) sum += f;
  return sum;
}

const BoidEvents& events_of(const CpuStepTrace& trace, const FlockState& in, std::uint32_t id) {
  for (std::size_t i = 0; i < in.boids.size(); ++i) {
    if (in.boids[i].id == id) return trace.events.at(i);
  }
  FAIL("no boid " << id);
  return trace.events.front();
}

const Boid* find(const FlockState& state, std::uint32_t id) {
  for (const Boid& b : state.boids) {
    if (b.id == id) return &b;
  }
  return nullptr;
}

// A hunter and prey pair of species that only meet through catching: no steering at all, so
// hand-built states have known answers. The hunter sees 90 degrees ahead (fov), 10 far.
Scenario hunt_scenario(float catch_radius) {
  SpeciesParams prey = murmur::test::make_species("prey", Topology::Wrap, 10.0f, 0.0f);
  SpeciesParams hunter = murmur::test::make_species("hunter", Topology::Wrap, 10.0f, 0.0f);
  hunter.eats = {"prey"};
  hunter.catch_radius = catch_radius;
  hunter.fov_degrees = 90.0f;
  hunter.energy_max = 100.0f;
  hunter.energy_from_prey = 10.0f;
  return world_of(100.0f, 100.0f, {prey, hunter});
}

constexpr std::uint32_t kPrey = 0;
constexpr std::uint32_t kHunter = 1;

Boid boid(std::uint32_t id, std::uint32_t species, glm::vec2 pos, glm::vec2 vel,
          float energy = 0.0f) {
  return Boid{pos, vel, id, species, 0, energy};
}

// Two non-grazing sheep at step 41 of seed 99, room for 10: the one with id 4 has 17.4, which
// after the step's costs is still >= E_R = 16, so it bears a child; the one with 12 does not.
struct OneParent {
  SpeciesParams species;
  Scenario scenario;
  FlockState state;
};
OneParent one_parent_of_two() {
  SpeciesParams s = sheep();
  s.count = 2;
  s.max_count = 0;
  s.max_age = 0;
  s.grazes = false;
  Scenario scenario = world_of(200.0f, 150.0f, {s}, 99);
  scenario.world.capacity = 10;
  FlockState state;
  state.boids = {boid(4, 0, {100.0f, 50.0f}, {1.5f, 0.0f}, 17.4f),
                 boid(8, 0, {20.0f, 20.0f}, {1.5f, 0.0f}, 12.0f)};
  state.step = 41;
  return {s, scenario, state};
}

}  // namespace

// --- ledgers -----------------------------------------------------------------------------------
TEST_CASE("the energy ledger balances every step of a mixed ecosystem, and the invariants hold",
          "[ecosystem][ledger]") {
  // Per step, in double from the float32 values (docs/model.md, "The energy ledger"):
  //   sum e(t+1) - sum e(t) = gains - costs - losses.
  // Each boid's e' is at most 6 float32 roundings away from the exact value of its formula
  // (the products c_move s' and g_food g, the subtractions, the additions; the cap and the
  // birth split are exact), each at most u = 2^-24 of a magnitude no larger than
  // M_i = |e_i| + c_live + c_move s' + g_food g_i + g_prey. So the ledger holds within
  // 6 u sum M_i, plus double summation error, which 1e-12 of sum M_i covers many times over.
  constexpr int kSteps = 200;
  constexpr int kRoundingsPerBoid = 6;
  const Scenario scenario = ecosystem();
  const std::vector<murmur::SpeciesModel> models = murmur::species_models(scenario);
  FlockState state = ecosystem_start(scenario);
  const murmur::InvariantBaseline baseline = murmur::invariant_baseline(scenario, state);
  std::uint64_t eaten = 0, starved = 0, born = 0, capped = 0, dropped = 0;
  double worst = 0.0;
  for (int step = 0; step < kSteps; ++step) {
    CpuStepTrace trace;
    const FlockState next = murmur::cpu_step(scenario, state, &trace);
    double gains = 0.0, costs = 0.0, losses = 0.0, magnitude = 0.0;
    for (std::size_t i = 0; i < state.boids.size(); ++i) {
      const Boid& b = state.boids[i];
      const murmur::SpeciesModel& m = models[b.species];
      const BoidEvents& e = trace.events[i];
      if (!m.has_energy) continue;
      const double moving = double(m.energy_per_distance) * double(e.speed);
      const double food = double(m.energy_from_food) * double(e.food_eaten);
      const double prey = e.ate_prey ? double(m.energy_from_prey) : 0.0;
      gains += food + prey;
      costs += double(m.energy_per_step) + moving;
      if (e.fate != Fate::Lives) losses += e.energy_after;
      losses += std::max(0.0, double(e.energy_uncapped) - double(m.energy_max));
      magnitude += std::abs(double(b.energy)) + double(m.energy_per_step) + moving + food + prey;
      eaten += e.fate == Fate::Eaten;
      starved += e.fate == Fate::Starved;
      capped += e.energy_uncapped > m.energy_max;
      born += e.child == ChildFate::Born;
      dropped += e.child == ChildFate::DroppedAtMaxCount;
    }
    const double change = total_energy(next) - total_energy(state);
    const double tolerance = kRoundingsPerBoid * kUnitRoundoff * magnitude + 1e-12 * magnitude;
    INFO("step " << step << ": change " << change << ", gains - costs - losses "
                 << gains - costs - losses << ", tolerance " << tolerance);
    REQUIRE(std::abs(change - (gains - costs - losses)) <= tolerance);
    worst = std::max(worst, std::abs(change - (gains - costs - losses)) / tolerance);
    // And the invariants `murmur soak` checks hold after every step.
    const auto broken = murmur::first_broken_invariant(
        scenario, baseline, next, static_cast<std::uint32_t>(next.boids.size()));
    INFO(broken.value_or("all hold"));
    REQUIRE_FALSE(broken.has_value());
    state = next;
  }
  INFO("eaten " << eaten << ", starved " << starved << ", born " << born << ", capped "
                << capped << ", dropped at max_count " << dropped);
  // The ledger proves little unless every term was exercised.
  CHECK(eaten > 0);
  CHECK(starved > 0);
  CHECK(born > 0);
  CHECK(capped > 0);
  CHECK(dropped > 0);
  // The totals count the same events.
  std::uint64_t total_born = 0;
  for (const murmur::SpeciesTotals& t : state.totals) total_born += t.born;
  CHECK(total_born == born);
  // Seen: the worst step used about 6% of the tolerance.
  CHECK(worst <= 1.0);
}

TEST_CASE("the food ledger: what the cells lose is what the grazers eat", "[ecosystem][ledger]") {
  // Without regrowth, sum f(t) - sum f(t+1) = sum g_i. Per cell the float32 work is
  // fl(n * bite) and one subtraction, or fl(f / n) eaten n times: at most 3 roundings of
  // amounts <= f_c(t), so the ledger holds within 3 u sum f(t).
  constexpr int kSteps = 200;
  constexpr int kRoundingsPerCell = 3;
  Scenario scenario = ecosystem();
  scenario.food->regrow_per_step = 0.0f;
  FlockState state = ecosystem_start(scenario);
  double eaten_in_run = 0.0;
  for (int step = 0; step < kSteps; ++step) {
    CpuStepTrace trace;
    const FlockState next = murmur::cpu_step(scenario, state, &trace);
    const double lost = total_food(state) - total_food(next);
    const double tolerance = kRoundingsPerCell * kUnitRoundoff * total_food(state);
    INFO("step " << step << ": lost " << lost << ", eaten " << trace.food_eaten);
    REQUIRE(std::abs(lost - trace.food_eaten) <= tolerance);
    for (const float f : next.food) {
      REQUIRE(f >= 0.0f);
      REQUIRE(f <= scenario.food->max_per_cell);
    }
    eaten_in_run += trace.food_eaten;
    state = next;
  }
  CHECK(eaten_in_run > 0.0);

  SECTION("regrowth adds regrow_per_step to an ungrazed cell, up to max_per_cell") {
    Scenario empty_meadow = ecosystem();
    empty_meadow.species[0].grazes = false;
    FlockState start = murmur::seeded_start(empty_meadow);
    const FlockState next = murmur::cpu_step(empty_meadow, start);
    for (std::size_t c = 0; c < start.food.size(); ++c) {
      REQUIRE(next.food[c] == std::min(5.0f, start.food[c] + 0.02f));
    }
  }
}

// --- conflicts ---------------------------------------------------------------------------------
TEST_CASE("two hunters strike one prey: the nearer eats it, ties go to the smaller id",
          "[ecosystem][conflicts]") {
  const Scenario scenario = hunt_scenario(3.0f);
  FlockState state;
  // The prey at (50, 50); hunters face it from the left (heading +x) and the right (-x).
  // The farther hunter comes first in the state, so scan order cannot be what decides.
  state.boids = {boid(9, kPrey, {50.0f, 50.0f}, {0.0f, 1.0f}),
                 boid(3, kHunter, {52.0f, 50.0f}, {-1.0f, 0.0f}, 50.0f),   // 2 away
                 boid(7, kHunter, {49.0f, 50.0f}, {1.0f, 0.0f}, 50.0f)};   // 1 away
  CpuStepTrace trace;
  FlockState next = murmur::cpu_step(scenario, state, &trace);
  CHECK(events_of(trace, state, 9).fate == Fate::Eaten);
  CHECK(events_of(trace, state, 9).eaten_by == 7);
  CHECK(events_of(trace, state, 3).strikes);
  CHECK_FALSE(events_of(trace, state, 3).ate_prey);
  CHECK(events_of(trace, state, 7).ate_prey);
  CHECK(find(next, 9) == nullptr);
  CHECK(find(next, 7)->energy == 60.0f);  // 50 + energy_from_prey
  CHECK(find(next, 3)->energy == 50.0f);
  CHECK(next.totals[kPrey].died == 1);

  // At equal distances the smaller id wins, wherever it sits in the state.
  state.boids[2].pos = {48.0f, 50.0f};
  next = murmur::cpu_step(scenario, state, &trace);
  CHECK(events_of(trace, state, 9).eaten_by == 3);
  CHECK(find(next, 3)->energy == 60.0f);
  CHECK(find(next, 7)->energy == 50.0f);
}

TEST_CASE("a hunter with two prey in reach eats the nearest only", "[ecosystem][conflicts]") {
  const Scenario scenario = hunt_scenario(3.0f);
  FlockState state;
  state.boids = {boid(1, kPrey, {52.0f, 50.0f}, {0.0f, 1.0f}),   // 2 ahead
                 boid(2, kPrey, {51.0f, 50.0f}, {0.0f, 1.0f}),   // 1 ahead
                 boid(5, kHunter, {50.0f, 50.0f}, {1.0f, 0.0f}, 50.0f)};
  CpuStepTrace trace;
  FlockState next = murmur::cpu_step(scenario, state, &trace);
  CHECK(events_of(trace, state, 2).fate == Fate::Eaten);
  CHECK(events_of(trace, state, 1).fate == Fate::Lives);
  CHECK(next.boids.size() == 2);
  CHECK(find(next, 5)->energy == 60.0f);  // one prey's worth

  // Two prey at the same distance: the smaller id is the nearest.
  state.boids[0].pos = {51.0f, 51.0f};
  state.boids[1].pos = {51.0f, 49.0f};
  next = murmur::cpu_step(scenario, state, &trace);
  CHECK(events_of(trace, state, 1).fate == Fate::Eaten);
  CHECK(events_of(trace, state, 2).fate == Fate::Lives);
}

TEST_CASE("a prey outside the catch radius or outside the field of view is not eaten",
          "[ecosystem][conflicts]") {
  const Scenario scenario = hunt_scenario(2.0f);
  const auto fate_of_prey = [&](glm::vec2 prey_pos) {
    FlockState state;
    state.boids = {boid(1, kPrey, prey_pos, {0.0f, 1.0f}),
                   boid(2, kHunter, {50.0f, 50.0f}, {1.0f, 0.0f}, 50.0f)};
    CpuStepTrace trace;
    murmur::cpu_step(scenario, state, &trace);
    return trace.events[0].fate;
  };
  CHECK(fate_of_prey({51.5f, 50.0f}) == Fate::Eaten);  // inside, ahead
  CHECK(fate_of_prey({52.0f, 50.0f}) == Fate::Lives);  // dist_sq = 4 = r_catch^2: strict
  CHECK(fate_of_prey({53.0f, 50.0f}) == Fate::Lives);  // seen, but out of reach
  CHECK(fate_of_prey({49.0f, 50.0f}) == Fate::Lives);  // in reach, but behind (fov 90)
  CHECK(fate_of_prey({50.0f, 51.0f}) == Fate::Lives);  // abeam: outside 45 degrees either side
}

TEST_CASE("grazers in one cell share it equally, and a short cell is emptied",
          "[ecosystem][conflicts]") {
  SpeciesParams grazer = murmur::test::make_species("grazer", Topology::Wrap, 5.0f, 0.0f);
  grazer.grazes = true;
  grazer.energy_max = 100.0f;
  grazer.energy_from_food = 1.0f;
  Scenario scenario = world_of(40.0f, 20.0f, {grazer});
  FoodParams food;
  food.cell_size = 10.0f;  // 4 x 2 cells
  food.max_per_cell = 10.0f;
  food.bite = 1.0f;
  food.initial = murmur::FoodInitial{0.0f, false};
  scenario.food = food;
  FlockState state = murmur::seeded_start(scenario);
  state.food = {1.0f, 10.0f, 0, 0, 0, 0, 0, 0};
  // Three grazers in cell 0 (1 unit for three bites), two in cell 1 (10 units, plenty).
  state.boids = {boid(0, 0, {1.0f, 1.0f}, {0.0f, 0.0f}, 5.0f),
                 boid(1, 0, {5.0f, 9.0f}, {0.0f, 0.0f}, 5.0f),
                 boid(2, 0, {9.0f, 5.0f}, {0.0f, 0.0f}, 5.0f),
                 boid(3, 0, {15.0f, 5.0f}, {0.0f, 0.0f}, 5.0f),
                 boid(4, 0, {11.0f, 1.0f}, {0.0f, 0.0f}, 5.0f)};
  CpuStepTrace trace;
  const FlockState next = murmur::cpu_step(scenario, state, &trace);
  const float third = 1.0f / 3.0f;
  for (std::uint32_t i = 0; i < 3; ++i) {
    INFO("grazer " << i);
    CHECK(trace.events[i].food_eaten == third);
    CHECK(next.boids[i].energy == 5.0f + third);
  }
  CHECK(trace.events[3].food_eaten == 1.0f);
  CHECK(trace.events[4].food_eaten == 1.0f);
  CHECK(next.food[0] == 0.0f);  // emptied
  CHECK(next.food[1] == 8.0f);
}

// --- births ------------------------------------------------------------------------------------
TEST_CASE("a birth splits e' exactly and places the child beside its parent",
          "[ecosystem][births]") {
  OneParent setup = one_parent_of_two();
  const SpeciesParams& s = setup.species;
  const Scenario& scenario = setup.scenario;
  FlockState& state = setup.state;
  state.next_id = 100;
  CpuStepTrace trace;
  const FlockState next = murmur::cpu_step(scenario, state, &trace);
  REQUIRE(next.boids.size() == 3);
  REQUIRE(trace.births.size() == 1);
  CHECK(trace.births[0].parent_id == 4);
  CHECK(trace.births[0].child_id == 100);
  CHECK(*next.next_id == 101);
  const float e = trace.events[0].energy_after;
  const Boid& parent = next.boids[0];
  const Boid& child = next.boids[2];
  CHECK(parent.energy == e * 0.5f);
  CHECK(parent.energy + child.energy == e);  // bit-exact: nothing created or lost
  CHECK(child.id == 100);
  CHECK(child.age == 0);
  CHECK(child.species == 0);
  // The velocity: draws 0 and 1 of (seed, parent id, step), uniform in +-child_speed.
  const float speed = s.max_speed * murmur::kChildSpeedFraction;
  const glm::vec2 u{
      murmur::random_uniform({99, 4, 41, murmur::kDrawChildVelocityX}, -speed, speed),
      murmur::random_uniform({99, 4, 41, murmur::kDrawChildVelocityY}, -speed, speed)};
  CHECK(child.vel == u);
  CHECK(child.pos == parent.pos + u);  // far from every seam: no wrap
  CHECK(trace.events[1].child == ChildFate::None);
  CHECK(next.boids[1].energy == trace.events[1].energy_after);
  CHECK(next.totals[0].born == 1);
}

TEST_CASE("max_count drops births in parent order and counts them", "[ecosystem][births]") {
  SpeciesParams s = sheep();
  s.count = 4;
  s.max_age = 0;
  s.grazes = false;
  s.max_count = 6;  // 4 survivors: room for two children
  Scenario scenario = world_of(200.0f, 150.0f, {s}, 5);
  scenario.world.capacity = 100;
  // Parent order is (cell, id): the grid's cells run along x first, so the boid at the lower
  // left comes first whatever its id, and ids break ties within a cell.
  FlockState state;
  state.boids = {boid(1, 0, {180.0f, 140.0f}, {1.5f, 0.0f}, 19.0f),  // last cell
                 boid(6, 0, {5.0f, 5.0f}, {1.5f, 0.0f}, 19.0f),      // first cell
                 boid(2, 0, {100.0f, 75.0f}, {1.5f, 0.0f}, 19.0f),   // middle
                 boid(3, 0, {6.0f, 6.0f}, {1.5f, 0.0f}, 19.0f)};     // first cell, smaller id
  const murmur::GridShape grid = murmur::grid_shape_for(scenario, scenario.capacity());
  REQUIRE(grid.cell_of({5.0f, 5.0f}) == grid.cell_of({6.0f, 6.0f}));
  REQUIRE(grid.cell_of({6.0f, 6.0f}) < grid.cell_of({100.0f, 75.0f}));
  REQUIRE(grid.cell_of({100.0f, 75.0f}) < grid.cell_of({180.0f, 140.0f}));
  CpuStepTrace trace;
  const FlockState next = murmur::cpu_step(scenario, state, &trace);
  REQUIRE(trace.births.size() == 2);
  CHECK(trace.births[0].parent_id == 3);
  CHECK(trace.births[1].parent_id == 6);
  CHECK(events_of(trace, state, 2).child == ChildFate::DroppedAtMaxCount);
  CHECK(events_of(trace, state, 1).child == ChildFate::DroppedAtMaxCount);
  CHECK(trace.dropped == std::vector<std::uint64_t>{2});
  CHECK(next.totals[0].dropped == 2);
  CHECK(next.totals[0].born == 2);
  CHECK(next.boids.size() == 6);
  // A parent whose child is dropped keeps all of e'.
  CHECK(find(next, 1)->energy == events_of(trace, state, 1).energy_after);

  SECTION("the capacity drops the rest, counted the same way") {
    scenario.world.capacity = 5;  // 4 boids of state t: one birth fits
    CpuStepTrace capped;
    const FlockState full = murmur::cpu_step(scenario, state, &capped);
    REQUIRE(capped.births.size() == 1);
    CHECK(capped.births[0].parent_id == 3);
    CHECK(events_of(capped, state, 6).child == ChildFate::DroppedAtCapacity);
    CHECK(full.totals[0].dropped == 3);
    CHECK(full.boids.size() == 5);
  }
}

TEST_CASE("the budding rule replaces births by energy when on", "[ecosystem][births]") {
  SpeciesParams s = sheep();
  s.count = 3;
  s.max_age = 0;
  s.grazes = false;
  Scenario scenario = world_of(200.0f, 150.0f, {s}, 5);
  scenario.world.capacity = 100;
  FlockState state;
  state.boids = {boid(0, 0, {10.0f, 10.0f}, {1.5f, 0.0f}, 19.0f),   // wants a child by energy
                 boid(1, 0, {50.0f, 50.0f}, {1.5f, 0.0f}, 5.0f),    // does not
                 boid(2, 0, {90.0f, 90.0f}, {1.5f, 0.0f}, 5.0f)};
  CpuStepTrace trace;
  murmur::cpu_step(scenario, state, &trace, std::nullopt, murmur::BirthRules{.budding_period = 2});
  // Budding: (id + step) mod 2 == 0 at step 0 gives ids 0 and 2 one child each.
  REQUIRE(trace.births.size() == 2);
  CHECK(trace.births[0].parent_id == 0);
  CHECK(trace.births[1].parent_id == 2);
}

TEST_CASE("births stop a step that would take next_id past 2^32 - 1, and up to it are born",
          "[ecosystem][births][ids]") {
  OneParent setup = one_parent_of_two();
  const Scenario& scenario = setup.scenario;
  FlockState& state = setup.state;
  const auto refusal = [&](const FlockState& before) -> std::string {
    try {
      murmur::cpu_step(scenario, before);
    } catch (const murmur::InputError& error) {
      return error.what();
    }
    return "the step was not refused";
  };

  SECTION("the last child next_id allows is born, and leaves next_id at 2^32 - 1") {
    state.next_id = 0xFFFFFFFEu;
    CpuStepTrace trace;
    const FlockState next = murmur::cpu_step(scenario, state, &trace);
    REQUIRE(trace.births.size() == 1);
    CHECK(trace.births[0].child_id == 0xFFFFFFFEu);
    CHECK(*next.next_id == murmur::kLastNextId);
  }
  SECTION("one child more is refused, naming the step, the births and the id space") {
    state.next_id = murmur::kLastNextId;
    CHECK(refusal(state) ==
          "step 42: 1 birth would take next_id from 4294967295 to 4294967296, past 4294967295: "
          "ids are 32-bit and never reused while alive (docs/model.md, \"Ids that stay "
          "unique\"); start from a state with smaller ids");
  }
  SECTION("a state holding the last id, read without a next_id, can bear no child") {
    state.boids[1].id = murmur::kLastNextId;
    // Not (largest + 1) mod 2^32 = 0: that child would be numbered over ids that may be alive.
    CHECK(state.resolved_next_id() == murmur::kLastNextId);
    CHECK_THAT(refusal(state), Catch::Matchers::StartsWith(
                                   "step 42: 1 birth would take next_id from 4294967295 to "
                                   "4294967296"));
    // Without a birth it steps on.
    state.boids[0].energy = 12.0f;
    const FlockState next = murmur::cpu_step(scenario, state);
    CHECK(next.boids.size() == 2);
    CHECK(*next.next_id == murmur::kLastNextId);
  }
}

// --- determinism and the two searches ----------------------------------------------------------
TEST_CASE("an ecosystem is deterministic: same seed, same bits, any thread count",
          "[ecosystem][determinism]") {
  constexpr int kSteps = 60;
  Scenario scenario = ecosystem();
  scenario.species[0].count = 2500;  // enough boids for the threads to split them
  scenario.species[0].max_count = 2600;
  scenario.species[0].energy_initial = 15.9f;  // births from the first steps
  scenario.world.capacity = 4000;
  const auto run = [&](unsigned workers) {
    FlockState state = ecosystem_start(scenario);
    for (int k = 0; k < kSteps; ++k) {
      state = murmur::cpu_step(scenario, state, nullptr, std::nullopt, {}, workers);
    }
    return state;
  };
  const FlockState one = run(1);
  const FlockState again = run(1);
  CHECK(same_state(one, again));
  CHECK(same_state(one, run(2)));
  CHECK(same_state(one, run(5)));
  // Births and deaths happened, so the history is not a plain flock's.
  CHECK(one.totals[0].born > 0);
  CHECK(one.totals[0].died > 0);
  CHECK(one.totals[1].died + one.totals[1].born > 0);
  // A different seed is a different history (positions and the random food field).
  Scenario other = scenario;
  other.world.seed += 1;
  FlockState state = ecosystem_start(other);
  for (int k = 0; k < kSteps; ++k) state = murmur::cpu_step(other, state);
  CHECK_FALSE(same_state(one, state));
}

TEST_CASE("k-d tree and brute force give the same ecosystem step bit for bit",
          "[ecosystem][determinism]") {
  constexpr int kSteps = 40;
  const Scenario scenario = ecosystem();
  FlockState state = ecosystem_start(scenario);
  std::uint64_t events = 0;
  for (int step = 0; step < kSteps; ++step) {
    INFO("step " << step);
    CpuStepTrace tree_trace, brute_trace;
    const FlockState by_tree = murmur::cpu_step(scenario, state, &tree_trace);
    const FlockState by_brute = murmur::cpu_step_brute_force(scenario, state, &brute_trace);
    REQUIRE(same_state(by_tree, by_brute));
    REQUIRE(tree_trace.events.size() == brute_trace.events.size());
    for (std::size_t i = 0; i < tree_trace.events.size(); ++i) {
      REQUIRE(same_events(tree_trace.events[i], brute_trace.events[i]));
      events += tree_trace.events[i].fate != Fate::Lives;
    }
    REQUIRE(tree_trace.dropped == brute_trace.dropped);
    state = by_tree;
  }
  CHECK(events > 0);
}

// --- default keys ------------------------------------------------------------------------------
TEST_CASE("default keys change no bit: an unused food table and unused eats",
          "[ecosystem][defaults]") {
  constexpr int kSteps = 30;
  SpeciesParams a = murmur::test::make_species("a", Topology::Wrap, 10.0f, 4.0f,
                                               {.align = 0.05f, .cohesion = 0.005f,
                                                .separation = 1.5f});
  a.count = 400;
  a.fov_degrees = 270.0f;
  SpeciesParams b = murmur::test::make_species("b", Topology::Bounded, 8.0f, 3.0f,
                                               {.align = 0.05f, .cohesion = 0.005f,
                                                .separation = 1.5f},
                                               {.margin = 10.0f, .gain = 0.02f});
  b.count = 300;
  const Scenario plain = world_of(200.0f, 150.0f, {a, b}, 3);
  // The same flock with a food field nobody grazes, and a hunter that neither chases, nor is
  // fled from, nor catches.
  Scenario dressed = plain;
  dressed.food = meadow();
  dressed.species[1].eats = {"a"};
  const FlockState start = murmur::seeded_start(plain);
  FlockState x = start;
  FlockState y = murmur::seeded_start(dressed);
  REQUIRE(y.boids.size() == x.boids.size());
  for (std::size_t i = 0; i < x.boids.size(); ++i) REQUIRE(same_bits(x.boids[i], y.boids[i]));
  for (int step = 0; step < kSteps; ++step) {
    CpuStepTrace trace;
    x = murmur::cpu_step(plain, x);
    y = murmur::cpu_step(dressed, y, &trace);
    INFO("step " << step);
    REQUIRE(x.boids.size() == y.boids.size());
    for (std::size_t i = 0; i < x.boids.size(); ++i) REQUIRE(same_bits(x.boids[i], y.boids[i]));
    std::uint64_t hunters_seeing_prey = 0;
    for (const murmur::NeighbourSums& sums : trace.sums) hunters_seeing_prey += sums.has_prey;
    if (step == 0) CHECK(hunters_seeing_prey > 0);  // the sensing ran, and changed nothing
  }
}

// --- editing the food field --------------------------------------------------------------------
namespace {

double total_of(const std::vector<float>& field) {
  double total = 0;
  for (const float amount : field) total += amount;
  return total;
}

}  // namespace

TEST_CASE("an edited [food] grid keeps the field's food, spread by area and capped",
          "[ecosystem][food]") {
  // 95 x 62 is no multiple of either cell size: the last row and column of both grids reach
  // past the world, and only the part inside holds food.
  const glm::vec2 world{95.0f, 62.0f};
  FoodParams from;
  from.cell_size = 10.0f;
  from.max_per_cell = 8.0f;
  const murmur::GridShape old_grid = murmur::food_grid_shape(from, world);
  REQUIRE(old_grid.cells == glm::ivec3(10, 7, 1));
  std::vector<float> field(old_grid.cell_count());
  for (std::size_t c = 0; c < field.size(); ++c) field[c] = static_cast<float>(c % 5);

  SECTION("the same grid and cap: every cell as it was") {
    CHECK_FALSE(murmur::food_field_needs_refit(from, from));
    CHECK(murmur::refit_food_field(from, from, world, field) == field);
  }
  SECTION("smaller cells share the total; a uniform field stays uniform per area") {
    FoodParams to = from;
    to.cell_size = 4.0f;  // 24 x 16 cells
    REQUIRE(murmur::food_field_needs_refit(from, to));
    const std::vector<float> refitted = murmur::refit_food_field(from, to, world, field);
    REQUIRE(refitted.size() == murmur::food_grid_shape(to, world).cell_count());
    CHECK_THAT(total_of(refitted), Catch::Matchers::WithinRel(total_of(field), 1e-6));
    const std::vector<float> full(field.size(), 5.0f);
    // Cells holding 5 each over their area inside the world: a whole 10 x 10 cell gives a
    // 4 x 4 cell inside it 16 / 100 of its food; the old corner cell, [90, 95) x [60, 62)
    // inside the world, gives the new corner cell, [92, 95) x [60, 62), 6 / 10 of its food.
    const std::vector<float> spread = murmur::refit_food_field(from, to, world, full);
    CHECK_THAT(spread[0], Catch::Matchers::WithinRel(0.8f, 1e-6f));
    CHECK_THAT(spread.back(), Catch::Matchers::WithinRel(3.0f, 1e-6f));
  }
  SECTION("larger cells gather their parts' food up to max_per_cell; the rest is cut") {
    FoodParams to = from;
    to.cell_size = 20.0f;  // 5 x 4 cells
    const std::vector<float> refitted = murmur::refit_food_field(from, to, world, field);
    REQUIRE(refitted.size() == 20u);
    // Cell (0, 0) gathers old cells 0, 1 (row 0) and 10, 11 (row 1): 0 + 1 + 0 + 1 = 2.
    CHECK(refitted[0] == 2.0f);
    for (const float amount : refitted) CHECK(amount <= to.max_per_cell);
    to.max_per_cell = 1000.0f;
    CHECK_THAT(total_of(murmur::refit_food_field(from, to, world, field)),
               Catch::Matchers::WithinRel(total_of(field), 1e-6));
  }
  SECTION("a lower max_per_cell on the same grid cuts each cell down to it") {
    FoodParams to = from;
    to.max_per_cell = 2.5f;
    REQUIRE(murmur::food_field_needs_refit(from, to));
    const std::vector<float> refitted = murmur::refit_food_field(from, to, world, field);
    for (std::size_t c = 0; c < field.size(); ++c) {
      CHECK(refitted[c] == std::min(field[c], 2.5f));
    }
  }
}
