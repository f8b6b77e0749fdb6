#include "murmur/base/memory.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace murmur {
namespace {

constexpr std::uint64_t kKibibyte = 1024;

// The first number of a file ("max" reads as none), or nothing.
std::optional<std::uint64_t> number_in(const char* path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return std::nullopt;
  try {
    return std::stoull(word);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// The value of `key` (in kB) in a /proc file of "Key:  value kB" lines, in bytes.
std::optional<std::uint64_t> kilobytes_in(const char* path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key + ":", 0) != 0) continue;
    std::istringstream fields(line.substr(key.size() + 1));
    std::uint64_t kilobytes = 0;
    if (fields >> kilobytes) return kilobytes * kKibibyte;
  }
  return std::nullopt;
}

}  // namespace

std::optional<HostMemoryHeadroom> host_memory_headroom() {
  std::optional<HostMemoryHeadroom> best;
  const auto consider = [&](std::uint64_t bytes, const char* limit) {
    if (!best || bytes < best->bytes) best = HostMemoryHeadroom{bytes, limit};
  };
  rlimit address_space{};
  if (getrlimit(RLIMIT_AS, &address_space) == 0 && address_space.rlim_cur != RLIM_INFINITY) {
    const std::uint64_t used = kilobytes_in("/proc/self/status", "VmSize").value_or(0);
    const std::uint64_t limit = address_space.rlim_cur;
    consider(limit > used ? limit - used : 0, "RLIMIT_AS (ulimit -v)");
  }
  if (const auto limit = number_in("/sys/fs/cgroup/memory.max")) {
    const std::uint64_t used = number_in("/sys/fs/cgroup/memory.current").value_or(0);
    consider(*limit > used ? *limit - used : 0, "the cgroup's memory.max");
  } else if (const auto v1 = number_in("/sys/fs/cgroup/memory/memory.limit_in_bytes")) {
    const std::uint64_t used = number_in("/sys/fs/cgroup/memory/memory.usage_in_bytes").value_or(0);
    // cgroup v1 reports "no limit" as a huge number rather than "max".
    if (*v1 < (std::uint64_t{1} << 60)) consider(*v1 > used ? *v1 - used : 0, "the cgroup's memory.limit_in_bytes");
  }
  if (const auto available = kilobytes_in("/proc/meminfo", "MemAvailable")) {
    consider(*available, "MemAvailable");
  }
  return best;
}

std::string byte_text(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < kKibibyte) return std::to_string(bytes) + " bytes";
  double value = static_cast<double>(bytes);
  int unit = -1;
  while (value >= kKibibyte && unit + 1 < 4) {
    value /= kKibibyte;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, value < 10 ? "%.1f %s" : "%.0f %s", value, kUnits[unit]);
  return text;
}

HostAllocationError::HostAllocationError(std::size_t bytes) : bytes_(bytes) {
  std::snprintf(message_, sizeof message_, "an allocation of %zu bytes failed", bytes);
}

std::string out_of_host_memory_message(std::optional<std::size_t> bytes) {
  std::string message = "out of host memory: ";
  message += bytes ? "an allocation of " + byte_text(*bytes) + " failed" : "an allocation failed";
  if (const std::optional<HostMemoryHeadroom> headroom = host_memory_headroom()) {
    message += "; this process may take " + byte_text(headroom->bytes) + " more (" +
               headroom->limit + ")";
  }
  return message + ": fewer boids, a smaller --size or a higher limit";
}

}  // namespace murmur
