// The floor-plan generator on the GPU against the CPU reference (docs/gpu.md, "The floor-plan
// generator"): bit-identical states on llvmpipe, the clearance index's own arrays, and
// overflow as an error.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>

#include "gpu_test_support.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/gl/gl.hpp"
#include "murmur/plan/gpu/gpu_plan.hpp"
#include "murmur/plan/plan.hpp"
#include "murmur/scenario/scenario.hpp"
#include "plan_test_scenarios.hpp"

namespace murmur {
namespace {

using test::crowded_scenario;
using test::kWorld;
using test::origin003_scenario;

template <typename T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Every agent and point bit for bit; the first difference is reported.
void require_same_plan(const PlanState& cpu, const PlanState& gpu) {
  REQUIRE(gpu.step == cpu.step);
  REQUIRE(gpu.agents.size() == cpu.agents.size());
  for (std::size_t i = 0; i < cpu.agents.size(); ++i) {
    INFO("agent " << i << "\n  cpu " << describe_plan_agent(cpu.agents[i]) << "\n  gpu "
                    << describe_plan_agent(gpu.agents[i]));
    REQUIRE(same_plan_agent(cpu.agents[i], gpu.agents[i]));
  }
  REQUIRE(gpu.points.size() == cpu.points.size());
  for (std::size_t p = 0; p < cpu.points.size(); ++p) {
    INFO("point " << p);
    REQUIRE(same_bits(cpu.points[p], gpu.points[p]));
  }
}

// Steps both backends from the same start and compares them, the GPU's clearance index with
// the CPU's included, every `check_every` steps.
void compare_backends(const PlanScenario& scenario, std::uint64_t seed, std::uint32_t steps,
                      std::uint32_t check_every, GpuFault fault = GpuFault::None) {
  test::gl_context();
  PlanState cpu = plan_start(scenario, seed);
  const std::uint32_t agents =
      gpu_plan_agent_capacity(scenario, static_cast<std::uint32_t>(cpu.agents.size()));
  GpuPlan gpu(scenario, cpu, agents * steps);
  gpu.set_fault(fault);
  for (std::uint32_t done = 0; done < steps; done += check_every) {
    for (std::uint32_t s = 0; s < check_every; ++s) plan_step(scenario, cpu);
    gpu.step(check_every);
    INFO("after step " << cpu.step);
    const GpuPlanIndex index = gpu.index();
    INFO("buckets " << index.heads.size() << " (cpu " << cpu.index.heads().size() << "), points "
                    << index.next.size() << " (cpu " << cpu.index.next().size() << ")");
    REQUIRE(std::equal(index.heads.begin(), index.heads.end(), cpu.index.heads().begin(),
                       cpu.index.heads().end()));
    REQUIRE(std::equal(index.next.begin(), index.next.end(), cpu.index.next().begin(),
                       cpu.index.next().end()));
    const PlanState state = gpu.plan_state();
    require_same_plan(cpu, state);
    REQUIRE(state.births_dropped == cpu.births_dropped);
  }
}

TEST_CASE("plan gpu: origin 003's preset gives the CPU's plan bit for bit over 300 steps") {
  const PlanScenario scenario = origin003_scenario();
  compare_backends(scenario, 3, 300, 30);
  // Deaths happened, so the clearance test and the death rules were compared too.
  PlanState cpu = plan_start(scenario, 3);
  for (int s = 0; s < 300; ++s) plan_step(scenario, cpu);
  CHECK(cpu.living() < cpu.agents.size());
}

TEST_CASE("plan gpu: thousands of agents give the CPU's plan bit for bit over 300 steps") {
  const PlanScenario scenario = crowded_scenario(300);  // 2700 agents
  PlanState cpu = plan_start(scenario, 11);
  compare_backends(scenario, 11, 300, 20);
  for (int s = 0; s < 300; ++s) plan_step(scenario, cpu);
  bool too_close = false, too_slow_or_turns = false;
  for (const PlanAgent& a : cpu.agents) {
    too_close = too_close || a.death == PlanDeath::TooClose;
    too_slow_or_turns = too_slow_or_turns || a.death == PlanDeath::TooSlow ||
                        a.death == PlanDeath::TooManyTurns;
  }
  CHECK(too_close);
  CHECK(too_slow_or_turns);
}

// Every agent a steering candidate of every other: an invocation merges 8,000 candidates (a
// long loop in one invocation, which llvmpipe caps; docs/gpu.md), and must see every one.
TEST_CASE("plan gpu: a clump of 8,000 agents, each every other's candidate, gives the CPU's plan") {
  const PlanScenario scenario = parse_plan_scenario(kWorld +
                                               "[plan]\n[[plan.group]]\ncount = 8000\nx = 380\n"
                                               "y = 380\nwidth = 40\nheight = 40\n",
                                           "clump.toml");
  compare_backends(scenario, 7, 2, 1);
}

// GpuPlan lists the start's living agents for its first step (docs/gpu.md): a start with dead
// agents and an odd step count must go on as the CPU's does.
TEST_CASE("plan gpu: a plan started part-way, with dead agents at an odd step, goes on as the "
          "CPU's") {
  const PlanScenario scenario = crowded_scenario(60);
  test::gl_context();
  PlanState cpu = plan_start(scenario, 11);
  for (int s = 0; s < 45; ++s) plan_step(scenario, cpu);
  REQUIRE(cpu.living() > 0);
  REQUIRE(cpu.living() < cpu.agents.size());
  GpuPlan gpu(scenario, cpu, std::uint32_t(cpu.agents.size() * 75));
  for (int s = 0; s < 30; ++s) plan_step(scenario, cpu);
  gpu.step(30);
  require_same_plan(cpu, gpu.plan_state());
  const GpuPlanIndex index = gpu.index();
  CHECK(std::equal(index.next.begin(), index.next.end(), cpu.index.next().begin(),
                   cpu.index.next().end()));
}

TEST_CASE("plan gpu: update() following every step reads the same state as plan_state()") {
  const PlanScenario scenario = crowded_scenario(20);
  test::gl_context();
  const PlanState start = plan_start(scenario, 5);
  GpuPlan gpu(scenario, start, 180 * 60);
  PlanState followed = gpu.plan_state();
  for (int s = 0; s < 60; ++s) {
    gpu.step();
    gpu.update(followed);
  }
  const PlanState whole = gpu.plan_state();
  require_same_plan(whole, followed);
  CHECK(std::equal(followed.index.next().begin(), followed.index.next().end(),
                   whole.index.next().begin(), whole.index.next().end()));
  CHECK(followed.points.size() > 180 * 30);
}

TEST_CASE("plan gpu: a planted fault (a clearance cell skipped) breaks the agreement") {
  const PlanScenario scenario = crowded_scenario(300);
  test::gl_context();
  PlanState cpu = plan_start(scenario, 11);
  GpuPlan gpu(scenario, cpu, std::uint32_t(cpu.agents.size() * 120));
  gpu.set_fault(GpuFault::DropClearanceCell);
  for (int s = 0; s < 120; ++s) plan_step(scenario, cpu);
  gpu.step(120);
  const PlanState faulty = gpu.plan_state();
  std::size_t differing = 0;
  for (std::size_t i = 0; i < cpu.agents.size(); ++i) {
    if (!same_plan_agent(cpu.agents[i], faulty.agents[i])) ++differing;
  }
  CHECK(differing > 0);
}

TEST_CASE("plan gpu: running out of points is an error naming the step, never a silent miss") {
  const PlanScenario scenario = origin003_scenario();
  test::gl_context();
  const PlanState start = plan_start(scenario, 3);
  // Room for 5 steps of 20 agents: the sixth step's points do not fit.
  GpuPlan gpu(scenario, start, 5 * 20);
  gpu.step(5);
  CHECK(gpu.plan_state().points.size() == 100);
  try {
    gpu.step(3);
    FAIL("no error");
  } catch (const std::length_error& error) {
    const std::string message = error.what();
    CHECK(message.find("step 6 needs 120 saved points") != std::string::npos);
    CHECK(message.find("point capacity is 100") != std::string::npos);
  }
  CHECK(gpu.plan_state().points.size() == 100);
}

TEST_CASE("plan gpu: a steering grid past its cell capacity is an error") {
  const PlanScenario scenario = crowded_scenario(10);
  test::gl_context();
  const PlanState start = plan_start(scenario, 3);
  GpuPlan gpu(scenario, start, 1000 * 90, 4);  // the canvas's groups span more than 2 x 2 cells
  CHECK_THROWS_WITH(gpu.step(1), Catch::Contains("cell capacity is 4"));
}


// The links the renderer draws by (GpuPlanBuffers::previous): each point's agent's point before
// it, computed here from the points read back.
std::vector<std::uint32_t> expected_links(const PlanState& state) {
  std::vector<std::uint32_t> links(state.points.size(), PlanPointIndex::kNone);
  std::vector<std::uint32_t> last(state.agents.size(), PlanPointIndex::kNone);
  for (std::size_t p = 0; p < state.points.size(); ++p) {
    links[p] = last[state.points[p].agent];
    last[state.points[p].agent] = static_cast<std::uint32_t>(p);
  }
  return links;
}

std::vector<std::uint32_t> gpu_links(const GpuPlan& gpu, std::size_t points) {
  std::vector<std::uint32_t> links(points);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  if (points > 0) {
    glGetNamedBufferSubData(gpu.buffers().previous, 0,
                            static_cast<GLsizeiptr>(points * sizeof(std::uint32_t)), links.data());
  }
  return links;
}

TEST_CASE("plan gpu: every saved point links to its agent's point before it") {
  const PlanScenario scenario = crowded_scenario(40);
  test::gl_context();
  PlanState start = plan_start(scenario, 9);
  // A start that already has points: the constructor links them as the passes do.
  for (int s = 0; s < 12; ++s) plan_step(scenario, start);
  GpuPlan gpu(scenario, start, std::uint32_t(start.points.size() + 360 * 150));
  gpu.step(150);
  const PlanState state = gpu.plan_state();
  REQUIRE(state.points.size() > start.points.size());
  const std::vector<std::uint32_t> links = gpu_links(gpu, state.points.size());
  const std::vector<std::uint32_t> expected = expected_links(state);
  for (std::size_t p = 0; p < links.size(); ++p) {
    INFO("point " << p << " of agent " << state.points[p].agent);
    REQUIRE(links[p] == expected[p]);
  }
}

TEST_CASE("plan gpu: counts() gives the living, the dead by cause and the points") {
  const PlanScenario scenario = crowded_scenario(60);
  test::gl_context();
  PlanState cpu = plan_start(scenario, 4);
  GpuPlan gpu(scenario, cpu, std::uint32_t(cpu.agents.size() * 200));
  for (const std::uint32_t steps : {0u, 40u, 160u}) {
    for (std::uint32_t s = 0; s < steps; ++s) plan_step(scenario, cpu);
    gpu.step(steps);
    // plan_summary (docs/model.md, "Plan statistics") is the CPU's definition of the counts.
    const PlanSummary summary = plan_summary(scenario, cpu);
    const std::array<std::uint32_t, 3> died{summary.died_too_slow, summary.died_too_close,
                                            summary.died_too_many_turns};
    const GpuPlanCounts counts = gpu.counts();
    INFO("step " << cpu.step);
    CHECK(counts.step == summary.step);
    CHECK(counts.agents == summary.agents);
    CHECK(counts.living == summary.living);
    CHECK(counts.died == died);
    CHECK(counts.points == summary.points);
    CHECK_FALSE(counts.stopped());
  }
  CHECK(cpu.living() < cpu.agents.size());  // deaths of more than one cause were counted
}

TEST_CASE("plan gpu: buffers grown on the way give the plan of buffers big from the start") {
  const PlanScenario scenario = crowded_scenario(80);
  test::gl_context();
  const PlanState start = plan_start(scenario, 21);
  const auto agents = static_cast<std::uint32_t>(start.agents.size());
  GpuPlan roomy(scenario, start, agents * 240);
  // Room for two steps, grown by make_room as the viewer and the recorder grow it: from counts a
  // few steps old, before the steps that could fill it.
  GpuPlan grown(scenario, start, agents * 2);
  GpuPlanCounts known = grown.counts();
  std::uint32_t reserved = 0;
  for (int frame = 0; frame < 60; ++frame) {
    const std::uint32_t capacity = grown.point_capacity();
    grown.make_room(known, grown.steps() + 4);
    if (grown.point_capacity() != capacity) ++reserved;
    grown.advance(4);
    if (frame % 3 == 0) known = grown.counts();
  }
  roomy.step(240);
  const GpuPlanCounts counts = grown.counts();
  REQUIRE_FALSE(counts.stopped());
  CHECK(reserved >= 2);
  const PlanState expected = roomy.plan_state();
  require_same_plan(expected, grown.plan_state());
  const GpuPlanIndex a = roomy.index(), b = grown.index();
  CHECK(a.heads == b.heads);
  CHECK(a.next == b.next);
  CHECK(gpu_links(grown, expected.points.size()) == expected_links(expected));
}

TEST_CASE("plan gpu: advance() past the room stops the plan, and counts() says where") {
  const PlanScenario scenario = origin003_scenario();
  test::gl_context();
  GpuPlan gpu(scenario, plan_start(scenario, 3), 5 * 20);
  gpu.advance(9);
  const GpuPlanCounts counts = gpu.counts();
  CHECK(counts.stopped());
  CHECK(counts.error_step == 6);
  CHECK(counts.reached_step() == 5);
  CHECK(counts.points == 100);
  CHECK(counts.step == 9);  // queued
  CHECK(most_points_at(counts, 12) == 100 + 3 * 20);
  CHECK_THROWS_WITH(gpu.step(0), Catch::Contains("step 6 needs 120 saved points"));
}

// Origin 003's start with branching on (docs/model.md, "Branching").
PlanScenario branching_scenario(float chance, float coverage, std::uint32_t max_agents) {
  return parse_plan_scenario(kWorld + "[plan]\nbranch_chance = " + std::to_string(chance) +
                            "\nbranch_coverage = " + std::to_string(coverage) +
                            "\nmax_agents = " + std::to_string(max_agents) + "\n",
                        "branching.toml");
}

TEST_CASE("plan gpu: a branching plan is the CPU's, agent by agent and point by point") {
  SECTION("growing until its agents die out") {
    const PlanScenario scenario = branching_scenario(0.03f, 0.3f, 4096);
    compare_backends(scenario, 3, 300, 10);
    PlanState cpu = plan_start(scenario, 3);
    for (int s = 0; s < 300; ++s) plan_step(scenario, cpu);
    CHECK(cpu.births() > 40);
  }
  SECTION("stopped by max_agents, the dropped counted") {
    const PlanScenario scenario = branching_scenario(0.2f, 1.0f, 60);
    compare_backends(scenario, 5, 120, 1);
    PlanState cpu = plan_start(scenario, 5);
    for (int s = 0; s < 120; ++s) plan_step(scenario, cpu);
    CHECK(cpu.agents.size() == 60);
    CHECK(cpu.births_dropped > 0);
  }
  SECTION("stopped by the coverage target") {
    const PlanScenario scenario = branching_scenario(0.1f, 0.04f, 4096);
    compare_backends(scenario, 3, 200, 5);
  }
}

TEST_CASE("plan gpu: a planted fault (a child's origin unsnapped) breaks the agreement") {
  const PlanScenario scenario = branching_scenario(0.05f, 0.3f, 4096);
  test::gl_context();
  PlanState cpu = plan_start(scenario, 3);
  GpuPlan gpu(scenario, cpu, 4096 * 80);
  gpu.set_fault(GpuFault::BranchAtParentDrawn);
  for (int s = 0; s < 80; ++s) plan_step(scenario, cpu);
  gpu.step(80);
  const PlanState faulty = gpu.plan_state();
  REQUIRE(cpu.births() > 0);
  REQUIRE(faulty.agents.size() == cpu.agents.size());  // the fault moves lines, not births
  std::size_t differing = 0;
  for (std::size_t i = 0; i < cpu.agents.size(); ++i) {
    if (!same_plan_agent(cpu.agents[i], faulty.agents[i])) ++differing;
  }
  CHECK(differing > 0);
}

TEST_CASE("plan gpu: plan_state() carries the start's seed and the CPU's coverage") {
  const PlanScenario scenario = crowded_scenario(10);
  test::gl_context();
  PlanState cpu = plan_start(scenario, 9);
  GpuPlan gpu(scenario, cpu, 90 * 80);
  for (int s = 0; s < 80; ++s) plan_step(scenario, cpu);
  gpu.step(80);
  const PlanState state = gpu.plan_state();
  require_same_plan(cpu, state);
  CHECK(state.seed == 9);
  CHECK(state.coverage.cells() == cpu.coverage.cells());
  CHECK(state.coverage.covered() == cpu.coverage.covered());
  CHECK(cpu.coverage.covered() > 100);
}

}  // namespace
}  // namespace murmur
