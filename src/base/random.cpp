// Philox4x32-10 on the CPU; shaders/common/random.glsl is the same computation in GLSL.
#include "murmur/base/random.hpp"

#include "common/interface.h"

namespace murmur {
namespace {

constexpr unsigned kWordBits = MURMUR_RANDOM_WORD_BITS;
constexpr std::uint32_t kDrawWordMask = MURMUR_RANDOM_WORDS_PER_BLOCK - 1;
constexpr unsigned kDrawBlockShift = 2;  // log2 of MURMUR_RANDOM_WORDS_PER_BLOCK
static_assert((1u << kDrawBlockShift) == MURMUR_RANDOM_WORDS_PER_BLOCK);
constexpr float kFloatScale = static_cast<float>(MURMUR_RANDOM_FLOAT_SCALE);
static_assert(kFloatScale == 0x1.0p-24f && MURMUR_RANDOM_FLOAT_BITS == 24);

std::uint32_t low_word(std::uint64_t value) { return static_cast<std::uint32_t>(value); }
std::uint32_t high_word(std::uint64_t value) {
  return static_cast<std::uint32_t>(value >> kWordBits);
}

struct Product {
  std::uint32_t high, low;
};

Product multiply_wide(std::uint32_t a, std::uint32_t b) {
  const std::uint64_t product = std::uint64_t{a} * b;
  return {high_word(product), low_word(product)};
}

}  // namespace

PhiloxCounter philox4x32_10(PhiloxCounter counter, PhiloxKey key) {
  for (int round_index = 0; round_index < MURMUR_PHILOX_ROUNDS; ++round_index) {
    if (round_index > 0) {
      key[0] += MURMUR_PHILOX_W0;
      key[1] += MURMUR_PHILOX_W1;
    }
    const Product p0 = multiply_wide(MURMUR_PHILOX_M0, counter[0]);
    const Product p1 = multiply_wide(MURMUR_PHILOX_M1, counter[2]);
    counter = {p1.high ^ counter[1] ^ key[0], p1.low, p0.high ^ counter[3] ^ key[1], p0.low};
  }
  return counter;
}

PhiloxKey random_key(std::uint64_t seed) { return {low_word(seed), high_word(seed)}; }

PhiloxCounter random_counter(const RandomDraw& d) {
  return {d.id, low_word(d.step), high_word(d.step), d.draw >> kDrawBlockShift};
}

std::uint32_t random_bits(const RandomDraw& d) {
  return philox4x32_10(random_counter(d), random_key(d.seed))[d.draw & kDrawWordMask];
}

float random_uniform01(const RandomDraw& d) {
  const std::uint32_t top = random_bits(d) >> (kWordBits - MURMUR_RANDOM_FLOAT_BITS);
  return static_cast<float>(top) * kFloatScale;
}

float random_uniform(const RandomDraw& d, float low, float high) {
  return low + (high - low) * random_uniform01(d);
}

}  // namespace murmur
