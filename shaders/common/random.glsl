// Per-boid random numbers: Philox4x32-10 keyed by the seed and counted by (id, step, draw),
// bit for bit the CPU's (include/murmur/base/random.hpp); docs/model.md, "Random numbers".
// 64-bit seeds and steps travel as uvec2 (low word, high word): no int64 extension needed.
#include "common/interface.h"

// The bijection of Salmon et al. (SC'11), as Random123's philox4x32_R(10, counter, key).
uvec4 philox4x32_10(uvec4 counter, uvec2 key) {
  for (int round_index = 0; round_index < MURMUR_PHILOX_ROUNDS; ++round_index) {
    if (round_index > 0) key += uvec2(MURMUR_PHILOX_W0, MURMUR_PHILOX_W1);
    uint high0, low0, high1, low1;
    umulExtended(MURMUR_PHILOX_M0, counter.x, high0, low0);
    umulExtended(MURMUR_PHILOX_M1, counter.z, high1, low1);
    counter = uvec4(high1 ^ counter.y ^ key.x, low1, high0 ^ counter.w ^ key.y, low0);
  }
  return counter;
}

// Draw d is word d % 4 of the block at counter (id, step low, step high, d / 4).
uint random_bits(uvec2 seed, uint id, uvec2 step, uint draw) {
  uvec4 counter = uvec4(id, step.x, step.y, draw / MURMUR_RANDOM_WORDS_PER_BLOCK);
  uvec4 block = philox4x32_10(counter, seed);
  return block[draw % MURMUR_RANDOM_WORDS_PER_BLOCK];
}

// Uniform in [0, 1): 24 bits scaled by 2^-24, exact in float32.
float random_uniform01(uvec2 seed, uint id, uvec2 step, uint draw) {
  uint bits = random_bits(seed, id, step, draw);
  uint top = bits >> (MURMUR_RANDOM_WORD_BITS - MURMUR_RANDOM_FLOAT_BITS);
  return float(top) * MURMUR_RANDOM_FLOAT_SCALE;
}

// low + (high - low) * u, each operation rounded once (`precise` forbids a fused multiply-add,
// as -ffp-contract=off does on the CPU); rounding can give `high` itself.
float random_uniform(uvec2 seed, uint id, uvec2 step, uint draw, float low, float high) {
  precise float value = low + (high - low) * random_uniform01(seed, id, step, draw);
  return value;
}
