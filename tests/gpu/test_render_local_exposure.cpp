// Local exposure (docs/rendering.md, "Local exposure"): three tight flocks, many times denser
// than the world's mean, in an empty sky keep their structure instead of burning, the sky
// stays dark and the flocks bright; a million boids in starlings' 9000x5000 world do too; a
// frame where few heads overlap is byte for byte what it was without it, its factors all
// exactly 1; the same frame gives the same bytes, and the viewer's eased factors settle on
// the recorder's frame.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <glm/common.hpp>
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

namespace {

// One pixel per world unit: the world fills the frame.
constexpr int kWidth = 192, kHeight = 108;
// Three flocks whose density falls off as a Gaussian of kFlockSigma from the centre, cut at
// kFlockRadius: about 50 boids per pixel at each centre and 4 at the edge, the structure a
// burnt flock loses.
constexpr float kFlockSigma = 5;
constexpr float kFlockRadius = 11;
constexpr std::uint32_t kFlockBoids = 7500;
constexpr float kSpeed = 2.4f;  // starlings.toml's middle speed
// Where each flock is in the frame (pixels from the bottom left) and its velocity (pixels a
// step): its trail runs back from there, within the frame.
struct Flock {
  glm::vec2 centre, velocity;
};
const std::vector<Flock> kFlocks{
    {{40, 70}, {kSpeed, 0}}, {{100, 36}, {1.3f, 2.0f}}, {{156, 76}, {-1.7f, -1.7f}}};
constexpr std::uint32_t kStragglers = 300;  // spread over the whole sky
constexpr float kSkyMargin = 10;  // sky: this far or more beyond every flock and its trail
constexpr int kTrailSteps = 16;   // record_steps before the frame: trails all but in full
constexpr float kGoldenRatio = 0.6180340f;  // a Kronecker sequence spreads boids over a box
constexpr float kSqrtTwo = 1.4142136f;
constexpr int kBurnt = 250;  // a channel this high reads as burnt (png_tool.py contrast)

// `count` boids spread evenly over a `world`-sized rectangle, headings all round.
void add_stragglers(std::vector<BoidRecord>& boids, glm::vec2 world, std::uint32_t count) {
  for (std::uint32_t i = 0; i < count; ++i) {
    const float k = static_cast<float>(i) + 0.5f;
    const float heading = 6.2831853f * std::fmod(k * kGoldenRatio, 1.0f);
    BoidRecord boid{};
    boid.pos = {std::fmod(k * kGoldenRatio, 1.0f) * world.x,
                std::fmod(k * kSqrtTwo, 1.0f) * world.y};
    boid.vel = kSpeed * glm::vec2(std::cos(heading), std::sin(heading));
    boid.id = boid.trail_slot = static_cast<std::uint32_t>(boids.size());
    boids.push_back(boid);
  }
}

std::vector<BoidRecord> three_tight_flocks() {
  std::vector<BoidRecord> boids;
  for (const Flock& flock : kFlocks)
    murmur::test::add_gaussian_flock(boids, flock.centre, kFlockSigma, kFlockRadius, kFlockBoids,
                                     flock.velocity);
  add_stragglers(boids, {kWidth, kHeight}, kStragglers);
  return boids;
}

// Records `trail_steps` steps of the boids flying straight on into the fade map, the last at
// their positions, then draws a frame of them there.
RgbaImage draw(Renderer& renderer, const Scenario& scenario, const std::vector<BoidRecord>& boids,
               int trail_steps = kTrailSteps) {
  murmur::gl::DebugMessenger messenger;
  for (int step = 1; step <= trail_steps; ++step) {
    std::vector<BoidRecord> earlier = boids;
    for (BoidRecord& boid : earlier)
      boid.pos = glm::mod(boid.pos - boid.vel * static_cast<float>(trail_steps - step),
                          scenario.size());
    const BoidUpload upload(earlier);
    renderer.record_step(scenario, upload.view());
  }
  const BoidUpload upload(boids);
  renderer.render(scenario, upload.view());
  for (const std::string& error : messenger.errors()) UNSCOPED_INFO(error);
  CHECK(messenger.error_count() == 0);
  return renderer.read_pixels();
}

// How a frame of flocks reads.
struct Reading {
  std::vector<float> sky;          // luminance of the pixels kSkyMargin beyond every flock path
  std::vector<float> core, rim;    // ... of flock pixels within sigma / beyond 1.4 sigma
  std::size_t flock_pixels = 0, burnt = 0;  // pixels within radius; with a channel >= kBurnt
  float burnt_fraction() const {
    return static_cast<float>(burnt) / static_cast<float>(std::max<std::size_t>(flock_pixels, 1));
  }
};

// The distance from `at` to the segment from `from` to `to`.
float distance_to_segment(glm::vec2 at, glm::vec2 from, glm::vec2 to) {
  const glm::vec2 along = to - from;
  const float length2 = glm::dot(along, along);
  const float t = length2 > 0 ? glm::clamp(glm::dot(at - from, along) / length2, 0.0f, 1.0f) : 0;
  return glm::distance(at, from + t * along);
}

// A frame of `flocks` (sigma and radius in pixels), flown for `trail_steps`.
Reading read(const RgbaImage& image, const std::vector<Flock>& flocks, float sigma, float radius,
             int trail_steps = kTrailSteps) {
  Reading reading;
  for (int row = 0; row < image.height; ++row)
    for (int x = 0; x < image.width; ++x) {
      const glm::vec2 at{static_cast<float>(x) + 0.5f,
                         static_cast<float>(image.height - row) - 0.5f};
      float nearest = 1e9f, nearest_path = 1e9f;
      for (const Flock& flock : flocks) {
        nearest = std::min(nearest, glm::distance(at, flock.centre));
        const glm::vec2 start = flock.centre - flock.velocity * static_cast<float>(trail_steps);
        nearest_path = std::min(nearest_path, distance_to_segment(at, start, flock.centre));
      }
      const murmur::test::Rgba p = murmur::test::pixel_at(image, x, row);
      const float y = murmur::test::luminance(p);
      if (nearest_path >= radius + kSkyMargin) reading.sky.push_back(y);
      if (nearest >= radius) continue;
      ++reading.flock_pixels;
      if (std::max({p.r, p.g, p.b}) >= kBurnt) ++reading.burnt;
      if (nearest < sigma) reading.core.push_back(y);
      if (nearest > 1.4f * sigma) reading.rim.push_back(y);
    }
  for (std::vector<float>* values : {&reading.sky, &reading.core, &reading.rim})
    std::sort(values->begin(), values->end());
  return reading;
}

using murmur::test::percentile;

std::string describe(const Reading& r) {
  return "burnt " + std::to_string(r.burnt_fraction()) + ", core median " +
         std::to_string(percentile(r.core, 0.5f)) + ", rim median " +
         std::to_string(percentile(r.rim, 0.5f)) + ", sky median " +
         std::to_string(percentile(r.sky, 0.5f)) + " p90 " +
         std::to_string(percentile(r.sky, 0.9f));
}

// What the flock frames must show. Without the local exposure over half of each flock (its
// whole core) is burnt. With it, at most a twentieth: the key puts the light where a tile's
// light is at a mean luminance of 0.5, a peak channel of 1.1 for starlings' blue, and a pixel
// burns (a channel at 250) from a peak of 3.1, 2.8 times that, which a Gaussian flock's
// pixels do not reach within a tile; measured: none.
constexpr float kMostlyBurnt = 0.5f;
constexpr float kFewBurnt = 0.05f;
// Structure: the core is clearly brighter than the rim (a burnt flock is one flat value).
constexpr float kCoreOverRim = 20;
// Bright flocks and a dark sky: the background alone reads about 21, the stragglers' heads
// and trails light a tenth of it up to about 40 (measured: median 32, 90th percentile 41;
// without the local exposure the flocks' glow lifts them to 52 and 67).
constexpr float kBrightCore = 120;
constexpr float kDarkSky = 40;
constexpr float kDarkSkyTenth = 45;

}  // namespace

TEST_CASE("three tight flocks in an empty sky keep their structure and the sky stays dark") {
  murmur::test::gl_context();
  const std::vector<BoidRecord> boids = three_tight_flocks();
  const Scenario scenario =
      murmur::test::starlings_world({kWidth, kHeight}, static_cast<std::uint32_t>(boids.size()));
  Renderer renderer(kWidth, kHeight, RenderSettings{});
  const Reading after = read(draw(renderer, scenario, boids), kFlocks, kFlockSigma,
                             kFlockRadius);

  renderer.settings().local_exposure_key = 0;
  renderer.reset_trails();
  const Reading before = read(draw(renderer, scenario, boids), kFlocks, kFlockSigma,
                              kFlockRadius);

  INFO("without the local exposure: " << describe(before));
  INFO("with it: " << describe(after));
  // The scene does test it: without it most of each flock burns, its whole core.
  CHECK(before.burnt_fraction() > kMostlyBurnt);
  CHECK(after.burnt_fraction() < kFewBurnt);
  CHECK(percentile(after.core, 0.5f) - percentile(after.rim, 0.5f) > kCoreOverRim);
  CHECK(percentile(after.core, 0.5f) > kBrightCore);
  CHECK(percentile(after.sky, 0.5f) < kDarkSky);
  CHECK(percentile(after.sky, 0.9f) < kDarkSkyTenth);
}

TEST_CASE("a million starlings in 9000x5000 with three packed flocks keep a dark sky") {
  // starlings.toml's world at a small frame (25 world units a pixel): 300,000 boids in each
  // flock (thousands per pixel at the centres), 100,000 spread over the sky.
  constexpr int kFrameWidth = 360, kFrameHeight = 200;
  constexpr glm::vec2 kWorld{9000, 5000};
  constexpr float kPixelsPerUnit = kFrameWidth / kWorld.x;
  constexpr std::uint32_t kMillionFlock = 300000, kMillionStragglers = 100000;
  constexpr float kSigmaPixels = 5, kRadiusPixels = 11;
  const glm::vec2 velocity{kSpeed, 0};  // world units a step
  const std::vector<Flock> flocks{{{80, 120}, velocity * kPixelsPerUnit},
                                  {{190, 60}, velocity * kPixelsPerUnit},
                                  {{290, 130}, velocity * kPixelsPerUnit}};
  std::vector<BoidRecord> boids;
  for (const Flock& flock : flocks)
    murmur::test::add_gaussian_flock(boids, flock.centre / kPixelsPerUnit,
                                     kSigmaPixels / kPixelsPerUnit, kRadiusPixels / kPixelsPerUnit,
                                     kMillionFlock, velocity);
  add_stragglers(boids, kWorld, kMillionStragglers);
  murmur::test::gl_context();
  const Scenario scenario =
      murmur::test::starlings_world(kWorld, static_cast<std::uint32_t>(boids.size()));
  constexpr int kMillionTrailSteps = 3;  // a million lines a step is slow on llvmpipe
  Renderer renderer(kFrameWidth, kFrameHeight, RenderSettings{});
  const Reading after = read(draw(renderer, scenario, boids, kMillionTrailSteps), flocks,
                             kSigmaPixels, kRadiusPixels, kMillionTrailSteps);
  renderer.settings().local_exposure_key = 0;
  renderer.reset_trails();
  const Reading before = read(draw(renderer, scenario, boids, kMillionTrailSteps), flocks,
                              kSigmaPixels, kRadiusPixels, kMillionTrailSteps);
  INFO("without the local exposure: " << describe(before));
  INFO("with it: " << describe(after));
  CHECK(before.burnt_fraction() > kMostlyBurnt);
  CHECK(after.burnt_fraction() < kFewBurnt);
  CHECK(percentile(after.core, 0.5f) > kBrightCore);
  CHECK(percentile(after.core, 0.5f) - percentile(after.rim, 0.5f) > kCoreOverRim);
  // The stragglers' trails light this sky (100,000 of them, 1.4 a pixel): the local exposure
  // leaves them as they are and takes the flocks' glow off them.
  CHECK(percentile(after.sky, 0.5f) < kDarkSky);
  CHECK(percentile(after.sky, 0.9f) < percentile(before.sky, 0.9f));
}

TEST_CASE("where few heads overlap the local exposure changes no byte") {
  // Six loose flocks, as dense as starlings.toml's are (0.3 boids a pixel at their centres,
  // over ten times the world's mean), and stragglers, with trails.
  murmur::test::gl_context();
  std::vector<BoidRecord> boids;
  const std::vector<glm::vec2> centres{{30, 30}, {96, 30}, {160, 30},
                                       {30, 78}, {96, 78}, {160, 78}};
  constexpr float kLooseSigma = 8, kLooseRadius = 20;
  constexpr std::uint32_t kLooseBoids = 120;
  for (const glm::vec2 centre : centres)
    murmur::test::add_gaussian_flock(boids, centre, kLooseSigma, kLooseRadius, kLooseBoids,
                                     {0, kSpeed});
  add_stragglers(boids, {kWidth, kHeight}, kStragglers);
  const Scenario scenario =
      murmur::test::starlings_world({kWidth, kHeight}, static_cast<std::uint32_t>(boids.size()));
  Renderer renderer(kWidth, kHeight, RenderSettings{});
  const RgbaImage with = draw(renderer, scenario, boids);
  glm::ivec2 cells;
  const std::vector<float> factors = renderer.read_local_exposure(&cells);
  CHECK(cells == glm::ivec2(48, 27));
  CHECK(std::all_of(factors.begin(), factors.end(), [](float f) { return f == 1.0f; }));
  renderer.settings().local_exposure_key = 0;
  renderer.reset_trails();
  CHECK(draw(renderer, scenario, boids).pixels == with.pixels);
}

TEST_CASE("local exposure: the same frame gives the same bytes, and eased it converges") {
  murmur::test::gl_context();
  const std::vector<BoidRecord> boids = three_tight_flocks();
  const Scenario scenario =
      murmur::test::starlings_world({kWidth, kHeight}, static_cast<std::uint32_t>(boids.size()));
  Renderer recorder(kWidth, kHeight, RenderSettings{});
  const RgbaImage first = draw(recorder, scenario, boids, 0);
  CHECK(draw(recorder, scenario, boids, 0).pixels == first.pixels);
  // Some tiles are dimmed, those far from every flock are not.
  const std::vector<float> factors = recorder.read_local_exposure();
  CHECK(*std::min_element(factors.begin(), factors.end()) < 0.5f);
  CHECK(*std::max_element(factors.begin(), factors.end()) == 1.0f);

  // The viewer eases from 1: its first frame of the flocks is brighter than the recorder's,
  // and it settles on the recorder's frame.
  RenderSettings eased;
  eased.exposure_adaptation = 0.5f;
  Renderer viewer(kWidth, kHeight, eased);
  const Reading recorded = read(first, kFlocks, kFlockSigma, kFlockRadius);
  const Reading viewer_first =
      read(draw(viewer, scenario, boids, 0), kFlocks, kFlockSigma, kFlockRadius);
  CHECK(viewer_first.burnt > recorded.burnt);
  constexpr int kFramesToSettle = 40;  // 0.5^40 of the gap is far below a byte
  RgbaImage settled;
  for (int frame = 0; frame < kFramesToSettle; ++frame) settled = draw(viewer, scenario, boids, 0);
  int worst = 0;
  for (std::size_t i = 0; i < first.pixels.size(); ++i)
    worst = std::max(worst, std::abs(int(first.pixels[i]) - int(settled.pixels[i])));
  constexpr int kByteTolerance = 1;
  CHECK(worst <= kByteTolerance);
}
