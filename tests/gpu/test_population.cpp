// A living population (docs/model.md, "A living population"): deaths by age, births by the
// test-only budding rule, the capacity, next_id and the births refused at its top
// (docs/model.md, "Ids that stay unique"), on the GPU and the CPU reference; the harness with
// a changing population and the planted birth fault it must catch.
#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpu_test_support.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/flock/cpu_flock.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/flock/gpu/harness.hpp"
#include "murmur/gl/stall_counter.hpp"

using namespace murmur;
using murmur::test::gl_context;

namespace {

// Two species on a torus and in walls, flocking, so steps move boids between cells.
Scenario living_world(std::uint32_t per_species, std::uint32_t max_age) {
  Scenario sc = test::world(120.0f, 90.0f, 17);
  sc.species.push_back(test::species("wrapping", per_species, Topology::Wrap, 6.0f, 2.0f));
  sc.species.push_back(test::species("walled", per_species, Topology::Bounded, 5.0f, 1.5f));
  for (SpeciesParams& s : sc.species) s.max_age = max_age;
  return sc;
}

// Ages staggered by id, so boids die on different steps.
FlockState staggered_ages(const Scenario& sc, std::uint32_t period) {
  FlockState state = seeded_start(sc);
  for (Boid& b : state.boids) b.age = b.id % period;
  return state;
}

std::vector<std::uint32_t> ids_of(const FlockState& state) {
  std::vector<std::uint32_t> ids;
  for (const Boid& b : state.boids) ids.push_back(b.id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace

TEST_CASE("Ageing: the GPU and the CPU let the same boids die, when their age reaches max_age") {
  gl_context();
  constexpr std::uint32_t kMaxAge = 6;
  constexpr std::uint32_t kAgePeriod = 9;  // ages 0..8: some start past max_age
  const Scenario sc = living_world(300, kMaxAge);
  const FlockState start = staggered_ages(sc, kAgePeriod);

  GpuFlock gpu(sc, start);
  // The upload itself sorts the state: boids already at max_age drop out, as after a step.
  std::vector<std::uint32_t> expected;
  for (const Boid& b : start.boids) {
    if (b.age < kMaxAge) expected.push_back(b.id);
  }
  REQUIRE(gpu.live_count() == expected.size());

  FlockState cpu = start;
  for (std::uint32_t t = 1; t <= kMaxAge; ++t) {
    gpu.step();
    cpu = cpu_step(sc, cpu);
    // Independently of both: after t steps a boid of starting age a lives when a + t < max_age.
    expected.clear();
    for (const Boid& b : start.boids) {
      if (b.age + t < kMaxAge) expected.push_back(b.id);
    }
    const FlockState on_gpu = gpu.download();
    INFO("step " << t);
    REQUIRE(ids_of(on_gpu) == expected);
    REQUIRE(ids_of(cpu) == expected);
    for (const Boid& b : on_gpu.boids) REQUIRE(b.age == b.id % kAgePeriod + t);
  }
  REQUIRE(gpu.live_count() == 0);
  // An empty flock steps without error and stays empty.
  gpu.step(3);
  REQUIRE(gpu.download().boids.empty());
}

TEST_CASE("max_age 0 never kills, and ages saturate instead of wrapping") {
  gl_context();
  const Scenario sc = living_world(50, 0);
  FlockState start = seeded_start(sc);
  start.boids[0].age = 0xFFFFFFFEu;
  GpuFlock gpu(sc, start);
  gpu.step(3);
  const FlockState after = gpu.download();
  REQUIRE(after.boids.size() == start.boids.size());
  const auto oldest = std::find_if(after.boids.begin(), after.boids.end(),
                                   [&](const Boid& b) { return b.id == start.boids[0].id; });
  REQUIRE(oldest != after.boids.end());
  REQUIRE(oldest->age == 0xFFFFFFFFu);
  REQUIRE(cpu_step(sc, cpu_step(sc, cpu_step(sc, start))).boids.size() == start.boids.size());
}

TEST_CASE("Budding: children take next_id + their index in parent order, the same on GPU and CPU") {
  gl_context();
  Scenario sc = living_world(200, 0);
  sc.world.capacity = 2000;
  const BirthRules budding{.budding_period = 5};
  FlockState start = seeded_start(sc);
  start.step = 3;  // the rule keys on the step index: (id + 3) % 5 == 0 buds

  GpuFlock gpu(sc, start);
  gpu.set_birth_rules(budding);
  gpu.step();
  const FlockState on_gpu = gpu.download();
  CpuStepTrace trace;
  FlockState on_cpu = cpu_step(sc, start, &trace, std::nullopt, budding);
  on_cpu.sort_by_id();

  // Parents by the rule, counted here: (id + step) mod P == 0.
  std::uint32_t parents = 0;
  for (const Boid& b : start.boids) parents += (b.id + 3) % 5 == 0 ? 1 : 0;
  REQUIRE(parents > 0);
  const std::uint32_t first_child = *start.next_id;
  REQUIRE(on_gpu.boids.size() == start.boids.size() + parents);
  REQUIRE(*on_gpu.next_id == first_child + parents);
  REQUIRE(on_gpu.step == 4);
  REQUIRE(ids_of(on_gpu) == ids_of(on_cpu));
  REQUIRE(*on_cpu.next_id == *on_gpu.next_id);
  // Children ids are exactly next_id .. next_id + parents - 1, given out in parent order:
  // (cell, id) of state t on the scenario's grid.
  const GridShape grid = grid_shape_for(sc, sc.capacity());
  std::vector<std::pair<std::uint64_t, std::uint32_t>> order;
  for (const Boid& b : start.boids) {
    if ((b.id + 3) % 5 == 0) order.emplace_back((std::uint64_t{grid.cell_of(b.pos)} << 32) | b.id, b.id);
  }
  std::sort(order.begin(), order.end());
  REQUIRE(trace.births.size() == parents);
  for (std::size_t k = 0; k < order.size(); ++k) {
    REQUIRE(trace.births[k].child_id == first_child + k);
    REQUIRE(trace.births[k].parent_id == order[k].second);
  }
  // Every child sits on its parent's new position with the mirrored velocity, age 0.
  for (const BirthRecord& birth : trace.births) {
    const auto find = [&](std::uint32_t id) {
      return *std::find_if(on_gpu.boids.begin(), on_gpu.boids.end(),
                           [id](const Boid& b) { return b.id == id; });
    };
    const Boid child = find(birth.child_id);
    const Boid parent = find(birth.parent_id);
    REQUIRE(child.pos == parent.pos);
    REQUIRE(child.vel == -parent.vel);
    REQUIRE(child.age == 0);
    REQUIRE(child.species == parent.species);
  }
}

TEST_CASE("The capacity caps births in birth order, and next_id reaches 2^32 - 1") {
  gl_context();
  Scenario sc = living_world(40, 0);
  sc.world.capacity = 83;  // 80 boids: room for three children
  const BirthRules every_boid{.budding_period = 1};
  FlockState start = seeded_start(sc);
  start.next_id = 0xFFFFFFFCu;  // the children get 0xFFFFFFFC .. 0xFFFFFFFE, the last allowed
  // Move the boids' ids out of the way of the children.
  for (Boid& b : start.boids) b.id += 1000;

  GpuFlock gpu(sc, start);
  gpu.set_birth_rules(every_boid);
  gpu.step();
  FlockState on_gpu = gpu.download();
  CpuStepTrace trace;
  FlockState on_cpu = cpu_step(sc, start, &trace, std::nullopt, every_boid);
  on_cpu.sort_by_id();
  REQUIRE(on_gpu.boids.size() == 83);
  REQUIRE(ids_of(on_gpu) == ids_of(on_cpu));
  const std::set<std::uint32_t> children{0xFFFFFFFCu, 0xFFFFFFFDu, 0xFFFFFFFEu};
  std::set<std::uint32_t> born;
  for (const BirthRecord& b : trace.births) born.insert(b.child_id);
  REQUIRE(born == children);
  // One vector: begin() and end() of two temporaries would search between unrelated buffers.
  const std::vector<std::uint32_t> gpu_ids = ids_of(on_gpu);
  for (std::uint32_t id : children) REQUIRE(std::binary_search(gpu_ids.begin(), gpu_ids.end(), id));
  REQUIRE(*on_gpu.next_id == kLastNextId);
  REQUIRE(*on_cpu.next_id == kLastNextId);
  // Full: nobody more is born, next_id stays at the top, and the flock steps on.
  gpu.step(2);
  on_gpu = gpu.download();
  REQUIRE(on_gpu.boids.size() == 83);
  REQUIRE(*on_gpu.next_id == kLastNextId);
}

namespace {

// The first step of a CPU run from `start` that throws, with its message (none in `steps`: "").
std::pair<std::uint64_t, std::string> first_refused_cpu_step(const Scenario& sc, FlockState state,
                                                             const BirthRules& births,
                                                             std::uint32_t steps) {
  for (std::uint32_t k = 0; k < steps; ++k) {
    try {
      state = cpu_step(sc, state, nullptr, std::nullopt, births);
    } catch (const InputError& error) {
      return {state.step + 1, error.what()};
    }
  }
  return {0, ""};
}

}  // namespace

TEST_CASE("Births that would take next_id past 2^32 - 1 stop the GPU and the CPU at the same "
          "step, with the same message, and with room the run goes on", "[ids]") {
  gl_context();
  Scenario sc = living_world(40, 0);
  sc.world.capacity = 400;  // never full here: births are only limited by the ids
  const BirthRules budding{.budding_period = 16};  // a few parents a step
  FlockState start = seeded_start(sc);
  for (Boid& b : start.boids) b.id += 1000;  // clear of the children's ids
  constexpr std::uint32_t kSteps = 40;

  SECTION("near the top: both stop at one step, which the GPU learns of without being asked") {
    // Room for about a dozen steps of children, and the bound (next_id + capacity a step)
    // already past the top: the GPU reads next_id back every step.
    start.next_id = kLastNextId - 30;
    const auto [cpu_step_refused, cpu_message] = first_refused_cpu_step(sc, start, budding, kSteps);
    REQUIRE(cpu_step_refused > 1);
    REQUIRE_THAT(cpu_message, Catch::Matchers::StartsWith(
                                  "step " + std::to_string(cpu_step_refused) + ": "));
    REQUIRE_THAT(cpu_message, Catch::Matchers::Contains("past 4294967295: ids are 32-bit"));

    GpuFlock gpu(sc, start);
    gpu.set_birth_rules(budding);
    std::string gpu_message;
    gl::count_stalls();
    const gl::StallCounts before = gl::stall_counts();
    try {
      gpu.step(kSteps);
    } catch (const InputError& error) {
      gpu_message = error.what();
    }
    const gl::StallCounts stalls = gl::stall_counts() - before;
    REQUIRE(gpu_message == cpu_message);
    REQUIRE(gpu.step_index() == cpu_step_refused);
    // The price of being near the top: one read of the Population record a step.
    CHECK(stalls.readbacks == cpu_step_refused);
    CHECK(stalls.finishes == 0);
    // The GPU made the refused step before it knew: the flock shows none of it.
    REQUIRE_THROWS_WITH(gpu.download(), cpu_message);
    REQUIRE_THROWS_WITH(gpu.step(), cpu_message);
    // A new state makes it a flock again.
    FlockState lower = start;
    lower.next_id = 5000;
    gpu.upload(lower);
    gpu.step(3);
    REQUIRE(gpu.download().step == 3);
  }

  SECTION("far from the top, the same births go on, bit for bit with the CPU") {
    start.next_id = kLastNextId - 30 - kSteps * sc.capacity();
    GpuFlock gpu(sc, start);
    gpu.set_birth_rules(budding);
    gl::count_stalls();
    const gl::StallCounts before = gl::stall_counts();
    gpu.step(kSteps);
    // Far from the top the limit costs no readback: no step waits for the GPU.
    CHECK((gl::stall_counts() - before).total() == 0);
    FlockState cpu = start;
    for (std::uint32_t k = 0; k < kSteps; ++k) {
      cpu = cpu_step(sc, cpu, nullptr, std::nullopt, budding);
    }
    const FlockState on_gpu = gpu.download();
    REQUIRE(ids_of(on_gpu) == ids_of(cpu));
    REQUIRE(*on_gpu.next_id == *cpu.next_id);
    REQUIRE(*cpu.next_id > *start.next_id + 30);  // more children than the top had room for
  }

  SECTION("a state that holds 2^32 - 1, read without a next_id, bears no child") {
    start.boids.back().id = kLastNextId;
    start.next_id.reset();
    GpuFlock gpu(sc, start);
    gpu.step(3);  // no birth rule: nothing to refuse
    gpu.set_birth_rules(budding);
    std::string gpu_message;
    try {
      gpu.step(kSteps);
    } catch (const InputError& error) {
      gpu_message = error.what();
    }
    FlockState after_three = start;
    for (int k = 0; k < 3; ++k) after_three = cpu_step(sc, after_three);
    const auto [cpu_step_refused, cpu_message] =
        first_refused_cpu_step(sc, after_three, budding, kSteps);
    REQUIRE_THAT(cpu_message, Catch::Matchers::Contains("from 4294967295 to"));
    REQUIRE(gpu_message == cpu_message);
    REQUIRE(cpu_step_refused == 4);
  }
}

TEST_CASE("The harness follows a living population by id and catches children numbered out of parent order") {
  gl_context();
  Scenario sc = living_world(250, 7);
  sc.world.capacity = 1200;
  const FlockState start = staggered_ages(sc, 10);
  CompareOptions options;
  options.lockstep_steps = 4;
  options.free_steps = 12;
  options.samples = 3;
  options.births = BirthRules{.budding_period = 4};
  const CompareReport clean = run_comparison(sc, start, options);
  INFO(clean.table());
  REQUIRE(clean.passed());
  REQUIRE(clean.lockstep.deaths > 0);
  REQUIRE(clean.lockstep.births > 0);
  REQUIRE(clean.lockstep.event_mismatches == 0);
  const bool population_compared =
      std::any_of(clean.free_run.stats.begin(), clean.free_run.stats.end(),
                  [](const StatAgreement& s) { return s.name == "population wrapping"; });
  REQUIRE(population_compared);

  options.fault = GpuFault::ReversedBirths;
  const CompareReport faulty = run_comparison(sc, start, options);
  INFO(faulty.table());
  REQUIRE_FALSE(faulty.lockstep.passed());
  REQUIRE(faulty.lockstep.failed > 0);
}
