#pragma once
// The memory estimate of a command's run and its checks before anything is allocated or
// written (docs/reliability.md, "The memory estimate"): the host's need against what the
// process may take (host_memory_headroom), the GPU's against what the driver reports free
// (gl::gpu_memory_headroom). A run that cannot fit is one MemoryError line (exit 4) with the
// estimate, the limit and the largest flock that fits.
#include <cstdint>
#include <memory>

#include "murmur/base/memory.hpp"
#include "murmur/flock/gpu/simulation.hpp"
#include "murmur/scenario/scenario.hpp"

namespace murmur::gl {
class Context;
}

namespace murmur::cli {

// What the run reads of its flock besides its start: the state, and its statistics.
enum class FlockReads { State, StateAndStats };

// A flock run of the scenario on `backend`: on the host its start, the CPU backend's state,
// a step's work and the state it makes, and a read of the state (the GPU's records and the
// state made of them); on the GPU the flock's buffers.
RunMemory flock_run_memory(const Scenario& scenario, FlockBackend backend, FlockReads reads);

// The boids the estimate is solved for: the scenario's capacity, which the GPU's buffers hold.
std::uint64_t estimated_boids(const Scenario& scenario);

// MemoryError when the host need of `memory` for `boids` does not fit in what this process
// may still take. Environment variable MURMUR_TEST_SKIP_MEMORY_ESTIMATE=1 skips this check
// and the GPU's, so that the tests reach the allocations' own failures.
void require_host_memory(const RunMemory& memory, std::uint64_t boids);
// The same for the GPU need against what the current context's driver reports free; no check
// where the driver reports nothing (llvmpipe).
void require_gpu_memory(const RunMemory& memory, std::uint64_t boids);

// For a GPU backend: a headless context, made current, whose GPU memory has been checked
// against `memory`; nothing for the CPU backend.
std::unique_ptr<gl::Context> checked_context(FlockBackend backend, const RunMemory& memory,
                                             std::uint64_t boids);

}  // namespace murmur::cli
