#include "murmur/gl/gpu_memory.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>

#include "murmur/base/errors.hpp"
#include "murmur/gl/gl.hpp"

namespace murmur::gl {
namespace {

// The extensions' enums, as their specifications number them (glad's headers may lack them).
constexpr GLenum kNvxCurrentAvailableVidmemKib = 0x9049;  // GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX
constexpr GLenum kAtiVboFreeMemory = 0x87FB;              // VBO_FREE_MEMORY_ATI
// VBO_FREE_MEMORY_ATI's four values: the total free, the largest free block, and the same for
// auxiliary memory; the first is the one compared.
constexpr std::size_t kAtiMeminfoValues = 4;

bool context_has_extension(std::string_view name) {
  GLint count = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i) {
    const auto* extension = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, i));
    if (extension != nullptr && name == extension) return true;
  }
  return false;
}

std::optional<std::uint64_t> kibibytes_of(GLenum query) {
  std::array<GLint, kAtiMeminfoValues> values{};
  glGetIntegerv(query, values.data());
  if (values[0] < 0) return std::nullopt;
  return static_cast<std::uint64_t>(values[0]);
}

constexpr std::uint64_t kBytesPerKibibyte = 1024;
// The most KiB whose bytes a std::uint64_t holds: 2^54 - 1.
constexpr std::uint64_t kMostKibibytes =
    std::numeric_limits<std::uint64_t>::max() / kBytesPerKibibyte;

// Stands in for the driver's report, so that the GPU's refusal is reached from the command line
// on a driver that reports nothing (llvmpipe; tests/cli/memory_estimate.sh).
constexpr const char* kReportedFreeEnv = "MURMUR_TEST_GPU_MEMORY_FREE_KIB";

std::optional<MemoryHeadroom> planted_headroom() {
  const char* value = std::getenv(kReportedFreeEnv);
  if (value == nullptr || *value == '\0') return std::nullopt;
  const std::string_view text(value);
  std::uint64_t kibibytes = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), kibibytes);
  if (error != std::errc() || end != text.data() + text.size() ||
      kibibytes > kMostKibibytes) {
    throw InputError(std::string(kReportedFreeEnv) + "='" + std::string(text) +
                     "' is not a size in KiB: use an integer in [0, 2^54-1] (or leave it unset)");
  }
  return MemoryHeadroom{kibibytes * kBytesPerKibibyte,
                        std::string(kReportedFreeEnv) + ", standing in for the driver's report"};
}

}  // namespace

std::optional<MemoryHeadroom> gpu_memory_headroom() {
  if (std::optional<MemoryHeadroom> planted = planted_headroom()) return planted;
  std::optional<std::uint64_t> nvx, ati;
  if (context_has_extension("GL_NVX_gpu_memory_info")) nvx = kibibytes_of(kNvxCurrentAvailableVidmemKib);
  if (!nvx && context_has_extension("GL_ATI_meminfo")) ati = kibibytes_of(kAtiVboFreeMemory);
  return gpu_memory_reported(nvx, ati);
}

}  // namespace murmur::gl
