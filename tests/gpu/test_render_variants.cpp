// The renderer's shader variants (docs/rendering.md, "Shader variants"): every one a setting can
// choose compiles, and a setting changed between frames draws exactly what a renderer made with
// it draws, so the program a frame picks is the one its settings name.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <glm/vec2.hpp>

#include "gpu_test_support.hpp"
#include "murmur/gl/debug.hpp"
#include "murmur/scenario/look.hpp"
#include "murmur/render/renderer.hpp"
#include "test_render_support.hpp"

using murmur::BlendMode;
using murmur::ColourMode;
using murmur::HeadShape;
using murmur::Renderer;
using murmur::RenderSettings;
using murmur::RgbaImage;
using murmur::Scenario;
using murmur::TrailMode;
using murmur::test::BoidRecord;
using murmur::test::BoidUpload;

namespace {

constexpr int kWidth = 160, kHeight = 96;
constexpr int kSteps = 3;

// A dense flock (its core past the local exposure's marks, its light past the bloom's
// threshold) over a sparse one, with fade-map trails of a few steps.
struct Scene {
  Scenario scenario = murmur::test::starlings_world({kWidth, kHeight}, 0);
  std::vector<BoidRecord> boids;
  Scene() {
    murmur::test::add_gaussian_flock(boids, {50, 48}, 4, 12, 600, {2.0f, 0.5f});
    murmur::test::add_gaussian_flock(boids, {115, 40}, 14, 30, 80, {-1.0f, 2.0f});
    scenario.species[0].count = static_cast<std::uint32_t>(boids.size());
  }
};

RenderSettings scene_settings() {
  RenderSettings settings;
  settings.exposure_adaptation = 1;  // each frame for itself, as the recorder
  return settings;
}

// A few steps of trails, then a frame; the boids do not move, so only the settings matter.
RgbaImage draw(Renderer& renderer, const Scene& scene) {
  const BoidUpload upload(scene.boids);
  return murmur::test::checked_frame(renderer, [&] {
    renderer.reset_trails();
    for (int step = 0; step < kSteps; ++step) renderer.record_step(scene.scenario, upload.view());
    renderer.render(scene.scenario, upload.view());
  });
}

}  // namespace

TEST_CASE("every shader variant a setting can choose compiles and links") {
  murmur::test::gl_context();
  murmur::gl::DebugMessenger messenger;
  Renderer renderer(kWidth, kHeight, scene_settings());
  const std::size_t modes = std::size(murmur::kColourModeNames);
  // Per colour mode: heads as points, squares and darts (those two as triangles and as
  // sprites), the stamps and the ribbons; the composite by blend and by whether the map is seen
  // smaller than its texels; the resolve by blend, local
  // exposure and bloom; the bloom's first level by local exposure and the other levels; four
  // exposure stages and the factor by local exposure; a 3D world's heads per colour mode as
  // darts and discs, its ribbons per colour mode, and its sky.
  const std::size_t expected =
      modes * (1 + 2 * 2 + 1 + 1) + 2 * 2 + 8 + (2 + 1) + 2 * (4 + 1) + modes * (2 + 1) + 1;
  CHECK(renderer.build_every_variant() == expected);
  CHECK(messenger.error_count() == 0);
}

TEST_CASE("a setting changed between frames draws what a renderer made with it draws") {
  murmur::test::gl_context();
  const Scene scene;
  Renderer live(kWidth, kHeight, scene_settings());
  const RgbaImage first = draw(live, scene);
  struct Change {
    const char* name;
    std::function<void(RenderSettings&)> apply;
  };
  const std::vector<Change> changes = {
      {"colour by heading", [](RenderSettings& s) { s.colour.mode = ColourMode::Heading; }},
      {"colour by drift", [](RenderSettings& s) { s.colour.mode = ColourMode::Drift; }},
      {"disc heads", [](RenderSettings& s) { s.heads.shape = HeadShape::Disc; }},
      {"age look", [](RenderSettings& s) { s.heads.age_look = true; }},
      {"ribbons", [](RenderSettings& s) { s.trails.mode = TrailMode::Ribbons; }},
      {"no bloom", [](RenderSettings& s) { s.bloom.enabled = false; }},
      {"no local exposure", [](RenderSettings& s) { s.local_exposure_key = 0; }},
      {"ink", [](RenderSettings& s) { s.blend = BlendMode::Ink; }},
  };
  for (const Change& change : changes) {
    INFO(change.name);
    RenderSettings settings = scene_settings();
    change.apply(settings);
    // Each change on its own, from the scene's settings, in the renderer that drew them.
    live.settings() = settings;
    const RgbaImage switched = draw(live, scene);
    Renderer fresh(kWidth, kHeight, settings);
    const RgbaImage made = draw(fresh, scene);
    CHECK(switched.pixels == made.pixels);
    CHECK(switched.pixels != first.pixels);  // the setting shows
    live.settings() = scene_settings();
    CHECK(draw(live, scene).pixels == first.pixels);  // and going back restores the frame
  }
}
