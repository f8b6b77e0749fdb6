#pragma once
// Shared by the renderer's tests: hand-built boid records uploaded to a GL buffer, and pixel
// access on read-back frames.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <optional>
#include <vector>

#include <catch2/catch.hpp>
#include <glm/vec2.hpp>

#include "murmur/gl/debug.hpp"
#include "murmur/gl/objects.hpp"
#include "murmur/base/image.hpp"
#include "murmur/flock/gpu/gpu_types.hpp"
#include "murmur/render/renderer.hpp"
#include "gpu_test_support.hpp"

namespace murmur::test {

// The std430 Boid record of shaders/common/common.glsl, as the renderer reads it.
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

// Runs `draws` (record_step and render calls) and reads the frame back, checking that GL
// reported no error on the way.
inline RgbaImage checked_frame(Renderer& renderer, const std::function<void()>& draws) {
  gl::DebugMessenger messenger;
  draws();
  RgbaImage image = renderer.read_pixels();
  for (const std::string& error : messenger.errors()) UNSCOPED_INFO(error);
  CHECK(messenger.error_count() == 0);
  return image;
}

// A `world`-sized world with scenarios/science/boids-starlings.toml's species (its blue,
// perception 12: automatic heads 6 units long, speeds 1.8 to 3) of `count` boids.
inline Scenario starlings_world(glm::vec2 world, std::uint32_t count) {
  Scenario scenario = test::world(world.x, world.y, 1);
  scenario.species.push_back(test::species("starlings", count, Topology::Wrap, 12, 3.5f));
  scenario.species[0].colour = {0.3f, 0.45f, 1.0f};
  scenario.species[0].min_speed = 1.8f;
  scenario.species[0].max_speed = 3.0f;
  return scenario;
}

// Appends `count` boids round `centre` whose density is a Gaussian of `sigma` cut at `radius`
// (radii by the inverse of its cumulative distribution, angles by the golden angle, so the
// same call gives the same boids), all flying `velocity` as a flock does; ids and trail
// slots continue from the boids already there.
inline void add_gaussian_flock(std::vector<BoidRecord>& boids, glm::vec2 centre, float sigma,
                               float radius, std::uint32_t count, glm::vec2 velocity) {
  constexpr float kGoldenAngle = 2.3999632f;
  const float kept = 1.0f - std::exp(-radius * radius / (2 * sigma * sigma));
  for (std::uint32_t i = 0; i < count; ++i) {
    const float u = (static_cast<float>(i) + 0.5f) / static_cast<float>(count);
    const float r = sigma * std::sqrt(-2.0f * std::log(1.0f - u * kept));
    const float angle = kGoldenAngle * static_cast<float>(i);
    BoidRecord boid{};
    boid.pos = centre + r * glm::vec2(std::cos(angle), std::sin(angle));
    boid.vel = velocity;
    boid.id = boid.trail_slot = static_cast<std::uint32_t>(boids.size());
    boids.push_back(boid);
  }
}

// Rec. 709 luminance of the sRGB bytes, 0..255 (as tests/cli/png_tool.py contrast reads).
inline float luminance(Rgba p) {
  return 0.2126f * static_cast<float>(p.r) + 0.7152f * static_cast<float>(p.g) +
         0.0722f * static_cast<float>(p.b);
}

// The value `fraction` of the way up sorted values (0: the least, 1: the greatest).
inline float percentile(const std::vector<float>& sorted, float fraction) {
  REQUIRE(!sorted.empty());
  return sorted[static_cast<std::size_t>(fraction * static_cast<float>(sorted.size() - 1))];
}

// The pixel under a world point when the world fills the frame at one pixel per unit.
inline Rgba pixel_at_world(const RgbaImage& image, glm::vec2 world) {
  return pixel_at(image, static_cast<int>(world.x), image.height - 1 - static_cast<int>(world.y));
}

}  // namespace murmur::test
