// `murmur bench`: milliseconds per step of the GPU grid, the GPU all-pairs pass and the CPU
// reference at growing flock sizes, as a Markdown table for BENCHMARKS.md.
//
// Sections: built-in scenarios; timing steps; the table's cells; running the benchmark; the
// command.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "cmd_bench_plan.hpp"
#include "commands.hpp"
#include "murmur/flock/cpu_flock.hpp"
#include "murmur/base/errors.hpp"
#include "memory_check.hpp"
#include "murmur/gl/context.hpp"
#include "murmur/gl/gl.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/flock/grid.hpp"
#include "murmur/flock/state.hpp"

namespace murmur::cli {

// --- built-in scenarios ------------------------------------------------------------------------
namespace {

// The built-in scenario: one wrapping species spread uniformly, with the density at which each
// boid sees about kTargetNeighbours others, as in feasibility.md's grid measurements.
constexpr std::uint32_t kReferenceBoids = 1024;
constexpr double kTargetNeighbours = 20.0;
constexpr float kPerceptionRadius = 10.0f;
constexpr float kSeparationRadius = 4.0f;
constexpr std::uint64_t kBuiltinSeed = 1;
constexpr const char* kSkipped = "—";

// `three_d`: the same flock in a cube world whose volume gives the same neighbours.
Scenario builtin_uniform_scenario(bool three_d = false) {
  SpeciesParams species;
  species.name = "uniform";
  species.count = kReferenceBoids;
  species.topology = Topology::Wrap;
  species.perception_radius = kPerceptionRadius;
  species.separation_radius = kSeparationRadius;
  species.fov_degrees = 360.0f;
  species.align_weight = 0.05f;
  species.cohesion_weight = 0.005f;
  species.separation_weight = 1.0f;
  species.max_force = 0.05f;
  species.min_speed = 0.5f;
  species.max_speed = 2.0f;

  const double r = kPerceptionRadius;
  // density * pi r^2 = neighbours, with density = count / side^2; in 3D density * 4/3 pi r^3,
  // with density = count / side^3.
  const double side = three_d ? std::cbrt(kReferenceBoids * 4.0 / 3.0 * std::numbers::pi * r * r *
                                          r / kTargetNeighbours)
                              : std::sqrt(kReferenceBoids * std::numbers::pi * r * r /
                                          kTargetNeighbours);
  Scenario scenario;
  scenario.world = {.width = static_cast<float>(side), .height = static_cast<float>(side),
                    .seed = kBuiltinSeed};
  if (three_d) {
    scenario.world.dimensions = 3;
    scenario.world.depth = static_cast<float>(side);
  }
  scenario.species.push_back(species);
  scenario.source = three_d ? "built-in uniform scenario in 3D" : "built-in uniform scenario";
  return scenario;
}

// The built-in ecosystem (docs/model.md, "An ecosystem"): the uniform scenario's flock as
// grazers on a full food field, with one boid in kHunterShare a hunter of them, every rule on
// (energy, grazing, hunting, fleeing, births by energy, a cap).
constexpr std::uint32_t kHunterShare = 16;
Scenario builtin_ecosystem_scenario() {
  Scenario scenario = builtin_uniform_scenario();
  SpeciesParams& grazer = scenario.species.front();
  grazer.name = "grazer";
  grazer.count = kReferenceBoids - kReferenceBoids / kHunterShare;
  grazer.grazes = true;
  grazer.energy_max = 100.0f;
  grazer.energy_initial = 50.0f;
  grazer.energy_per_step = 0.05f;
  grazer.energy_per_distance = 0.02f;
  grazer.energy_from_food = 5.0f;
  grazer.reproduce_energy = 80.0f;
  grazer.flee_weight = 1.0f;
  grazer.food_weight = 0.02f;
  grazer.max_count = 2 * kReferenceBoids;
  SpeciesParams hunter = grazer;
  hunter.name = "hunter";
  hunter.count = kReferenceBoids / kHunterShare;
  hunter.grazes = false;
  hunter.eats = {grazer.name};
  hunter.flee_weight = 0.0f;
  hunter.food_weight = 0.0f;
  hunter.energy_from_food = 0.0f;
  hunter.energy_from_prey = 30.0f;
  hunter.catch_radius = kSeparationRadius;
  hunter.chase_weight = 0.05f;
  scenario.species.push_back(hunter);
  scenario.food = FoodParams{};
  scenario.food->regrow_per_step = 0.01f;
  scenario.source = "built-in ecosystem scenario";
  return scenario;
}

// `scenario` with every ecosystem key at its default (no [food] table): the plain flock the
// ecosystem step is measured against.
Scenario without_ecosystem(Scenario scenario) {
  const SpeciesParams defaults;
  for (SpeciesParams& s : scenario.species) {
    s.eats = defaults.eats;
    s.grazes = defaults.grazes;
    s.energy_max = defaults.energy_max;
    s.energy_initial = defaults.energy_initial;
    s.energy_per_step = defaults.energy_per_step;
    s.energy_per_distance = defaults.energy_per_distance;
    s.energy_from_food = defaults.energy_from_food;
    s.energy_from_prey = defaults.energy_from_prey;
    s.reproduce_energy = defaults.reproduce_energy;
    s.catch_radius = defaults.catch_radius;
    s.chase_weight = defaults.chase_weight;
    s.flee_weight = defaults.flee_weight;
    s.food_weight = defaults.food_weight;
    s.max_count = defaults.max_count;
  }
  scenario.food.reset();
  return scenario;
}

bool has_ecosystem(const Scenario& scenario) {
  return scenario.food.has_value() ||
         std::any_of(scenario.species.begin(), scenario.species.end(), [](const SpeciesParams& s) {
           return !s.eats.empty() || s.energy_max > 0;
         });
}

// `base` with `boids` boids at the same density: the world's area (a 3D world's volume) grows
// with the count, and each species keeps its share (rounding remainders go to the first
// species).
Scenario scaled_to(const Scenario& base, std::uint32_t boids) {
  const double factor = static_cast<double>(boids) / base.total_count();
  const double side_factor = is_3d(base) ? std::cbrt(factor) : std::sqrt(factor);
  Scenario scaled = base;
  scaled.world.width = static_cast<float>(base.world.width * side_factor);
  scaled.world.height = static_cast<float>(base.world.height * side_factor);
  if (is_3d(base)) scaled.world.depth = static_cast<float>(base.world.depth * side_factor);
  std::uint32_t assigned = 0;
  for (SpeciesParams& species : scaled.species) {
    species.count = static_cast<std::uint32_t>(species.count * factor);
    assigned += species.count;
  }
  scaled.species.front().count += boids - assigned;
  scaled.source = base.source + " scaled to N=" + std::to_string(boids);
  validate_scenario(scaled);
  return scaled;
}

// --- timing steps ------------------------------------------------------------------------------
struct StepCounts {
  std::uint32_t warmup = 0;
  std::uint32_t timed = 0;
};

// Wall-clock milliseconds of `counts.timed` calls of `step_once`, after the warm-up calls absorb
// shader JIT and first-touch costs: their median, and the fastest (on a shared machine, a step
// that had the cores to itself: llvmpipe's compute threads take a dispatch's chunks as they
// wake, so a step whose second thread woke late takes up to twice as long; BENCHMARKS.md,
// "Issue 10, goal 1 measured again").
struct StepTimes {
  double median = 0;
  double fastest = 0;
};
template <typename StepOnce>
StepTimes ms_per_step(StepCounts counts, StepOnce&& step_once) {
  for (std::uint32_t i = 0; i < counts.warmup; ++i) step_once();
  std::vector<double> samples;
  for (std::uint32_t i = 0; i < counts.timed; ++i) {
    const auto start = std::chrono::steady_clock::now();
    step_once();
    const auto end = std::chrono::steady_clock::now();
    samples.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  std::sort(samples.begin(), samples.end());
  const std::size_t middle = samples.size() / 2;
  return {samples.size() % 2 ? samples[middle] : (samples[middle - 1] + samples[middle]) / 2,
          samples.front()};
}

// The candidates the grid's search visits a boid, measured on the state the flock reached.
double mean_candidates(const GpuFlock& flock) {
  return candidates_per_boid(flock.scenario(), flock.grid(), flock.download());
}

// The neighbours a boid saw in the last step (within its perception radius and field of
// view), the mean of the steering pass's own debug counts (`visible`).
double mean_neighbours(const GpuFlock& flock) {
  const std::vector<GpuNeighbourCounts> counts = flock.download_neighbour_counts();
  if (counts.empty()) return 0.0;
  double seen = 0;
  for (const GpuNeighbourCounts& c : counts) seen += c.visible;
  return seen / double(counts.size());
}

// GL timer queries read 0 for compute work on llvmpipe, so each step is timed on the CPU
// clock with glFinish() making the GPU's work part of it.
struct GridTiming {
  double ms_per_step = 0;      // the median
  double fastest_ms_per_step = 0;
  std::optional<double> candidates;  // per boid, grid search only
  std::optional<double> neighbours;  // per boid in the last timed step, grid search only
};
GridTiming gpu_ms_per_step(const Scenario& scenario, const FlockState& start,
                           NeighbourSearch search, StepCounts counts) {
  GpuFlock flock(scenario, start, search);
  glFinish();
  GridTiming timing;
  const StepTimes times = ms_per_step(counts, [&flock] {
    flock.step(1);
    glFinish();
  });
  timing.ms_per_step = times.median;
  timing.fastest_ms_per_step = times.fastest;
  // Outside the timed steps: a readback of the state they reached.
  if (search == NeighbourSearch::Grid) {
    timing.candidates = mean_candidates(flock);
    timing.neighbours = mean_neighbours(flock);
  }
  return timing;
}

// Median of each stage over `counts.timed` grid steps timed stage by stage: wall clock with
// glFinish after each stage (their sum exceeds an untimed step by the lost overlap), or GPU
// time from GL timestamp queries (`gpu_timers`). `total` is the median of the steps' sums.
struct StageMedians {
  GridStageTimes stages;
  double total = 0;
};
StageMedians grid_stage_medians(const Scenario& scenario, const FlockState& start,
                                StepCounts counts, bool gpu_timers) {
  GpuFlock flock(scenario, start, NeighbourSearch::Grid);
  flock.step(counts.warmup);
  std::vector<GridStageTimes> samples;
  for (std::uint32_t i = 0; i < counts.timed; ++i) {
    samples.push_back(gpu_timers ? flock.step_gpu_timed() : flock.step_timed());
  }
  auto median = [](std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
  };
  auto median_of = [&](double GridStageTimes::*stage) {
    std::vector<double> values;
    for (const GridStageTimes& t : samples) values.push_back(t.*stage);
    return median(values);
  };
  std::vector<double> totals;
  for (const GridStageTimes& t : samples) {
    totals.push_back(t.count + t.scan + t.scatter + t.rank + t.steer + t.ecosystem);
  }
  return {GridStageTimes{median_of(&GridStageTimes::count), median_of(&GridStageTimes::scan),
                         median_of(&GridStageTimes::scatter), median_of(&GridStageTimes::rank),
                         median_of(&GridStageTimes::steer)},
          median(totals)};
}

// Medians of the grid step of `first` and of `second`, stepped in turns (one step each) so that
// both see the same load on a shared machine.
std::pair<double, double> paired_gpu_ms_per_step(const Scenario& first, const Scenario& second,
                                                 StepCounts counts) {
  GpuFlock a(first, seeded_start(first), NeighbourSearch::Grid);
  GpuFlock b(second, seeded_start(second), NeighbourSearch::Grid);
  std::vector<double> samples_a, samples_b;
  auto timed_step = [](GpuFlock& flock, std::vector<double>* samples) {
    glFinish();
    const auto start = std::chrono::steady_clock::now();
    flock.step(1);
    glFinish();
    const auto end = std::chrono::steady_clock::now();
    if (samples != nullptr) {
      samples->push_back(std::chrono::duration<double, std::milli>(end - start).count());
    }
  };
  for (std::uint32_t i = 0; i < counts.warmup + counts.timed; ++i) {
    const bool timed = i >= counts.warmup;
    timed_step(a, timed ? &samples_a : nullptr);
    timed_step(b, timed ? &samples_b : nullptr);
  }
  auto median = [](std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
  };
  return {median(samples_a), median(samples_b)};
}

// --- the table's cells -------------------------------------------------------------------------
double cpu_ms_per_step(const Scenario& scenario, const FlockState& start, StepCounts counts) {
  FlockState state = start;
  return ms_per_step(counts, [&] { state = cpu_step(scenario, state); }).median;
}

// Three significant digits without an exponent, from 0.0123 to 12345 (milliseconds,
// nanoseconds, counts).
std::string figure(std::optional<double> value) {
  if (!value) return kSkipped;
  char text[32];
  const double v = *value;
  const int decimals = v >= 100 ? 0 : v >= 10 ? 1 : v >= 1 ? 2 : 3;
  std::snprintf(text, sizeof text, "%.*f", decimals, v);
  return text;
}

// Nanoseconds per boid-step of a step of `boids` boids taking `ms`.
std::optional<double> ns_per_boid_step(std::optional<double> ms, std::uint32_t boids) {
  constexpr double kNanosecondsPerMillisecond = 1e6;
  if (!ms || boids == 0) return std::nullopt;
  return *ms * kNanosecondsPerMillisecond / boids;
}

std::string ratio(std::optional<double> numerator, std::optional<double> denominator) {
  if (!numerator || !denominator || *denominator <= 0) return kSkipped;
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", *numerator / *denominator);
  return text;
}

bool contains(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// --- running the benchmark ---------------------------------------------------------------------

// The progress line's unit, a work unit, is the expected cost of one grid step of one boid, so
// that the ETA weighs each size and backend as it costs. Measured on llvmpipe with 2 shared
// cores (murmur bench at 518fe69 and after, 2026-12-03): the all-pairs pass, which visits every
// boid, costs about N / 55 grid boid-steps a boid-step at N boids (12-16 ns a pair against the
// grid's 0.7-1.1 us a boid); a boid-step of the CPU reference cost 2.4, 2.9, 5.2, 6.8 and 13.2
// grid boid-steps at 1,000, 4,000, 16,000, 64,000 and 262,144 boids (its k-d tree outgrows
// the caches), about 2 (N / 1000)^(1/3).
constexpr std::uint64_t kNaiveBoidsPerWorkUnit = 55;
constexpr double kCpuWorkAtReference = 2;
constexpr double kCpuReferenceBoids = 1000;

// The expected work of each backend's timed steps at one size (warm-up included; the grid runs
// twice, whole steps then stage by stage, and a third time with --gpu-timers); 0 for a backend
// not timed there.
struct SizeWork {
  std::uint64_t grid = 0;
  std::uint64_t naive = 0;
  std::uint64_t cpu = 0;
  std::uint64_t total() const { return grid + naive + cpu; }
};
SizeWork planned_work(const FlagValues& options, std::uint32_t boids) {
  const std::uint64_t boid_steps =
      (std::uint64_t{options.warmup} + options.bench_steps) * std::uint64_t{boids};
  SizeWork work;
  if (contains(options.backends, "grid")) work.grid = (options.gpu_timers ? 3 : 2) * boid_steps;
  if (contains(options.backends, "naive") && boids <= options.max_naive) {
    work.naive = boid_steps * std::max<std::uint64_t>(1, boids / kNaiveBoidsPerWorkUnit);
  }
  if (contains(options.backends, "cpu") && boids <= options.max_cpu) {
    const double per_boid_step = std::max(
        kCpuWorkAtReference, kCpuWorkAtReference * std::cbrt(boids / kCpuReferenceBoids));
    work.cpu = static_cast<std::uint64_t>(per_boid_step * static_cast<double>(boid_steps));
  }
  return work;
}

// `murmur bench --ecosystem`: the ecosystem's grid step against the plain flock's (the same
// scenario without its ecosystem keys) at each size, stepped in turns.
void print_ecosystem_rows(gl::Context& context, const std::vector<Scenario>& scenarios,
                          StepCounts counts, bool quiet) {
  std::printf("ecosystem step against the plain flock step (the scenario without its ecosystem "
              "keys), grid, stepped in turns\n\n");
  std::printf("| N | plain ms/step | ecosystem ms/step | ecosystem/plain |\n");
  std::printf("|---:|---:|---:|---:|\n");
  std::fflush(stdout);
  // Both flocks' steps, linear in N as the grid is.
  auto boid_steps = [&](const Scenario& scenario) {
    return 2 * (std::uint64_t{counts.warmup} + counts.timed) * scenario.total_count();
  };
  std::uint64_t planned = 0;
  for (const Scenario& scenario : scenarios) planned += boid_steps(scenario);
  Progress progress = command_progress("bench", "boid-steps", planned, quiet);
  std::uint64_t done = 0;
  for (const Scenario& scenario : scenarios) {
    const std::uint32_t n = scenario.total_count();
    const auto [plain, ecosystem] =
        paired_gpu_ms_per_step(without_ecosystem(scenario), scenario, counts);
    context.check_gl_errors("the timing of " + std::to_string(n) + " boids");
    progress.clear_line();  // stdout may be the same terminal
    char row_ratio[32];
    std::snprintf(row_ratio, sizeof row_ratio, "%.2f", ecosystem / plain);
    std::printf("| %u | %s | %s | %s |\n", n, figure(plain).c_str(),
                figure(ecosystem).c_str(), row_ratio);
    std::fflush(stdout);
    progress.update(done += boid_steps(scenario));
  }
  progress.finish();
}

// --plan (cmd_bench_plan.cpp): --sizes, --steps and --warmup keep the plan's own defaults
// unless given.
int run_bench_plan(const FlagValues& options) {
  PlanBenchOptions plan;
  if (options.given("--sizes")) plan.sizes = options.sizes;
  if (options.given("--steps")) plan.timed_steps = options.bench_steps;
  if (options.given("--warmup")) plan.warmup_steps = options.warmup;
  plan.quiet = options.quiet;
  return run_plan_bench(plan);
}

int run_bench(const FlagValues& options) {
  if (options.plan) return run_bench_plan(options);
  const StepCounts counts{options.warmup, options.bench_steps};
  const Scenario base = options.bench_scenario ? load_scenario(*options.bench_scenario)
                        : options.ecosystem      ? builtin_ecosystem_scenario()
                        : options.bench_volume   ? builtin_uniform_scenario(true)
                                                 : builtin_uniform_scenario();
  if (options.ecosystem && !has_ecosystem(base)) {
    throw InputError("--ecosystem: " + base.source +
                     " has no ecosystem keys (a [food] table, eats or energy_max > 0)");
  }
  // Scaling every size up front reports a scenario that cannot shrink that far before any timing.
  std::vector<Scenario> scenarios;
  for (std::uint64_t n : options.sizes) {
    scenarios.push_back(scaled_to(base, static_cast<std::uint32_t>(n)));
  }

  // The largest size's flock on the GPU, and on the CPU reference where it times that size.
  const Scenario& largest = *std::max_element(
      scenarios.begin(), scenarios.end(),
      [](const Scenario& a, const Scenario& b) { return a.capacity() < b.capacity(); });
  RunMemory memory = flock_run_memory(largest, FlockBackend::Gpu, FlockReads::State);
  if (planned_work(options, largest.total_count()).cpu > 0) {
    memory.host += flock_run_memory(largest, FlockBackend::Cpu, FlockReads::State).host;
  }
  require_host_memory(memory, estimated_boids(largest));
  const std::unique_ptr<gl::Context> context =
      checked_context(FlockBackend::Gpu, memory, estimated_boids(largest));
  const gl::ContextInfo& info = context->info();
  std::printf("renderer: %s\nplatform: %s\nGL: %s (%s)\n", info.renderer.c_str(),
              info.platform.c_str(), info.version.c_str(), info.vendor.c_str());
  std::printf("scenario: %s, density kept constant (world %s scales with N)\n",
              base.source.c_str(), is_3d(base) ? "volume" : "area");
  std::printf("timing: median of %u steps after %u warm-up steps; wall clock, glFinish() after "
              "each GPU step\n\n",
              counts.timed, counts.warmup);
  if (options.ecosystem) {
    print_ecosystem_rows(*context, scenarios, counts, options.quiet);
    return kExitOk;
  }
  // "expected" is the estimate the commands warn from (expected_candidates_per_boid), beside
  // the candidates measured on the state the timed steps reached; "neighbours/boid" is how
  // many of them the last timed step saw.
  std::printf("| N | grid ms/step | grid ns/boid-step | candidates/boid | expected | "
              "neighbours/boid | naive ms/step | naive ns/boid-step | cpu ms/step | cpu ns/boid-step | naive/grid | "
              "cpu/grid | grid fastest ms/step |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  std::fflush(stdout);

  std::uint64_t planned = 0;
  for (const Scenario& scenario : scenarios) {
    planned += planned_work(options, scenario.total_count()).total();
  }
  Progress progress = command_progress("bench", "work units", planned, options.quiet);
  std::uint64_t done = 0;
  std::vector<std::pair<std::uint32_t, StageMedians>> stages, gpu_stages;
  for (const Scenario& scenario : scenarios) {
    const std::uint32_t n = scenario.total_count();
    const FlockState start = seeded_start(scenario);
    const SizeWork work = planned_work(options, n);
    std::optional<double> grid, grid_fastest, naive, cpu, candidates, neighbours;
    if (work.grid > 0) {
      const GridTiming timing = gpu_ms_per_step(scenario, start, NeighbourSearch::Grid, counts);
      grid = timing.ms_per_step;
      grid_fastest = timing.fastest_ms_per_step;
      candidates = timing.candidates;
      neighbours = timing.neighbours;
      stages.emplace_back(n, grid_stage_medians(scenario, start, counts, false));
      if (options.gpu_timers) {
        gpu_stages.emplace_back(n, grid_stage_medians(scenario, start, counts, true));
      }
      progress.update(done += work.grid);
    }
    if (work.naive > 0) {
      naive = gpu_ms_per_step(scenario, start, NeighbourSearch::Naive, counts).ms_per_step;
      progress.update(done += work.naive);
    }
    if (work.cpu > 0) {
      cpu = cpu_ms_per_step(scenario, start, counts);
      done += work.cpu;  // told after the row
    }
    context->check_gl_errors("the timing of " + std::to_string(n) + " boids");
    progress.clear_line();  // stdout may be the same terminal
    const double expected =
        expected_candidates_per_boid(scenario, grid_shape_for(scenario, scenario.capacity()));
    std::printf("| %u | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", n,
                figure(grid).c_str(), figure(ns_per_boid_step(grid, n)).c_str(),
                figure(candidates).c_str(), figure(expected).c_str(), figure(neighbours).c_str(),
                figure(naive).c_str(),
                figure(ns_per_boid_step(naive, n)).c_str(), figure(cpu).c_str(),
                figure(ns_per_boid_step(cpu, n)).c_str(), ratio(naive, grid).c_str(),
                ratio(cpu, grid).c_str(), figure(grid_fastest).c_str());
    std::fflush(stdout);  // a row as soon as it is measured: large sizes take minutes
    progress.update(done);  // back on screen while the next size runs
  }
  progress.finish();
  auto print_stages = [](const std::vector<std::pair<std::uint32_t, StageMedians>>& rows) {
    std::printf("| N | count | scan | scatter | rank | steer | step | step ns/boid |\n"
                "|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const auto& [n, m] : rows) {
      const GridStageTimes& t = m.stages;
      std::printf("| %u | %s | %s | %s | %s | %s | %s | %s |\n", n, figure(t.count).c_str(),
                  figure(t.scan).c_str(), figure(t.scatter).c_str(), figure(t.rank).c_str(),
                  figure(t.steer).c_str(), figure(m.total).c_str(),
                  figure(ns_per_boid_step(m.total, n)).c_str());
    }
  };
  if (!stages.empty()) {
    std::printf("\ngrid step by stage: median ms, glFinish() after each stage\n\n");
    print_stages(stages);
  }
  if (options.gpu_timers) {
    const bool any_time = std::any_of(gpu_stages.begin(), gpu_stages.end(),
                                      [](const auto& row) { return row.second.total > 0; });
    if (!any_time) {
      std::printf("\ngrid step by stage, GL timer queries: every stage read 0 (this driver "
                  "does not time compute work; llvmpipe never does)\n");
    } else {
      std::printf("\ngrid step by stage: median ms of GPU time between GL timestamp queries, no "
                  "wait between stages\n\n");
      print_stages(gpu_stages);
    }
  }
  return kExitOk;
}

}  // namespace

// --- the command -------------------------------------------------------------------------------
CommandDefinition bench_command() {
  return {"time a step of the GPU grid, GPU all-pairs and CPU backends at several sizes",
      "Prints the GL renderer and platform, then a Markdown table of median ms per step and\n"
      "ns per boid-step of each backend (— where one was skipped), the grid's mean\n"
      "candidates per boid (the boids its search visits, from a readback after the timed\n"
      "steps) and neighbours per boid (those the last timed step saw, its own counts), and\n"
      "the grid's fastest timed step (on a shared machine, one that had the cores\n"
      "to itself: llvmpipe's steps there take one of two times). Each size keeps the\n"
      "scenario's density: the world's area (a 3D world's volume) scales with N. Timed with glFinish() and a\n"
      "steady clock, not GL timer queries (they read 0 for compute work on llvmpipe).\n"
      "A second table splits the grid step into its stages (count, scan,\n"
      "scatter, rank, steer), each ended by glFinish(); --gpu-timers adds a third from GL\n"
      "timestamp queries, or a line saying they read 0. Progress, in work units (each timed\n"
      "step's expected cost in grid boid-steps: the all-pairs pass's grows with N), goes to\n"
      "stderr unless --quiet. The defaults take about half a minute on llvmpipe.\n"
      "--ecosystem prints one table instead: per size, the grid step of the scenario\n"
      "(default: a built-in one with grazers, hunters and food) and of the same scenario\n"
      "without its ecosystem keys, stepped in turns, and their ratio.\n"
      "--plan prints one table instead: per size, the floor plan's step on the CPU reference\n"
      "(2 threads) and on GpuPlan, stepped in turns, in ms per step and us per agent-step,\n"
      "timed past the plan's warm-up (" + plan_bench_defaults() + ").",
      run_bench};
}

}  // namespace murmur::cli
