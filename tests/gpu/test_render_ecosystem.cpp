// Origin 001's look (docs/rendering.md, "The ecosystem's look"): health colour, circles that
// grow and fill in with age, food boxes, and the selected boid's three circles, on hand-built
// boids and food in a world that fills the frame at one pixel per world unit.
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <glm/vec2.hpp>

#include "gpu_test_support.hpp"
#include "murmur/gl/debug.hpp"
#include "murmur/gl/objects.hpp"
#include "murmur/flock/grid.hpp"
#include "murmur/render/renderer.hpp"
#include "test_render_support.hpp"

using murmur::ColourMode;
using murmur::FoodBufferView;
using murmur::Renderer;
using murmur::RenderSettings;
using murmur::RgbaImage;
using murmur::Scenario;
using murmur::TrailMode;
using murmur::test::BoidRecord;
using murmur::test::BoidUpload;
using murmur::test::pixel_at;
using murmur::test::pixel_at_world;
using murmur::test::Rgba;

namespace {

constexpr int kWidth = 64, kHeight = 48;
constexpr int kLit = 30;          // a pixel whose r + g + b exceeds this shows something
constexpr int kClearMargin = 40;  // one channel above another by this much: that colour
constexpr float kEnergyMax = 10;

bool lit(Rgba p) { return p.sum() > kLit; }

// Species 0 ("grazer") has energy, species 1 ("plain") has none and is blue.
Scenario ecosystem_world() {
  Scenario scenario = murmur::test::world(kWidth, kHeight, 1);
  for (const char* name : {"grazer", "plain"})
    scenario.species.push_back(
        murmur::test::species(name, 0, murmur::Topology::Wrap, 10, 5));
  scenario.species[0].energy_max = kEnergyMax;
  scenario.species[0].colour = {1, 1, 1};
  scenario.species[1].colour = {0, 0, 1};
  return scenario;
}

// Black, no glow, no trails, flat colours: only what a test switches on shows.
RenderSettings bare_settings() {
  RenderSettings settings;
  settings.background = {0, 0, 0};
  settings.colour.per_boid_variation = 0;
  settings.trails.mode = TrailMode::None;
  settings.bloom.enabled = false;
  settings.heads.size = 8;
  settings.heads.min_length_pixels = 0;
  return settings;
}

BoidRecord boid_at(glm::vec2 at, std::uint32_t id, std::uint32_t species, std::uint32_t age,
                   float energy) {
  BoidRecord boid{at, {1, 0}, id, species, age, id};
  boid.energy = energy;
  return boid;
}

RgbaImage render(Renderer& renderer, const Scenario& scenario, const std::vector<BoidRecord>& boids,
                 const FoodBufferView& food = {}) {
  murmur::gl::DebugMessenger messenger;
  const BoidUpload upload(boids);
  renderer.render(scenario, upload.view(), food);
  RgbaImage image = renderer.read_pixels();
  for (const std::string& error : messenger.errors()) UNSCOPED_INFO(error);
  CHECK(messenger.error_count() == 0);
  return image;
}

// Lit pixels within `radius` of a world point (the world is one pixel per unit).
int lit_around(const RgbaImage& image, glm::vec2 centre, float radius) {
  int count = 0;
  for (int row = 0; row < image.height; ++row) {
    for (int x = 0; x < image.width; ++x) {
      const glm::vec2 world{static_cast<float>(x) + 0.5f,
                            static_cast<float>(image.height - row) - 0.5f};
      const glm::vec2 d = world - centre;
      if (d.x * d.x + d.y * d.y <= radius * radius && lit(pixel_at(image, x, row))) ++count;
    }
  }
  return count;
}

}  // namespace

TEST_CASE("colour by health: full energy is green, nearly none is red, no energy keeps colour") {
  murmur::test::gl_context();
  const Scenario scenario = ecosystem_world();
  RenderSettings settings = bare_settings();
  settings.colour.mode = ColourMode::Health;
  Renderer renderer(kWidth, kHeight, settings);
  const glm::vec2 healthy_at{16.25f, 24.25f}, weak_at{32.25f, 24.25f}, plain_at{48.25f, 24.25f};
  const RgbaImage image =
      render(renderer, scenario,
             {boid_at(healthy_at, 0, 0, 0, kEnergyMax), boid_at(weak_at, 1, 0, 0, 0.05f),
              boid_at(plain_at, 2, 1, 0, 0)});
  const Rgba healthy = pixel_at_world(image, healthy_at);
  const Rgba weak = pixel_at_world(image, weak_at);
  const Rgba plain = pixel_at_world(image, plain_at);
  CHECK(healthy.g > healthy.r + kClearMargin);
  CHECK(healthy.g > healthy.b + kClearMargin);
  CHECK(weak.r > weak.g + kClearMargin);
  CHECK(weak.r > weak.b + kClearMargin);
  // A species without energy is drawn in its species colour, blue.
  CHECK(plain.b > plain.r + kClearMargin);
  CHECK(plain.b > plain.g + kClearMargin);

  // The species colour mode ignores energy: both grazers are white.
  renderer.settings().colour.mode = ColourMode::Species;
  const RgbaImage species = render(renderer, scenario,
                                   {boid_at(healthy_at, 0, 0, 0, kEnergyMax),
                                    boid_at(weak_at, 1, 0, 0, 0.05f)});
  CHECK(pixel_at_world(species, weak_at).g > kClearMargin);
  CHECK(pixel_at_world(species, healthy_at).r > kClearMargin);
}

TEST_CASE("age look: an older boid's circle is bigger and fuller, up to its species' max_age") {
  murmur::test::gl_context();
  Scenario scenario = ecosystem_world();
  RenderSettings settings = bare_settings();
  settings.heads.size = 16;  // a full disc of radius 8
  settings.heads.age_look = true;
  settings.heads.age_scale = 100;
  Renderer renderer(kWidth, kHeight, settings);
  const glm::vec2 young_at{16, 24}, old_at{48, 24};
  constexpr float kFullRadius = 8;
  constexpr float kNearOne = 15;  // around one boid, clear of the other (32 units away)
  const auto draw = [&](std::uint32_t young_age, std::uint32_t old_age) {
    return render(renderer, scenario,
                  {boid_at(young_at, 0, 1, young_age, 0), boid_at(old_at, 1, 1, old_age, 0)});
  };

  const RgbaImage image = draw(0, 100);
  const int young = lit_around(image, young_at, kFullRadius + 1);
  const int old = lit_around(image, old_at, kFullRadius + 1);
  CHECK(young > 0);
  CHECK(old > 2 * young);
  // The old one is a full disc; the newborn a thin ring with a hole in the middle.
  CHECK(lit(pixel_at_world(image, old_at + glm::vec2(0.5f))));
  CHECK_FALSE(lit(pixel_at_world(image, young_at + glm::vec2(0.5f))));
  // A full disc covers about pi r^2 pixels and nothing outside its radius.
  CHECK(old > 150);
  CHECK(lit_around(image, old_at, kFullRadius + 1) == lit_around(image, old_at, kNearOne));

  // Past the scale it stops growing; halfway it is in between.
  CHECK(lit_around(draw(0, 1000), old_at, kNearOne) == old);
  const int halfway = lit_around(draw(50, 100), young_at, kNearOne);
  CHECK(halfway > young);
  CHECK(halfway < old);

  // A species with max_age grows over its own lifetime instead of age_scale.
  scenario.species[1].max_age = 1000;
  CHECK(lit_around(draw(0, 100), old_at, kNearOne) < old);
}

TEST_CASE("food: a fuller cell's box is bigger, an empty cell draws nothing") {
  murmur::test::gl_context();
  const Scenario scenario = ecosystem_world();
  RenderSettings settings = bare_settings();
  Renderer renderer(kWidth, kHeight, settings);
  // A 4 x 3 field of 16-unit cells over the 64 x 48 world; cells 0, 1, 2 full, a quarter, empty.
  murmur::FoodParams params;
  params.cell_size = 16;
  params.max_per_cell = 4;
  const murmur::GridShape grid = murmur::food_grid_shape(params, scenario.size());
  REQUIRE(grid.cells == glm::ivec3(4, 3, 1));
  std::vector<float> amounts(grid.cell_count(), 0.0f);
  amounts[0] = 4;
  amounts[1] = 1;
  amounts[2] = 0;
  const murmur::gl::Buffer food("test.render.food", amounts.size() * sizeof(float),
                                amounts.data());
  const FoodBufferView view{food.id(), grid, params.max_per_cell};
  const auto cell_centre = [&](int column) { return glm::vec2(16.0f * column + 8, 8); };

  const RgbaImage image = render(renderer, scenario, {}, view);
  const int full = lit_around(image, cell_centre(0), 8);
  const int quarter = lit_around(image, cell_centre(1), 8);
  CHECK(quarter > 0);
  CHECK(full > 3 * quarter);  // area grows with the amount
  CHECK(lit_around(image, cell_centre(2), 8) == 0);
  CHECK(lit_around(image, {32, 32}, 16) == 0);  // the rows above are empty
  // The boxes are blue.
  const Rgba centre = pixel_at_world(image, cell_centre(0));
  CHECK(centre.b > centre.r + kClearMargin);

  // Switched off ([render] food = false), or without a field, nothing is drawn.
  renderer.settings().food.enabled = false;
  CHECK(lit_around(render(renderer, scenario, {}, view), {32, 24}, kWidth) == 0);
  renderer.settings().food.enabled = true;
  CHECK(lit_around(render(renderer, scenario, {}, FoodBufferView{}), {32, 24}, kWidth) == 0);
}

TEST_CASE("the selected boid gets its sight, minimum-distance and body circles") {
  murmur::test::gl_context();
  const Scenario scenario = ecosystem_world();  // perception radius 10, separation 5
  RenderSettings settings = bare_settings();
  settings.heads.size = 4;  // body circle of radius 2
  Renderer renderer(kWidth, kHeight, settings);
  const glm::vec2 selected_at{20.25f, 24.25f}, other_at{46.25f, 24.25f};
  const std::vector<BoidRecord> boids{boid_at(other_at, 3, 1, 0, 0),
                                      boid_at(selected_at, 7, 1, 0, 0)};
  // The brightest pixel in a 3x3 patch (lines are one pixel wide).
  const auto brightest_near = [](const RgbaImage& image, glm::vec2 world) {
    Rgba best{0, 0, 0, 0};
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const Rgba p = pixel_at_world(image, world + glm::vec2(dx, dy));
        if (p.sum() > best.sum()) best = p;
      }
    return best;
  };

  renderer.settings().overlays.selected_id = 7;
  const RgbaImage image = render(renderer, scenario, boids);
  const Rgba sight = brightest_near(image, selected_at + glm::vec2(0, 10));
  const Rgba distance = brightest_near(image, selected_at + glm::vec2(0, 5));
  const Rgba body = brightest_near(image, selected_at + glm::vec2(0, 2));
  CHECK(sight.b > sight.r + kClearMargin);  // blue
  CHECK(distance.r > distance.b + kClearMargin);  // red
  CHECK(distance.r > distance.g + kClearMargin);
  CHECK(body.r > 200);  // white
  CHECK(body.g > 200);
  CHECK(body.b > 200);
  CHECK_FALSE(lit(brightest_near(image, other_at + glm::vec2(0, 10))));
  CHECK_FALSE(lit(brightest_near(image, other_at + glm::vec2(0, 5))));

  // An id no live boid has draws no circle.
  renderer.settings().overlays.selected_id = 99;
  const RgbaImage none = render(renderer, scenario, boids);
  CHECK_FALSE(lit(brightest_near(none, selected_at + glm::vec2(0, 10))));
  CHECK_FALSE(lit(brightest_near(none, selected_at + glm::vec2(0, 5))));
}

TEST_CASE("glow and trails still work over the age look and health colour") {
  murmur::test::gl_context();
  const Scenario scenario = ecosystem_world();
  RenderSettings settings = bare_settings();
  settings.heads.age_look = true;
  settings.colour.mode = ColourMode::Health;
  settings.trails.mode = TrailMode::Ribbons;
  settings.trails.ribbon_intensity = 1;
  Renderer renderer(kWidth, kHeight, settings);
  // A weak grazer flies east along y = 24.5 for 8 steps.
  std::vector<BoidRecord> boids;
  for (int step = 0; step < 8; ++step) {
    boids = {boid_at({10.25f + 3.0f * static_cast<float>(step), 24.5f}, 0, 0, 1000, 0.5f)};
    const BoidUpload upload(boids);
    renderer.record_step(scenario, upload.view());
  }
  const RgbaImage trails = render(renderer, scenario, boids);
  // The ribbon behind the disc is lit, in the boid's health colour (red).
  const Rgba ribbon = pixel_at_world(trails, {14.5f, 24.5f});
  CHECK(ribbon.r > ribbon.g + kClearMargin);

  // Bloom spreads the disc's light beyond its edge.
  renderer.settings().trails.mode = TrailMode::None;
  renderer.settings().bloom.enabled = true;
  renderer.settings().bloom.threshold = 0;
  const glm::vec2 disc_at = boids.front().pos;
  const glm::vec2 beside = disc_at + glm::vec2(0, 8);
  const int without = pixel_at_world(render(renderer, scenario, boids), beside).sum();
  renderer.settings().bloom.enabled = false;
  CHECK(pixel_at_world(render(renderer, scenario, boids), beside).sum() < without);
}
