// The fade map's stamps (shaders/render/trail_stamp.comp), checked texel by texel against a CPU
// rasterizer of the rule docs/rendering.md states: a stamp is the parallelogram from the boid
// a step ago to the boid now, `w` texels across the path's minor axis (at least one), and it
// lights the texels whose centres lie inside, the major coordinate in [lo, hi) and the minor
// in [centre - w/2, centre + w/2). Texel centres within kTie of an edge may go either way
// (the GPU decides in float) and are left out of the comparison.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include <catch2/catch.hpp>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include "gpu_test_support.hpp"
#include "murmur/gl/debug.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/render/renderer.hpp"
#include "murmur/flock/state.hpp"
#include "test_render_support.hpp"

using murmur::FlockState;
using murmur::GpuFlock;
using murmur::Renderer;
using murmur::RenderSettings;
using murmur::Scenario;
using murmur::TrailMode;
using murmur::test::BoidRecord;
using murmur::test::BoidUpload;

namespace {

constexpr double kTie = 1e-3;  // texels

struct StampedMap {
  glm::ivec2 size{0};
  std::vector<double> red, green, count;
  std::vector<bool> tie;  // some stamp's edge passes within kTie of the texel's centre
  std::size_t at(int x, int y) const { return static_cast<std::size_t>(y) * size.x + x; }
};

// The rule, in double, one stamp of `light` (red, green) at a time.
void cpu_stamp(StampedMap& map, glm::dvec2 texels_per_unit, double width, glm::vec2 pos,
               glm::vec2 vel, glm::dvec2 light) {
  const glm::dvec2 now = glm::dvec2(pos) * texels_per_unit;
  const glm::dvec2 before = (glm::dvec2(pos) - glm::dvec2(vel)) * texels_per_unit;
  const glm::dvec2 along = now - before;
  const bool x_major = std::abs(along.x) >= std::abs(along.y);
  // A path near 45 degrees may take either axis as its major one in float.
  const bool axis_tie = std::abs(std::abs(along.x) - std::abs(along.y)) < kTie;
  const auto swap = [&](glm::dvec2 v) { return x_major ? v : glm::dvec2(v.y, v.x); };
  const glm::dvec2 from = swap(before), to = swap(now);
  const glm::ivec2 size = x_major ? map.size : glm::ivec2(map.size.y, map.size.x);
  const double lo = std::min(from.x, to.x), hi = std::max(from.x, to.x);
  const double half = 0.5 * std::max(width, 1.0);
  if (hi - lo < kTie) return;
  const double slope = (to.y - from.y) / (to.x - from.x);
  for (int major = 0; major < size.x; ++major) {
    const double c = major + 0.5;
    if (c < lo - kTie || c >= hi + kTie) continue;
    const bool major_tie = std::abs(c - lo) < kTie || std::abs(c - hi) < kTie;
    const double centre = from.y + (c - from.x) * slope;
    for (int minor = 0; minor < size.y; ++minor) {
      const double m = minor + 0.5;
      if (m < centre - half - kTie || m >= centre + half + kTie) continue;
      const bool minor_tie =
          std::abs(m - (centre - half)) < kTie || std::abs(m - (centre + half)) < kTie;
      const std::size_t i = x_major ? map.at(major, minor) : map.at(minor, major);
      if (major_tie || minor_tie || axis_tie) {
        map.tie[i] = true;
        continue;
      }
      map.red[i] += light.x;
      map.green[i] += light.y;
      map.count[i] += 1;
    }
  }
}

StampedMap empty_map(glm::ivec2 size) {
  StampedMap map;
  map.size = size;
  const std::size_t texels = static_cast<std::size_t>(size.x) * size.y;
  map.red.assign(texels, 0);
  map.green.assign(texels, 0);
  map.count.assign(texels, 0);
  map.tie.assign(texels, false);
  return map;
}

// Species 0 red, 1 green, each colour exactly (no per-boid variation).
Scenario red_green_world(float width, float height, float perception_radius, float max_speed) {
  Scenario scenario = murmur::test::world(width, height, 7);
  for (const char* name : {"red", "green"}) {
    scenario.species.push_back(
        murmur::test::species(name, 0, murmur::Topology::Wrap, perception_radius, 1));
    scenario.species.back().max_speed = max_speed;
    scenario.species.back().min_speed = 0;
  }
  scenario.species[0].colour = {1, 0, 0};
  scenario.species[1].colour = {0, 1, 0};
  return scenario;
}

RenderSettings stamp_settings(float texels_per_unit, float width) {
  RenderSettings settings;
  settings.colour.per_boid_variation = 0;
  settings.trails.mode = TrailMode::FadeMap;
  settings.trails.map_pixels_per_world_unit = texels_per_unit;
  settings.trails.stamp_intensity = 1;
  settings.trails.stamp_width_texels = width;
  settings.trails.fade_per_step = 1;  // the map keeps its scale of 1: texels hold the sums
  return settings;
}

struct Mismatches {
  int compared = 0, lit = 0, wrong = 0;
};

// Every texel not a tie: the count exact, the colour within half-float rounding.
Mismatches compare(const StampedMap& expected, const std::vector<glm::vec4>& actual) {
  Mismatches result;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (expected.tie[i]) continue;
    ++result.compared;
    if (expected.count[i] > 0) ++result.lit;
    const auto near = [](double want, float got) {
      return std::abs(static_cast<double>(got) - want) <= 2e-3 * std::max(1.0, want);
    };
    const bool same = actual[i].a == static_cast<float>(expected.count[i]) &&
                      near(expected.red[i], actual[i].r) && near(expected.green[i], actual[i].g);
    if (!same) {
      if (result.wrong < 5) {
        UNSCOPED_INFO("texel " << i % expected.size.x << "," << i / expected.size.x << ": want "
                               << expected.red[i] << "," << expected.green[i] << " x"
                               << expected.count[i] << ", got " << actual[i].r << ","
                               << actual[i].g << " x" << actual[i].a);
      }
      ++result.wrong;
    }
  }
  return result;
}

}  // namespace

TEST_CASE("fade-map stamps light the texels their parallelograms cover, edges cut") {
  murmur::test::gl_context();
  const Scenario scenario = red_green_world(80, 60, 6, 8);
  // Boids on a lattice, each heading its own way at its own speed, some paths leaving the map.
  std::vector<BoidRecord> boids;
  for (int row = 0; row < 6; ++row) {
    for (int column = 0; column < 8; ++column) {
      const int k = row * 8 + column;
      const float heading = 0.131f * static_cast<float>(k * k) + 0.37f;
      const float speed = 0.4f + 0.37f * static_cast<float>(k % 11);
      BoidRecord boid{};
      boid.pos = {0.3f + 10.0f * column + 0.173f * static_cast<float>(k % 7),
                  0.6f + 10.0f * row + 0.291f * static_cast<float>(k % 5)};
      boid.vel = speed * glm::vec2(std::cos(heading), std::sin(heading));
      boid.id = boid.trail_slot = static_cast<std::uint32_t>(k);
      boid.species = static_cast<std::uint32_t>(k % 2);
      boids.push_back(boid);
    }
  }
  // Two more crossing the first one's path: where stamps overlap they add.
  for (int k = 0; k < 2; ++k) {
    BoidRecord boid = boids[0];
    boid.vel = glm::vec2(boid.vel.y, -boid.vel.x) * (k == 0 ? 1.0f : -0.7f);
    boid.id = boid.trail_slot = static_cast<std::uint32_t>(boids.size());
    boids.push_back(boid);
  }

  for (const float width : {0.5f, 1.0f, 2.6f, 5.0f}) {
    for (const float texels_per_unit : {1.0f, 1.7f}) {
      CAPTURE(width, texels_per_unit);
      murmur::gl::DebugMessenger messenger;
      Renderer renderer(64, 48, stamp_settings(texels_per_unit, width));
      const BoidUpload upload(boids);
      renderer.record_step(scenario, upload.view());
      glm::ivec2 size{0};
      const std::vector<glm::vec4> map = renderer.read_fade_map(&size);
      StampedMap expected = empty_map(size);
      const glm::dvec2 texels_per_world(glm::dvec2(size) / glm::dvec2(scenario.size()));
      for (const BoidRecord& boid : boids) {
        cpu_stamp(expected, texels_per_world, width, boid.pos, boid.vel,
                  boid.species == 0 ? glm::dvec2(1, 0) : glm::dvec2(0, 1));
      }
      const Mismatches result = compare(expected, map);
      CHECK(result.wrong == 0);
      CHECK(result.lit > static_cast<int>(boids.size()));  // the stamps lit something
      CHECK(result.compared > static_cast<int>(map.size() * 9 / 10));
      CHECK(messenger.error_count() == 0);
    }
  }
}

// Three packed flocks, some 50 stamps a texel at their centres: the sums are exact (a half
// float adding 50 stamps one by one would round at each), and they do not depend on the
// records' order, bit for bit.
TEST_CASE("fade-map stamps of packed flocks add up exactly, in any order") {
  murmur::test::gl_context();
  const Scenario scenario = red_green_world(128, 80, 6, 8);
  std::vector<BoidRecord> boids;
  const std::array<glm::vec2, 3> centres{{{24, 56}, {62, 22}, {98, 52}}};
  const std::array<glm::vec2, 3> velocities{{{1.2f, -0.4f}, {0.9f, 0.9f}, {-0.6f, -1.1f}}};
  for (std::size_t f = 0; f < centres.size(); ++f) {
    const std::size_t first = boids.size();
    murmur::test::add_gaussian_flock(boids, centres[f], 6, 14, 8000, velocities[f]);
    for (std::size_t i = first; i < boids.size(); ++i)
      boids[i].species = static_cast<std::uint32_t>(f % 2);
  }
  const auto stamped = [&](const std::vector<BoidRecord>& records) {
    murmur::gl::DebugMessenger messenger;
    Renderer renderer(64, 48, stamp_settings(1, 1));
    const BoidUpload upload(records);
    renderer.record_step(scenario, upload.view());
    CHECK(messenger.error_count() == 0);
    return renderer.read_fade_map();
  };
  const std::vector<glm::vec4> map = stamped(boids);
  StampedMap expected = empty_map({128, 80});
  for (const BoidRecord& boid : boids) {
    cpu_stamp(expected, glm::dvec2(1), 1, boid.pos, boid.vel,
              boid.species == 0 ? glm::dvec2(1, 0) : glm::dvec2(0, 1));
  }
  const Mismatches result = compare(expected, map);
  CHECK(result.wrong == 0);
  CHECK(*std::max_element(expected.count.begin(), expected.count.end()) > 40);

  std::vector<BoidRecord> reversed(boids.rbegin(), boids.rend());
  const std::vector<glm::vec4> reversed_map = stamped(reversed);
  REQUIRE(reversed_map.size() == map.size());
  CHECK(std::memcmp(reversed_map.data(), map.data(), map.size() * sizeof(glm::vec4)) == 0);
}

// The sums are cleared as they are folded in: a second step adds only its own stamps.
TEST_CASE("fade-map stamps of one step do not linger into the next") {
  murmur::test::gl_context();
  const Scenario scenario = red_green_world(80, 60, 6, 8);
  std::vector<BoidRecord> first, second;
  for (int k = 0; k < 12; ++k) {
    BoidRecord boid{};
    boid.pos = {5.3f + 6.0f * static_cast<float>(k), 10.6f + 3.1f * static_cast<float>(k % 4)};
    boid.vel = {1.7f, 0.6f - 0.1f * static_cast<float>(k)};
    boid.id = boid.trail_slot = static_cast<std::uint32_t>(k);
    boid.species = static_cast<std::uint32_t>(k % 2);
    first.push_back(boid);
    boid.pos.y += 20.0f + 0.37f * static_cast<float>(k);
    boid.vel = {0.4f, -2.9f};
    second.push_back(boid);
  }
  // The second step also stamps the first's paths again: its texels' sums must start at 0.
  second.insert(second.end(), first.begin(), first.end());
  Renderer renderer(64, 48, stamp_settings(1, 2));
  for (const std::vector<BoidRecord>* step : {&first, &second}) {
    const BoidUpload upload(*step);
    renderer.record_step(scenario, upload.view());
  }
  glm::ivec2 size{0};
  const std::vector<glm::vec4> map = renderer.read_fade_map(&size);
  StampedMap expected = empty_map(size);
  for (const std::vector<BoidRecord>* step : {&first, &second}) {
    for (const BoidRecord& boid : *step) {
      cpu_stamp(expected, glm::dvec2(1), 2, boid.pos, boid.vel,
                boid.species == 0 ? glm::dvec2(1, 0) : glm::dvec2(0, 1));
    }
  }
  CHECK(compare(expected, map).wrong == 0);
}

// A map seen smaller than its texels (a small frame, or zoomed out): 5 texels to a pixel here.
// One bilinear tap a pixel reads only the texels within one of the pixel's centre, so a thin
// trail between centres broke into dots or vanished; the composite's taps spread over the
// pixel's square (docs/rendering.md, "A map smaller than its texels") show every trail, in
// every pixel column it crosses.
TEST_CASE("a fade map seen smaller than its texels shows every trail unbroken") {
  murmur::test::gl_context();
  const Scenario scenario = red_green_world(200, 200, 6, 60);
  RenderSettings settings = stamp_settings(2.5f, 1);
  settings.bloom.enabled = false;
  settings.density_scale = false;
  constexpr int kFrameSide = 100;  // the world fitted: 0.5 pixels a unit, 5 texels a pixel
  constexpr float kPixelsPerUnit = 0.5f;
  // Shallow paths 40 units (20 pixels) long, each at its own height within a pixel.
  std::vector<BoidRecord> boids;
  for (int k = 0; k < 9; ++k) {
    BoidRecord boid{};
    boid.pos = {120.0f + 3.1f * static_cast<float>(k), 14.0f + 19.0f * static_cast<float>(k) +
                                                          0.23f * static_cast<float>(k)};
    boid.vel = {40.0f, 6.0f + 0.9f * static_cast<float>(k)};
    boid.id = boid.trail_slot = static_cast<std::uint32_t>(k);
    boid.species = 0;
    boids.push_back(boid);
  }
  Renderer renderer(kFrameSide, kFrameSide, settings);
  const BoidUpload upload(boids);
  const murmur::RgbaImage frame = murmur::test::checked_frame(renderer, [&] {
    renderer.record_step(scenario, upload.view());
    renderer.render(scenario, upload.view());
  });
  // The sky, in a corner no path comes near.
  const int sky = murmur::test::pixel_at(frame, 2, 2).sum();
  // Columns away from the tail (a stamp's end may fall either side of a texel) and the head.
  constexpr int kTailMargin = 2, kHeadMargin = 6;
  int columns = 0, dark = 0;
  for (const BoidRecord& boid : boids) {
    const glm::vec2 head = boid.pos * kPixelsPerUnit, tail = (boid.pos - boid.vel) * kPixelsPerUnit;
    for (int x = static_cast<int>(tail.x) + kTailMargin; x < static_cast<int>(head.x) - kHeadMargin;
         ++x) {
      // The path's row at this column, from the top, and its neighbours.
      const float t = (static_cast<float>(x) + 0.5f - tail.x) / (head.x - tail.x);
      const int row = kFrameSide - 1 - static_cast<int>(tail.y + t * (head.y - tail.y));
      int brightest = 0;
      for (int r = std::max(row - 1, 0); r <= std::min(row + 1, kFrameSide - 1); ++r)
        brightest = std::max(brightest, murmur::test::pixel_at(frame, x, r).sum());
      ++columns;
      if (brightest <= sky) {
        if (dark < 5) UNSCOPED_INFO("no trail at column " << x << " near row " << row);
        ++dark;
      }
    }
  }
  CHECK(columns > 90);
  CHECK(dark == 0);
}

// The fold takes the texels each step's adds listed; the list holds a map's worth and is
// emptied for every step. Steps enough to list more texels in all than the map has must still
// all reach the map (a list never emptied fills up, and later stamps' sums are never folded).
TEST_CASE("fade-map stamps of many steps all reach the map") {
  murmur::test::gl_context();
  const Scenario scenario = red_green_world(80, 60, 6, 8);
  Renderer renderer(64, 48, stamp_settings(1, 1));
  constexpr int kSteps = 45;
  StampedMap expected = empty_map({80, 60});
  std::size_t listed = 0;  // texels the steps lit, counted step by step
  for (int step = 0; step < kSteps; ++step) {
    std::vector<BoidRecord> boids;
    for (int k = 0; k < 48; ++k) {
      const float heading = 0.131f * static_cast<float>(k * k + step) + 0.37f;
      BoidRecord boid{};
      boid.pos = {std::fmod(1.3f + 10.0f * static_cast<float>(k % 8) + 1.37f * step, 80.0f),
                  std::fmod(2.6f + 10.0f * static_cast<float>(k / 8) + 0.71f * step, 60.0f)};
      boid.vel = 3.1f * glm::vec2(std::cos(heading), std::sin(heading));
      boid.id = boid.trail_slot = static_cast<std::uint32_t>(k);
      boid.species = static_cast<std::uint32_t>(k % 2);
      boids.push_back(boid);
    }
    const BoidUpload upload(boids);
    renderer.record_step(scenario, upload.view());
    StampedMap step_map = empty_map({80, 60});
    for (const BoidRecord& boid : boids) {
      const glm::dvec2 light = boid.species == 0 ? glm::dvec2(1, 0) : glm::dvec2(0, 1);
      cpu_stamp(expected, glm::dvec2(1), 1, boid.pos, boid.vel, light);
      cpu_stamp(step_map, glm::dvec2(1), 1, boid.pos, boid.vel, light);
    }
    listed += static_cast<std::size_t>(
        std::count_if(step_map.count.begin(), step_map.count.end(), [](double c) { return c > 0; }));
  }
  CHECK(listed > 80 * 60);
  glm::ivec2 size{0};
  const std::vector<glm::vec4> map = renderer.read_fade_map(&size);
  REQUIRE(size == glm::ivec2(80, 60));
  const Mismatches result = compare(expected, map);
  CHECK(result.wrong == 0);
  CHECK(result.compared > 80 * 60 / 2);
}
