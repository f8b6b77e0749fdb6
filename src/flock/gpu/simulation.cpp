#include "murmur/flock/gpu/simulation.hpp"

#include "murmur/flock/cpu_flock.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/gl/context.hpp"

namespace murmur {

Simulation::Simulation(const Scenario& scenario, const FlockState& initial, FlockBackend backend,
                       gl::Context* context)
    : scenario_(scenario), context_(context) {
  if (backend == FlockBackend::Cpu) {
    cpu_state_ = initial;
    return;
  }
  if (context_ == nullptr) {
    own_context_ = gl::create_headless_context();
    context_ = own_context_.get();
  }
  const NeighbourSearch search =
      backend == FlockBackend::GpuNaive ? NeighbourSearch::Naive : NeighbourSearch::Grid;
  gpu_flock_ = std::make_unique<GpuFlock>(scenario, initial, search);
}

Simulation::~Simulation() = default;

void Simulation::step(std::uint32_t steps) {
  if (gpu_flock_) {
    gpu_flock_->step(steps);
    context_->check_gl_errors("the steps");
    return;
  }
  for (std::uint32_t i = 0; i < steps; ++i) cpu_state_ = cpu_step(scenario_, cpu_state_);
}

FlockState Simulation::state() const {
  if (gpu_flock_) {
    FlockState state = gpu_flock_->download();
    context_->check_gl_errors("the read-back of the state");
    return state;
  }
  FlockState sorted = cpu_state_;
  sorted.sort_by_id();
  return sorted;
}

void Simulation::set_state(const FlockState& state) {
  if (gpu_flock_) {
    gpu_flock_->upload(state);
    context_->check_gl_errors("the upload of the state");
    return;
  }
  cpu_state_ = state;
}

std::uint64_t Simulation::step_index() const {
  return gpu_flock_ ? gpu_flock_->step_index() : cpu_state_.step;
}

std::uint32_t Simulation::live_count() const {
  if (gpu_flock_) {
    const std::uint32_t live = gpu_flock_->live_count();
    context_->check_gl_errors("the read-back of the live count");
    return live;
  }
  return static_cast<std::uint32_t>(cpu_state_.boids.size());
}

}  // namespace murmur
