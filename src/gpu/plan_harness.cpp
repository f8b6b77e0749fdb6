#include "murmur/gpu/plan_harness.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "murmur/gpu/gpu_plan.hpp"
#include "murmur/plan.hpp"

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

// Tracks, per agent, whether and when it first differed or diverged.
class Tally {
 public:
  explicit Tally(std::size_t agents) : differs_(agents, 0), diverged_(agents, 0) {}

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
  void diverge(PlanCompareReport& report, std::uint32_t agent, std::uint32_t step) {
    if (diverged_[agent]) return;
    diverged_[agent] = 1;
    ++report.divergent_agents;
    if (!report.first_divergence_step) report.first_divergence_step = step;
  }

 private:
  std::vector<char> differs_, diverged_;
};

std::string point_text(const PlanPoint& p) {
  char text[200];
  std::snprintf(text, sizeof text, "raw (%a, %a) drawn (%a, %a) move (%a, %a) step %u", p.raw.x,
                p.raw.y, p.drawn.x, p.drawn.y, p.move.x, p.move.y, p.step);
  return text;
}

// The points step `step` saved on each side, [cpu_first, end) and [gpu_first, end), both in
// agent order: an agent's point on one side only, or two points that differ, marks it.
void compare_new_points(const PlanState& cpu, std::size_t cpu_first, const PlanState& gpu,
                        std::size_t gpu_first, std::uint32_t step, PlanCompareReport& report,
                        Tally& tally) {
  std::size_t c = cpu_first, g = gpu_first;
  while (c < cpu.points.size() || g < gpu.points.size()) {
    const std::uint32_t cpu_agent = c < cpu.points.size() ? cpu.points[c].agent : UINT32_MAX;
    const std::uint32_t gpu_agent = g < gpu.points.size() ? gpu.points[g].agent : UINT32_MAX;
    if (cpu_agent == gpu_agent) {
      if (!same_point(cpu.points[c], gpu.points[g])) {
        tally.differ(report, cpu_agent, step, [&] {
          return "agent " + std::to_string(cpu_agent) + "'s point\n    cpu " +
                 point_text(cpu.points[c]) + "\n    gpu " + point_text(gpu.points[g]);
        });
      }
      ++c;
      ++g;
    } else if (cpu_agent < gpu_agent) {
      tally.differ(report, cpu_agent, step, [&] {
        return "agent " + std::to_string(cpu_agent) + " saved a point on the CPU only";
      });
      ++c;
    } else {
      tally.differ(report, gpu_agent, step, [&] {
        return "agent " + std::to_string(gpu_agent) + " saved a point on the GPU only";
      });
      ++g;
    }
  }
}

}  // namespace

std::optional<double> default_plan_bound(const std::string& renderer) {
  if (renderer.find("llvmpipe") != std::string::npos) return std::nullopt;
  return kPlanMaxDivergentDefault;
}

bool PlanCompareReport::passed() const {
  if (!max_divergent) return identical();
  return double(divergent_agents) <= *max_divergent * double(agents);
}

PlanCompareReport run_plan_comparison(const Scenario& scenario,
                                      const PlanCompareOptions& options) {
  PlanCompareReport report;
  report.max_divergent = options.max_divergent;
  report.steps = options.steps;
  PlanState cpu = plan_start(scenario, scenario.world.seed);
  report.agents = std::uint32_t(cpu.agents.size());
  // Room for every point the run can save: each agent one a step.
  GpuPlan gpu(scenario, cpu, std::uint32_t(std::uint64_t{options.steps} * cpu.agents.size()));
  gpu.set_fault(options.fault);
  PlanState gpu_state = gpu.plan_state();
  Tally tally(cpu.agents.size());
  const float snap = scenario.plan->snap;

  for (std::uint32_t step = 1; step <= options.steps; ++step) {
    const std::size_t cpu_first = cpu.points.size(), gpu_first = gpu_state.points.size();
    plan_step(scenario, cpu);
    gpu.step();
    gpu.update(gpu_state);  // the agents, and only the points this step saved
    for (std::uint32_t i = 0; i < report.agents; ++i) {
      const PlanAgent& c = cpu.agents[i];
      const PlanAgent& g = gpu_state.agents[i];
      if (!same_plan_agent(c, g)) {
        tally.differ(report, i, step, [&] {
          return "agent " + std::to_string(i) + "\n    cpu " + describe_plan_agent(c) +
                 "\n    gpu " + describe_plan_agent(g);
        });
      }
      if (diverged(c, g, snap)) tally.diverge(report, i, step);
      const double error = glm::length(glm::dvec2(g.location) - glm::dvec2(c.location));
      if (error > report.max_location_error) {
        report.max_location_error = error;
        report.max_location_error_agent = i;
        report.max_location_error_step = step;
      }
    }
    compare_new_points(cpu, cpu_first, gpu_state, gpu_first, step, report, tally);
    if (options.steps_done) options.steps_done(step);
  }
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
                "%-18s %-6s %u of %u agents diverged (fate, turns, moves or drawn point)%s; "
                "living cpu %u gpu %u; largest location error %.3g (agent %u, step %u); "
                "bound: %s\n",
                "divergence", verdict(passed()), divergent_agents, agents,
                first_divergence.c_str(), cpu_living, gpu_living, max_location_error,
                max_location_error_agent, max_location_error_step, bound);
  out += line;
  std::snprintf(line, sizeof line, "overall: %s\n", verdict(passed()));
  out += line;
  return out;
}

}  // namespace murmur
