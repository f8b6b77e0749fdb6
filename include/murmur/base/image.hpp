#pragma once
// An 8-bit RGBA image in memory, as the renderer reads it back and the PNG writer takes it.
#include <cstdint>
#include <vector>

namespace murmur {

// Rows top first, no padding between rows: pixels.size() == width * height * kBytesPerPixel.
struct RgbaImage {
  static constexpr int kBytesPerPixel = 4;
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels;
};

}  // namespace murmur
