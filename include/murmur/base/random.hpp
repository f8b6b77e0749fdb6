#pragma once
// Per-boid random numbers: Philox4x32-10 keyed by the seed and counted by (id, step, draw),
// the same bits on the CPU and the GPU (shaders/common/random.glsl). docs/model.md, "Random numbers",
// defines the mapping; the constants live in shaders/common/interface.h.
#include <array>
#include <cstdint>

namespace murmur {

using PhiloxCounter = std::array<std::uint32_t, 4>;
using PhiloxKey = std::array<std::uint32_t, 2>;

// The bijection of Salmon et al. (SC'11): 10 rounds of two 32x32->64 multiplies, the key
// bumped by the Weyl increments between rounds. Matches Random123's philox4x32_R(10, ...).
PhiloxCounter philox4x32_10(PhiloxCounter counter, PhiloxKey key);

// Which random number: boid `id`'s draw `draw` at step `step` of the run seeded with `seed`.
struct RandomDraw {
  std::uint64_t seed = 0;
  std::uint32_t id = 0;
  std::uint64_t step = 0;
  std::uint32_t draw = 0;
};

// key = (seed low 32, seed high 32); counter = (id, step low 32, step high 32, draw / 4);
// the result is word draw % 4 of the block.
PhiloxKey random_key(std::uint64_t seed);
PhiloxCounter random_counter(const RandomDraw& d);
std::uint32_t random_bits(const RandomDraw& d);

// Uniform in [0, 1): the top 24 bits of random_bits times 2^-24, exact in float32.
float random_uniform01(const RandomDraw& d);
// low + (high - low) * u with u = random_uniform01, each operation rounded once (as on the
// GPU, where the expression is `precise`). Rounding can give `high` itself: a caller that
// needs the open end clamps.
float random_uniform(const RandomDraw& d, float low, float high);

}  // namespace murmur
