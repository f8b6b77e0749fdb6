#pragma once
// The shape of a compute dispatch over a count of items. GL guarantees only 65535 workgroups
// per dimension, so a long pass is folded into rows of groups (x) times rows (y); the shaders
// unfold it with linear_invocation_index() (shaders/common/compute_index.glsl) and skip the indices
// past their count that the last row adds. Every compute pass, simulation and renderer, goes
// through here.
#include <algorithm>
#include <cstdint>

#include "common/interface.h"

namespace murmur::gl {

inline constexpr std::uint32_t kMaxGroupsPerDimension = MURMUR_MAX_GROUPS_PER_DIMENSION;

// Workgroups of `group_size` invocations that cover `items` (64-bit sum: no wrap near 2^32).
constexpr std::uint32_t groups_for(std::uint32_t items, std::uint32_t group_size) {
  return static_cast<std::uint32_t>((std::uint64_t{items} + group_size - 1) / group_size);
}

struct DispatchShape {
  std::uint32_t x = 0;
  std::uint32_t y = 0;
  constexpr std::uint64_t groups() const { return std::uint64_t{x} * y; }
};

// `groups` workgroups as whole rows of at most kMaxGroupsPerDimension: {0, 0} for none.
constexpr DispatchShape folded_dispatch(std::uint32_t groups) {
  if (groups == 0) return {};
  const std::uint32_t x = std::min(groups, kMaxGroupsPerDimension);
  return {x, groups_for(groups, x)};
}

// glDispatchCompute of the shape on the bound compute program; nothing for an empty shape.
void dispatch(DispatchShape shape);

// Dispatches `groups` workgroups, folded (the simulation's passes).
inline void dispatch_linear(std::uint32_t groups) { dispatch(folded_dispatch(groups)); }

}  // namespace murmur::gl
