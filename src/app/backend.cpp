#include "backend.hpp"

#include "murmur/gl/context.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/plan/gpu/gpu_plan.hpp"

namespace murmur::cli {

PlanBackend plan_backend(const std::string& scenario, const std::optional<std::string>& in,
                         FlockBackend backend) {
  if (in) {
    throw InputError("--in: " + scenario +
                     " is a plan scenario ([plan]), which starts from its own groups, not a state");
  }
  if (backend == FlockBackend::GpuNaive) {
    throw InputError("--backend: a plan scenario ([plan]) runs on cpu or gpu, not gpu-naive");
  }
  return backend == FlockBackend::Gpu ? PlanBackend::Gpu : PlanBackend::Cpu;
}

std::uint32_t gpu_plan_point_capacity(std::uint64_t steps, std::uint64_t agents,
                                      const std::string& steps_flag) {
  const std::uint64_t most_points = steps * agents;
  if (most_points >= PlanPointIndex::kNone) {
    throw InputError(steps_flag + " " + std::to_string(steps) + " with " + std::to_string(agents) +
                     " agents may save " + std::to_string(most_points) +
                     " points; a plan on the GPU holds fewer than " +
                     std::to_string(PlanPointIndex::kNone));
  }
  return static_cast<std::uint32_t>(most_points);
}

PlanRun::PlanRun(const PlanScenario& scenario, PlanBackend backend, std::uint32_t steps)
    : scenario_(scenario), state_(plan_start(scenario, scenario.world.seed)) {
  if (backend == PlanBackend::Cpu) return;
  const std::uint32_t most_points = gpu_plan_point_capacity(
      steps, gpu_plan_agent_capacity(scenario, std::uint32_t(state_.agents.size())));
  context_ = gl::create_headless_context();
  gpu_ = std::make_unique<GpuPlan>(scenario, state_, most_points);
}

PlanRun::~PlanRun() = default;

void PlanRun::step() {
  if (!gpu_) {
    plan_step(scenario_, state_);
    return;
  }
  gpu_->step();
  gpu_state_stale_ = true;
}

const PlanState& PlanRun::state() {
  if (gpu_ && gpu_state_stale_) {
    gpu_->update(state_);
    context_->check_gl_errors("the plan's steps");
    gpu_state_stale_ = false;
  }
  return state_;
}

}  // namespace murmur::cli
