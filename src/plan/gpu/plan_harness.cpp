#include "murmur/plan/gpu/plan_harness.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <span>
#include <vector>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "murmur/flock/agreement.hpp"
#include "murmur/plan/gpu/gpu_plan.hpp"
#include "murmur/plan/plan.hpp"

namespace murmur {
namespace {

bool same_point(const PlanPoint& a, const PlanPoint& b) {
  return std::memcmp(&a, &b, sizeof(PlanPoint)) == 0;  // 32 bytes of fields, no padding
}

// The plan a person sees differs for this agent (docs/harness.md, "Plans"): it lives, dies,
// turns or moves otherwise, or draws half a grid cell or more away.
bool diverged(const PlanAgent& cpu, const PlanAgent& gpu, float snap) {
  const glm::vec2 drawn_error = glm::abs(gpu.drawn - cpu.drawn);
  return cpu.alive != gpu.alive || cpu.death != gpu.death || cpu.died_at != gpu.died_at ||
         cpu.turns != gpu.turns || cpu.steps != gpu.steps ||
         !(std::max(drawn_error.x, drawn_error.y) < 0.5f * snap);
}

std::string point_text(const PlanPoint& p) {
  char text[200];
  std::snprintf(text, sizeof text, "raw (%a, %a) drawn (%a, %a) move (%a, %a) step %u", p.raw.x,
                p.raw.y, p.drawn.x, p.drawn.y, p.move.x, p.move.y, p.step);
  return text;
}


// The rules' verdict on one agent at the start of a step, from the GPU's own state: a cause, or
// none (the agent lives), or nothing when a threshold lies within rounding.
struct RuleVerdict {
  bool ambiguous = false;
  PlanDeath death = PlanDeath::Lives;
};

// The GPU's saved points indexed at the clearance shrunk and grown by the rounding band, so that
// a near path is decided only where rounding cannot have decided it the other way.
class RuleIndex {
 public:
  explicit RuleIndex(const PlanParams& plan)
      : plan_(plan),
        inside_(float(plan.clearance * (1.0 - kRadiusBand))),
        outside_(float(plan.clearance * (1.0 + kRadiusBand))) {}

  void add(std::span<const PlanPoint> points) {
    inside_.add(points);
    outside_.add(points);
  }

  // docs/model.md, "One step of the plan", 1: too slow, too close, too many turns, the first
  // that holds; an undecided earlier rule leaves the verdict undecided.
  RuleVerdict verdict(std::span<const PlanPoint> points, const PlanAgent& agent) const {
    const double speed = std::sqrt(double(agent.last_move.x) * agent.last_move.x +
                                   double(agent.last_move.y) * agent.last_move.y);
    const double slow = plan_.min_speed;
    if (speed < slow * (1.0 - kRadiusBand)) return {false, PlanDeath::TooSlow};
    if (speed < slow * (1.0 + kRadiusBand)) return {true, PlanDeath::Lives};
    if (inside_.near_other_path(points, agent.location, agent.id)) {
      return {false, PlanDeath::TooClose};
    }
    if (outside_.near_other_path(points, agent.location, agent.id)) {
      return {true, PlanDeath::Lives};
    }
    if (agent.turns > plan_.max_turns) return {false, PlanDeath::TooManyTurns};
    return {false, PlanDeath::Lives};
  }

 private:
  const PlanParams& plan_;
  PlanPointIndex inside_, outside_;
};

const char* death_name(PlanDeath death) {
  switch (death) {
    case PlanDeath::Lives: return "lives";
    case PlanDeath::TooSlow: return "too slow";
    case PlanDeath::TooClose: return "too close";
    case PlanDeath::TooManyTurns: return "too many turns";
  }
  return "?";
}

}  // namespace

void PlanStepTally::compare_step(const PlanState& cpu, std::size_t cpu_first,
                                 const PlanState& gpu, std::size_t gpu_first, float snap,
                                 std::uint32_t step, PlanCompareReport& report) {
  const std::size_t both = std::min(cpu.agents.size(), gpu.agents.size());
  // A child born on one side only: the two plans' births differ from here on.
  for (std::size_t i = both; i < std::max(cpu.agents.size(), gpu.agents.size()); ++i) {
    const bool on_cpu = i < cpu.agents.size();
    const std::uint32_t agent = std::uint32_t(i);
    differ(report, agent, step, [&] {
      return "agent " + std::to_string(agent) + " was born on the " + (on_cpu ? "CPU" : "GPU") +
             " only: " + describe_plan_agent(on_cpu ? cpu.agents[i] : gpu.agents[i]);
    });
    diverge(report, agent, step);
  }
  for (std::uint32_t i = 0; i < both; ++i) {
    const PlanAgent& c = cpu.agents[i];
    const PlanAgent& g = gpu.agents[i];
    if (!same_plan_agent(c, g)) {
      differ(report, i, step, [&] {
        return "agent " + std::to_string(i) + "\n    cpu " + describe_plan_agent(c) +
               "\n    gpu " + describe_plan_agent(g);
      });
    }
    if (diverged(c, g, snap)) diverge(report, i, step);
    const double error = glm::length(glm::dvec2(g.location) - glm::dvec2(c.location));
    if (error > report.max_location_error) {
      report.max_location_error = error;
      report.max_location_error_agent = i;
      report.max_location_error_step = step;
    }
  }
  compare_new_points(cpu, cpu_first, gpu, gpu_first, step, report);
}

void PlanStepTally::diverge(PlanCompareReport& report, std::uint32_t agent, std::uint32_t step) {
  if (diverged_[agent]) return;
  diverged_[agent] = 1;
  ++report.divergent_agents;
  if (!report.first_divergence_step) report.first_divergence_step = step;
}

// The points step `step` saved on each side, [cpu_first, end) and [gpu_first, end), both in
// agent order: an agent's point on one side only, or two points that differ, marks it.
void PlanStepTally::compare_new_points(const PlanState& cpu, std::size_t cpu_first,
                                       const PlanState& gpu, std::size_t gpu_first,
                                       std::uint32_t step, PlanCompareReport& report) {
  std::size_t c = cpu_first, g = gpu_first;
  while (c < cpu.points.size() || g < gpu.points.size()) {
    const std::uint32_t cpu_agent = c < cpu.points.size() ? cpu.points[c].agent : UINT32_MAX;
    const std::uint32_t gpu_agent = g < gpu.points.size() ? gpu.points[g].agent : UINT32_MAX;
    if (cpu_agent == gpu_agent) {
      if (!same_point(cpu.points[c], gpu.points[g])) {
        differ(report, cpu_agent, step, [&] {
          return "agent " + std::to_string(cpu_agent) + "'s point\n    cpu " +
                 point_text(cpu.points[c]) + "\n    gpu " + point_text(gpu.points[g]);
        });
      }
      ++c;
      ++g;
    } else if (cpu_agent < gpu_agent) {
      differ(report, cpu_agent, step, [&] {
        return "agent " + std::to_string(cpu_agent) + " saved a point on the CPU only";
      });
      ++c;
    } else {
      differ(report, gpu_agent, step, [&] {
        return "agent " + std::to_string(gpu_agent) + " saved a point on the GPU only";
      });
      ++g;
    }
  }
}

std::optional<double> default_plan_bound(const std::string& renderer) {
  if (renderer.find("llvmpipe") != std::string::npos) return std::nullopt;
  return kPlanMaxDivergentDefault;
}

bool PlanCompareReport::divergence_passed() const {
  if (!max_divergent) return identical();
  return double(divergent_agents) <= *max_divergent * double(agents);
}

bool PlanCompareReport::passed() const { return divergence_passed() && rule_violations == 0; }

PlanCompareReport run_plan_comparison(const PlanScenario& scenario,
                                      const PlanCompareOptions& options) {
  PlanCompareReport report;
  report.max_divergent = options.max_divergent;
  report.steps = options.steps;
  PlanState cpu = plan_start(scenario, scenario.world.seed);
  // A branching plan grows up to max_agents on each side, not necessarily alike: every index
  // either side may reach is tracked.
  const std::uint32_t capacity =
      gpu_plan_agent_capacity(scenario, std::uint32_t(cpu.agents.size()));
  // Room for every point the run can save: each agent one a step.
  GpuPlan gpu(scenario, cpu, std::uint32_t(std::uint64_t{options.steps} * capacity));
  gpu.set_fault(options.fault);
  PlanState gpu_state = gpu.plan_state();
  PlanStepTally tally(capacity);
  const PlanParams& plan = scenario.plan;
  RuleIndex rules(plan);
  std::vector<RuleVerdict> verdicts(capacity);

  for (std::uint32_t step = 1; step <= options.steps; ++step) {
    const std::size_t cpu_first = cpu.points.size(), gpu_first = gpu_state.points.size();
    // What the rules say of the GPU's agents, from its state before the step: those it checks,
    // alive and past their warm-up (a child's counts from its birth).
    const auto checks_deaths = [&](const PlanAgent& agent) {
      return agent.alive && step > std::uint64_t{agent.born} + plan.warmup;
    };
    const std::uint32_t gpu_agents_before = std::uint32_t(gpu_state.agents.size());
    std::vector<char> checked(gpu_agents_before, 0);
    for (std::uint32_t i = 0; i < gpu_agents_before; ++i) {
      if (!checks_deaths(gpu_state.agents[i])) continue;
      checked[i] = 1;
      verdicts[i] = rules.verdict(gpu_state.points, gpu_state.agents[i]);
    }
    plan_step(scenario, cpu);
    gpu.step();
    gpu.update(gpu_state);  // the agents, and only the points this step saved
    for (std::uint32_t i = 0; i < gpu_agents_before; ++i) {
      if (!checked[i]) continue;
      ++report.rule_checks;
      if (verdicts[i].ambiguous) {
        ++report.rule_ambiguous;
        continue;
      }
      const PlanAgent& g = gpu_state.agents[i];
      const PlanDeath decided = g.died_at == step ? g.death : PlanDeath::Lives;
      if (decided == verdicts[i].death) continue;
      if (report.rule_violations++ == 0) {
        report.first_violation = "step " + std::to_string(step) + ", agent " +
                                 std::to_string(i) + ": the rules say " +
                                 death_name(verdicts[i].death) + ", the GPU decided " +
                                 death_name(decided);
      }
    }
    rules.add(gpu_state.points);
    tally.compare_step(cpu, cpu_first, gpu_state, gpu_first, plan.snap, step, report);
    if (options.steps_done) options.steps_done(step);
  }
  report.agents = std::uint32_t(std::max(cpu.agents.size(), gpu_state.agents.size()));
  report.cpu_agents = std::uint32_t(cpu.agents.size());
  report.gpu_agents = std::uint32_t(gpu_state.agents.size());
  report.cpu_points = cpu.points.size();
  report.gpu_points = gpu_state.points.size();
  report.cpu_living = cpu.living();
  report.gpu_living = gpu_state.living();
  return report;
}

std::string PlanCompareReport::table() const {
  std::string out;
  char line[512];
  const auto verdict = [](bool ok) { return ok ? "PASS" : "FAIL"; };
  std::snprintf(line, sizeof line, "%-18s %-6s %s\n", "check", "result", "details");
  out += line;
  // Under a bound, a difference in the last bits is expected, not a failure.
  const char* same = identical() ? "PASS" : max_divergent ? "DIFF" : "FAIL";
  const std::string first =
      identical() ? "bit-identical"
                  : "first difference at step " + std::to_string(*first_difference_step) +
                        ", " + std::to_string(differing_agents) + " agents differ bit for bit";
  std::snprintf(line, sizeof line,
                "%-18s %-6s %u steps x %u agents, every field; %llu points (%llu on the GPU): "
                "%s\n",
                "plan states", same, steps, agents, static_cast<unsigned long long>(cpu_points),
                static_cast<unsigned long long>(gpu_points), first.c_str());
  out += line;
  if (!identical()) out += "    " + first_difference + "\n";
  char bound[96] = "exact equality";
  if (max_divergent) {
    std::snprintf(bound, sizeof bound, "at most %g of the agents (%.0f)", *max_divergent,
                  std::floor(*max_divergent * agents));
  }
  const std::string first_divergence =
      first_divergence_step ? ", the first at step " + std::to_string(*first_divergence_step)
                            : std::string();
  std::snprintf(line, sizeof line,
                "%-18s %-6s %u of %u agents diverged (fate, turns, moves, drawn point or birth)%s; "
                "agents cpu %u gpu %u, living cpu %u gpu %u; largest location error %.3g "
                "(agent %u, step %u); bound: %s\n",
                "divergence", verdict(divergence_passed()), divergent_agents, agents,
                first_divergence.c_str(), cpu_agents, gpu_agents, cpu_living, gpu_living,
                max_location_error,
                max_location_error_agent, max_location_error_step, bound);
  out += line;
  std::snprintf(line, sizeof line,
                "%-18s %-6s %llu decisions of the GPU on its own state, %llu against the rules, "
                "%llu within rounding of a threshold (not judged)\n",
                "death rules", verdict(rule_violations == 0),
                static_cast<unsigned long long>(rule_checks),
                static_cast<unsigned long long>(rule_violations),
                static_cast<unsigned long long>(rule_ambiguous));
  out += line;
  if (rule_violations > 0) out += "    first: " + first_violation + "\n";
  std::snprintf(line, sizeof line, "overall: %s\n", verdict(passed()));
  out += line;
  return out;
}

}  // namespace murmur
