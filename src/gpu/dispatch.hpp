#pragma once
// Linear compute dispatches shared by the GPU passes in src/gpu.
#include <algorithm>
#include <cstdint>

#include "murmur/gl/gl.hpp"

namespace murmur::gpu_dispatch {

// GL guarantees at least this many workgroups per dispatch dimension.
inline constexpr std::uint32_t kMaxGroupsPerDimension = 65535;

inline std::uint32_t groups_for(std::uint32_t items, std::uint32_t group_size) {
  return (items + group_size - 1) / group_size;
}

// Dispatches `groups` workgroups, folded into 2D past GL's per-dimension limit
// (shaders/compute_index.glsl unfolds them).
inline void dispatch_linear(std::uint32_t groups) {
  if (groups == 0) return;
  const std::uint32_t x = std::min(groups, kMaxGroupsPerDimension);
  const std::uint32_t y = groups_for(groups, x);
  glDispatchCompute(x, y, 1);
}

}  // namespace murmur::gpu_dispatch
