// Floor plans drawn by the renderer (docs/rendering.md, "Floor plans") against the CPU's ink on
// paper (plan_image, which the PNG export writes): the same strokes, kept in the ink layer
// between frames as if drawn afresh, glowing under blend = glow.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "gpu_test_support.hpp"
#include "murmur/plan/gpu/gpu_plan.hpp"
#include "murmur/plan/plan.hpp"
#include "murmur/plan/export/plan_export.hpp"
#include "murmur/render/renderer.hpp"
#include "test_render_support.hpp"

namespace murmur {
namespace {

// Four groups on a 400 x 400 canvas: paths that cross, turn and die.
PlanScenario plan_scenario() {
  std::string text = "[world]\nwidth = 400\nheight = 400\n[plan]\n";
  for (const int x : {80, 280}) {
    for (const int y : {80, 280}) {
      text += "[[plan.group]]\ncount = 12\nx = " + std::to_string(x) + "\ny = " +
              std::to_string(y) + "\nwidth = 40\nheight = 40\n";
    }
  }
  return parse_plan_scenario(text, "plan-render.toml");
}

bool is_ink(const RgbaImage& image, int x, int y) {
  const test::Rgba p = test::pixel_at(image, x, y);
  return p.sum() < 3 * 128;
}

// Pixels inked in `a` with no ink of `b` within `reach` pixels: a GPU rasteriser and the
// CPU's may settle a pixel centre on a stroke's edge either way, never more than a pixel off.
std::size_t ink_far_from(const RgbaImage& a, const RgbaImage& b, int reach) {
  std::size_t far = 0;
  for (int y = 0; y < a.height; ++y) {
    for (int x = 0; x < a.width; ++x) {
      if (!is_ink(a, x, y)) continue;
      bool near = false;
      for (int dy = -reach; dy <= reach && !near; ++dy) {
        for (int dx = -reach; dx <= reach && !near; ++dx) {
          const int u = x + dx, v = y + dy;
          near = u >= 0 && v >= 0 && u < b.width && v < b.height && is_ink(b, u, v);
        }
      }
      if (!near) ++far;
    }
  }
  return far;
}

std::size_t ink_count(const RgbaImage& image) {
  std::size_t count = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) count += is_ink(image, x, y) ? 1 : 0;
  return count;
}

std::size_t differing_pixels(const RgbaImage& a, const RgbaImage& b) {
  REQUIRE(a.pixels.size() == b.pixels.size());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < a.pixels.size(); i += 4) {
    differing += std::equal(a.pixels.begin() + i, a.pixels.begin() + i + 4, b.pixels.begin() + i)
                     ? 0
                     : 1;
  }
  return differing;
}

// Whether an image has ink within a square around a pixel: a summed-area table of its ink.
class InkNearness {
 public:
  explicit InkNearness(const RgbaImage& image)
      : width_(image.width), height_(image.height),
        sums_(static_cast<std::size_t>(width_ + 1) * (height_ + 1), 0) {
    for (int y = 0; y < height_; ++y)
      for (int x = 0; x < width_; ++x)
        at(x + 1, y + 1) = (is_ink(image, x, y) ? 1 : 0) + at(x, y + 1) + at(x + 1, y) - at(x, y);
  }
  bool any_within(int x, int y, int reach) const {
    const int x0 = std::max(x - reach, 0), y0 = std::max(y - reach, 0);
    const int x1 = std::min(x + reach + 1, width_), y1 = std::min(y + reach + 1, height_);
    return at(x1, y1) - at(x0, y1) - at(x1, y0) + at(x0, y0) > 0;
  }

 private:
  long& at(int x, int y) { return sums_[static_cast<std::size_t>(y) * (width_ + 1) + x]; }
  long at(int x, int y) const { return sums_[static_cast<std::size_t>(y) * (width_ + 1) + x]; }
  int width_, height_;
  std::vector<long> sums_;
};

RenderSettings lines_only() {
  RenderSettings settings = default_render_settings(plan_scenario());
  settings.plan.agents = false;
  return settings;
}

TEST_CASE("render plan: the GPU inks the strokes the PNG export inks") {
  test::gl_context();
  const PlanScenario scenario = plan_scenario();
  GpuPlan plan(scenario, plan_start(scenario, 2), 48 * 200);
  plan.step(200);
  const PlanState state = plan.plan_state();
  // A frame of the canvas's aspect, so that the world fills it as the export's page does; at
  // two sizes, the second not a whole number of pixels per unit.
  for (const int side : {400, 331}) {
    INFO("frame " << side << " x " << side);
    Renderer renderer(side, side, lines_only());
    renderer.render(plan);
    const RgbaImage gpu = renderer.read_pixels();
    const RgbaImage cpu =
        plan_image(scenario.size(), plan_drawing(scenario, state), side, side);
    const std::size_t ink = ink_count(cpu);
    REQUIRE(ink > 2000);
    CHECK(ink_far_from(gpu, cpu, 1) == 0);
    CHECK(ink_far_from(cpu, gpu, 1) == 0);
    // Edge pixels settle either way, but not many: within 3% of the export's ink.
    const double ratio = static_cast<double>(ink_count(gpu)) / static_cast<double>(ink);
    CHECK(ratio > 0.97);
    CHECK(ratio < 1.03);
    // Only ink and paper: black on white, origin 003's.
    for (std::size_t i = 0; i < gpu.pixels.size(); i += 4) {
      const int sum = gpu.pixels[i] + gpu.pixels[i + 1] + gpu.pixels[i + 2];
      REQUIRE((sum == 0 || sum == 3 * 255));
    }
  }
}

TEST_CASE("render plan: a branching plan's children are inked from their origins") {
  test::gl_context();
  std::string text = "[world]\nwidth = 400\nheight = 400\n[plan]\nbranch_chance = 0.05\n";
  text += "[[plan.group]]\ncount = 12\nx = 180\ny = 180\nwidth = 40\nheight = 40\n";
  const PlanScenario scenario = parse_plan_scenario(text, "plan-branching.toml");
  GpuPlan plan(scenario, plan_start(scenario, 4), 4096 * 200);
  plan.step(200);
  const PlanState state = plan.plan_state();
  REQUIRE(state.births() > 10);
  Renderer renderer(400, 400, lines_only());
  renderer.render(plan);
  const RgbaImage gpu = renderer.read_pixels();
  const RgbaImage cpu = plan_image(scenario.size(), plan_drawing(scenario, state), 400, 400);
  CHECK(ink_far_from(gpu, cpu, 1) == 0);
  CHECK(ink_far_from(cpu, gpu, 1) == 0);
}

TEST_CASE("render plan: lines inked frame by frame equal the plan drawn once") {
  test::gl_context();
  const PlanScenario scenario = plan_scenario();
  RenderSettings settings = default_render_settings(scenario);  // living agents shown too
  GpuPlan followed(scenario, plan_start(scenario, 5), 48 * 160);
  Renderer incremental(300, 300, settings);
  for (int frame = 0; frame < 40; ++frame) {
    followed.advance(4);
    incremental.render(followed);
  }
  GpuPlan whole(scenario, plan_start(scenario, 5), 48 * 160);
  whole.step(160);
  Renderer once(300, 300, settings);
  once.render(whole);
  CHECK(differing_pixels(incremental.read_pixels(), once.read_pixels()) == 0);

  SECTION("a new view draws every line again") {
    incremental.settings().camera.zoom = 2.5f;
    incremental.settings().camera.centre = glm::vec2(150, 260);
    once.settings().camera = incremental.settings().camera;
    incremental.render(followed);
    Renderer fresh(300, 300, once.settings());
    fresh.render(whole);
    CHECK(differing_pixels(incremental.read_pixels(), fresh.read_pixels()) == 0);
  }
  SECTION("a restarted plan is not drawn over the old one") {
    GpuPlan restarted(scenario, plan_start(scenario, 6), 48 * 160);
    restarted.step(20);
    incremental.render(restarted);
    Renderer fresh(300, 300, settings);
    fresh.render(restarted);
    CHECK(differing_pixels(incremental.read_pixels(), fresh.read_pixels()) == 0);
  }
}

TEST_CASE("render plan: living agents are marked, dead ones are not") {
  test::gl_context();
  const PlanScenario scenario = plan_scenario();
  GpuPlan plan(scenario, plan_start(scenario, 3), 48 * 400);
  plan.step(400);
  const PlanState state = plan.plan_state();
  Renderer renderer(400, 400, default_render_settings(scenario));
  renderer.render(plan);
  const RgbaImage image = renderer.read_pixels();
  std::size_t living = 0, dead = 0;
  for (const PlanAgent& agent : state.agents) {
    const glm::vec2 at = agent.drawn;
    if (at.x < 2 || at.y < 2 || at.x > 398 || at.y > 398) continue;
    const test::Rgba p = test::pixel_at_world(image, at);
    const bool red = p.r > 150 && p.g < 80 && p.b < 80;
    if (agent.alive) {
      ++living;
      CHECK(red);
    } else {
      ++dead;
      CHECK_FALSE(red);
    }
  }
  CHECK(dead > 0);
  INFO("living agents on the canvas: " << living);
}

TEST_CASE("render plan: blend = glow lights the lines on the dark background and blooms them") {
  test::gl_context();
  const PlanScenario scenario = plan_scenario();
  GpuPlan plan(scenario, plan_start(scenario, 2), 48 * 200);
  plan.step(200);
  RenderSettings settings = lines_only();
  settings.blend = BlendMode::Glow;
  Renderer renderer(400, 400, settings);
  // The sky: the plan before any line.
  GpuPlan empty(scenario, plan_start(scenario, 2), 48);
  renderer.render(empty);
  const int sky_sum = test::pixel_at(renderer.read_pixels(), 200, 200).sum();
  renderer.render(plan);
  const RgbaImage glow = renderer.read_pixels();
  const RgbaImage ink =
      plan_image(scenario.size(), plan_drawing(scenario, plan.plan_state()), 400, 400);
  // Lines are bright and blue-ish where the export inks them; beside a line the bloom
  // brightens the sky; far from every line (no ink within kFar pixels) the sky stays as it is
  // with no plan at all. The bloom's levels, a quarter of the frame's side and smaller, light
  // the sky faintly some 40 pixels out at 400 x 400 (87% of the pixels past 40 are within 6 of
  // the empty sky's sum, 99% past 48).
  constexpr int kBeside = 2, kFar = 48;
  const InkNearness near(ink);
  std::size_t lit_lines = 0, line_pixels = 0, dark_sky = 0, sky = 0, bloomed = 0, beside = 0;
  for (int y = 0; y < 400; ++y) {
    for (int x = 0; x < 400; ++x) {
      const test::Rgba p = test::pixel_at(glow, x, y);
      if (is_ink(ink, x, y)) {
        ++line_pixels;
        lit_lines += p.b > 150 && p.b >= p.r ? 1 : 0;
      } else if (near.any_within(x, y, kBeside)) {
        ++beside;
        bloomed += p.sum() > sky_sum + 30 ? 1 : 0;
      } else if (!near.any_within(x, y, kFar)) {
        ++sky;
        dark_sky += p.sum() <= sky_sum + 6 ? 1 : 0;
      }
    }
  }
  REQUIRE(line_pixels > 2000);
  CHECK(sky_sum < 3 * 40);
  CHECK(lit_lines > line_pixels * 9 / 10);
  CHECK(dark_sky > sky * 9 / 10);
  CHECK(bloomed > beside / 2);
}

}  // namespace
}  // namespace murmur
