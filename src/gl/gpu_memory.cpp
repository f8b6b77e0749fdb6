#include "murmur/gl/gpu_memory.hpp"

#include <array>
#include <cstdint>
#include <string_view>

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

}  // namespace

std::optional<MemoryHeadroom> gpu_memory_headroom() {
  std::optional<std::uint64_t> nvx, ati;
  if (context_has_extension("GL_NVX_gpu_memory_info")) nvx = kibibytes_of(kNvxCurrentAvailableVidmemKib);
  if (!nvx && context_has_extension("GL_ATI_meminfo")) ati = kibibytes_of(kAtiVboFreeMemory);
  return gpu_memory_reported(nvx, ati);
}

}  // namespace murmur::gl
