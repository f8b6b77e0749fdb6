#pragma once
// Host memory: what this process may still take, and an allocation that failed, by its size
// (docs/commands.md, "Exit status": running out of memory is exit 4, never the internal error of exit 5).
#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <string>

namespace murmur {

// The host memory this process may still take and the limit that bounds it most: the address
// space left under RLIMIT_AS (`ulimit -v`), the cgroup's memory.max (v2) or
// memory.limit_in_bytes (v1) less its current use, or the machine's MemAvailable. Nothing when
// none can be read.
struct HostMemoryHeadroom {
  std::uint64_t bytes = 0;
  std::string limit;  // "RLIMIT_AS (ulimit -v)", "the cgroup's memory.max", "MemAvailable"
};
std::optional<HostMemoryHeadroom> host_memory_headroom();

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
