#pragma once
// The floor plan's GPU-vs-CPU comparison behind `murmur compare` on a plan scenario
// (docs/harness.md, "Plans"): GpuPlan and the CPU reference stepped side by side from the same
// start, every agent and every saved point compared after every step. Needs a current GL 4.5
// context.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/plan/plan.hpp"
#include "murmur/scenario/scenario.hpp"

namespace murmur {

// The bound where float operations are not correctly rounded: PASS while at most this fraction
// of the agents has diverged (docs/harness.md, "Plans", says why and what it means).
inline constexpr double kPlanMaxDivergentDefault = 0.05;

// The bound `murmur compare` applies on a renderer without --max-divergent: exact equality
// (empty) on llvmpipe, whose float operations are correctly rounded and whose plans the tests
// prove bit-identical to the CPU's; kPlanMaxDivergentDefault elsewhere.
std::optional<double> default_plan_bound(const std::string& renderer);

// A plan comparison's run when not told: past the last death of origin 003's preset (step 208).
inline constexpr std::uint32_t kDefaultPlanCompareSteps = 300;

struct PlanCompareOptions {
  std::uint32_t steps = 300;
  // Empty: PASS only when the plans are bit-identical. A fraction: PASS while at most that
  // fraction of the agents diverged.
  std::optional<double> max_divergent;
  GpuFault fault = GpuFault::None;  // test-only
  // Called after each step with the steps done so far (murmur compare's progress).
  std::function<void(std::uint32_t)> steps_done;
};

struct PlanCompareReport {
  // The agents by the end: the start's and, in a branching plan, the children either side bore
  // (agents is the larger count; an agent on one side only has diverged).
  std::uint32_t agents = 0;
  std::uint32_t cpu_agents = 0, gpu_agents = 0;
  std::uint32_t steps = 0;
  std::uint64_t cpu_points = 0, gpu_points = 0;  // saved by the end
  std::optional<double> max_divergent;           // the bound applied (empty: exact)

  // Bit for bit: an agent differs when any field of it or of a point it saved differs (or it
  // saved a point on one side only) after some step.
  std::optional<std::uint32_t> first_difference_step;
  std::string first_difference;  // the agent, both sides' records
  std::uint32_t differing_agents = 0;

  // Diverged: its fate (alive, death, died_at), turns or moves differ, or its drawn point lies
  // half a snap or more from the CPU's, after some step: the plan a person sees differs.
  std::optional<std::uint32_t> first_divergence_step;
  std::uint32_t divergent_agents = 0;
  std::uint32_t cpu_living = 0, gpu_living = 0;  // at the end

  // The death rules on the GPU's own state: each decision the GPU made (an agent alive at a
  // step's start, past the warm-up, died of a cause or lived) against the rules evaluated on
  // the CPU from the GPU's agents and points before that step. Decisions whose speed or
  // nearest path lay within rounding (kRadiusBand) of the threshold are skipped and counted.
  std::uint64_t rule_checks = 0;
  std::uint64_t rule_ambiguous = 0;
  std::uint64_t rule_violations = 0;
  std::string first_violation;  // the step, the agent, what the rules say and what the GPU did

  // The largest |location_gpu - location_cpu| over every agent and step, where it was.
  double max_location_error = 0;
  std::uint32_t max_location_error_agent = 0;
  std::uint32_t max_location_error_step = 0;

  bool identical() const { return !first_difference_step; }
  // Exact: identical(); under a bound: at most max_divergent x agents diverged.
  bool divergence_passed() const;
  // divergence_passed() and no decision against the death rules.
  bool passed() const;
  std::string table() const;  // compact, for a terminal
};

PlanCompareReport run_plan_comparison(const PlanScenario& scenario,
                                      const PlanCompareOptions& options);

// One step's comparison (no GL; run_plan_comparison makes one and calls compare_step after
// every step): which agents differ bit for bit and which diverged, each counted in the report
// once, at the first step it happens, and the largest location error.
class PlanStepTally {
 public:
  // `agents`: every index either side may reach (a branching plan's capacity).
  explicit PlanStepTally(std::size_t agents) : differs_(agents, 0), diverged_(agents, 0) {}

  // Both sides' states after step `step`; the points that step saved start at cpu_first and
  // gpu_first. An agent on one side only (a birth there alone) differs and has diverged.
  void compare_step(const PlanState& cpu, std::size_t cpu_first, const PlanState& gpu,
                    std::size_t gpu_first, float snap, std::uint32_t step,
                    PlanCompareReport& report);

 private:
  // `what` describes the difference; it is called for the run's first one only.
  template <typename What>
  void differ(PlanCompareReport& report, std::uint32_t agent, std::uint32_t step, What&& what) {
    if (differs_[agent]) return;
    differs_[agent] = 1;
    ++report.differing_agents;
    if (!report.first_difference_step) {
      report.first_difference_step = step;
      report.first_difference = what();
    }
  }
  void diverge(PlanCompareReport& report, std::uint32_t agent, std::uint32_t step);
  void compare_new_points(const PlanState& cpu, std::size_t cpu_first, const PlanState& gpu,
                          std::size_t gpu_first, std::uint32_t step, PlanCompareReport& report);

  std::vector<char> differs_, diverged_;
};

}  // namespace murmur
