#include "murmur/base/memory.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

namespace murmur {
namespace {

constexpr std::uint64_t kKibibyte = 1024;
// The estimate's margin: an eighth of what it counts (docs/reliability.md, "The memory estimate").
constexpr std::uint64_t kEstimateMarginDivisor = 8;
// glibc's thread stack where RLIMIT_STACK is unlimited.
constexpr std::uint64_t kDefaultThreadStackBytes = 8 * kKibibyte * kKibibyte;
// A flock's most boids: its counts are 32-bit.
constexpr std::uint64_t kMostBoids = 0xFFFFFFFFu;

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

// The process's cgroup for `controller` as /proc/self/cgroup names it: the v2 line ("0::PATH")
// for an empty controller, else the v1 line listing it ("4:memory:PATH").
std::optional<std::string> own_cgroup(const std::string& controller) {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t first = line.find(':');
    const std::size_t second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const bool listed = controller.empty()
                            ? controllers.empty()
                            : ("," + controllers + ",").find("," + controller + ",") != std::string::npos;
    if (listed) return line.substr(second + 1);
  }
  return std::nullopt;
}

// Each of `path`'s folders from itself up to the hierarchy's root ("/a/b": "/a/b", "/a", "").
std::vector<std::string> cgroup_and_ancestors(std::string path) {
  std::vector<std::string> folders;
  while (!path.empty() && path.back() == '/') path.pop_back();
  for (;;) {
    folders.push_back(path);
    if (path.empty()) return folders;
    path.erase(path.rfind('/') == std::string::npos ? 0 : path.rfind('/'));
  }
}

// cgroup v1 reports "no limit" as a huge number rather than "max".
constexpr std::uint64_t kCgroupV1NoLimit = std::uint64_t{1} << 60;

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
  // The process's own cgroup and each above it: a parent's limit holds its children too. In a
  // container whose cgroup namespace hides the path, the mount's root is its own.
  const auto consider_cgroups = [&](const std::string& mount, const std::string& own,
                                    const char* limit_file, const char* usage_file,
                                    const char* limit) {
    for (const std::string& folder : cgroup_and_ancestors(own)) {
      const std::string base = mount + folder + "/";
      const auto bytes = number_in((base + limit_file).c_str());
      if (!bytes || *bytes >= kCgroupV1NoLimit) continue;
      const std::uint64_t used = number_in((base + usage_file).c_str()).value_or(0);
      consider(*bytes > used ? *bytes - used : 0, limit);
    }
  };
  consider_cgroups("/sys/fs/cgroup", own_cgroup("").value_or(""), "memory.max", "memory.current",
                   "the cgroup's memory.max");
  consider_cgroups("/sys/fs/cgroup/memory", own_cgroup("memory").value_or(""),
                   "memory.limit_in_bytes", "memory.usage_in_bytes",
                   "the cgroup's memory.limit_in_bytes");
  if (const auto available = kilobytes_in("/proc/meminfo", "MemAvailable")) {
    consider(*available, "MemAvailable");
  }
  return best;
}

std::uint64_t thread_stack_bytes() {
  rlimit stack{};
  if (getrlimit(RLIMIT_STACK, &stack) == 0 && stack.rlim_cur != RLIM_INFINITY) return stack.rlim_cur;
  return kDefaultThreadStackBytes;
}

std::optional<MemoryHeadroom> gpu_memory_reported(std::optional<std::uint64_t> nvx_available_kib,
                                                  std::optional<std::uint64_t> ati_vbo_free_kib) {
  if (nvx_available_kib) {
    return MemoryHeadroom{*nvx_available_kib * kKibibyte,
                          "GL_NVX_gpu_memory_info's available video memory"};
  }
  if (ati_vbo_free_kib) {
    return MemoryHeadroom{*ati_vbo_free_kib * kKibibyte, "GL_ATI_meminfo's free VBO memory"};
  }
  return std::nullopt;
}

std::uint64_t with_estimate_margin(std::uint64_t bytes) {
  return bytes + bytes / kEstimateMarginDivisor;
}

std::uint64_t largest_boids_within(const MemoryNeed& need, std::uint64_t bytes) {
  const auto fits = [&](std::uint64_t boids) {
    return with_estimate_margin(need.bytes(boids)) <= bytes;
  };
  if (!fits(0)) return 0;
  if (need.per_boid == 0 || fits(kMostBoids)) return kMostBoids;
  // The margin makes the need a little more than affine after rounding: a bisection is exact.
  std::uint64_t fitting = 0, failing = kMostBoids;
  while (failing - fitting > 1) {
    const std::uint64_t middle = fitting + (failing - fitting) / 2;
    (fits(middle) ? fitting : failing) = middle;
  }
  return fitting;
}

std::optional<std::string> memory_refusal(const std::string& memory, const MemoryNeed& need,
                                          std::uint64_t boids,
                                          const std::optional<MemoryHeadroom>& headroom) {
  if (!headroom) return std::nullopt;
  const std::uint64_t estimate = with_estimate_margin(need.bytes(boids));
  if (estimate <= headroom->bytes) return std::nullopt;
  const std::uint64_t largest = largest_boids_within(need, headroom->bytes);
  std::string line = "not enough " + memory + " memory for " + std::to_string(boids) +
                     " boids: an estimated " + byte_text(estimate) + " (an eighth over the count)"
                     ", and " + byte_text(headroom->bytes) + " may still be taken (" +
                     headroom->limit + "); ";
  line += largest == 0 ? "no flock fits (the part that does not grow with the boids needs " +
                             byte_text(with_estimate_margin(need.fixed)) + ")"
                       : "at most " + std::to_string(largest) + " boids fit";
  return line + ": fewer boids, a smaller --size or a higher limit";
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
