// The offscreen renderer: hand-built boids at known places, checked pixel by pixel.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <catch2/catch.hpp>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include "gpu_test_support.hpp"
#include "murmur/gl/debug.hpp"
#include "murmur/gl/objects.hpp"
#include "murmur/flock/gpu/gpu_types.hpp"
#include "murmur/render/renderer.hpp"

using Catch::Matchers::WithinAbs;
using murmur::BoidBufferView;
using murmur::Renderer;
using murmur::RenderSettings;
using murmur::RgbaImage;
using murmur::Scenario;

namespace {

// The std430 Boid record of shaders/common/common.glsl, as the renderer reads it.
using BoidRecord = murmur::gpu::Boid;

constexpr int kWidth = 64, kHeight = 48;
constexpr std::uint8_t kLit = 40;  // any channel above this is drawn, not background

// Species 0 red, species 1 green; no other species.
Scenario two_colour_world(float width, float height) {
  Scenario scenario = murmur::test::world(width, height, 1);
  scenario.species.push_back(murmur::test::species("red", 0, murmur::Topology::Wrap, 4, 1));
  scenario.species.push_back(murmur::test::species("green", 0, murmur::Topology::Wrap, 4, 1));
  scenario.species[0].colour = {1, 0, 0};
  scenario.species[1].colour = {0, 1, 0};
  return scenario;
}

// Black background and flat-coloured heads of a fixed world size, no trails and no glow, so
// expected pixels are easy to state.
RenderSettings plain_settings(float head_length) {
  RenderSettings settings;
  settings.background = {0, 0, 0};
  settings.colour.per_boid_variation = 0;
  settings.trails.mode = murmur::TrailMode::None;
  settings.bloom.enabled = false;
  settings.heads.size = head_length;
  settings.heads.min_length_pixels = 0;
  return settings;
}

struct Pixel {
  std::uint8_t r, g, b, a;
};

Pixel pixel_at(const RgbaImage& image, int x, int row_from_top) {
  const std::size_t i = (static_cast<std::size_t>(row_from_top) * image.width + x) * 4;
  return {image.pixels[i], image.pixels[i + 1], image.pixels[i + 2], image.pixels[i + 3]};
}

bool is_background(Pixel p) { return p.r == 0 && p.g == 0 && p.b == 0 && p.a == 255; }

// The box around the pixels whose `channel` (0 r, 1 g, 2 b) is lit.
struct LitBox {
  int count = 0;
  int min_x = 1 << 30, max_x = -1, min_row = 1 << 30, max_row = -1;
  glm::vec2 centre() const {
    return {0.5f * static_cast<float>(min_x + max_x + 1),
            0.5f * static_cast<float>(min_row + max_row + 1)};
  }
};

LitBox lit_box(const RgbaImage& image, int channel) {
  LitBox box;
  for (int row = 0; row < image.height; ++row)
    for (int x = 0; x < image.width; ++x) {
      const Pixel p = pixel_at(image, x, row);
      const std::uint8_t value = channel == 0 ? p.r : channel == 1 ? p.g : p.b;
      if (value <= kLit) continue;
      ++box.count;
      box.min_x = std::min(box.min_x, x);
      box.max_x = std::max(box.max_x, x);
      box.min_row = std::min(box.min_row, row);
      box.max_row = std::max(box.max_row, row);
    }
  return box;
}

// Renders `boids` and returns the frame; checks that GL reported no error on the way.
RgbaImage render_boids(Renderer& renderer, const Scenario& scenario,
                       const std::vector<BoidRecord>& boids) {
  murmur::gl::DebugMessenger messenger;
  std::optional<murmur::gl::Buffer> buffer;
  if (!boids.empty())
    buffer.emplace("test.render.boids", boids.size() * sizeof(BoidRecord), boids.data());
  renderer.render(scenario, BoidBufferView{buffer ? buffer->id() : 0u,
                                           static_cast<std::uint32_t>(boids.size())});
  RgbaImage image = renderer.read_pixels();
  CHECK(messenger.errors().empty());
  for (const std::string& error : messenger.errors()) UNSCOPED_INFO(error);
  return image;
}

// Lit pixels of `channel` on each side of the line through `centre` across `axis`
// (0: columns left/right of centre.x, 1: rows above/below centre.y, in image rows).
std::pair<int, int> lit_on_each_side(const RgbaImage& image, int channel, int axis, float centre) {
  int before = 0, after = 0;
  for (int row = 0; row < image.height; ++row)
    for (int x = 0; x < image.width; ++x) {
      const Pixel p = pixel_at(image, x, row);
      const std::uint8_t value = channel == 0 ? p.r : channel == 1 ? p.g : p.b;
      if (value <= kLit) continue;
      const float coordinate = static_cast<float>(axis == 0 ? x : row) + 0.5f;
      if (coordinate < centre) ++before;
      if (coordinate > centre) ++after;
    }
  return {before, after};
}

}  // namespace

TEST_CASE("world-to-frame fit keeps the aspect and centres the world") {
  // 100x50 world in 64x48: 0.64 px per unit across, 32 of the 48 rows used.
  const murmur::WorldView view = murmur::fit_world({100, 50}, 64, 48);
  CHECK_THAT(view.pixels_per_world_unit, WithinAbs(0.64, 1e-6));
  CHECK_THAT(view.world_to_clip.x, WithinAbs(2 * 0.64 / 64, 1e-7));
  CHECK_THAT(view.world_to_clip.y, WithinAbs(2 * 0.64 / 48, 1e-7));
  CHECK(view.world_centre == glm::vec2(50, 25));
  CHECK(view.world_pixel_origin == glm::ivec2(0, 8));
  CHECK(view.world_pixel_size == glm::ivec2(64, 32));
}

TEST_CASE("a boid is drawn in its species colour where the world maps it") {
  murmur::test::gl_context();
  // The world has the frame's size: one pixel per world unit, y up.
  const Scenario scenario = two_colour_world(kWidth, kHeight);
  Renderer renderer(kWidth, kHeight, plain_settings(8));
  // Red near the top-left corner of the world (small x, large y), green near the bottom-right.
  const glm::vec2 red_pos{12.5f, 36.5f}, green_pos{50.5f, 9.5f};
  const RgbaImage image = render_boids(
      renderer, scenario, {{red_pos, {1, 0}, 0, 0}, {green_pos, {0, -1}, 1, 1}});
  REQUIRE(image.width == kWidth);
  REQUIRE(image.height == kHeight);
  REQUIRE(image.pixels.size() == std::size_t{kWidth} * kHeight * 4);

  // The pixel under the boid: world (x, y) is image column x, row height - y.
  const Pixel red = pixel_at(image, 12, kHeight - 37);
  CHECK(red.r > 150);
  CHECK(red.g < 20);
  CHECK(red.b < 20);
  const Pixel green = pixel_at(image, 50, kHeight - 10);
  CHECK(green.g > 150);
  CHECK(green.r < 20);

  // Each head lies around its boid, in the image's top-left and bottom-right respectively.
  const LitBox red_box = lit_box(image, 0);
  const LitBox green_box = lit_box(image, 1);
  REQUIRE(red_box.count > 0);
  REQUIRE(green_box.count > 0);
  CHECK_THAT(red_box.centre().x, WithinAbs(red_pos.x, 1.0));
  CHECK_THAT(red_box.centre().y, WithinAbs(kHeight - red_pos.y, 1.0));
  CHECK_THAT(green_box.centre().x, WithinAbs(green_pos.x, 1.0));
  CHECK_THAT(green_box.centre().y, WithinAbs(kHeight - green_pos.y, 1.0));
  CHECK(red_box.max_x < kWidth / 2);
  CHECK(red_box.max_row < kHeight / 2);
  CHECK(green_box.min_x > kWidth / 2);
  CHECK(green_box.min_row > kHeight / 2);

  // Everything more than a head length away from both boids is untouched background.
  int stray = 0;
  for (int row = 0; row < kHeight; ++row)
    for (int x = 0; x < kWidth; ++x) {
      const glm::vec2 world{x + 0.5f, kHeight - row - 0.5f};
      const bool near_a_boid = glm::length(world - red_pos) < 8 || glm::length(world - green_pos) < 8;
      if (!near_a_boid && !is_background(pixel_at(image, x, row))) ++stray;
    }
  CHECK(stray == 0);
  CHECK(is_background(pixel_at(image, 0, 0)));
  CHECK(is_background(pixel_at(image, kWidth - 1, kHeight - 1)));
}

TEST_CASE("a head points along the boid's velocity: its wide tail trails") {
  murmur::test::gl_context();
  const Scenario scenario = two_colour_world(kWidth, kHeight);
  Renderer renderer(kWidth, kHeight, plain_settings(16));
  const glm::vec2 centre{32, 24};  // on pixel corners, so both sides rasterise alike
  const float centre_row = kHeight - centre.y;

  // The dart's area behind its midpoint is nearly twice the area ahead (wings vs tip).
  SECTION("heading +x: more lit pixels left of the boid") {
    const auto [left, right] =
        lit_on_each_side(render_boids(renderer, scenario, {{centre, {1, 0}, 0, 0}}), 0, 0, centre.x);
    CHECK(left > right * 3 / 2);
  }
  SECTION("heading -x: more lit pixels right of the boid") {
    const auto [left, right] =
        lit_on_each_side(render_boids(renderer, scenario, {{centre, {-2, 0}, 0, 0}}), 0, 0, centre.x);
    CHECK(right > left * 3 / 2);
  }
  SECTION("heading +y (up in the image): more lit pixels below the boid") {
    const auto [above, below] = lit_on_each_side(
        render_boids(renderer, scenario, {{centre, {0, 0.5f}, 0, 0}}), 0, 1, centre_row);
    CHECK(below > above * 3 / 2);
  }
  SECTION("heading -y: more lit pixels above the boid") {
    const auto [above, below] = lit_on_each_side(
        render_boids(renderer, scenario, {{centre, {0, -1}, 0, 0}}), 0, 1, centre_row);
    CHECK(above > below * 3 / 2);
  }
}

TEST_CASE("a wide world is letterboxed: bars above and below stay background") {
  murmur::test::gl_context();
  // 100x50 world in 64x48: 0.64 px per unit; the world covers rows 8..40.
  const Scenario scenario = two_colour_world(100, 50);
  RenderSettings settings = plain_settings(10);
  settings.background = {0, 0, 0.2f};  // blue world, black bars
  Renderer renderer(kWidth, kHeight, settings);
  const glm::vec2 pos{10, 45};
  const RgbaImage image = render_boids(renderer, scenario, {{pos, {1, 0}, 0, 0}});
  const LitBox box = lit_box(image, 0);
  REQUIRE(box.count > 0);
  constexpr float kScale = 0.64f;
  constexpr int kTopBar = 8, kWorldRows = 32;
  CHECK_THAT(box.centre().x, WithinAbs(pos.x * kScale, 1.0));
  CHECK_THAT(box.centre().y, WithinAbs(kTopBar + (50 - pos.y) * kScale, 1.0));

  int bar_pixels_not_black = 0, world_pixels_not_blue = 0;
  for (int row = 0; row < kHeight; ++row)
    for (int x = 0; x < kWidth; ++x) {
      const Pixel p = pixel_at(image, x, row);
      const bool in_world = row >= kTopBar && row < kTopBar + kWorldRows;
      if (!in_world && !is_background(p)) ++bar_pixels_not_black;
      if (in_world && p.b <= kLit) ++world_pixels_not_blue;
    }
  CHECK(bar_pixels_not_black == 0);
  CHECK(world_pixels_not_blue == 0);
}

TEST_CASE("heads add up in the HDR target instead of overwriting each other") {
  murmur::test::gl_context();
  Scenario scenario = two_colour_world(kWidth, kHeight);
  scenario.species[0].colour = {0.2f, 0, 0};
  Renderer renderer(kWidth, kHeight, plain_settings(8));
  const BoidRecord boid{{20.5f, 20.5f}, {1, 0}, 0, 0};
  const std::uint8_t one = pixel_at(render_boids(renderer, scenario, {boid}), 20, kHeight - 21).r;
  BoidRecord twin = boid;
  twin.id = 1;
  const std::uint8_t two =
      pixel_at(render_boids(renderer, scenario, {boid, twin}), 20, kHeight - 21).r;
  CHECK(one > kLit);
  CHECK(two > one + 20);
}

TEST_CASE("the minimum on-screen head size keeps tiny heads visible") {
  murmur::test::gl_context();
  const Scenario scenario = two_colour_world(kWidth, kHeight);
  RenderSettings settings = plain_settings(0.01f);  // far below a pixel
  settings.density_scale = false;  // which draws a head this small as a point
  Renderer renderer(kWidth, kHeight, settings);
  // Away from pixel centres, so the hundredth-of-a-pixel dart covers none of them.
  const BoidRecord boid{{30.25f, 20.25f}, {1, 0}, 0, 0};
  CHECK(lit_box(render_boids(renderer, scenario, {boid}), 0).count == 0);
  renderer.settings().heads.min_length_pixels = 8;
  const LitBox box = lit_box(render_boids(renderer, scenario, {boid}), 0);
  CHECK(box.max_x - box.min_x + 1 >= 6);
}

TEST_CASE("odd and tiny sizes render and read back without GL errors") {
  murmur::test::gl_context();
  const Scenario scenario = two_colour_world(10, 10);
  Renderer renderer(1, 1, plain_settings(20));
  const std::vector<BoidRecord> boids{{{5, 5}, {1, 1}, 0, 0}};
  RgbaImage image = render_boids(renderer, scenario, boids);
  CHECK(image.width == 1);
  CHECK(image.height == 1);
  CHECK(image.pixels.size() == 4);
  CHECK(pixel_at(image, 0, 0).r > kLit);  // the only pixel is inside a 20-unit head

  for (const auto [width, height] : {std::pair{3, 7}, std::pair{7, 3}, std::pair{65, 49}}) {
    renderer.resize(width, height);
    image = render_boids(renderer, scenario, boids);
    CHECK(image.width == width);
    CHECK(image.height == height);
    CHECK(image.pixels.size() == std::size_t(width) * height * 4);
  }
  image = render_boids(renderer, scenario, {});  // no boids at all: only background
  CHECK(lit_box(image, 0).count == 0);
  CHECK_THROWS_AS(renderer.resize(0, 5), std::invalid_argument);
}
