// Reading back without waiting: the fenced ReadbackRing, the stall counter that proves a loop
// never waits, and FlockReadback's statistics, id lookup, state and ecosystem reads through
// rings.
//
// Sections, in test order: the ring and the stall counter; a boid by id; statistics and state;
// the ecosystem's counters; the nearest boid; a 3D flock's boids and state.
#include <chrono>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>
#include <glm/geometric.hpp>

#include "gpu_test_support.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/gl/gl.hpp"
#include "murmur/gl/objects.hpp"
#include "murmur/gl/program.hpp"
#include "murmur/gl/readback_ring.hpp"
#include "murmur/gl/stall_counter.hpp"
#include "murmur/flock/gpu/flock_readback.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/flock/model.hpp"
#include "murmur/flock/state.hpp"

using namespace murmur;
using murmur::test::gl_context;

namespace {

using Clock = std::chrono::steady_clock;
// Far longer than any copy here takes on llvmpipe: reaching it means the fence never signalled.
constexpr auto kPatience = std::chrono::seconds(20);

// Polls `poll` until it gives a value, flushing so the fence can reach the GPU.
template <class Poll>
auto poll_until_ready(Poll&& poll) -> decltype(poll()) {
  const auto give_up = Clock::now() + kPatience;
  while (Clock::now() < give_up) {
    if (auto value = poll()) return value;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return {};
}

std::uint32_t first_word(const std::vector<std::byte>& bytes) {
  std::uint32_t value = 0;
  std::memcpy(&value, bytes.data(), sizeof value);
  return value;
}

// A draw that keeps the GPU busy for a while: a full-screen triangle whose fragments loop.
// (A draw, not a compute pass: llvmpipe runs compute at dispatch, but rasterizes on its own
// threads after the flush, which is what a real GPU does with both.)
constexpr std::string_view kBusyVertexShader = R"(#version 450
void main() {
  vec2 corner = vec2((gl_VertexID & 1) * 4 - 1, (gl_VertexID >> 1) * 4 - 1);
  gl_Position = vec4(corner, 0.0, 1.0);
}
)";
constexpr std::string_view kBusyFragmentShader = R"(#version 450
uniform uint iterations;
out vec4 colour;
void main() {
  float x = gl_FragCoord.x * 0.001 + gl_FragCoord.y;
  for (uint k = 0u; k < iterations; ++k) x = fract(x * 1.0001 + 0.37);
  colour = vec4(x);
}
)";
constexpr int kBusySide = 512;
constexpr std::uint32_t kBusyIterations = 4000;

// Boids with ids far from 0..N-1, in no particular order: the lookup may assume nothing.
FlockState sparse_state() {
  const std::vector<std::uint32_t> ids = {4000000000u, 7u, 123456u, 99u, 2147483648u};
  FlockState state;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    Boid boid;
    boid.id = ids[k];
    boid.species = 0;
    boid.pos = glm::vec2(10.0f + 7.0f * float(k), 20.0f + 3.0f * float(k));
    boid.vel = glm::vec2(0.5f * float(k), -1.0f);
    state.boids.push_back(boid);
  }
  return state;
}

Scenario sparse_scenario() {
  Scenario s = test::world(100.0f, 80.0f, 3);
  s.species.push_back(test::species("sparse", 5, Topology::Bounded, 5.0f, 2.0f));
  return s;
}

bool same_boid(const Boid& a, const Boid& b) {
  return a.id == b.id && a.species == b.species && a.pos == b.pos && a.vel == b.vel;
}

}  // namespace

TEST_CASE("a value written on the GPU comes back through the ring once its fence signals") {
  gl_context();
  gl::Buffer source("ring source", sizeof(std::uint32_t));
  gl::ReadbackRing ring("test ring", sizeof(std::uint32_t));
  REQUIRE(ring.slot_count() == gl::ReadbackRing::kDefaultSlots);

  // Each upload is ordered after the copy queued before it, so the requests see 1, 2, 3.
  for (std::uint32_t value = 1; value <= 3; ++value) {
    source.upload(0, sizeof value, &value);
    REQUIRE(ring.request(source.id(), 0, sizeof value));
  }
  const std::uint32_t four = 4;
  source.upload(0, sizeof four, &four);
  CHECK_FALSE(ring.request(source.id(), 0, sizeof four));  // every slot in flight
  CHECK(ring.in_flight() == 3);

  for (std::uint32_t expected = 1; expected <= 3; ++expected) {
    const auto bytes = poll_until_ready([&] { return ring.poll(); });
    REQUIRE(bytes);
    CHECK(bytes->size() == sizeof(std::uint32_t));
    CHECK(first_word(*bytes) == expected);
  }
  CHECK(ring.in_flight() == 0);
  CHECK_FALSE(ring.poll());  // each request comes back once

  SECTION("discard forgets the requests in flight and frees their slots") {
    for (int k = 0; k < 3; ++k) REQUIRE(ring.request(source.id(), 0, sizeof four));
    ring.discard();
    CHECK(ring.in_flight() == 0);
    CHECK_FALSE(ring.poll());
    REQUIRE(ring.request(source.id(), 0, sizeof four));
    const auto bytes = poll_until_ready([&] { return ring.poll(); });
    REQUIRE(bytes);
    CHECK(first_word(*bytes) == 4);
  }
  SECTION("a request larger than a slot is a programming error") {
    CHECK_THROWS_AS(ring.request(source.id(), 0, 2 * sizeof four), std::out_of_range);
  }
}

TEST_CASE("polling a ring whose copy is still queued behind GPU work returns empty, with no "
          "call that waits") {
  gl_context();
  gl::count_stalls();
  const std::map<std::string, std::string_view> files = {{"busy.vert", kBusyVertexShader},
                                                         {"busy.frag", kBusyFragmentShader}};
  const gl::Program busy = gl::Program::graphics("busy.vert", "busy.frag", {}, files);
  gl::Texture target("busy target", GL_RGBA8, kBusySide, kBusySide);
  gl::Framebuffer framebuffer("busy framebuffer");
  framebuffer.attach_colour(target);
  framebuffer.check_complete();
  gl::VertexArray no_attributes("busy vertices");
  gl::Buffer source("ring source", sizeof(std::uint32_t));
  const std::uint32_t value = 42;
  source.upload(0, sizeof value, &value);
  gl::ReadbackRing ring("test ring", sizeof value);
  glFinish();  // nothing else in the queue
  // No barrier before the request: the source was written by an upload, not by a shader (and
  // llvmpipe implements barriers by waiting for all queued work).

  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffer.id());
  glViewport(0, 0, kBusySide, kBusySide);
  glBindVertexArray(no_attributes.id());
  busy.use();
  glProgramUniform1ui(busy.id(), busy.uniform("iterations"), kBusyIterations);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  const gl::StallCounts before = gl::stall_counts();
  REQUIRE(ring.request(source.id(), 0, sizeof value));
  const std::optional<std::vector<std::byte>> early = ring.poll();
  const gl::StallCounts waited = gl::stall_counts() - before;
  const auto bytes = poll_until_ready([&] { return ring.poll(); });

  CHECK_FALSE(early);            // not signalled yet: nothing, ...
  CHECK(waited.total() == 0u);   // ... and no call that waits for the GPU (what it did, not
                                 // how long it took: a loaded machine stretches any time)
  REQUIRE(bytes);
  CHECK(first_word(*bytes) == value);
}

TEST_CASE("the stall counter sees glFinish and blocking reads, and none from a ring") {
  gl_context();
  gl::count_stalls();
  gl::count_stalls();  // twice must not count each call twice
  gl::Buffer source("stall source", sizeof(std::uint32_t));
  gl::ReadbackRing ring("stall ring", sizeof(std::uint32_t));

  const gl::StallCounts before = gl::stall_counts();
  REQUIRE(ring.request(source.id(), 0, sizeof(std::uint32_t)));
  REQUIRE(poll_until_ready([&] { return ring.poll(); }));
  CHECK((gl::stall_counts() - before).total() == 0);

  glFinish();
  std::uint32_t word = 0;
  source.download(0, sizeof word, &word);
  GLsync fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, 0);  // a question, not a wait
  glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, 1'000'000'000);
  glDeleteSync(fence);
  const gl::StallCounts after = gl::stall_counts() - before;
  CHECK(after.finishes == 1);
  CHECK(after.readbacks == 2);  // the download and the wait with a timeout
}

TEST_CASE("a boid is found on the GPU by id wherever it sits, sparse ids included") {
  gl_context();
  const Scenario scenario = sparse_scenario();
  const FlockState state = sparse_state();
  GpuFlock flock(scenario, state);
  FlockReadback readback;
  for (const Boid& boid : state.boids) {
    const std::optional<Boid> found = readback.find_now(flock, boid.id);
    REQUIRE(found);
    CHECK(same_boid(*found, boid));
  }
  CHECK_FALSE(readback.find_now(flock, 0));  // no boid has id 0 (nor "index 0")
  CHECK_FALSE(readback.find_now(flock, 8));

  SECTION("through the ring, without waiting, answering the id that was asked") {
    gl::count_stalls();
    const gl::StallCounts before = gl::stall_counts();
    REQUIRE(readback.request_boid(flock, 123456u));
    REQUIRE(readback.request_boid(flock, 5u));
    const std::optional<BoidLookup> answer =
        poll_until_ready([&] { return readback.latest_boid(); });
    CHECK((gl::stall_counts() - before).total() == 0);
    REQUIRE(answer);
    // latest_boid() hands out the newest finished answer: 5 if both finished, else 123456.
    if (answer->id == 123456u) {
      REQUIRE(answer->boid);
      CHECK(same_boid(*answer->boid, state.boids[2]));
    } else {
      CHECK(answer->id == 5u);
      CHECK_FALSE(answer->boid);
    }
  }
}

TEST_CASE("after steps the lookup finds the boid the grid moved, as download() reports it") {
  gl_context();
  Scenario s = test::world(200.0f, 150.0f, 9);
  s.species.push_back(test::species("a", 300, Topology::Wrap, 6.0f, 2.0f));
  GpuFlock flock(s, seeded_start(s));
  flock.step(3);
  FlockReadback readback;
  const FlockState state = flock.download();
  for (const std::uint32_t id : {0u, 1u, 150u, 299u}) {
    const std::optional<Boid> found = readback.find_now(flock, id);
    REQUIRE(found);
    CHECK(same_boid(*found, state.boids[id]));
  }
  CHECK_FALSE(readback.find_now(flock, 300));
}

TEST_CASE("statistics and state through the rings equal the waiting reads") {
  gl_context();
  Scenario s = test::world(200.0f, 200.0f, 4);
  s.species.push_back(test::species("a", 500, Topology::Bounded, 5.0f, 2.0f));
  s.species.push_back(test::species("b", 250, Topology::Bounded, 5.0f, 2.0f));
  GpuFlock flock(s, seeded_start(s));
  flock.step(2);
  FlockReadback readback;
  const FlockSummary now = readback.summary_now(flock);

  gl::count_stalls();
  const gl::StallCounts before = gl::stall_counts();
  REQUIRE(readback.request_summary(flock));
  REQUIRE(readback.request_state(flock));
  const std::optional<FlockSummary> later =
      poll_until_ready([&] { return readback.latest_summary(); });
  const std::optional<FlockState> state = poll_until_ready([&] { return readback.latest_state(); });
  CHECK((gl::stall_counts() - before).total() == 0);

  REQUIRE(later);
  CHECK(later->polarization == now.polarization);
  REQUIRE(later->milling);
  CHECK(*later->milling == *now.milling);
  CHECK(later->population == std::vector<std::uint32_t>{500, 250});
  REQUIRE(state);
  const FlockState downloaded = flock.download();
  REQUIRE(state->boids.size() == downloaded.boids.size());
  for (std::size_t k = 0; k < downloaded.boids.size(); ++k)
    CHECK(same_boid(state->boids[k], downloaded.boids[k]));

  SECTION("discard drops what was in flight") {
    REQUIRE(readback.request_summary(flock));
    readback.discard();
    glFinish();
    CHECK_FALSE(readback.latest_summary());
  }
}

TEST_CASE("the ecosystem's counters and food through the ring equal what download() reports") {
  gl_context();
  Scenario s = test::world(200.0f, 200.0f, 5);
  // Every boid starts able to split (births), lives at a cost it cannot always graze back
  // (deaths), and eats from the field (food falls); species b's cap drops most of its births.
  FoodParams food;
  food.cell_size = 20;
  food.max_per_cell = 2;
  food.bite = 0.5f;
  s.food = food;
  for (const char* name : {"a", "b"}) {
    SpeciesParams species = test::species(name, 200, Topology::Bounded, 5.0f, 2.0f);
    species.grazes = true;
    species.energy_max = 10;
    species.energy_initial = 9;
    species.reproduce_energy = 8;
    species.energy_per_step = 1;
    species.energy_from_food = 1;
    s.species.push_back(species);
  }
  s.species[1].max_count = 220;
  s.world.capacity = 1000;
  GpuFlock flock(s, seeded_start(s));
  flock.step(6);
  FlockReadback readback;
  const EcosystemCounts now = readback.ecosystem_now(flock);
  const FlockState downloaded = flock.download();
  REQUIRE(now.totals.size() == 2);
  REQUIRE(downloaded.totals.size() == 2);
  for (std::size_t k = 0; k < 2; ++k) CHECK(now.totals[k] == downloaded.totals[k]);
  CHECK(now.totals[0].born > 0);
  CHECK(now.totals[0].died > 0);
  CHECK(now.totals[1].dropped > 0);
  double food_total = 0;
  for (const float amount : downloaded.food) food_total += amount;
  REQUIRE(now.food);
  CHECK(*now.food == food_total);
  CHECK(food_total < food.max_per_cell * static_cast<double>(downloaded.food.size()));

  gl::count_stalls();
  const gl::StallCounts before = gl::stall_counts();
  REQUIRE(readback.request_ecosystem(flock));
  const std::optional<EcosystemCounts> later =
      poll_until_ready([&] { return readback.latest_ecosystem(); });
  CHECK((gl::stall_counts() - before).total() == 0);
  REQUIRE(later);
  CHECK(later->totals == now.totals);
  CHECK(later->food == now.food);

  // Without a [food] table there is no total, and the counters still come back.
  Scenario plain = test::world(200.0f, 200.0f, 5);
  plain.species.push_back(test::species("a", 50, Topology::Bounded, 5.0f, 2.0f));
  GpuFlock plain_flock(plain, seeded_start(plain));
  plain_flock.step(1);
  const EcosystemCounts plain_counts = readback.ecosystem_now(plain_flock);
  CHECK_FALSE(plain_counts.food);
  REQUIRE(plain_counts.totals.size() == 1);
  CHECK(plain_counts.totals[0] == SpeciesTotals{});
}

TEST_CASE("the nearest boid to a point is found on the GPU as a brute-force search finds it") {
  gl_context();
  Scenario s = test::world(200.0f, 120.0f, 11);
  s.species.push_back(test::species("torus", 200, Topology::Wrap, 6.0f, 2.0f));
  s.species.push_back(test::species("walled", 100, Topology::Bounded, 6.0f, 2.0f));
  const FlockState state = seeded_start(s);
  GpuFlock flock(s, state);
  FlockReadback readback;
  // Points near the seams too, where only the minimum image finds the true nearest boid.
  const std::vector<glm::vec2> points = {{100.0f, 60.0f}, {0.5f, 0.5f}, {199.5f, 60.0f},
                                         {37.0f, 119.0f}, {150.0f, 2.0f}};
  for (const glm::vec2 point : points) {
    std::optional<std::uint32_t> expected;
    float best = 0;
    for (const Boid& boid : state.boids) {
      const float d = glm::length(
          displacement(point, boid.pos, s.species[boid.species].topology, s.size()));
      if (!expected || d < best || (d == best && boid.id < *expected)) {
        expected = boid.id;
        best = d;
      }
    }
    INFO("point " << point.x << ", " << point.y);
    CHECK(readback.nearest_now(flock, point) == expected);
  }

  SECTION("a tie goes to the smallest id, whatever the slots") {
    FlockState tied = sparse_state();
    tied.boids[0].pos = tied.boids[3].pos;  // ids 4000000000 and 99 at one place
    GpuFlock sparse(sparse_scenario(), tied);
    CHECK(readback.nearest_now(sparse, tied.boids[3].pos) == 99u);
  }
  SECTION("through the ring, answering the point that was asked") {
    REQUIRE(readback.request_nearest(flock, points[0]));
    const std::optional<NearestBoid> answer =
        poll_until_ready([&] { return readback.latest_nearest(); });
    REQUIRE(answer);
    CHECK(answer->point == points[0]);
    CHECK(answer->id == readback.nearest_now(flock, points[0]));
  }
}

TEST_CASE("a 3D flock's boids and state come back with z and vz, sparse ids included") {
  gl_context();
  Scenario scenario = sparse_scenario();
  scenario.world.dimensions = 3;
  scenario.world.depth = 60.0f;
  FlockState state = sparse_state();
  // Each boid's third axis distinct from the others' and from its own plane values, so that a
  // read of the plane's 40-byte stride or a swapped z and vz shows.
  for (std::size_t k = 0; k < state.boids.size(); ++k) {
    state.boids[k].z = 5.0f + 9.0f * float(k);
    state.boids[k].vz = -0.25f - 0.1f * float(k);
  }
  GpuFlock flock(scenario, state);
  FlockReadback readback;
  const auto same_in_space = [](const Boid& a, const Boid& b) {
    return same_boid(a, b) && a.z == b.z && a.vz == b.vz;
  };
  for (const Boid& boid : state.boids) {
    const std::optional<Boid> found = readback.find_now(flock, boid.id);
    REQUIRE(found);
    CHECK(same_in_space(*found, boid));
  }
  CHECK_FALSE(readback.find_now(flock, 8));

  REQUIRE(readback.request_boid(flock, 99u));
  REQUIRE(readback.request_state(flock));
  const std::optional<BoidLookup> lookup = poll_until_ready([&] { return readback.latest_boid(); });
  const std::optional<FlockState> read = poll_until_ready([&] { return readback.latest_state(); });
  REQUIRE(lookup);
  REQUIRE(lookup->boid);
  CHECK(same_in_space(*lookup->boid, state.boids[3]));
  REQUIRE(read);
  FlockState sorted = state;
  sorted.sort_by_id();
  REQUIRE(read->boids.size() == sorted.boids.size());
  for (std::size_t k = 0; k < sorted.boids.size(); ++k)
    CHECK(same_in_space(read->boids[k], sorted.boids[k]));

  // The plane's reductions would read only x and y: they refuse rather than answer wrongly.
  CHECK_THROWS_AS(readback.request_summary(flock), InputError);
  CHECK_THROWS_AS(readback.request_nearest(flock, glm::vec2(1.0f)), InputError);
}
