// The renderer's trails, glow, colour modes, overlays, camera and target sizes, on hand-built
// boids in a world that fills the frame at one pixel per world unit.
//
// Sections: helpers; trails; bloom, colour and overlays; camera and sizes.
#include <array>
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

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using murmur::Camera;
using murmur::ColourMode;
using murmur::Renderer;
using murmur::RenderSettings;
using murmur::RgbaImage;
using murmur::Scenario;
using murmur::TrailMode;
using murmur::WorldView;
using murmur::test::BoidRecord;
using murmur::test::BoidUpload;
using murmur::test::pixel_at;
using murmur::test::pixel_at_world;

// --- helpers -----------------------------------------------------------------------------------
namespace {

constexpr int kWidth = 64, kHeight = 48;
constexpr int kLit = 30;  // a pixel whose r + g + b exceeds this shows something

bool lit(murmur::test::Rgba p) { return p.sum() > kLit; }

// Species 0 red, species 1 green, on a torus the size of the frame.
Scenario two_colour_world(float perception_radius = 4, float separation_radius = 1) {
  Scenario scenario = murmur::test::world(kWidth, kHeight, 1);
  for (const char* name : {"red", "green"})
    scenario.species.push_back(murmur::test::species(name, 0, murmur::Topology::Wrap,
                                                     perception_radius, separation_radius));
  scenario.species[0].colour = {1, 0, 0};
  scenario.species[1].colour = {0, 1, 0};
  return scenario;
}

// Black, no glow, no trails, flat colours, heads too small to cover a pixel centre (placed
// off-centre below), so only what a test switches on shows.
RenderSettings bare_settings() {
  RenderSettings settings;
  settings.background = {0, 0, 0};
  settings.colour.per_boid_variation = 0;
  settings.trails.mode = TrailMode::None;
  settings.bloom.enabled = false;
  settings.heads.size = 0.01f;
  settings.heads.min_length_pixels = 0;
  settings.density_scale = false;  // which would draw heads this small as points
  return settings;
}

// bare_settings with fade-map trails, one texel per world unit, each stamp adding its colour.
RenderSettings fade_map_settings() {
  RenderSettings settings = bare_settings();
  settings.trails.mode = TrailMode::FadeMap;
  settings.trails.map_pixels_per_world_unit = 1;
  settings.trails.stamp_intensity = 1;
  return settings;
}

RgbaImage render(Renderer& renderer, const Scenario& scenario, const std::vector<BoidRecord>& boids) {
  murmur::gl::DebugMessenger messenger;
  const BoidUpload upload(boids);
  renderer.render(scenario, upload.view());
  RgbaImage image = renderer.read_pixels();
  for (const std::string& error : messenger.errors()) UNSCOPED_INFO(error);
  CHECK(messenger.error_count() == 0);
  return image;
}

void record(Renderer& renderer, const Scenario& scenario, const std::vector<BoidRecord>& boids) {
  const BoidUpload upload(boids);
  renderer.record_step(scenario, upload.view());
}

int lit_in_rows(const RgbaImage& image, float world_y_low, float world_y_high) {
  int count = 0;
  for (int row = 0; row < image.height; ++row) {
    const float y = static_cast<float>(image.height - row) - 0.5f;
    if (y < world_y_low || y > world_y_high) continue;
    for (int x = 0; x < image.width; ++x) count += lit(pixel_at(image, x, row)) ? 1 : 0;
  }
  return count;
}

}  // namespace

// --- trails ------------------------------------------------------------------------------------
TEST_CASE("ribbons follow boid ids when the grid swaps their slots every step") {
  murmur::test::gl_context();
  const Scenario scenario = two_colour_world();
  RenderSettings settings = bare_settings();
  settings.trails.mode = TrailMode::Ribbons;
  settings.trails.ribbon_length = 16;
  settings.trails.ribbon_width_pixels = 1;
  settings.trails.ribbon_intensity = 1;
  Renderer renderer(kWidth, kHeight, settings);

  // Boid 0 flies along y = 12.5, boid 1 along y = 36.5, both +3 in x per step; their slots in
  // the buffer swap every step, as the grid's sort may do.
  constexpr int kSteps = 10;
  constexpr float kStartX = 10.25f, kStride = 3, kLowY = 12.5f, kHighY = 36.5f;
  std::vector<BoidRecord> last;
  for (int step = 0; step < kSteps; ++step) {
    const float x = kStartX + kStride * static_cast<float>(step);
    const BoidRecord low{{x, kLowY}, {kStride, 0}, 0, 0, 0, 0};
    const BoidRecord high{{x, kHighY}, {kStride, 0}, 1, 1, 0, 1};
    last = step % 2 == 0 ? std::vector<BoidRecord>{low, high} : std::vector<BoidRecord>{high, low};
    record(renderer, scenario, last);
  }
  const RgbaImage image = render(renderer, scenario, last);

  // A ribbon stitched by slot would zigzag between the two rows.
  CHECK(lit_in_rows(image, kLowY + 2, kHighY - 2) == 0);
  const float head_x = kStartX + kStride * (kSteps - 1);
  int gaps = 0;
  for (int x = static_cast<int>(kStartX) + 1; x < static_cast<int>(head_x); ++x) {
    const murmur::test::Rgba low = pixel_at_world(image, {x + 0.5f, kLowY});
    const murmur::test::Rgba high = pixel_at_world(image, {x + 0.5f, kHighY});
    // Each ribbon is continuous and keeps its own boid's colour.
    if (!(low.r > kLit && low.g == 0 && high.g > kLit && high.r == 0)) ++gaps;
  }
  CHECK(gaps == 0);
  // Brightness falls with age: the tail end is dimmer than the end at the head.
  CHECK(pixel_at_world(image, {kStartX + 1, kLowY}).r < pixel_at_world(image, {head_x - 1, kLowY}).r);

  // Forgetting the trails leaves nothing behind the heads.
  renderer.reset_trails();
  CHECK(lit_in_rows(render(renderer, scenario, last), 0, kHeight) == 0);
}

TEST_CASE("a ribbon segment across a wrapped edge is not drawn") {
  murmur::test::gl_context();
  const Scenario scenario = two_colour_world();
  RenderSettings settings = bare_settings();
  settings.trails.mode = TrailMode::Ribbons;
  settings.trails.ribbon_intensity = 1;
  Renderer renderer(kWidth, kHeight, settings);

  // +4 in x per step from x = 46: ..., 58, 62, then 66 wraps to 2, then 6.
  constexpr float kY = 24.5f;
  std::vector<BoidRecord> boids;
  for (float x = 46.25f; x < 72; x += 4) {
    boids = {{{std::fmod(x, static_cast<float>(kWidth)), kY}, {4, 0}, 0, 0}};
    record(renderer, scenario, boids);
  }
  const RgbaImage image = render(renderer, scenario, boids);
  CHECK(lit(pixel_at_world(image, {55.5f, kY})));  // flown before the edge
  CHECK(lit(pixel_at_world(image, {4.5f, kY})));   // flown after it
  int across = 0;  // a drawn jump would light the whole row between x = 2 and x = 62
  for (int x = 12; x < 40; ++x) across += lit(pixel_at_world(image, {x + 0.5f, kY})) ? 1 : 0;
  CHECK(across == 0);
}

TEST_CASE("the fade map fades each texel by the fade factor per step and survives zoom") {
  murmur::test::gl_context();
  const Scenario scenario = two_colour_world();
  RenderSettings settings = fade_map_settings();
  settings.trails.fade_per_step = 0.8f;
  Renderer renderer(kWidth, kHeight, settings);

  // One step stamps the path from (8.5, 10.5) to (10.5, 10.5); later steps stamp far away.
  record(renderer, scenario, {{{10.5f, 10.5f}, {2, 0}, 0, 0}});
  glm::ivec2 size{0};
  std::vector<glm::vec4> map = renderer.read_fade_map(&size);
  REQUIRE(size == glm::ivec2(kWidth, kHeight));
  const auto red_at = [&](int x, int y) { return map[static_cast<std::size_t>(y) * size.x + x].r; };
  const float stamped = red_at(9, 10);
  REQUIRE(stamped > 0.1f);
  CHECK(red_at(30, 30) == 0.0f);

  for (int step = 1; step <= 3; ++step) {
    record(renderer, scenario, {{{50.5f, 40.5f}, {2, 0}, 0, 0}});
    map = renderer.read_fade_map();
    CHECK_THAT(red_at(9, 10), WithinRel(stamped * std::pow(0.8f, static_cast<float>(step)), 0.01f));
  }
  CHECK(red_at(49, 40) > 0.1f);

  // World space: zoomed in 4x on the old stamp, it shows under its world point.
  renderer.settings().camera = Camera{glm::vec2(12, 12), 4};
  const RgbaImage image = render(renderer, scenario, {});
  const WorldView view = renderer.view(scenario.size());
  const glm::vec2 under = murmur::world_to_pixel(view, {9.5f, 10.5f});
  CHECK(pixel_at(image, static_cast<int>(under.x), static_cast<int>(under.y)).r > kLit);
  CHECK_FALSE(lit(pixel_at(image, kWidth - 2, 1)));  // world (19.9, 17.9): never stamped

  renderer.reset_trails();
  map = renderer.read_fade_map();
  CHECK(red_at(9, 10) == 0.0f);
  CHECK(red_at(49, 40) == 0.0f);
}

TEST_CASE("under fade-map trails the world shows its sky and the bars theirs, zoomed out or in") {
  // The trails' composite lays the sky itself, and the bars are cleared only when the world
  // leaves some of the frame: zoomed out, in again and out, frame after frame in one renderer,
  // each pixel shows the bars' colour, the sky, or a trail over the sky (glow and ink). Seen to
  // fail with the bars never cleared under the composite (the last frame's world left in them)
  // and with the sky left out of the composite (black world).
  murmur::test::gl_context();
  const Scenario scenario = two_colour_world();
  for (const murmur::BlendMode blend : {murmur::BlendMode::Glow, murmur::BlendMode::Ink}) {
    INFO((blend == murmur::BlendMode::Ink ? "ink" : "glow"));
    RenderSettings settings = fade_map_settings();
    settings.blend = blend;
    settings.auto_exposure_key = 0;
    settings.local_exposure_key = 0;
    settings.letterbox = {0.5f, 0, 0};  // red bars
    settings.background = {0, 0, 0.5f};  // a blue sky (glow)
    settings.paper = {0, 0.5f, 0};       // green paper (ink)
    Renderer renderer(kWidth, kHeight, settings);
    // A boid flying along row 10 leaves a trail from x = 2 to 30.
    for (int step = 0; step < 15; ++step)
      record(renderer, scenario, {{{4.5f + 2.0f * step, 10.5f}, {2, 0}, 0, 0}});
    // Each colour is one channel: a pixel is it when that channel is lit and the others dark.
    constexpr int kDark = 2;
    const auto is = [&](murmur::test::Rgba p, int channel) {
      const std::array<int, 3> rgb{p.r, p.g, p.b};
      for (int c = 0; c < 3; ++c)
        if (c == channel ? rgb[c] <= kLit : rgb[c] > kDark) return false;
      return true;
    };
    constexpr int kBars = 0;  // red
    const int sky = blend == murmur::BlendMode::Ink ? 1 : 2;
    for (const float zoom : {0.5f, 1.0f, 0.5f, 1.0f}) {
      INFO("zoom " << zoom);
      renderer.settings().camera = Camera{scenario.size() * 0.5f, zoom};
      const RgbaImage image = render(renderer, scenario, {});
      const WorldView view = renderer.view(scenario.size());
      int bars = 0, bars_wrong = 0, sky_wrong = 0;
      for (int row = 0; row < kHeight; ++row)
        for (int x = 0; x < kWidth; ++x) {
          const glm::vec2 world = murmur::pixel_to_world(view, {x + 0.5f, row + 0.5f});
          const bool in_world = world.x > 0 && world.y > 0 && world.x < scenario.size().x &&
                                world.y < scenario.size().y;
          const bool near_trail = std::abs(world.y - 10.5f) < 3 && world.x < 34;
          const murmur::test::Rgba p = pixel_at(image, x, row);
          if (!in_world) {
            ++bars;
            if (!is(p, kBars)) ++bars_wrong;
          } else if (!near_trail && !is(p, sky)) {
            ++sky_wrong;
          }
        }
      CHECK((bars > 0) == (zoom < 1));
      CHECK(bars_wrong == 0);
      CHECK(sky_wrong == 0);
      // The trail shows over the sky.
      const glm::vec2 on_trail = murmur::world_to_pixel(view, {16.5f, 10.5f});
      CHECK_FALSE(is(pixel_at(image, int(on_trail.x), int(on_trail.y)), sky));
    }
  }
}

TEST_CASE("the fade map fades by the step's factor across the deferred rescales, any fade") {
  // record_step multiplies the map's scale, not its texels, by each step's fade, and the
  // texels only when the scale falls below an eighth: a texel must read stamp x the product of
  // every fade since, however many rescales fell between, and whatever the fade, 0 and 1 too.
  murmur::test::gl_context();
  const Scenario scenario = two_colour_world();
  RenderSettings settings = fade_map_settings();
  const std::vector<BoidRecord> here{{{10.5f, 10.5f}, {2, 0}, 0, 0}};
  const std::vector<BoidRecord> away{{{50.5f, 40.5f}, {2, 0}, 0, 0}};
  for (const float fade : {0.9f, 0.6f, 0.3f, 1.0f, 0.0f}) {
    INFO("fade " << fade);
    settings.trails.fade_per_step = fade;
    Renderer renderer(kWidth, kHeight, settings);
    glm::ivec2 size{0};
    const auto light_at = [&](int x, int y) {
      const std::vector<glm::vec4> map = renderer.read_fade_map(&size);
      return map[static_cast<std::size_t>(y) * size.x + x];
    };
    record(renderer, scenario, away);  // the scale has moved before the stamp
    record(renderer, scenario, here);
    const glm::vec4 stamped = light_at(9, 10);
    REQUIRE(stamped.r > 0.1f);
    CHECK_THAT(stamped.a, WithinRel(1.0f, 0.001f));  // one stamp
    // The texel stamped every step away from it: the stamps' sum, each faded since.
    float stamps_away = fade;
    float expected = 1;
    for (int step = 1; step <= 24; ++step) {  // at 0.6, a rescale every 5 steps
      // Every third step changes the fade for one step: the scale is a product, not a power.
      const float step_fade = step % 3 == 0 ? 0.75f : fade;
      renderer.settings().trails.fade_per_step = step_fade;
      expected *= step_fade;
      stamps_away = stamps_away * step_fade + 1;
      record(renderer, scenario, away);
      INFO("step " << step);
      const glm::vec4 now = light_at(9, 10);
      CHECK_THAT(now.r, WithinAbs(stamped.r * expected, 0.01 * stamped.r * expected + 1e-6));
      CHECK_THAT(now.a, WithinAbs(expected, 0.01 * expected + 1e-6));
      CHECK_THAT(light_at(49, 40).a, WithinRel(stamps_away, 0.01f));
    }
  }
}

// --- bloom, colour and overlays ----------------------------------------------------------------
TEST_CASE("bloom spreads light above the threshold and leaves dim heads alone") {
  murmur::test::gl_context();
  Scenario scenario = two_colour_world();
  RenderSettings settings = bare_settings();
  settings.heads.size = 6;
  settings.bloom.threshold = 0.5f;
  settings.bloom.intensity = 1;
  Renderer renderer(kWidth, kHeight, settings);
  const std::vector<BoidRecord> boid{{{32.25f, 24.25f}, {1, 0}, 0, 0}};
  const glm::vec2 nearby{32.5f, 30.5f};  // 6 units above, off the head

  scenario.species[0].colour = {4, 0, 0};
  // A few levels of 255: the bloom's first level is a quarter of the frame's side, so a head 6
  // pixels long lights the sky 6 pixels off it faintly, and 0 is exactly no light.
  constexpr std::uint8_t kGlow = 2;
  CHECK(pixel_at_world(render(renderer, scenario, boid), nearby).r == 0);  // bloom off
  renderer.settings().bloom.enabled = true;
  CHECK(pixel_at_world(render(renderer, scenario, boid), nearby).r > kGlow);

  scenario.species[0].colour = {0.3f, 0, 0};  // below the threshold: no glow at all
  CHECK(pixel_at_world(render(renderer, scenario, boid), nearby).r == 0);
}

TEST_CASE("colour by heading and by speed") {
  murmur::test::gl_context();
  const Scenario scenario = two_colour_world();
  RenderSettings settings = bare_settings();
  settings.heads.size = 8;
  Renderer renderer(kWidth, kHeight, settings);
  const glm::vec2 at{32.25f, 24.25f};
  const auto colour_of = [&](glm::vec2 velocity) {
    return pixel_at_world(render(renderer, scenario, {{at, velocity, 0, 0}}), at);
  };

  renderer.settings().colour.mode = ColourMode::Heading;
  const murmur::test::Rgba east = colour_of({1, 0});   // hue 0: red
  const murmur::test::Rgba west = colour_of({-1, 0});  // hue 1/2: cyan
  CHECK(east.r > east.g + 40);
  CHECK(east.r > east.b + 40);
  CHECK(west.g > west.r + 40);
  CHECK(west.b > west.r + 40);

  // The ramp spans the scenario's speeds: cyan (g > r) when slow, violet (r > g) when fast.
  renderer.settings().colour.mode = ColourMode::Speed;
  const murmur::test::Rgba slow = colour_of({murmur::test::kTestMinSpeed, 0});
  const murmur::test::Rgba fast = colour_of({0, murmur::test::kTestMaxSpeed});
  CHECK(slow.g > slow.r + 40);
  CHECK(fast.r > fast.g + 40);
}

TEST_CASE("overlays: circles for the first trail slots only, obstacles and the target") {
  murmur::test::gl_context();
  Scenario scenario = two_colour_world(10, 5);
  scenario.obstacles.push_back({{48, 12}, 8});
  scenario.target = murmur::Target{{12, 40}};
  RenderSettings settings = bare_settings();
  settings.overlays.circles_for_first_trail_slots = 1;
  Renderer renderer(kWidth, kHeight, settings);
  // The boid in trail slot 0 gets circles (perception 10, separation 5), slot 1 none.
  const RgbaImage image =
      render(renderer, scenario,
             {{{16.25f, 16.25f}, {1, 0}, 1, 0, 0, 1}, {{40.25f, 36.25f}, {1, 0}, 0, 0, 0, 0}});
  const auto lit_near = [&](glm::vec2 world) {  // lines are thin: look in a 3x3 patch
    int count = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        count += lit(pixel_at_world(image, world + glm::vec2(dx, dy))) ? 1 : 0;
    return count > 0;
  };
  CHECK(lit_near({40.25f + 10, 36.25f}));  // perception circle of slot 0
  CHECK(lit_near({40.25f + 5, 36.25f}));   // its separation circle
  CHECK_FALSE(lit_near({16.25f + 10, 16.25f}));  // slot 1 has none
  CHECK(lit_near({48 + 8, 12}));  // the obstacle's outline ...
  CHECK_FALSE(lit_near({48, 12}));  // ... not filled
  CHECK(lit_near({12, 40}));        // the target's marker
  CHECK_FALSE(lit_near({30, 26}));  // empty sky
}

// --- camera and sizes --------------------------------------------------------------------------
TEST_CASE("camera: pixels and world points map both ways, zoom keeps the cursor's point") {
  const glm::vec2 world{1600, 900};
  constexpr int kFrameWidth = 320, kFrameHeight = 200;
  const WorldView fitted = murmur::view_for(Camera{}, world, kFrameWidth, kFrameHeight);
  const WorldView fit = murmur::fit_world(world, kFrameWidth, kFrameHeight);
  CHECK(fitted.world_centre == fit.world_centre);
  CHECK(fitted.pixels_per_world_unit == fit.pixels_per_world_unit);
  CHECK(fitted.world_pixel_size == glm::ivec2(320, 180));  // 0.2 px per unit, bars of 10 rows
  CHECK(fitted.world_pixel_origin == glm::ivec2(0, 10));
  // The top-left of the frame is above the world's top-left corner by the bar's height.
  const glm::vec2 top_left = murmur::pixel_to_world(fitted, {0, 0});
  CHECK_THAT(top_left.x, WithinAbs(0, 1e-3));
  CHECK_THAT(top_left.y, WithinAbs(900 + 10 / 0.2, 1e-2));

  for (const Camera& camera : {Camera{}, Camera{glm::vec2(200, 700), 3.7f},
                               Camera{glm::vec2(1500, 50), 0.5f}}) {
    const WorldView view = murmur::view_for(camera, world, kFrameWidth, kFrameHeight);
    for (const glm::vec2 point : {glm::vec2(0, 0), glm::vec2(123.5f, 456.25f), glm::vec2(1600, 900)}) {
      const glm::vec2 back = murmur::pixel_to_world(view, murmur::world_to_pixel(view, point));
      CHECK_THAT(back.x, WithinAbs(point.x, 1e-3));
      CHECK_THAT(back.y, WithinAbs(point.y, 1e-3));
    }
  }

  // Zooming in and out about the cursor keeps the world point under it.
  Camera camera;
  const glm::vec2 cursor{250, 40};
  const glm::vec2 anchor = murmur::pixel_to_world(fitted, cursor);
  for (const float factor : {2.0f, 1.5f, 0.25f, 8.0f}) {
    camera = murmur::zoom_at(camera, world, kFrameWidth, kFrameHeight, cursor, factor);
    const glm::vec2 still =
        murmur::pixel_to_world(murmur::view_for(camera, world, kFrameWidth, kFrameHeight), cursor);
    CHECK_THAT(still.x, WithinAbs(anchor.x, 1e-2));
    CHECK_THAT(still.y, WithinAbs(anchor.y, 1e-2));
  }
  CHECK_THAT(camera.zoom, WithinRel(6.0f, 1e-5f));

  // Dragging moves the world with the mouse; zoomed in, the world fills the whole frame.
  const WorldView before = murmur::view_for(camera, world, kFrameWidth, kFrameHeight);
  const glm::vec2 drag{17, -5};
  const Camera panned = murmur::pan_by(camera, world, kFrameWidth, kFrameHeight, drag);
  const WorldView after = murmur::view_for(panned, world, kFrameWidth, kFrameHeight);
  const glm::vec2 moved = murmur::world_to_pixel(after, anchor) - murmur::world_to_pixel(before, anchor);
  CHECK_THAT(moved.x, WithinAbs(drag.x, 1e-2));
  CHECK_THAT(moved.y, WithinAbs(drag.y, 1e-2));
  CHECK(before.world_pixel_size == glm::ivec2(kFrameWidth, kFrameHeight));
  // Panned right off the world: none of it is on screen.
  const WorldView away = murmur::view_for(Camera{glm::vec2(5000, 450), 1}, world, kFrameWidth, kFrameHeight);
  CHECK(away.world_pixel_size.x == 0);
}

TEST_CASE("camera: fit margins fit the world beside them, and zoom and pan keep to that fit") {
  // The viewer's default window and its panel: the 852 x 720 pixels left of it are free.
  const glm::vec2 world{60, 40};
  constexpr int kFrameWidth = 1280, kFrameHeight = 720;
  Camera beside;
  beside.fit_margins.right = 428;
  const WorldView fitted = murmur::view_for(beside, world, kFrameWidth, kFrameHeight);
  CHECK_THAT(fitted.pixels_per_world_unit, WithinRel(852.0f / 60, 1e-6f));
  CHECK(fitted.world_pixel_origin == glm::ivec2(0, 76));
  CHECK(fitted.world_pixel_size == glm::ivec2(852, 568));
  // The camera's centre (the world's) lands in the middle of the free part.
  const glm::vec2 middle = murmur::world_to_pixel(fitted, world * 0.5f);
  CHECK_THAT(middle.x, WithinAbs(426, 1e-3));
  CHECK_THAT(middle.y, WithinAbs(360, 1e-3));
  // Margins on the left and at the bottom move the world the other way.
  Camera other;
  other.fit_margins = {428, 0, 0, 120};
  const WorldView moved = murmur::view_for(other, world, kFrameWidth, kFrameHeight);
  const glm::vec2 moved_middle = murmur::world_to_pixel(moved, world * 0.5f);
  CHECK_THAT(moved_middle.x, WithinAbs(428 + 426, 1e-3));
  CHECK_THAT(moved_middle.y, WithinAbs(300, 1e-3));

  // Zoom keeps the cursor's point, and a drag moves the world with the mouse, beside them too.
  const glm::vec2 cursor{200, 500};
  const glm::vec2 anchor = murmur::pixel_to_world(fitted, cursor);
  const Camera zoomed = murmur::zoom_at(beside, world, kFrameWidth, kFrameHeight, cursor, 2.5f);
  CHECK(zoomed.fit_margins == beside.fit_margins);
  const WorldView zoomed_view = murmur::view_for(zoomed, world, kFrameWidth, kFrameHeight);
  const glm::vec2 still = murmur::pixel_to_world(zoomed_view, cursor);
  CHECK_THAT(still.x, WithinAbs(anchor.x, 1e-3));
  CHECK_THAT(still.y, WithinAbs(anchor.y, 1e-3));
  const glm::vec2 drag{-30, 12};
  const Camera panned = murmur::pan_by(zoomed, world, kFrameWidth, kFrameHeight, drag);
  const glm::vec2 shift =
      murmur::world_to_pixel(murmur::view_for(panned, world, kFrameWidth, kFrameHeight), anchor) -
      murmur::world_to_pixel(zoomed_view, anchor);
  CHECK_THAT(shift.x, WithinAbs(drag.x, 1e-2));
  CHECK_THAT(shift.y, WithinAbs(drag.y, 1e-2));
  // Without margins (the recorder's camera) the view is the plain fit, to the bit.
  const WorldView plain = murmur::view_for(Camera{}, world, kFrameWidth, kFrameHeight);
  CHECK(plain.world_centre == world * 0.5f);
  CHECK(plain.pixels_per_world_unit == 720.0f / 40);
  CHECK(plain.world_pixel_origin == glm::ivec2(100, 0));
  CHECK(plain.world_pixel_size == glm::ivec2(1080, 720));
}

TEST_CASE("every pass runs at tiny and odd sizes without GL errors and 0x0 is refused") {
  murmur::test::gl_context();
  Scenario scenario = two_colour_world(10, 5);
  scenario.obstacles.push_back({{48, 12}, 8});
  scenario.target = murmur::Target{{12, 40}};
  RenderSettings settings;
  settings.overlays.circles_for_first_trail_slots = 2;
  settings.overlays.grid = true;
  const std::vector<BoidRecord> boids{{{5, 5}, {1, 1}, 0, 0, 0, 0},
                                      {{60, 40}, {-1, 0}, 1, 1, 0, 1}};
  const BoidUpload upload(boids);

  CHECK_THROWS_AS(Renderer(0, 0, settings), std::invalid_argument);
  Renderer renderer(1, 1, settings);
  CHECK_THROWS_AS(renderer.resize(0, 5), std::invalid_argument);
  CHECK_THROWS_AS(renderer.resize(5, 0), std::invalid_argument);

  murmur::gl::DebugMessenger messenger;
  for (const TrailMode mode : {TrailMode::FadeMap, TrailMode::Ribbons}) {
    renderer.settings().trails.mode = mode;
    for (const auto [width, height] : {std::pair{1, 1}, std::pair{3, 7}, std::pair{2, 1},
                                       std::pair{641, 359}}) {
      INFO("trail mode " << static_cast<int>(mode) << ", " << width << "x" << height);
      renderer.resize(width, height);
      renderer.record_step(scenario, upload.view());
      renderer.record_step(scenario, upload.view());
      murmur::RenderPassTimes times;
      renderer.render(scenario, upload.view(), &times);
      const RgbaImage image = renderer.read_pixels();
      CHECK(image.width == width);
      CHECK(image.height == height);
      CHECK(times.total() > 0);
    }
  }
  for (const std::string& error : messenger.errors()) UNSCOPED_INFO(error);
  CHECK(messenger.error_count() == 0);
}
