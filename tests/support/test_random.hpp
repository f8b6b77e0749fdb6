#pragma once
// A small counter-based generator (splitmix64, Steele, Lea & Flood 2014) so the test data are
// the same with every standard library, unlike std::uniform_real_distribution.
#include <cstdint>

namespace murmur::test {

class SplitMix {
 public:
  explicit SplitMix(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1) with float32's 24 bits.
  float unit() { return static_cast<float>(next() >> 40) * 0x1.0p-24f; }
  float in(float lo, float hi) { return lo + (hi - lo) * unit(); }

 private:
  std::uint64_t state_;
};

}  // namespace murmur::test
