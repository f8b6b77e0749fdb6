// A 3D world's frame (docs/rendering.md, "Three dimensions"), from first principles: a bird
// lands on the pixel the camera's own arithmetic (world_to_screen) puts it on and nothing else
// is lit, the fog dims a far bird by exp(-depth difference / fog), the sky's rows take the
// colour their view ray's elevation gives, ink lays dark birds over the sky, ribbons follow
// a bird's path in space, and overlays ring spheres by their radius at their depth. Small
// frames, bloom and automatic exposure off and the tone map per channel
// (highlight_whiteness 1), so a pixel's HDR light is -ln(1 - linear output).
//
// Sections: heads, fog, sky and ink; the orbit camera; ribbons; overlays.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <glm/common.hpp>
#include <glm/exponential.hpp>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include "murmur/gl/objects.hpp"
#include "murmur/render/orbit_camera.hpp"
#include "murmur/render/renderer.hpp"
#include "murmur/scenario/scenario.hpp"
#include "test_render_support.hpp"

using namespace murmur;
using test::pixel_at;
using test::Rgba;

namespace {

constexpr int kWidth = 160, kHeight = 90;

FlockScenario volume() {
  return parse_scenario("[world]\ndimensions = 3\nwidth = 200\nheight = 200\ndepth = 200\n"
                        "[[species]]\nname = \"a\"\ncount = 1\nperception_radius = 10\n"
                        "colour = [0.5, 0.5, 0.5]\n",
                        "volume.toml");
}

// Grey birds on a black sky, light read back as it was added.
RenderSettings plain_light() {
  RenderSettings settings;
  settings.background = glm::vec3(0.0f);
  settings.bloom.enabled = false;
  settings.auto_exposure_key = 0;
  settings.local_exposure_key = 0;
  settings.highlight_whiteness = 1;
  settings.colour.per_boid_variation = 0;
  return settings;
}

gpu::Boid3D bird_at(glm::vec3 position, glm::vec3 velocity, std::uint32_t id) {
  gpu::Boid3D bird{};
  bird.plane.pos = {position.x, position.y};
  bird.plane.vel = {velocity.x, velocity.y};
  bird.plane.id = bird.plane.trail_slot = id;
  bird.z = position.z;
  bird.vz = velocity.z;
  return bird;
}

RgbaImage draw(Renderer& renderer, const FlockScenario& scenario,
               const std::vector<gpu::Boid3D>& birds) {
  const gl::Buffer buffer("test.render3d.boids", birds.size() * sizeof(gpu::Boid3D),
                          birds.data());
  const BoidBufferView view{buffer.id(), static_cast<std::uint32_t>(birds.size())};
  return test::checked_frame(renderer, [&] { renderer.render(scenario, view); });
}

float decode(std::uint8_t byte) {
  return srgb_to_linear(glm::vec3(static_cast<float>(byte) / kSrgbLevels)).r;
}
// The HDR light of a pixel's red channel under the per-channel tone map (exposure 1).
float light_of(Rgba pixel) { return -std::log(1.0f - decode(pixel.r)); }

PerspectiveView starting_view(const FlockScenario& scenario) {
  return perspective_view(starting_camera(scenario, static_cast<float>(kWidth) / kHeight),
                          world_box(scenario), kWidth, kHeight);
}

// The light-weighted mean pixel centre of a frame (top-left convention) and its total.
struct Centroid {
  glm::vec2 pixel{0};
  float light = 0;
};
Centroid centroid(const RgbaImage& image) {
  Centroid out;
  glm::vec2 weighted{0};
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      const float light = light_of(pixel_at(image, x, y));
      weighted += light * glm::vec2(x + 0.5f, y + 0.5f);
      out.light += light;
    }
  if (out.light > 0) out.pixel = weighted / out.light;
  return out;
}

}  // namespace

TEST_CASE("a bird at the camera's target lights the frame's centre, one elsewhere lights the "
          "pixel world_to_screen gives, and nothing else is lit", "[render3d]") {
  test::gl_context();
  const FlockScenario scenario = volume();
  RenderSettings settings = plain_light();
  // A disc is symmetric about its bird: its light's centroid is the bird's pixel.
  settings.heads.shape = HeadShape::Disc;
  settings.heads.size = 20;
  Renderer renderer(kWidth, kHeight, settings);
  const glm::vec3 target = starting_camera(scenario, static_cast<float>(kWidth) / kHeight).target;
  const glm::vec3 sideways{1.0f, 0.0f, 0.0f};
  const Centroid centred = centroid(draw(renderer, scenario, {bird_at(target, sideways, 0)}));
  CHECK(centred.light > 0);
  CHECK(centred.pixel.x == Approx(kWidth / 2.0f).margin(0.25));
  CHECK(centred.pixel.y == Approx(kHeight / 2.0f).margin(0.25));

  const glm::vec3 elsewhere = target + glm::vec3(-60.0f, 35.0f, 40.0f);
  const auto drawn = world_to_screen(starting_view(scenario), elsewhere);
  REQUIRE(drawn);
  const RgbaImage moved_frame = draw(renderer, scenario, {bird_at(elsewhere, sideways, 0)});
  const Centroid moved = centroid(moved_frame);
  CHECK(moved.pixel.x == Approx(drawn->pixel.x).margin(0.25));
  CHECK(moved.pixel.y == Approx(drawn->pixel.y).margin(0.25));
  // Nothing lit beyond the disc's radius on screen (and a pixel's rounding).
  const float radius_pixels =
      0.5f * settings.heads.size * starting_view(scenario).pixels_per_unit_at_unit_depth /
      drawn->depth;
  for (int row = 0; row < kHeight; ++row)
    for (int column = 0; column < kWidth; ++column)
      if (pixel_at(moved_frame, column, row).sum() > 0)
        CHECK(glm::length(glm::vec2(column + 0.5f, row + 0.5f) - drawn->pixel) <=
              radius_pixels + 1.0f);
}

TEST_CASE("the fog leaves a bird exp(-depth / fog_distance) of its light past the box's "
          "nearest reach", "[render3d]") {
  test::gl_context();
  const FlockScenario scenario = volume();
  RenderSettings settings = plain_light();
  settings.heads.shape = HeadShape::Disc;
  settings.heads.size = 40;  // a disc many pixels wide: its centre pixel has its full light
  settings.fog_distance = 100;
  Renderer renderer(kWidth, kHeight, settings);
  const glm::vec3 target = starting_camera(scenario, static_cast<float>(kWidth) / kHeight).target;
  // The eye is on +z: the first bird 50 units nearer it than the second.
  const glm::vec3 near_bird = target + glm::vec3(-45.0f, 0.0f, 90.0f);
  const glm::vec3 far_bird = target + glm::vec3(45.0f, 0.0f, 40.0f);
  const PerspectiveView view = starting_view(scenario);
  const auto near_drawn = world_to_screen(view, near_bird);
  const auto far_drawn = world_to_screen(view, far_bird);
  REQUIRE(near_drawn);
  REQUIRE(far_drawn);
  const RgbaImage frame = draw(renderer, scenario,
                               {bird_at(near_bird, {0, 1, 0}, 0), bird_at(far_bird, {0, 1, 0}, 1)});
  const auto centre_light = [&](const ScreenPoint& drawn) {
    return light_of(pixel_at(frame, static_cast<int>(drawn.pixel.x),
                             static_cast<int>(drawn.pixel.y)));
  };
  const float expected = std::exp(-(far_drawn->depth - near_drawn->depth) / settings.fog_distance);
  CHECK(centre_light(*far_drawn) / centre_light(*near_drawn) == Approx(expected).epsilon(0.04));
  // And the near one's own: the grey 0.5 faded from where the box's bounding sphere starts.
  const glm::vec3 box = world_box(scenario);
  const float fog_start = glm::dot(0.5f * box - view.eye, view.forward) - 0.5f * glm::length(box);
  CHECK(centre_light(*near_drawn) ==
        Approx(0.5f * std::exp(-(near_drawn->depth - fog_start) / settings.fog_distance))
            .epsilon(0.04));
}

TEST_CASE("the sky takes sky_horizon at and below the horizon and rises towards sky_top with "
          "the view ray's elevation", "[render3d]") {
  test::gl_context();
  const FlockScenario scenario = volume();
  for (const BlendMode blend : {BlendMode::Glow, BlendMode::Ink}) {
    RenderSettings settings = plain_light();
    settings.blend = blend;
    settings.sky_horizon = glm::vec3(0.2f, 0.1f, 0.05f);
    settings.sky_top = glm::vec3(0.9f, 0.5f, 0.3f);
    Renderer renderer(kWidth, kHeight, settings);
    const RgbaImage frame = draw(renderer, scenario, {});
    // The linear colour a sky colour comes out as: ink has no tone map; glow maps each
    // channel (whiteness 1). Compared within the 8-bit encoding's rounding.
    const auto shown = [&](glm::vec3 linear) {
      return blend == BlendMode::Ink ? linear : 1.0f - glm::exp(-linear);
    };
    const auto seen = [&](int row) {
      const Rgba p = pixel_at(frame, kWidth / 2, row);
      return srgb_to_linear(glm::vec3(p.r, p.g, p.b) / kSrgbLevels);
    };
    constexpr float kRounding = 0.01f;
    // The starting camera does not pitch: the lower half looks level or down.
    CHECK(glm::length(seen(kHeight - 1) - shown(*settings.sky_horizon)) <= kRounding);
    CHECK(glm::length(seen(kHeight / 2) - shown(*settings.sky_horizon)) <= kRounding);
    // The top row's centre looks up by atan(tan(fov / 2) x its centre's height in the frame).
    const float half_tan = std::tan(glm::radians(starting_camera(scenario, 1).fov_degrees) / 2);
    const float slope = half_tan * (1.0f - 1.0f / kHeight);
    const float rise = slope / std::sqrt(1.0f + slope * slope);
    CHECK(glm::length(seen(0) - shown(glm::mix(*settings.sky_horizon, *settings.sky_top, rise))) <=
          kRounding);
    // And it is not the horizon's: the rise shows.
    CHECK(glm::length(seen(0) - shown(*settings.sky_horizon)) > 10 * kRounding);
  }
}

TEST_CASE("ink lays birds darker than the sky over it, a far one paler than a near one",
          "[render3d]") {
  test::gl_context();
  const FlockScenario scenario = volume();
  RenderSettings settings = plain_light();
  settings.blend = BlendMode::Ink;
  settings.sky_horizon = glm::vec3(0.8f, 0.6f, 0.4f);
  settings.heads.shape = HeadShape::Disc;
  settings.heads.size = 40;
  settings.fog_distance = 100;
  FlockScenario dark = scenario;
  dark.species[0].colour = glm::vec3(0.02f);
  Renderer renderer(kWidth, kHeight, settings);
  const glm::vec3 target = starting_camera(scenario, static_cast<float>(kWidth) / kHeight).target;
  const glm::vec3 near_bird = target + glm::vec3(-45.0f, -30.0f, 90.0f);
  const glm::vec3 far_bird = target + glm::vec3(45.0f, -30.0f, 0.0f);
  const PerspectiveView view = starting_view(scenario);
  const RgbaImage frame = draw(renderer, dark,
                               {bird_at(near_bird, {0, 1, 0}, 0), bird_at(far_bird, {0, 1, 0}, 1)});
  const auto at = [&](glm::vec3 world) {
    const auto drawn = world_to_screen(view, world);
    REQUIRE(drawn);
    return pixel_at(frame, static_cast<int>(drawn->pixel.x), static_cast<int>(drawn->pixel.y));
  };
  const Rgba sky = pixel_at(frame, 2, kHeight - 3);
  const Rgba near_pixel = at(near_bird), far_pixel = at(far_bird);
  CHECK(near_pixel.sum() < far_pixel.sum());
  CHECK(far_pixel.sum() < sky.sum());
}

TEST_CASE("an orbit camera turned 90 degrees draws a bird where its own view puts it, left of "
          "the centre for one on the old eye's side", "[render3d]") {
  test::gl_context();
  const FlockScenario scenario = volume();
  RenderSettings settings = plain_light();
  settings.heads.shape = HeadShape::Disc;
  settings.heads.size = 20;
  const OrbitCamera start = starting_camera(scenario, static_cast<float>(kWidth) / kHeight);
  settings.orbit_camera = orbited(start, 90, 0);
  Renderer renderer(kWidth, kHeight, settings);
  // The eye swings from +z round to +x of the target, looking along -x: its right is -z, so a
  // bird on the old eye's side (+z) is on the left.
  const glm::vec3 bird = start.target + glm::vec3(0.0f, 0.0f, 60.0f);
  const auto drawn = world_to_screen(
      perspective_view(*settings.orbit_camera, world_box(scenario), kWidth, kHeight), bird);
  REQUIRE(drawn);
  CHECK(drawn->pixel.x < kWidth / 2.0f - 10.0f);
  const Centroid seen = centroid(draw(renderer, scenario, {bird_at(bird, {0, 0, 1}, 0)}));
  CHECK(seen.light > 0);
  CHECK(seen.pixel.x == Approx(drawn->pixel.x).margin(0.25));
  CHECK(seen.pixel.y == Approx(drawn->pixel.y).margin(0.25));
}

namespace {

// Records one step of `birds` into the renderer's trails, as a simulation step would.
void record(Renderer& renderer, const FlockScenario& scenario,
            const std::vector<gpu::Boid3D>& birds) {
  const gl::Buffer buffer("test.render3d.trail_step", birds.size() * sizeof(gpu::Boid3D),
                          birds.data());
  renderer.record_step(scenario, BoidBufferView{buffer.id(), static_cast<std::uint32_t>(birds.size())});
}

// A bird flown through `xs` (one step each) along the line y = z = the camera's target, then
// drawn at the last: the frame with its trails, and the light its ribbons added (the frame
// less the one without trails), pixel by pixel.
struct TrailFrames {
  RgbaImage with_trails;
  std::vector<float> ribbon_light;
};
TrailFrames fly(const FlockScenario& scenario, RenderSettings settings,
                const std::vector<float>& xs) {
  Renderer renderer(kWidth, kHeight, settings);
  const glm::vec3 target = starting_camera(scenario, static_cast<float>(kWidth) / kHeight).target;
  const glm::vec3 velocity{xs.back() - xs[xs.size() - 2], 0.0f, 0.0f};
  std::vector<gpu::Boid3D> bird;
  for (const float x : xs) {
    bird = {bird_at({x, target.y, target.z}, velocity, 0)};
    record(renderer, scenario, bird);
  }
  TrailFrames frames;
  frames.with_trails = draw(renderer, scenario, bird);
  renderer.settings().trails.mode = TrailMode::None;  // drawn without them; the history stays
  const RgbaImage heads_alone = draw(renderer, scenario, bird);
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x)
      frames.ribbon_light.push_back(light_of(pixel_at(frames.with_trails, x, y)) -
                                    light_of(pixel_at(heads_alone, x, y)));
  return frames;
}

float ribbon_light_at(const TrailFrames& frames, const PerspectiveView& view, glm::vec3 world) {
  const auto drawn = world_to_screen(view, world);
  REQUIRE(drawn);
  return frames.ribbon_light[static_cast<std::size_t>(drawn->pixel.y) * kWidth +
                             static_cast<std::size_t>(drawn->pixel.x)];
}

RenderSettings ribbon_light_settings() {
  RenderSettings settings = plain_light();
  settings.heads.shape = HeadShape::Disc;
  settings.heads.size = 4;
  settings.trails.mode = TrailMode::Ribbons;
  settings.trails.ribbon_length = 6;  // five segments
  settings.trails.width_pixels = 6;
  settings.trails.intensity = 0.5f;
  settings.fog_distance = 1e6f;  // no fog: the light is the ribbon's alone
  return settings;
}

}  // namespace

TEST_CASE("3D ribbons follow the bird's path in space, fading with age, and nothing else is lit",
          "[render3d]") {
  test::gl_context();
  const FlockScenario scenario = volume();
  const RenderSettings settings = ribbon_light_settings();
  const PerspectiveView view = starting_view(scenario);
  const glm::vec3 target = starting_camera(scenario, static_cast<float>(kWidth) / kHeight).target;
  const std::vector<float> xs{40, 60, 80, 100, 120, 140};
  const TrailFrames frames = fly(scenario, settings, xs);
  const auto at_x = [&](float x) {
    return ribbon_light_at(frames, view, {x, target.y, target.z});
  };
  // The midpoints of the segments of ages 1 and 3 (the newest is 0) lie at the target's depth,
  // where the width is trail_width pixels times the fade: their light is the intensity times
  // the fade at the midpoint, 1 - (age + 1/2) / 5, on grey 0.5.
  CHECK(at_x(110) == Approx(0.5f * 0.5f * (1.0f - 1.5f / 5.0f)).epsilon(0.1));
  CHECK(at_x(70) == Approx(0.5f * 0.5f * (1.0f - 3.5f / 5.0f)).epsilon(0.15));
  // Behind the oldest entry and ahead of the bird, nothing.
  CHECK(at_x(20) == 0.0f);
  CHECK(at_x(170) == 0.0f);
  // Every lit pixel lies within the widest ribbon's half width (3 pixels) and a pixel of the
  // path on the screen.
  const auto oldest = world_to_screen(view, {xs.front(), target.y, target.z});
  const auto newest = world_to_screen(view, {xs.back(), target.y, target.z});
  REQUIRE(oldest);
  REQUIRE(newest);
  int lit = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      if (frames.ribbon_light[static_cast<std::size_t>(y) * kWidth + x] <= 0) continue;
      ++lit;
      CHECK(std::abs(y + 0.5f - newest->pixel.y) <= 4.0f);
      CHECK(x + 0.5f >= oldest->pixel.x - 1.0f);
      CHECK(x + 0.5f <= newest->pixel.x + 1.0f);
    }
  CHECK(lit > 20);
}

TEST_CASE("a 3D ribbon never streaks across a wrapped face, and the fade map's mode draws "
          "ribbons in space", "[render3d]") {
  test::gl_context();
  const FlockScenario scenario = volume();
  const PerspectiveView view = starting_view(scenario);
  const glm::vec3 target = starting_camera(scenario, static_cast<float>(kWidth) / kHeight).target;
  RenderSettings settings = ribbon_light_settings();
  // 190 to 10 is a step of 20 across the face x = 200 of a world 200 wide.
  const std::vector<float> xs{150, 170, 190, 10, 30};
  const TrailFrames frames = fly(scenario, settings, xs);
  const auto at_x = [&](float x) {
    return ribbon_light_at(frames, view, {x, target.y, target.z});
  };
  CHECK(at_x(180) > 0.0f);
  CHECK(at_x(20) > 0.0f);
  CHECK(at_x(100) == 0.0f);
  CHECK(at_x(60) == 0.0f);
  CHECK(at_x(160) > 0.0f);

  settings.trails.mode = TrailMode::FadeMap;
  const TrailFrames fade_map = fly(scenario, settings, xs);
  CHECK(fade_map.with_trails.pixels == frames.with_trails.pixels);
}

TEST_CASE("3D overlays: the selected bird's sight and the obstacle's sphere are circles of "
          "their radii at their depth around the pixels the camera puts them on",
          "[render3d]") {
  test::gl_context();
  const FlockScenario scenario = parse_scenario(
      "[world]\ndimensions = 3\nwidth = 200\nheight = 200\ndepth = 200\n"
      "[[species]]\nname = \"a\"\ncount = 1\nperception_radius = 40\nseparation_radius = 20\n"
      "colour = [0.5, 0.5, 0.5]\n"
      "[[obstacle]]\nx = 150\ny = 60\nz = 40\nradius = 25\n",
      "overlays.toml");
  RenderSettings settings = plain_light();
  settings.heads.shape = HeadShape::Disc;
  settings.heads.size = 4;
  const PerspectiveView view = starting_view(scenario);
  const glm::vec3 bird = glm::vec3(70.0f, 120.0f, 130.0f);
  Renderer renderer(kWidth, kHeight, settings);
  const RgbaImage plain = draw(renderer, scenario, {bird_at(bird, {1, 0, 0}, 7)});
  renderer.settings().overlays.selected_id = 7;
  const RgbaImage ringed = draw(renderer, scenario, {bird_at(bird, {1, 0, 0}, 7)});

  const auto bird_seen = world_to_screen(view, bird);
  const auto obstacle_seen = world_to_screen(view, {150.0f, 60.0f, 40.0f});
  REQUIRE(bird_seen);
  REQUIRE(obstacle_seen);
  const float scale = view.pixels_per_unit_at_unit_depth;
  struct Ring {
    glm::vec2 centre;
    float radius;
  };
  const std::vector<Ring> rings{
      {bird_seen->pixel, 40.0f * scale / bird_seen->depth},      // sight
      {bird_seen->pixel, 20.0f * scale / bird_seen->depth},      // minimum distance
      {obstacle_seen->pixel, 25.0f * scale / obstacle_seen->depth}};
  REQUIRE(rings[0].radius > 8.0f);  // a ring large enough to tell from the head
  // Every pixel the selection changed is on one of its rings (a line one pixel wide, its
  // segments chords of the circle), or the body's small ring at the bird itself.
  const float body_pixels = 4.0f;
  int on_sight_ring = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      const glm::vec2 centre(x + 0.5f, y + 0.5f);
      if (pixel_at(plain, x, y).sum() == pixel_at(ringed, x, y).sum()) continue;
      const float from_bird = glm::length(centre - bird_seen->pixel);
      const bool on_ring = std::abs(from_bird - rings[0].radius) <= 1.5f ||
                           std::abs(from_bird - rings[1].radius) <= 1.5f ||
                           from_bird <= body_pixels;
      CHECK(on_ring);
      if (std::abs(from_bird - rings[0].radius) <= 1.5f) ++on_sight_ring;
    }
  // The sight ring is drawn all round: most of its circumference's pixels changed.
  CHECK(on_sight_ring > 3.0f * rings[0].radius);
  // The obstacle's ring is there in the plain frame: its rightmost point differs from the sky.
  const Ring& obstacle = rings[2];
  int obstacle_lit = 0;
  for (int step = 0; step < 16; ++step) {
    const float angle = glm::radians(22.5f * step);
    const glm::vec2 on = obstacle.centre + obstacle.radius * glm::vec2(std::cos(angle), std::sin(angle));
    if (on.x < 0 || on.y < 0 || on.x >= kWidth || on.y >= kHeight) continue;
    // A line one pixel wide lights a pixel beside the exact point where it runs near an edge.
    bool lit = false;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int x = std::clamp(static_cast<int>(on.x) + dx, 0, kWidth - 1);
        const int y = std::clamp(static_cast<int>(on.y) + dy, 0, kHeight - 1);
        lit = lit || pixel_at(plain, x, y).sum() > 0;
      }
    if (lit) ++obstacle_lit;
  }
  CHECK(obstacle_lit >= 12);
  // And nothing lit in the plain frame half way between the obstacle's centre and its ring.
  const glm::vec2 inside = obstacle.centre + glm::vec2(0.5f * obstacle.radius, 0.0f);
  CHECK(pixel_at(plain, static_cast<int>(inside.x), static_cast<int>(inside.y)).sum() == 0);
}
