// `murmur bench --plan`: milliseconds per step and microseconds per agent-step of the floor
// plan (docs/model.md, "The floor-plan generator (origin 003)") on the CPU reference and on
// GpuPlan, at agent counts whose density stays the same, as a Markdown table for BENCHMARKS.md.
#include "cmd_bench_plan.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iterator>
#include <memory>
#include <string>

#include "backend.hpp"
#include "commands.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/gl/context.hpp"
#include "murmur/gl/gl.hpp"
#include "murmur/plan/gpu/gpu_plan.hpp"
#include "murmur/plan/plan.hpp"
#include "murmur/scenario/scenario.hpp"

namespace murmur::cli {
namespace {

// The two sizes: the time per agent-step at 100k within 2x of that at 10k.
const std::vector<std::uint64_t> kDefaultPlanSizes = {10000, 100000};
// Timed steps start this many steps after the plan's warm-up, so that they check deaths (the
// clearance query through the index) as a growing plan does.
constexpr std::uint32_t kStepsPastWarmup = 10;
constexpr std::uint32_t kDefaultTimedPlanSteps = 10;
// The issue asks for the CPU reference on two threads (this machine's cores).
constexpr unsigned kCpuWorkers = 2;
// One agent per 40 x 40 units, uniform over a square canvas that grows with N: the density of
// test_plan's benchmark (10,000 agents on 4000 x 4000), at which an agent has about 1.8 others
// within separation_radius.
constexpr double kAreaPerAgent = 1600.0;
constexpr std::uint64_t kPlanBenchSeed = 1;
constexpr double kMicrosecondsPerMillisecond = 1000.0;
// Each size runs the CPU reference, GpuPlan, and GpuPlan stage by stage.
constexpr std::uint64_t kRunsPerSize = 3;

PlanScenario builtin_plan_scenario(std::uint32_t agents) {
  const float side = static_cast<float>(std::sqrt(agents * kAreaPerAgent));
  PlanScenario scenario;
  scenario.world.width = side;
  scenario.world.height = side;
  scenario.world.seed = kPlanBenchSeed;
  PlanParams plan;  // origin 003's numbers
  PlanGroup everyone;
  everyone.count = agents;
  everyone.x = 0.0f;
  everyone.y = 0.0f;
  everyone.width = side;
  everyone.height = side;
  plan.groups = {everyone};
  scenario.plan = plan;
  scenario.source = "built-in plan scenario";
  validate_scenario(scenario);
  return scenario;
}

// PlanStageTimes' stages in the stage table's order, with its column names.
constexpr double PlanStageTimes::*kPlanStages[] = {
    &PlanStageTimes::move,       &PlanStageTimes::points,    &PlanStageTimes::index,
    &PlanStageTimes::crowd,      &PlanStageTimes::grid_clear, &PlanStageTimes::grid_sort,
    &PlanStageTimes::grid_scan,  &PlanStageTimes::steer};
constexpr const char* kPlanStageNames[] = {"move", "points", "index", "crowd", "grid clear",
                                           "grid sort", "grid scan", "steer"};
static_assert(std::size(kPlanStages) == std::size(kPlanStageNames));

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

struct PlanTiming {
  double cpu_ms = 0, gpu_ms = 0;  // medians per step
  PlanStageTimes stages;          // GpuPlan's, each stage's median over the timed steps
  // The CPU's living agents before the first and after the last timed step (the GPU's are the
  // same on llvmpipe, tests/gpu/test_plan_gpu.cpp).
  std::uint32_t living_first = 0, living_last = 0;
};

// Told each step (or run of steps) made, outside the timed code: the progress line.
using StepsMade = std::function<void(std::uint32_t steps)>;

// Median wall-clock milliseconds of the timed steps of `step_once`, after the warm-up steps;
// `before_timing` runs between the two.
template <typename StepOnce, typename BeforeTiming>
double median_ms(std::uint32_t warmup, std::uint32_t timed, StepOnce&& step_once,
                 BeforeTiming&& before_timing, const StepsMade& steps_made) {
  for (std::uint32_t i = 0; i < warmup; ++i) {
    step_once();
    steps_made(1);
  }
  before_timing();
  std::vector<double> samples;
  for (std::uint32_t i = 0; i < timed; ++i) {
    const auto start = std::chrono::steady_clock::now();
    step_once();
    samples.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
    steps_made(1);
  }
  return median(samples);
}

// The same GpuPlan steps again from the start, each timed stage by stage (glFinish after each
// stage, so their sum exceeds an untimed step by the lost overlap): each stage's median.
PlanStageTimes stage_medians(const PlanScenario& scenario, const PlanState& start,
                             std::uint32_t warmup, std::uint32_t timed,
                             const StepsMade& steps_made) {
  GpuPlan gpu(scenario, start,
              gpu_plan_point_capacity(std::uint64_t{warmup} + timed, start.agents.size(),
                                      "--warmup + --steps"));
  gpu.step(warmup);
  steps_made(warmup);
  std::vector<PlanStageTimes> samples;
  for (std::uint32_t i = 0; i < timed; ++i) {
    samples.push_back(gpu.step_timed());
    steps_made(1);
  }
  PlanStageTimes medians;
  for (double PlanStageTimes::*stage : kPlanStages) {
    std::vector<double> values;
    for (const PlanStageTimes& t : samples) values.push_back(t.*stage);
    medians.*stage = median(values);
  }
  return medians;
}

// The CPU reference alone, then GpuPlan alone from the same start, each step of GpuPlan ended
// by glFinish() (GL timer queries read 0 for compute work on llvmpipe).
PlanTiming time_plan(const PlanScenario& scenario, std::uint32_t warmup, std::uint32_t timed,
                     const StepsMade& steps_made) {
  PlanTiming timing;
  const PlanState start = plan_start(scenario, scenario.world.seed);
  PlanState cpu = start;
  timing.cpu_ms = median_ms(
      warmup, timed, [&] { plan_step(scenario, cpu, kCpuWorkers); },
      [&] { timing.living_first = cpu.living(); }, steps_made);
  timing.living_last = cpu.living();
  GpuPlan gpu(scenario, start,
              gpu_plan_point_capacity(std::uint64_t{warmup} + timed, start.agents.size(),
                                      "--warmup + --steps"));
  glFinish();
  timing.gpu_ms = median_ms(
      warmup, timed,
      [&] {
        gpu.step(1);
        glFinish();
      },
      [] {}, steps_made);
  timing.stages = stage_medians(scenario, start, warmup, timed, steps_made);
  return timing;
}

std::string number(double value) {
  char text[32];
  // Three significant digits without an exponent, from 0.0123 to 12345.
  const int decimals = value >= 100 ? 0 : value >= 10 ? 1 : value >= 1 ? 2 : 3;
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

}  // namespace

std::string plan_bench_defaults() {
  std::string sizes;
  for (const std::uint64_t n : kDefaultPlanSizes) {
    sizes += (sizes.empty() ? "" : ",") + std::to_string(n);
  }
  return "sizes " + sizes + ", " + std::to_string(kDefaultTimedPlanSteps) +
         " timed steps after " + std::to_string(PlanParams{}.warmup + kStepsPastWarmup) +
         " warm-up steps";
}

int run_plan_bench(const PlanBenchOptions& options) {
  const std::vector<std::uint64_t> sizes = options.sizes.value_or(kDefaultPlanSizes);
  std::vector<PlanScenario> scenarios;
  for (const std::uint64_t n : sizes) {
    scenarios.push_back(builtin_plan_scenario(static_cast<std::uint32_t>(n)));
  }
  const std::uint32_t warmup =
      options.warmup_steps.value_or(scenarios.front().plan.warmup + kStepsPastWarmup);
  const std::uint32_t timed = options.timed_steps.value_or(kDefaultTimedPlanSteps);

  const std::unique_ptr<gl::Context> context = gl::create_headless_context();
  const gl::ContextInfo& info = context->info();
  std::printf("renderer: %s\nplatform: %s\nGL: %s (%s)\n", info.renderer.c_str(),
              info.platform.c_str(), info.version.c_str(), info.vendor.c_str());
  std::printf("scenario: built-in plan scenario: origin 003's [plan] numbers, N agents uniform on "
              "a square canvas of %g units^2 per agent (density kept constant), seed %llu\n",
              kAreaPerAgent, static_cast<unsigned long long>(kPlanBenchSeed));
  std::printf("timing: median of %u steps after %u warm-up steps (deaths apply after step %u); "
              "cpu on %u threads, then gpu alone with glFinish(); wall clock\n\n",
              timed, warmup, scenarios.front().plan.warmup, kCpuWorkers);
  std::printf("| N | living | cpu ms/step | gpu ms/step | cpu us/agent-step | "
              "gpu us/agent-step | gpu/cpu |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|---:|\n");
  std::fflush(stdout);

  std::uint64_t planned = 0;
  for (const std::uint64_t n : sizes) planned += kRunsPerSize * n * (warmup + timed);
  Progress progress = command_progress("bench", "agent-steps", planned, options.quiet);
  std::uint64_t done = 0;
  std::vector<std::pair<double, double>> per_agent;  // us per agent-step: cpu, gpu
  std::vector<std::pair<std::uint32_t, PlanStageTimes>> stage_rows;
  for (const PlanScenario& scenario : scenarios) {
    const std::uint32_t n = scenario.plan.total_count();
    const PlanTiming t = time_plan(scenario, warmup, timed, [&](std::uint32_t steps) {
      progress.update(done += std::uint64_t{n} * steps);
    });
    context->check_gl_errors("the timing of " + std::to_string(n) + " agents");
    const double cpu_us = t.cpu_ms * kMicrosecondsPerMillisecond / n;
    const double gpu_us = t.gpu_ms * kMicrosecondsPerMillisecond / n;
    per_agent.emplace_back(cpu_us, gpu_us);
    stage_rows.emplace_back(n, t.stages);
    progress.clear_line();  // stdout may be the same terminal
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2f", t.gpu_ms / t.cpu_ms);
    std::printf("| %u | %u-%u | %s | %s | %s | %s | %s |\n", n, t.living_first, t.living_last,
                number(t.cpu_ms).c_str(), number(t.gpu_ms).c_str(), number(cpu_us).c_str(),
                number(gpu_us).c_str(), ratio);
    std::fflush(stdout);  // a row as soon as it is measured: 100k takes a minute
    progress.update(done);  // back on screen while the next size runs
  }
  progress.finish();
  if (per_agent.size() > 1) {
    std::printf("\nus per agent-step at N = %llu over that at N = %llu: cpu %.2f, gpu %.2f\n",
                static_cast<unsigned long long>(sizes.back()),
                static_cast<unsigned long long>(sizes.front()),
                per_agent.back().first / per_agent.front().first,
                per_agent.back().second / per_agent.front().second);
  }
  std::printf("\ngpu step by stage: median ms, glFinish() after each stage (a second GpuPlan "
              "from the same start)\n\n| N |");
  for (const char* name : kPlanStageNames) std::printf(" %s |", name);
  std::printf(" sum |\n|---:|");
  for (std::size_t k = 0; k < std::size(kPlanStageNames); ++k) std::printf("---:|");
  std::printf("---:|\n");
  for (const auto& [n, stages] : stage_rows) {
    std::printf("| %u |", n);
    for (double PlanStageTimes::*stage : kPlanStages) {
      std::printf(" %s |", number(stages.*stage).c_str());
    }
    std::printf(" %s |\n", number(stages.total()).c_str());
  }
  return kExitOk;
}

}  // namespace murmur::cli
