#pragma once
// Shared by the renderer's tests: hand-built boid records uploaded to a GL buffer, and pixel
// access on read-back frames.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <glm/vec2.hpp>

#include "murmur/gl/objects.hpp"
#include "murmur/render/image.hpp"
#include "murmur/gpu/gpu_types.hpp"
#include "murmur/render/renderer.hpp"

namespace murmur::test {

// The std430 Boid record of shaders/common.glsl, as the renderer reads it.
using BoidRecord = murmur::gpu::Boid;

// Boid records in a GL buffer for as long as this lives.
class BoidUpload {
 public:
  explicit BoidUpload(const std::vector<BoidRecord>& boids) : count_(boids.size()) {
    if (!boids.empty())
      buffer_.emplace("test.render.boids", boids.size() * sizeof(BoidRecord), boids.data());
  }
  BoidBufferView view() const {
    return {buffer_ ? buffer_->id() : 0u, static_cast<std::uint32_t>(count_)};
  }

 private:
  std::size_t count_;
  std::optional<gl::Buffer> buffer_;
};

struct Rgba {
  std::uint8_t r, g, b, a;
  int sum() const { return r + g + b; }
};

inline Rgba pixel_at(const RgbaImage& image, int x, int row_from_top) {
  const std::size_t i = (static_cast<std::size_t>(row_from_top) * image.width + x) * 4;
  return {image.pixels[i], image.pixels[i + 1], image.pixels[i + 2], image.pixels[i + 3]};
}

// The pixel under a world point when the world fills the frame at one pixel per unit.
inline Rgba pixel_at_world(const RgbaImage& image, glm::vec2 world) {
  return pixel_at(image, static_cast<int>(world.x), image.height - 1 - static_cast<int>(world.y));
}

}  // namespace murmur::test
