#pragma once
// Host and GPU memory: what this process may still take, a run's estimate of what it needs and
// the refusal of one that cannot fit, and an allocation that failed, by its size
// (docs/commands.md, "Exit status": running out of memory is exit 4, never the internal error of
// exit 5; docs/reliability.md, "The memory estimate").
#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <string>

namespace murmur {

// Memory that may still be taken, and the limit that bounds it.
struct MemoryHeadroom {
  std::uint64_t bytes = 0;
  std::string limit;  // "RLIMIT_AS (ulimit -v)", "the cgroup's memory.max", "MemAvailable", ...
};
using HostMemoryHeadroom = MemoryHeadroom;

// The host memory this process may still take and the limit that bounds it most: the address
// space left under RLIMIT_AS (`ulimit -v`), the memory.max (v2) or memory.limit_in_bytes (v1)
// of the process's own cgroup and of each one above it, less its current use, or the machine's
// MemAvailable. Nothing when none can be read.
std::optional<HostMemoryHeadroom> host_memory_headroom();

// The address space a new thread's stack takes: RLIMIT_STACK's soft limit, as glibc sizes it,
// or glibc's 8 MiB where that is unlimited. Address space more than memory, counted by the
// estimate because `ulimit -v` counts it.
std::uint64_t thread_stack_bytes();

// The GPU memory free as the driver reports it: GL_NVX_gpu_memory_info's current available
// video memory, else GL_ATI_meminfo's free VBO memory (its first value), each in KiB as the
// extensions give them; nothing when the driver has neither (llvmpipe), and then no GPU check
// is made.
std::optional<MemoryHeadroom> gpu_memory_reported(std::optional<std::uint64_t> nvx_available_kib,
                                                  std::optional<std::uint64_t> ati_vbo_free_kib);

// The bytes a run needs, affine in its number of boids N: `fixed` + `per_boid` × N. Terms that
// do not grow with N (a grid's cells, a frame) are `fixed` at the N asked for; they shrink or
// stay with a smaller N, so the largest N solved from it fits.
struct MemoryNeed {
  std::uint64_t fixed = 0;
  std::uint64_t per_boid = 0;
  std::uint64_t bytes(std::uint64_t boids) const { return fixed + per_boid * boids; }
  MemoryNeed& operator+=(const MemoryNeed& other) {
    fixed += other.fixed;
    per_boid += other.per_boid;
    return *this;
  }
};
inline MemoryNeed operator+(MemoryNeed a, const MemoryNeed& b) { return a += b; }

// What a run needs of each memory.
struct RunMemory {
  MemoryNeed host, gpu;
};

// An estimate with its margin for what it does not count (allocator and driver overheads,
// temporaries): an eighth more.
std::uint64_t with_estimate_margin(std::uint64_t bytes);
// The most boids (at most 2^32 - 1, a flock's limit) whose need, with the margin, fits in
// `bytes`; 0 when not even the fixed part does.
std::uint64_t largest_boids_within(const MemoryNeed& need, std::uint64_t bytes);
// The one line refusing a run of `boids` whose `memory` ("host" or "GPU") need, with the margin,
// exceeds `headroom`: the estimate, the limit and the largest N that fits. Nothing when it fits
// or when there is no headroom to check against.
std::optional<std::string> memory_refusal(const std::string& memory, const MemoryNeed& need,
                                          std::uint64_t boids,
                                          const std::optional<MemoryHeadroom>& headroom);

// "1.5 GiB", "730 MiB", "12 KiB", "512 bytes".
std::string byte_text(std::uint64_t bytes);

// A host allocation that failed, with its size: what the `murmur` executable's operator new
// throws (src/app/allocation.cpp), caught as any std::bad_alloc.
class HostAllocationError : public std::bad_alloc {
 public:
  explicit HostAllocationError(std::size_t bytes);
  std::size_t bytes() const { return bytes_; }
  const char* what() const noexcept override { return message_; }

 private:
  std::size_t bytes_;
  char message_[160];  // no allocation while reporting one that failed
};

// The one line for a failed allocation: its size when known, and the headroom left.
std::string out_of_host_memory_message(std::optional<std::size_t> bytes);

}  // namespace murmur
