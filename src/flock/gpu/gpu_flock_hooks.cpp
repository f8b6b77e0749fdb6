// The flock's test hooks (murmur/flock/gpu/gpu_flock.hpp): the planted fault named by the
// environment, and the GPU's exclusive scan run on a vector.
#include <cstdlib>
#include <string>
#include <string_view>

#include "murmur/base/errors.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/gl/gl.hpp"
#include "murmur/gl/gpu_scan.hpp"
#include "murmur/gl/objects.hpp"

namespace murmur {

GpuFault planted_gpu_fault() {
  constexpr const char* kVariable = "MURMUR_TEST_GPU_FAULT";
  const char* value = std::getenv(kVariable);
  if (value == nullptr || *value == '\0') return GpuFault::None;
  std::string names;
#define MURMUR_GPU_FAULT_NAMED(name, define, meaning)         \
  if (std::string_view(value) == #name) return GpuFault::name; \
  names += names.empty() ? #name : ", " #name;
  MURMUR_GPU_FAULTS(MURMUR_GPU_FAULT_NAMED)
#undef MURMUR_GPU_FAULT_NAMED
  throw InputError(std::string(kVariable) + "='" + value + "' is not a planted fault: use one of " +
                   names + " (or leave it unset)");
}

std::vector<std::uint32_t> exclusive_scan_on_gpu(const std::vector<std::uint32_t>& values) {
  const auto n = static_cast<std::uint32_t>(values.size());
  gl::Buffer buffer("scan test values", sizeof(std::uint32_t) * std::max<std::size_t>(n, 1));
  if (n > 0) buffer.upload(0, sizeof(std::uint32_t) * n, values.data());
  GpuScan scan(n);
  scan.run(buffer, n);
  std::vector<std::uint32_t> out(n);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  if (n > 0) buffer.download(0, sizeof(std::uint32_t) * n, out.data());
  return out;
}

}  // namespace murmur
