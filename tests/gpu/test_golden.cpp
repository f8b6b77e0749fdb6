// Golden images: the whole look (trails, heads, bloom, tone map, overlays) of small hand-built
// scenes, compared with committed reference PNGs in tests/data/golden/ with a small per-channel
// tolerance (llvmpipe and GPUs round blends and filters a little differently). A reference is
// the renderer's own output, so each scene is also held to properties that follow from the
// look's definition alone (docs/rendering.md): the sky far from every boid is the background
// through the tone map, each head's pixel is lit, and a packed flock burns no pixel.
//
// To regenerate the references after an intended change of the look, run
//   MURMUR_UPDATE_GOLDEN=1 build/test_golden
// then LOOK at every PNG in tests/data/golden/ before committing them.
// On a mismatch the test writes golden_<name>_actual.png and golden_<name>_diff.png (|difference|
// scaled by kDiffGain) in its working directory and prints their paths.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <glm/common.hpp>
#include <glm/vec2.hpp>

#include "gpu_test_support.hpp"
#include "murmur/gl/debug.hpp"
#include "murmur/render/png_writer.hpp"
#include "murmur/render/renderer.hpp"
#include "png_files.hpp"
#include "test_render_support.hpp"

namespace fs = std::filesystem;
using murmur::RenderSettings;
using murmur::RgbaImage;
using murmur::Scenario;
using murmur::test::BoidRecord;
using murmur::test::BoidUpload;

namespace {

constexpr int kWidth = 96, kHeight = 64;
constexpr float kWorldWidth = 120, kWorldHeight = 80;  // same aspect: no bars
constexpr int kSteps = 14;
constexpr int kBoids = 8;

// Tolerance: no channel off by more than kMaxChannelDifference, and at most
// kMaxFractionOverSmall of the pixels with any channel off by more than kSmallDifference.
constexpr int kMaxChannelDifference = 8;
constexpr int kSmallDifference = 2;
constexpr double kMaxFractionOverSmall = 0.005;
constexpr int kDiffGain = 8;

const fs::path kGoldenDir = fs::path(MURMUR_SOURCE_DIR) / "tests" / "data" / "golden";

// Cyan and violet, in linear HDR (above 1 so the heads bloom).
Scenario palette_world() {
  Scenario scenario = murmur::test::world(kWorldWidth, kWorldHeight, 1);
  scenario.species.push_back(murmur::test::species("cyan", 0, murmur::Topology::Wrap, 12, 4));
  scenario.species.push_back(murmur::test::species("violet", 0, murmur::Topology::Wrap, 12, 4));
  scenario.species[0].colour = {0.3f, 1.1f, 1.6f};
  scenario.species[1].colour = {1.1f, 0.45f, 1.6f};
  return scenario;
}

// Boid i flies round its own circle at its own rate (half of them clockwise). Slots are
// reversed on odd steps, as the grid's sort may reorder them.
std::vector<BoidRecord> boids_at_step(int step) {
  std::vector<BoidRecord> boids;
  for (int i = 0; i < kBoids; ++i) {
    const float fi = static_cast<float>(i);
    const glm::vec2 centre{15.0f + 14.0f * fi, 20.0f + 6.0f * static_cast<float>(i % 4)};
    const float radius = 9.0f + 2.0f * static_cast<float>(i % 3);
    const float rate = (i % 2 == 0 ? 1.0f : -1.0f) * (0.12f + 0.02f * fi);
    const float angle = 0.7f * fi + rate * static_cast<float>(step);
    glm::vec2 pos = centre + radius * glm::vec2(std::cos(angle), std::sin(angle));
    pos = glm::mod(pos, glm::vec2(kWorldWidth, kWorldHeight));
    const glm::vec2 vel = radius * rate * glm::vec2(-std::sin(angle), std::cos(angle));
    const auto id = static_cast<std::uint32_t>(i);
    boids.push_back({pos, vel, id, static_cast<std::uint32_t>(i % 2), 0, id});  // slot = id
  }
  if (step % 2 == 1) std::reverse(boids.begin(), boids.end());
  return boids;
}

// Three packed flocks (some 50 boids per pixel at their centres, as starlings' flocks are in
// a million) gliding straight on, each its own colour, the middle one violet.
std::vector<BoidRecord> dense_flocks_at_step(int step) {
  constexpr float kSigma = 6, kRadius = 14;
  constexpr std::uint32_t kFlockBoids = 8000;
  const std::array<glm::vec2, 3> centres{{{24, 56}, {62, 22}, {98, 52}}};
  const std::array<glm::vec2, 3> velocities{{{1.2f, -0.4f}, {0.9f, 0.9f}, {-0.6f, -1.1f}}};
  std::vector<BoidRecord> boids;
  for (std::size_t f = 0; f < centres.size(); ++f) {
    const std::size_t first = boids.size();
    murmur::test::add_gaussian_flock(boids, centres[f] + velocities[f] * static_cast<float>(step),
                                     kSigma, kRadius, kFlockBoids, velocities[f]);
    for (std::size_t i = first; i < boids.size(); ++i)
      boids[i].species = static_cast<std::uint32_t>(f % 2);
  }
  return boids;
}

// --- properties from first principles --------------------------------------------------------

// The 8-bit sRGB code of a linear value in [0, 1] (IEC 61966-2-1).
int srgb_code(float linear) {
  const float encoded = linear <= 0.0031308f ? 12.92f * linear
                                             : 1.055f * std::pow(linear, 1.0f / 2.4f) - 0.055f;
  return static_cast<int>(std::lround(255.0f * std::clamp(encoded, 0.0f, 1.0f)));
}

// The empty sky's pixel: the background through the glow's tone map, 1 - exp(-exposure x), each
// channel scaled by the peak's map over the peak (the hue kept), mixed with the per-channel map
// by the highlight whiteness (docs/rendering.md, "Settings and defaults": `highlight_whiteness`).
std::array<int, 3> sky_pixel(const RenderSettings& settings) {
  const glm::vec3 exposed = settings.exposure * settings.background;
  const float peak = std::max(exposed.r, std::max(exposed.g, exposed.b));
  const float peak_mapped = 1.0f - std::exp(-peak);
  std::array<int, 3> code{};
  for (int c = 0; c < 3; ++c) {
    const float per_channel = 1.0f - std::exp(-exposed[c]);
    const float hue_kept = exposed[c] * peak_mapped / peak;
    code[c] = srgb_code(hue_kept + settings.highlight_whiteness * (per_channel - hue_kept));
  }
  return code;
}

// Every pixel of the frame's top `rows` rows, far above each scene's boids and their glow, is
// the empty sky within `tolerance` (the bloom's farthest taps may add a code or two).
void check_sky_rows(const RgbaImage& image, const RenderSettings& settings, int rows,
                    int tolerance = 2) {
  const std::array<int, 3> sky = sky_pixel(settings);
  int worst = 0;
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < image.width; ++x)
      for (int c = 0; c < 3; ++c)
        worst = std::max(worst, std::abs(int(image.pixels[(std::size_t(y) * image.width + x) * 4 + c]) - sky[c]));
  INFO("the sky is (" << sky[0] << ", " << sky[1] << ", " << sky[2] << "); the top " << rows
                      << " rows stray from it by up to " << worst);
  CHECK(worst <= tolerance);
}

// Each boid's head lights the pixel it sits on: a channel at least `margin` above the sky's.
void check_heads_lit(const RgbaImage& image, const RenderSettings& settings,
                     const std::vector<BoidRecord>& boids, int margin = 60) {
  const murmur::WorldView view =
      murmur::fit_world({kWorldWidth, kWorldHeight}, image.width, image.height);
  const std::array<int, 3> sky = sky_pixel(settings);
  for (const BoidRecord& boid : boids) {
    const glm::ivec2 pixel(glm::floor(murmur::world_to_pixel(view, boid.pos)));
    if (pixel.x < 0 || pixel.y < 0 || pixel.x >= image.width || pixel.y >= image.height) continue;
    const std::size_t at = (std::size_t(pixel.y) * image.width + pixel.x) * 4;
    int lift = 0;
    for (int c = 0; c < 3; ++c) lift = std::max(lift, int(image.pixels[at + c]) - sky[c]);
    INFO("boid " << boid.id << " at pixel (" << pixel.x << ", " << pixel.y << ")");
    CHECK(lift >= margin);
  }
}

RgbaImage render_scene(const Scenario& scenario, const RenderSettings& settings,
                       std::vector<BoidRecord> (*boids_for_step)(int) = boids_at_step) {
  murmur::test::gl_context();
  murmur::gl::DebugMessenger messenger;
  murmur::Renderer renderer(kWidth, kHeight, settings);
  for (int step = 0; step < kSteps; ++step) {
    const BoidUpload upload(boids_for_step(step));
    renderer.record_step(scenario, upload.view());
  }
  const BoidUpload last(boids_for_step(kSteps - 1));
  renderer.render(scenario, last.view());
  for (const std::string& error : messenger.errors()) UNSCOPED_INFO(error);
  CHECK(messenger.error_count() == 0);
  return renderer.read_pixels();
}

void compare_with_golden(const std::string& name, const RgbaImage& actual) {
  const fs::path reference = kGoldenDir / (name + ".png");
  const char* update = std::getenv("MURMUR_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    fs::create_directories(kGoldenDir);
    murmur::write_png(reference, actual);
    WARN("wrote " << reference.string() << ": look at it before committing it");
    return;
  }
  REQUIRE(fs::exists(reference));
  const RgbaImage expected = murmur::test::load_png(reference);
  REQUIRE(expected.width == actual.width);
  REQUIRE(expected.height == actual.height);

  int largest = 0;
  std::size_t over_small = 0;
  RgbaImage diff{actual.width, actual.height, std::vector<std::uint8_t>(actual.pixels.size())};
  for (std::size_t pixel = 0; pixel < actual.pixels.size() / 4; ++pixel) {
    int pixel_largest = 0;
    for (std::size_t c = 0; c < 3; ++c) {
      const std::size_t i = pixel * 4 + c;
      const int d = std::abs(int(actual.pixels[i]) - int(expected.pixels[i]));
      pixel_largest = std::max(pixel_largest, d);
      diff.pixels[i] = static_cast<std::uint8_t>(std::min(255, d * kDiffGain));
    }
    diff.pixels[pixel * 4 + 3] = 255;
    largest = std::max(largest, pixel_largest);
    if (pixel_largest > kSmallDifference) ++over_small;
  }
  const double fraction_over_small =
      static_cast<double>(over_small) / static_cast<double>(actual.pixels.size() / 4);
  INFO(name << ": largest channel difference " << largest << ", " << over_small
            << " pixels differ by more than " << kSmallDifference);
  const bool matches = largest <= kMaxChannelDifference && fraction_over_small <= kMaxFractionOverSmall;
  if (!matches) {
    const fs::path actual_path = fs::absolute("golden_" + name + "_actual.png");
    const fs::path diff_path = fs::absolute("golden_" + name + "_diff.png");
    murmur::write_png(actual_path, actual);
    murmur::write_png(diff_path, diff);
    UNSCOPED_INFO("actual image: " << actual_path.string());
    UNSCOPED_INFO("difference (x" << kDiffGain << "): " << diff_path.string());
  }
  CHECK(largest <= kMaxChannelDifference);
  CHECK(fraction_over_small <= kMaxFractionOverSmall);
}

}  // namespace

TEST_CASE("golden: fade-map trails, dart heads and bloom in a cyan-violet palette") {
  RenderSettings settings;  // the defaults are the look under test: fade map and bloom on
  settings.heads.size = 5;
  const RgbaImage frame = render_scene(palette_world(), settings);
  compare_with_golden("fade_map_bloom", frame);
  // The boids' circles reach y = 51 of 80: the top 10 rows (y above 67.5) are sky.
  check_sky_rows(frame, settings, 10);
  check_heads_lit(frame, settings, boids_at_step(kSteps - 1));
}

TEST_CASE("golden: ribbons coloured by heading, with overlays") {
  Scenario scenario = palette_world();
  scenario.obstacles.push_back({{60, 40}, 7});
  scenario.target = murmur::Target{{100, 60}};
  RenderSettings settings;
  settings.heads.size = 5;
  settings.trails.mode = murmur::TrailMode::Ribbons;
  settings.trails.ribbon_length = 12;
  settings.colour.mode = murmur::ColourMode::Heading;
  settings.overlays.circles_for_first_trail_slots = 1;
  settings.overlays.grid = true;
  const RgbaImage frame = render_scene(scenario, settings);
  compare_with_golden("ribbons_heading_overlays", frame);
  check_heads_lit(frame, settings, boids_at_step(kSteps - 1));
}

TEST_CASE("golden: three packed flocks keep their structure under the local exposure") {
  // The defaults: at some 50 boids per pixel the heads are dimmed points, and the local
  // exposure brings each flock's light down to its key (docs/rendering.md, "Local exposure").
  const RgbaImage frame = render_scene(palette_world(), RenderSettings{}, dense_flocks_at_step);
  compare_with_golden("dense_local_exposure", frame);
  // Burnt: a channel at the top of the tone map, where brighter light no longer shows. The
  // local exposure keeps each flock's light at its key, well below (seen to fail with the
  // local and automatic exposures off: 5,285 pixels of 6,144).
  constexpr int kBurntCode = 250;
  std::size_t burnt = 0;
  for (std::size_t at = 0; at < frame.pixels.size(); at += 4)
    burnt += std::max({frame.pixels[at], frame.pixels[at + 1], frame.pixels[at + 2]}) >= kBurntCode;
  CHECK(burnt == 0u);
}
