// Automatic exposure: a dense flock keeps a dark background and bright, coloured flock pixels;
// a sparse frame looks exactly as it does without it; the same frame gives the same bytes; the
// viewer's eased exposure converges to the recorder's.
#include <algorithm>
#include <cmath>
#include <cstdint>
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
using murmur::test::BoidRecord;
using murmur::test::BoidUpload;
using murmur::test::luminance;
using murmur::test::percentile;
using murmur::test::pixel_at;

namespace {

// The world fills the frame at one pixel per world unit.
constexpr int kWidth = 192, kHeight = 96;
constexpr glm::vec2 kFlockCentre{48, 48};
constexpr float kFlockRadius = 12;
constexpr std::uint32_t kDenseBoids = 20000;  // about 44 per pixel of the flock's disc
constexpr float kTau = 6.2831853f;
constexpr float kGoldenAngle = 2.3999632f;  // spreads a sunflower spiral evenly over a disc

// The starlings' blue, perception 4 (default heads: 2 units, so the 4-pixel minimum holds).
Scenario starling_world() {
  Scenario scenario = murmur::test::world(kWidth, kHeight, 1);
  scenario.species.push_back(murmur::test::species("starlings", 0, murmur::Topology::Wrap, 4, 1));
  scenario.species[0].colour = {0.3f, 0.45f, 1.0f};
  return scenario;
}

// `count` boids spread evenly over a disc (a sunflower spiral), headings all round.
std::vector<BoidRecord> flock_disc(std::uint32_t count, glm::vec2 centre, float radius) {
  std::vector<BoidRecord> boids;
  for (std::uint32_t i = 0; i < count; ++i) {
    const float fraction = (static_cast<float>(i) + 0.5f) / static_cast<float>(count);
    const float angle = kGoldenAngle * static_cast<float>(i);
    const glm::vec2 at = centre + radius * std::sqrt(fraction) *
                                      glm::vec2(std::cos(angle), std::sin(angle));
    const float heading = kTau * fraction;
    BoidRecord boid{};
    boid.pos = at;
    boid.vel = {std::cos(heading), std::sin(heading)};
    boid.id = i;
    boid.trail_slot = i;
    boids.push_back(boid);
  }
  return boids;
}

// Default settings (bloom on, the default key) but no trails, which need record_step.
RenderSettings default_look() {
  RenderSettings settings;
  settings.trails.mode = murmur::TrailMode::None;
  return settings;
}

RgbaImage render(Renderer& renderer, const Scenario& scenario,
                 const std::vector<BoidRecord>& boids) {
  murmur::gl::DebugMessenger messenger;
  const BoidUpload upload(boids);
  renderer.render(scenario, upload.view());
  RgbaImage image = renderer.read_pixels();
  for (const std::string& error : messenger.errors()) UNSCOPED_INFO(error);
  CHECK(messenger.error_count() == 0);
  return image;
}

// The luminance (0..255, of the sRGB bytes) of the pixels whose centre's distance from
// kFlockCentre is within [near, far), sorted.
std::vector<float> luminances(const RgbaImage& image, float near, float far) {
  std::vector<float> values;
  for (int row = 0; row < image.height; ++row)
    for (int x = 0; x < image.width; ++x) {
      const glm::vec2 world{static_cast<float>(x) + 0.5f,
                            static_cast<float>(image.height - row) - 0.5f};
      const float distance = glm::distance(world, kFlockCentre);
      if (distance >= near && distance < far) values.push_back(luminance(pixel_at(image, x, row)));
    }
  std::sort(values.begin(), values.end());
  return values;
}

}  // namespace

TEST_CASE("a dense flock keeps a dark background and a bright, blue flock") {
  murmur::test::gl_context();
  const Scenario scenario = starling_world();
  const std::vector<BoidRecord> boids = flock_disc(kDenseBoids, kFlockCentre, kFlockRadius);
  Renderer renderer(kWidth, kHeight, default_look());
  const RgbaImage image = render(renderer, scenario, boids);

  // Sky well away from the flock (2.5 flock radii and beyond) stays night-dark: without the
  // automatic exposure the flock's bloom lights all of it.
  constexpr float kDarkSky = 40;
  const std::vector<float> sky = luminances(image, 2.5f * kFlockRadius, 1e9f);
  const float sky_p90 = percentile(sky, 0.9f);
  INFO("sky luminance: 90th percentile " << sky_p90);
  CHECK(sky_p90 < kDarkSky);

  // The flock's core is bright and still blue, not burnt to white.
  constexpr float kBrightFlock = 120;
  const std::vector<float> core = luminances(image, 0, 0.7f * kFlockRadius);
  const float core_median = percentile(core, 0.5f);
  INFO("flock core luminance: median " << core_median);
  CHECK(core_median > kBrightFlock);
  const murmur::test::Rgba centre = pixel_at(image, static_cast<int>(kFlockCentre.x),
                                             kHeight - 1 - static_cast<int>(kFlockCentre.y));
  INFO("flock centre rgb " << int(centre.r) << " " << int(centre.g) << " " << int(centre.b));
  CHECK(centre.b > centre.r);
  CHECK(centre.b > centre.g);
}

TEST_CASE("a sparse frame looks the same with and without automatic exposure") {
  murmur::test::gl_context();
  const Scenario scenario = starling_world();
  const std::vector<BoidRecord> boids = flock_disc(40, kFlockCentre, kFlockRadius);
  Renderer renderer(kWidth, kHeight, default_look());
  const RgbaImage automatic = render(renderer, scenario, boids);
  renderer.settings().auto_exposure_key = 0;
  const RgbaImage fixed = render(renderer, scenario, boids);
  CHECK(automatic.pixels == fixed.pixels);
}

TEST_CASE("automatic exposure: the same frame gives the same bytes, and eased it converges") {
  murmur::test::gl_context();
  const Scenario scenario = starling_world();
  const std::vector<BoidRecord> boids = flock_disc(kDenseBoids, kFlockCentre, kFlockRadius);
  Renderer recorder(kWidth, kHeight, default_look());
  const RgbaImage first = render(recorder, scenario, boids);
  CHECK(render(recorder, scenario, boids).pixels == first.pixels);

  // The viewer eases from the unit factor: its first frame of a dense flock is brighter than
  // the recorder's, and it settles on the recorder's frame.
  RenderSettings eased = default_look();
  eased.exposure_adaptation = 0.5f;
  Renderer viewer(kWidth, kHeight, eased);
  const std::vector<float> recorder_core = luminances(first, 0, kFlockRadius);
  const std::vector<float> viewer_first = luminances(render(viewer, scenario, boids), 0,
                                                     kFlockRadius);
  CHECK(percentile(viewer_first, 0.1f) > percentile(recorder_core, 0.1f));
  constexpr int kFramesToSettle = 40;  // 0.5^40 of the gap is far below a byte
  RgbaImage settled;
  for (int frame = 0; frame < kFramesToSettle; ++frame) settled = render(viewer, scenario, boids);
  constexpr int kByteTolerance = 1;
  int worst = 0;
  for (std::size_t i = 0; i < first.pixels.size(); ++i)
    worst = std::max(worst, std::abs(int(first.pixels[i]) - int(settled.pixels[i])));
  CHECK(worst <= kByteTolerance);
}
