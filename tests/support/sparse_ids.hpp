#pragma once
// Ids scattered over the whole uint32 range, for the tests that hold a state with sparse ids
// to the same state with ids 0..N-1 (docs/model.md: ids are any distinct uint32 values).
#include <cstdint>
#include <limits>
#include <set>
#include <vector>

#include "murmur/flock/state.hpp"
#include "test_random.hpp"

namespace murmur::test {

// `count` (>= 2) distinct ids in ascending order: 0, random values, and 0xFFFFFFFF. Ascending,
// so that id order (the order the GPU ranks cell mates by) is the dense ids' order.
inline std::vector<std::uint32_t> scattered_ids(std::size_t count, std::uint64_t seed) {
  constexpr std::uint32_t kLargestId = std::numeric_limits<std::uint32_t>::max();
  SplitMix random(seed);
  std::set<std::uint32_t> ids{0, kLargestId};
  while (ids.size() < count) ids.insert(static_cast<std::uint32_t>(random.next()));
  return {ids.begin(), ids.end()};
}

// `state` (ids 0..N-1) with boid k renamed ids[k]; everything else, the order included, kept.
inline FlockState renamed(FlockState state, const std::vector<std::uint32_t>& ids) {
  for (Boid& boid : state.boids) boid.id = ids.at(boid.id);
  return state;
}

}  // namespace murmur::test
