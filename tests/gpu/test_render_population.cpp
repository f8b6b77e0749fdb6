// The renderer with a living population and sparse ids: it draws the live count the GPU keeps
// (never the stale records past it), ribbons follow trail slots whatever the ids, a dead boid's
// ribbon goes, and children take the trail slots that deaths freed (docs/gpu.md, "Trail
// slots"; docs/rendering.md). Golden-free: each frame is compared with a computed expectation.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <glm/common.hpp>
#include <glm/vec2.hpp>

#include "gpu_test_support.hpp"
#include "murmur/gl/debug.hpp"
#include "murmur/gl/gl.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/flock/gpu/gpu_types.hpp"
#include "murmur/render/renderer.hpp"
#include "test_render_support.hpp"

using murmur::BoidBufferView;
using murmur::FlockState;
using murmur::GpuFlock;
using murmur::Renderer;
using murmur::RenderSettings;
using murmur::RgbaImage;
using murmur::Scenario;
using murmur::TrailMode;
using murmur::test::BoidRecord;
using murmur::test::BoidUpload;
using murmur::test::pixel_at_world;

namespace {

// One pixel per world unit: the world fills the frame.
constexpr int kWidth = 128, kHeight = 96;
constexpr int kLit = 30;  // a pixel whose r + g + b exceeds this shows something

// Flies straight (no steering terms) on a torus the size of the frame, dying at `max_age`.
Scenario mortal_world(std::uint32_t max_age, std::uint32_t capacity = 0) {
  Scenario scenario = murmur::test::world(kWidth, kHeight, 5);
  scenario.species.push_back(
      murmur::test::make_species("mayfly", murmur::Topology::Wrap, 3.0f, 1.0f));
  scenario.species[0].max_age = max_age;
  scenario.species[0].colour = {1, 1, 1};
  scenario.world.capacity = capacity;
  return scenario;
}

// Heads only, flat colours, no glow.
RenderSettings heads_only() {
  RenderSettings settings;
  settings.background = {0, 0, 0};
  settings.colour.per_boid_variation = 0;
  settings.trails.mode = TrailMode::None;
  settings.bloom.enabled = false;
  settings.overlays.target = false;
  settings.heads.size = 4;
  settings.heads.min_length_pixels = 0;
  return settings;
}

// The live records of the flock's state buffer, as the renderer sees them (trail slots too).
std::vector<BoidRecord> live_records(const GpuFlock& flock) {
  std::vector<BoidRecord> records(flock.live_count());
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  if (!records.empty())
    glGetNamedBufferSubData(flock.boid_buffer(), 0,
                            static_cast<GLsizeiptr>(records.size() * sizeof(BoidRecord)),
                            records.data());
  return records;
}

int lit_pixels(const RgbaImage& image) {
  int count = 0;
  for (std::size_t i = 0; i + 3 < image.pixels.size(); i += 4)
    count += image.pixels[i] + image.pixels[i + 1] + image.pixels[i + 2] > kLit ? 1 : 0;
  return count;
}

// Whether anything shows within a pixel of a world point (ribbons are thin).
bool lit_near(const RgbaImage& image, glm::vec2 world) {
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const glm::vec2 at = glm::mod(world + glm::vec2(dx, dy), glm::vec2(kWidth, kHeight));
      if (pixel_at_world(image, at).sum() > kLit) return true;
    }
  return false;
}

// `count` boids along a row each, ids spread over the whole uint32 range.
FlockState row_flock(std::uint32_t count, std::uint32_t age) {
  FlockState state;
  for (std::uint32_t k = 0; k < count; ++k) {
    const float row = 8.0f + 11.0f * static_cast<float>(k % 8);
    const float column = 6.0f + 30.0f * static_cast<float>(k / 8);
    const std::uint32_t id = 0xFFFFFFF0u - k * 0x0ABCDEF1u;  // sparse, descending
    state.boids.push_back({{column + 0.25f, row + 0.25f}, {1.5f, 0.0f}, id, 0, age});
  }
  state.sort_by_id();
  state.next_id = 1;
  return state;
}

}  // namespace

TEST_CASE("after deaths, heads, fade-map stamps and circles show the live boids only") {
  murmur::test::gl_context();
  murmur::gl::DebugMessenger messenger;
  constexpr std::uint32_t kMaxAge = 10;
  const Scenario scenario = mortal_world(kMaxAge);
  // All but every eighth boid are one step from max_age: the next step kills them.
  FlockState start = row_flock(32, kMaxAge - 1);
  for (std::size_t k = 0; k < start.boids.size(); k += 8) start.boids[k].age = 0;
  GpuFlock flock(scenario, start);
  flock.step();
  const std::vector<BoidRecord> survivors = live_records(flock);
  REQUIRE(survivors.size() == 4);

  Renderer renderer(kWidth, kHeight, heads_only());
  renderer.render(flock);
  const RgbaImage drawn = renderer.read_pixels();
  // A plain view's trail slots must be < its count: the survivors' become 0..3 (circles of
  // every slot are drawn below, so which slot each holds does not change the frame).
  std::vector<BoidRecord> renumbered = survivors;
  for (std::size_t k = 0; k < renumbered.size(); ++k)
    renumbered[k].trail_slot = static_cast<std::uint32_t>(k);
  const BoidUpload only_survivors(renumbered);
  renderer.render(scenario, only_survivors.view());
  const RgbaImage expected = renderer.read_pixels();
  CHECK(lit_pixels(expected) > 0);
  CHECK(drawn.pixels == expected.pixels);
  // The dead are still in the buffer past the live count: drawing the capacity shows them,
  // so the comparison above can tell.
  renderer.render(scenario, BoidBufferView{flock.boid_buffer(), flock.capacity()});
  CHECK(lit_pixels(renderer.read_pixels()) > lit_pixels(expected));

  // Overlay circles of every trail slot: the survivors' only.
  renderer.settings().overlays.circles_for_first_trail_slots = static_cast<int>(flock.capacity());
  renderer.render(flock);
  const RgbaImage circled = renderer.read_pixels();
  renderer.render(scenario, only_survivors.view());
  const RgbaImage circled_survivors = renderer.read_pixels();
  CHECK(lit_pixels(circled_survivors) > lit_pixels(expected));
  CHECK(circled.pixels == circled_survivors.pixels);

  // Fade-map stamps: one record_step of the flock equals one of the survivors alone.
  RenderSettings stamping = heads_only();
  stamping.trails.mode = TrailMode::FadeMap;
  Renderer from_flock(kWidth, kHeight, stamping), from_survivors(kWidth, kHeight, stamping);
  from_flock.record_step(flock);
  from_survivors.record_step(scenario, only_survivors.view());
  const std::vector<glm::vec4> stamped = from_flock.read_fade_map();
  const std::vector<glm::vec4> stamped_survivors = from_survivors.read_fade_map();
  CHECK(std::count_if(stamped_survivors.begin(), stamped_survivors.end(),
                      [](glm::vec4 t) { return t.r > 0; }) > 0);
  CHECK(stamped == stamped_survivors);

  for (const std::string& error : messenger.errors()) UNSCOPED_INFO(error);
  CHECK(messenger.error_count() == 0);
}

TEST_CASE("ribbons follow sparse ids, and a dead boid's ribbon disappears") {
  murmur::test::gl_context();
  murmur::gl::DebugMessenger messenger;
  constexpr std::uint32_t kMaxAge = 12;
  const Scenario scenario = mortal_world(kMaxAge);
  FlockState start = row_flock(8, 0);  // one boid per row, each far from the others
  const std::uint32_t doomed_id = start.boids[3].id;
  constexpr std::uint32_t kDoomedAge = 5;  // dies on the 7th step, the others on the 12th
  start.boids[3].age = kDoomedAge;

  RenderSettings settings = heads_only();
  settings.heads.size = 0.01f;  // too small to cover a pixel centre: only ribbons show
  settings.density_scale = false;  // which would draw heads this small as points
  settings.trails.mode = TrailMode::Ribbons;
  settings.trails.ribbon_length = 8;
  settings.trails.ribbon_width_pixels = 2;
  settings.trails.ribbon_min_width_pixels = 2;
  settings.trails.ribbon_intensity = 1;
  Renderer renderer(kWidth, kHeight, settings);
  GpuFlock flock(scenario, start);

  // Each boid's positions by step, by id.
  std::vector<std::map<std::uint32_t, glm::vec2>> positions;
  const auto step_and_record = [&] {
    flock.step();
    renderer.record_step(flock);
    std::map<std::uint32_t, glm::vec2> now;
    for (const murmur::Boid& b : flock.download().boids) now[b.id] = b.pos;
    positions.push_back(now);
  };
  constexpr int kRecorded = 5;
  for (int k = 0; k < kRecorded; ++k) step_and_record();
  renderer.render(flock);
  RgbaImage image = renderer.read_pixels();
  // Every boid's ribbon passes through its position of two records ago (a middle entry of its
  // ring, so a wrap-jump segment on one side leaves the other).
  const std::map<std::uint32_t, glm::vec2>& middle = positions[kRecorded - 3];
  REQUIRE(middle.size() == start.boids.size());
  for (const auto& [id, at] : middle) {
    INFO("id " << id << " at " << at.x << ", " << at.y);
    CHECK(lit_near(image, at));
  }

  // Step past the doomed boid's death.
  const std::size_t doomed_dies_at = kMaxAge - kDoomedAge;  // its age reaches max_age then
  while (positions.size() < doomed_dies_at + 2) step_and_record();
  REQUIRE(positions.back().count(doomed_id) == 0);
  REQUIRE(positions.back().size() == start.boids.size() - 1);
  renderer.render(flock);
  image = renderer.read_pixels();
  for (const std::map<std::uint32_t, glm::vec2>& step : positions) {
    const auto doomed = step.find(doomed_id);
    if (doomed != step.end()) {
      INFO("the dead boid's position " << doomed->second.x << ", " << doomed->second.y);
      CHECK_FALSE(lit_near(image, doomed->second));
    }
  }
  for (const auto& [id, at] : positions[positions.size() - 3]) {
    INFO("surviving id " << id);
    CHECK(lit_near(image, at));
  }

  for (const std::string& error : messenger.errors()) UNSCOPED_INFO(error);
  CHECK(messenger.error_count() == 0);
}

TEST_CASE("trail slots: dense at upload, kept for life, children take the freed ones lowest "
          "first") {
  murmur::test::gl_context();
  constexpr std::uint32_t kMaxAge = 7, kCapacity = 48;
  const Scenario scenario = mortal_world(kMaxAge, kCapacity);
  FlockState start = row_flock(32, 0);
  for (std::size_t k = 0; k < start.boids.size(); ++k)
    start.boids[k].age = static_cast<std::uint32_t>(k % (kMaxAge + 2));  // some dead at upload
  GpuFlock flock(scenario, start);

  // The upload numbers slots by the state's order; the boids it drops leave theirs free.
  std::map<std::uint32_t, std::uint32_t> slot_of;  // id -> trail slot
  for (const BoidRecord& r : live_records(flock)) slot_of[r.id] = r.trail_slot;
  for (std::size_t k = 0; k < start.boids.size(); ++k) {
    const auto found = slot_of.find(start.boids[k].id);
    if (start.boids[k].age >= kMaxAge) {
      CHECK(found == slot_of.end());
    } else {
      REQUIRE(found != slot_of.end());
      CHECK(found->second == k);
    }
  }

  flock.set_birth_rules(murmur::BirthRules{.budding_period = 3});
  int children_seen = 0, deaths_seen = 0;
  for (int step = 0; step < 12; ++step) {
    flock.step();
    std::map<std::uint32_t, std::uint32_t> now;
    for (const BoidRecord& r : live_records(flock)) now[r.id] = r.trail_slot;
    std::set<std::uint32_t> held;        // by survivors
    std::vector<std::uint32_t> children;  // ids, ascending = birth order
    for (const auto& [id, slot] : now) {
      CHECK(slot < kCapacity);
      const auto before = slot_of.find(id);
      if (before == slot_of.end()) {
        children.push_back(id);
      } else {
        CHECK(slot == before->second);  // kept for life
        held.insert(slot);
      }
    }
    deaths_seen += static_cast<int>(slot_of.size() + children.size() - now.size());
    children_seen += static_cast<int>(children.size());
    // Child b takes the b-th slot no survivor holds.
    std::uint32_t free_slot = 0;
    for (const std::uint32_t child : children) {
      while (held.count(free_slot) != 0) ++free_slot;
      INFO("step " << step << ", child " << child);
      CHECK(now[child] == free_slot);
      held.insert(free_slot);
    }
    CHECK(held.size() == now.size());  // unique
    slot_of = now;
  }
  CHECK(children_seen > 0);
  CHECK(deaths_seen > 0);
}

TEST_CASE("a boid that takes a dead boid's trail slot starts a ribbon of its own") {
  murmur::test::gl_context();
  murmur::gl::DebugMessenger messenger;
  const Scenario scenario = mortal_world(0);
  RenderSettings settings = heads_only();
  settings.heads.size = 0.01f;
  settings.density_scale = false;  // which would draw heads this small as points
  settings.trails.mode = TrailMode::Ribbons;
  settings.trails.ribbon_length = 8;
  settings.trails.ribbon_intensity = 1;
  Renderer renderer(kWidth, kHeight, settings);

  // Slot 0 holds boid 77 along y = 20.5 for 4 steps, then boid 78 (its successor, as a child
  // taking the freed slot) along y = 70.5 for 3.
  constexpr float kDeadRow = 20.5f, kChildRow = 70.5f;
  const auto record_at = [&](std::uint32_t id, float x, float row) {
    const BoidUpload upload({BoidRecord{{x, row}, {2, 0}, id, 0, 0, 0}});
    renderer.record_step(scenario, upload.view());
  };
  for (int step = 0; step < 4; ++step) record_at(77, 10.25f + 2.0f * step, kDeadRow);
  for (int step = 0; step < 3; ++step) record_at(78, 60.25f + 2.0f * step, kChildRow);
  const BoidUpload last({BoidRecord{{64.25f, kChildRow}, {2, 0}, 78, 0, 0, 0}});
  renderer.render(scenario, last.view());
  const RgbaImage image = renderer.read_pixels();

  CHECK(lit_near(image, {61.25f, kChildRow}));  // the child's own ribbon
  int lit_elsewhere = 0;  // the dead boid's row, or a segment stitched from it to the child
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x)
      if (std::abs(static_cast<float>(y) + 0.5f - kChildRow) > 2)
        lit_elsewhere += pixel_at_world(image, {x + 0.5f, y + 0.5f}).sum() > kLit ? 1 : 0;
  CHECK(lit_elsewhere == 0);

  for (const std::string& error : messenger.errors()) UNSCOPED_INFO(error);
  CHECK(messenger.error_count() == 0);
}
