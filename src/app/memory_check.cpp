#include "memory_check.hpp"

#include <cstdlib>
#include <string>

#include "murmur/base/errors.hpp"
#include "murmur/flock/cpu_flock.hpp"
#include "murmur/flock/gpu/gpu_flock_memory.hpp"
#include "murmur/flock/state.hpp"
#include "murmur/flock/stats.hpp"
#include "murmur/gl/context.hpp"
#include "murmur/gl/gpu_memory.hpp"

namespace murmur::cli {
namespace {

constexpr const char* kSkipEstimateEnv = "MURMUR_TEST_SKIP_MEMORY_ESTIMATE";

bool estimate_skipped() {
  const char* value = std::getenv(kSkipEstimateEnv);
  return value != nullptr && std::string(value) == "1";
}

void require(const std::string& memory, const MemoryNeed& need, std::uint64_t boids,
             const std::optional<MemoryHeadroom>& headroom) {
  if (estimate_skipped()) return;
  if (const std::optional<std::string> refusal = memory_refusal(memory, need, boids, headroom)) {
    throw MemoryError(*refusal);
  }
}

}  // namespace

RunMemory flock_run_memory(const Scenario& scenario, FlockBackend backend, FlockReads reads) {
  const MemoryNeed state = flock_state_memory(scenario);
  RunMemory memory;
  memory.host = state;  // the start, which the commands keep
  if (backend == FlockBackend::Cpu) {
    // Simulation's state, a step's work, the state the step makes, and the sorted copy a
    // read of the state makes.
    memory.host += state + cpu_step_memory(scenario) + state + state;
  } else {
    memory.gpu = gpu_flock_memory(scenario);
    memory.host += gpu_flock_download_memory(scenario);
  }
  if (reads == FlockReads::StateAndStats) memory.host += stats_memory(scenario);
  return memory;
}

std::uint64_t estimated_boids(const Scenario& scenario) { return scenario.capacity(); }

void require_host_memory(const RunMemory& memory, std::uint64_t boids) {
  if (estimate_skipped()) return;  // before reading the limits
  require("host", memory.host, boids, host_memory_headroom());
}

void require_gpu_memory(const RunMemory& memory, std::uint64_t boids) {
  if (estimate_skipped()) return;
  require("GPU", memory.gpu, boids, gl::gpu_memory_headroom());
}

std::unique_ptr<gl::Context> checked_context(FlockBackend backend, const RunMemory& memory,
                                             std::uint64_t boids) {
  if (backend == FlockBackend::Cpu) return nullptr;
  std::unique_ptr<gl::Context> context = gl::create_headless_context();
  require_gpu_memory(memory, boids);
  return context;
}

}  // namespace murmur::cli
