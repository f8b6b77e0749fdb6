// Issue 9's style keys on hand-built boids in a world that fills the frame at one pixel per
// world unit: bloom radius and levels, the drifting palette, trail width and intensity, ink
// on paper and circles around every boid. Each test was seen to fail with a planted fault
// (docs/rendering.md, "Tests").
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <glm/geometric.hpp>
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
  const BoidUpload upload(boids);
  return murmur::test::checked_frame(renderer,
                                     [&] { renderer.render(scenario, upload.view()); });
}

}  // namespace

TEST_CASE("bloom_radius and bloom_levels widen the glow") {
  murmur::test::gl_context();
  Scenario scenario = red_world();
  scenario.species[0].colour = {40, 0, 0};
  RenderSettings settings = bare_settings();
  settings.heads.size = 4;
  settings.bloom.enabled = true;
  settings.bloom.intensity = 1;
  settings.bloom.threshold = 0.5f;
  Renderer renderer(kWidth, kHeight, settings);
  const glm::vec2 head{48.25f, 32.25f};  // one world unit a pixel, frame and world alike
  const std::vector<BoidRecord> boid{{head, {1, 0}, 0, 0}};
  // How far the glow reaches: the mean distance from the head of the red light off it (past
  // kOffHead pixels), weighted by that light.
  constexpr float kOffHead = 4;
  const auto reach = [&] {
    const RgbaImage image = draw(renderer, scenario, boid);
    double light = 0, moment = 0;
    for (int row = 0; row < kHeight; ++row)
      for (int x = 0; x < kWidth; ++x) {
        const glm::vec2 centre{x + 0.5f, kHeight - row - 0.5f};  // rows from the top
        const float distance = glm::length(centre - head);
        if (distance <= kOffHead) continue;
        const double red = image.pixels[(static_cast<std::size_t>(row) * kWidth + x) * 4];
        light += red;
        moment += red * distance;
      }
    REQUIRE(light > 0);
    return moment / light;
  };

  // Two levels (the frame's second and third halvings): the radius blurs the smaller one as it
  // is added onto the first.
  renderer.settings().bloom.levels = 3;
  renderer.settings().bloom.radius = 1;
  const double narrow = reach();
  renderer.settings().bloom.radius = 3;
  const double wide = reach();
  CHECK(wide > narrow + 1);

  renderer.settings().bloom.radius = 1;
  renderer.settings().bloom.levels = 6;
  const double deep = reach();
  CHECK(deep > narrow + 1);
}

namespace {

// Origin 002's colour of bird i at step t (its clock runs 1/30 s a step), linear, from its own
// formula in 8-bit sRGB: (79 + 70 b, 177 + 58 (1 - b), 248) / 255.
glm::vec3 origin002_drift_colour(std::uint32_t i, std::uint64_t step) {
  constexpr double kStepsPerSecond = 30;
  const double t = static_cast<double>(step) / kStepsPerSecond;
  const double b = (std::sin(0.17 * i + 0.07 * t) + 1) / 2;
  const glm::vec3 srgb{79 + 70 * b, 177 + 58 * (1 - b), 248};
  return murmur::srgb_to_linear(srgb / 255.0f);
}

}  // namespace

TEST_CASE("colour_by drift gives two ids at two steps origin 002's colours") {
  murmur::test::gl_context();
  const Scenario scenario = red_world();
  RenderSettings settings = bare_settings();
  settings.colour.mode = murmur::ColourMode::Drift;
  settings.trails.mode = TrailMode::FadeMap;
  settings.trails.stamp_intensity = 1;  // one stamp on a clear map: the texel is the colour
  Renderer renderer(kWidth, kHeight, settings);
  // Ids 0 and 9 are a quarter turn apart (0.17 x 9 = 1.53), and 400 steps turn the palette
  // by 0.93 radians: all four colours differ.
  constexpr std::uint32_t kIds[] = {0, 9};
  const glm::vec2 at[] = {{20.5f, 20.5f}, {60.5f, 40.5f}};
  const glm::vec2 velocity{4, 0};
  const glm::ivec2 texel[] = {{18, 20}, {58, 40}};  // on each boid's stamped line
  std::vector<glm::vec3> seen;
  for (const std::uint64_t step : {std::uint64_t{0}, std::uint64_t{400}}) {
    renderer.reset_trails();
    const std::vector<BoidRecord> boids{{at[0], velocity, kIds[0], 0, 0, 0},
                                        {at[1], velocity, kIds[1], 0, 0, 1}};
    const BoidUpload upload(boids);
    murmur::BoidBufferView view = upload.view();
    view.step = step;
    renderer.record_step(scenario, view);
    glm::ivec2 size;
    const std::vector<glm::vec4> map = renderer.read_fade_map(&size);
    REQUIRE(size == glm::ivec2(kWidth, kHeight));
    for (int k = 0; k < 2; ++k) {
      INFO("id " << kIds[k] << " at step " << step);
      const glm::vec3 colour(map[static_cast<std::size_t>(texel[k].y * size.x + texel[k].x)]);
      const glm::vec3 expected = origin002_drift_colour(kIds[k], step);
      constexpr float kHalfFloatError = 0.003f;  // RGBA16F keeps 11 significant bits
      for (int c = 0; c < 3; ++c)
        CHECK_THAT(colour[c], Catch::Matchers::WithinAbs(expected[c], kHalfFloatError));
      seen.push_back(colour);
    }
  }
  // The four colours differ, so a phase that ignored the id or the step would fail above.
  for (std::size_t a = 0; a < seen.size(); ++a)
    for (std::size_t b = a + 1; b < seen.size(); ++b)
      CHECK(glm::distance(seen[a], seen[b]) > 0.02f);
}

TEST_CASE("trail_width and trail_intensity set the fade-map stamp's texels and brightness") {
  murmur::test::gl_context();
  const Scenario scenario = red_world();
  RenderSettings settings = bare_settings();
  settings.trails.mode = TrailMode::FadeMap;
  Renderer renderer(kWidth, kHeight, settings);
  // Flew 6 units east in its last step: the stamp spans columns 35..40 of row 30.
  const std::vector<BoidRecord> boid{{{41.5f, 30.5f}, {6, 0}, 0, 0}};
  constexpr int kColumn = 38;
  const auto stamp = [&](std::optional<float> width, std::optional<float> intensity) {
    renderer.settings().trails.width_pixels = width;
    renderer.settings().trails.intensity = intensity;
    renderer.reset_trails();
    const BoidUpload upload(boid);
    renderer.record_step(scenario, upload.view());
    glm::ivec2 size;
    const std::vector<glm::vec4> map = renderer.read_fade_map(&size);
    std::vector<float> column;
    for (int row = 0; row < size.y; ++row)
      column.push_back(map[static_cast<std::size_t>(row * size.x + kColumn)].r);
    return column;
  };
  const auto lit_texels = [](const std::vector<float>& column) {
    return std::count_if(column.begin(), column.end(), [](float red) { return red > 0; });
  };

  const std::vector<float> thin = stamp(std::nullopt, std::nullopt);  // today's stamp
  CHECK(lit_texels(thin) == 1);
  CHECK_THAT(thin[30], Catch::Matchers::WithinAbs(0.35, 0.002));
  const std::vector<float> seed = stamp(3.0f, 0.6f);  // 3 texels wide at 0.6 of the colour
  CHECK(lit_texels(seed) == 3);
  for (const int row : {29, 30, 31}) CHECK_THAT(seed[row], Catch::Matchers::WithinAbs(0.6, 0.002));
}

TEST_CASE("trail_width and trail_intensity set the ribbons' width on screen and brightness") {
  murmur::test::gl_context();
  const Scenario scenario = red_world();
  RenderSettings settings = bare_settings();
  settings.trails.mode = TrailMode::Ribbons;
  settings.trails.ribbon_length = 2;  // one segment: full width at the head, thin at its tail
  settings.heads.size = 0.01f;      // heads too small to cover a pixel centre
  settings.density_scale = false;   // which would draw heads this small as points
  settings.heads.min_length_pixels = 0;
  Renderer renderer(kWidth, kHeight, settings);
  // From x = 30.5 to 50.5 along row 30; column 48 is an eighth of the way from the head.
  constexpr int kColumn = 48;
  const auto ribbon_column = [&](std::optional<float> width, std::optional<float> intensity) {
    renderer.settings().trails.width_pixels = width;
    renderer.settings().trails.intensity = intensity;
    renderer.reset_trails();
    for (const float x : {30.5f, 50.5f}) {
      const BoidUpload upload({{{x, 30.5f}, {20, 0}, 0, 0}});
      renderer.record_step(scenario, upload.view());
    }
    const RgbaImage image = draw(renderer, scenario, {{{50.5f, 30.5f}, {20, 0}, 0, 0}});
    std::vector<int> reds;
    for (int row = 0; row < image.height; ++row)
      reds.push_back(murmur::test::pixel_at(image, kColumn, row).r);
    return reds;
  };
  const auto lit_pixels = [](const std::vector<int>& column) {
    return std::count_if(column.begin(), column.end(), [](int red) { return red > 0; });
  };

  const std::vector<int> today = ribbon_column(std::nullopt, std::nullopt);  // 1.5 px
  CHECK(lit_pixels(today) <= 2);
  const std::vector<int> wide = ribbon_column(8.0f, std::nullopt);  // 8 x 7/8 = 7 px here
  CHECK(lit_pixels(wide) >= 6);
  CHECK(lit_pixels(wide) <= 8);
  const int row = kHeight - 1 - 30;
  const std::vector<int> bright = ribbon_column(8.0f, 2.0f);
  CHECK(bright[static_cast<std::size_t>(row)] > wide[static_cast<std::size_t>(row)]);
}

TEST_CASE("circles = all draws a circle of circle_radius around every boid") {
  murmur::test::gl_context();
  Scenario scenario = red_world();  // perception radius 8, separation radius 2
  RenderSettings settings = bare_settings();
  settings.heads.size = 0.01f;  // heads too small to cover a pixel centre
  settings.density_scale = false;  // which would draw heads this small as points
  settings.heads.min_length_pixels = 0;
  settings.overlays.circle_colour = {1, 1, 1, 1};
  Renderer renderer(kWidth, kHeight, settings);
  // Trail slots 0..4 (unique, < count), spread over the world.
  std::vector<BoidRecord> boids;
  const glm::vec2 centres[] = {{15.5f, 15.5f}, {45.5f, 15.5f}, {75.5f, 15.5f}, {30.5f, 45.5f},
                               {65.5f, 45.5f}};
  for (std::uint32_t k = 0; k < 5; ++k) boids.push_back({centres[k], {1, 0}, 10 + k, 0, 0, k});
  // Lit pixels on a ring of the given radius (sampled at 16 angles) around each boid.
  const auto ring_lit = [](const RgbaImage& image, glm::vec2 centre, float radius) {
    int lit = 0;
    constexpr int kAngles = 16;
    for (int a = 0; a < kAngles; ++a) {
      const float angle = 6.2831853f * static_cast<float>(a) / kAngles;
      bool near = false;  // the 1-pixel line may fall on a neighbour of the exact point
      for (const glm::vec2 nudge : {glm::vec2(0), glm::vec2(0.7f, 0), glm::vec2(-0.7f, 0),
                                    glm::vec2(0, 0.7f), glm::vec2(0, -0.7f)}) {
        const glm::vec2 at = centre + radius * glm::vec2(std::cos(angle), std::sin(angle)) + nudge;
        near = near || pixel_at_world(image, at).sum() > 0;
      }
      lit += near ? 1 : 0;
    }
    return lit;
  };
  constexpr int kMostOfTheRing = 14;  // of 16 samples

  renderer.settings().overlays.circles = murmur::CircleMode::Selected;  // today: none asked for
  RgbaImage image = draw(renderer, scenario, boids);
  for (const glm::vec2 centre : centres) CHECK(ring_lit(image, centre, 8) == 0);

  renderer.settings().overlays.circles = murmur::CircleMode::All;  // sight: 8 units
  image = draw(renderer, scenario, boids);
  for (const glm::vec2 centre : centres) {
    CHECK(ring_lit(image, centre, 8) >= kMostOfTheRing);
    CHECK(ring_lit(image, centre, 4) == 0);
  }
  renderer.settings().overlays.circle_radius = {murmur::CircleRadiusKind::Separation, 0};
  image = draw(renderer, scenario, boids);
  for (const glm::vec2 centre : centres) {
    CHECK(ring_lit(image, centre, 8) == 0);
    CHECK(ring_lit(image, centre, 2) >= kMostOfTheRing);
  }
  renderer.settings().overlays.circle_radius = {murmur::CircleRadiusKind::WorldUnits, 5};
  image = draw(renderer, scenario, boids);
  for (const glm::vec2 centre : centres) CHECK(ring_lit(image, centre, 5) >= kMostOfTheRing);

  renderer.settings().overlays.circles = murmur::CircleMode::None;
  renderer.settings().overlays.selected_id = 10;
  image = draw(renderer, scenario, boids);
  for (const glm::vec2 centre : centres) CHECK(ring_lit(image, centre, 5) == 0);
}

TEST_CASE("blend = ink lays dark boids and trails on white paper, with no glow") {
  murmur::test::gl_context();
  Scenario scenario = red_world();
  scenario.species[0].colour = {0.02f, 0.02f, 0.3f};  // a dark blue ink
  RenderSettings settings;  // today's defaults: trails, bloom and automatic exposure on
  settings.blend = murmur::BlendMode::Ink;
  settings.heads.size = 8;
  settings.colour.per_boid_variation = 0;
  Renderer renderer(kWidth, kHeight, settings);
  const glm::vec2 at{48.25f, 32.25f};
  std::vector<BoidRecord> boid{{at, {2, 0}, 0, 0}};
  for (int step = 0; step < 8; ++step) {  // a trail west of the head
    boid[0].pos = at - glm::vec2(2.0f * static_cast<float>(8 - step), 0);
    const BoidUpload upload(boid);
    renderer.record_step(scenario, upload.view());
  }
  boid[0].pos = at;
  const RgbaImage image = draw(renderer, scenario, boid);

  // The paper is white, up to the boid: no glow bleeds onto it.
  for (const glm::vec2 paper : {glm::vec2{5.5f, 5.5f}, glm::vec2{48.5f, 40.5f},
                                glm::vec2{48.5f, 37.5f}}) {
    const murmur::test::Rgba p = pixel_at_world(image, paper);
    INFO("paper at " << paper.x << ", " << paper.y);
    CHECK(int{p.r} == 255);
    CHECK(int{p.g} == 255);
    CHECK(int{p.b} == 255);
  }
  // The head is the ink's colour, opaque (linear 0.3 blue is sRGB 149).
  const murmur::test::Rgba head = pixel_at_world(image, at);
  CHECK(head.r < 40);
  CHECK(head.g < 40);
  CHECK(std::abs(head.b - 149) <= 2);
  // The trail darkens the paper behind it, in the ink's hue.
  const murmur::test::Rgba trail = pixel_at_world(image, at - glm::vec2(7, 0));
  CHECK(trail.sum() < 3 * 255 - 60);
  CHECK(trail.b > trail.r);
}

TEST_CASE("blend = ink draws the obstacle in black and the target in red on the paper") {
  murmur::test::gl_context();
  Scenario scenario = red_world();
  scenario.obstacles.push_back({{30, 32}, 10});
  scenario.target = murmur::Target{{72, 32}};
  RenderSettings settings = bare_settings();
  settings.blend = murmur::BlendMode::Ink;
  Renderer renderer(kWidth, kHeight, settings);
  const RgbaImage image = draw(renderer, scenario, {});
  // Outlines are thin: the darkest pixel of a 3x3 patch on the line.
  const auto darkest_near = [&](glm::vec2 world) {
    murmur::test::Rgba darkest = pixel_at_world(image, world);
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const murmur::test::Rgba p = pixel_at_world(image, world + glm::vec2(dx, dy));
        if (p.sum() < darkest.sum()) darkest = p;
      }
    return darkest;
  };
  const murmur::test::Rgba obstacle = darkest_near({30 + 10, 32});
  CHECK(obstacle.sum() < 3 * 80);  // near black, where glow's light yellow would vanish
  const murmur::test::Rgba target = darkest_near({72, 32});  // the cross's centre
  CHECK(target.r > target.g + 80);  // red ink on the white page
  CHECK(target.r > target.b + 80);
  const murmur::test::Rgba paper = pixel_at_world(image, {30, 32});  // inside the outline
  CHECK(paper.sum() == 3 * 255);
}
