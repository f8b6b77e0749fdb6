#pragma once
// Reading PNG files back in tests (stb_image), to compare with what was written or rendered.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

#include <catch2/catch.hpp>
#include <stb_image.h>

#include "murmur/base/image.hpp"

namespace murmur::test {

constexpr int kRgbaChannels = 4;

// The file's pixels as 8-bit RGBA; fails the test when the file cannot be decoded.
inline RgbaImage load_png(const std::filesystem::path& path) {
  int width = 0, height = 0, channels_in_file = 0;
  stbi_uc* data = stbi_load(path.c_str(), &width, &height, &channels_in_file, kRgbaChannels);
  REQUIRE(data != nullptr);
  RgbaImage image{width, height,
                  std::vector<std::uint8_t>(
                      data, data + static_cast<std::size_t>(width) * height * kRgbaChannels)};
  stbi_image_free(data);
  return image;
}

}  // namespace murmur::test
