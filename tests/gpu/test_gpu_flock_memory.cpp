// The GPU flock's and the renderer's bytes as the memory estimate counts them
// (docs/reliability.md, "The memory estimate"), against sizes counted here from the records'
// layouts (docs/gpu.md), not taken from the program. No GL context: the sizes are arithmetic.
#include <cstdint>

#include <catch2/catch.hpp>

#include "murmur/flock/gpu/gpu_flock_memory.hpp"
#include "murmur/render/renderer.hpp"
#include "test_scenarios.hpp"

namespace murmur {
namespace {

using test::one_species;

// Per slot: the candidates and the current state (a record each), seven uints (the boids'
// cells, the ids by cell, the children, the birth offsets, three trail-slot buffers), four
// uints of neighbour counts, and the positions and velocities as RGBA32F texels.
constexpr std::uint64_t kSlotUints = 7 * 4 + 4 * 4;

TEST_CASE("GPU flock memory: 40-byte records in 2D, 48 in 3D, twice, and the per-slot arrays") {
  const std::uint32_t boids = 5000;
  // 2D: two 40-byte records and one 16-byte motion texel.
  const MemoryNeed plane = gpu_flock_memory(one_species(boids));
  CHECK(plane.per_boid == 2 * 40 + kSlotUints + 16);
  // 3D: two 48-byte records and two motion texels.
  const MemoryNeed volume = gpu_flock_memory(one_species(boids, true));
  CHECK(volume.per_boid == 2 * 48 + kSlotUints + 32);
  CHECK(gpu_flock_buffer_bytes(one_species(boids), boids).boids == 40 * boids);
  CHECK(gpu_flock_buffer_bytes(one_species(boids, true), boids).boids == 48 * boids);
}

TEST_CASE("GPU flock memory: the fixed part holds the grid's cells and the obstacles") {
  const Scenario scenario = one_species(5000);
  const GpuFlockBufferBytes bytes = gpu_flock_buffer_bytes(scenario, 5000);
  // Counts and starts (a uint per cell and one more each) and the fill cursors.
  const std::uint64_t cells = bytes.cell_fill / 4;
  CHECK(cells > 0);
  CHECK(bytes.cell_starts == 4 * (cells + 1));
  const MemoryNeed need = gpu_flock_memory(scenario);
  CHECK(need.fixed >= 2 * 4 * (cells + 1) + 4 * cells + bytes.obstacles);
  // Without an ecosystem, no hunt records or food.
  CHECK(bytes.hunt == 0);
  CHECK(bytes.food == 0);
}

TEST_CASE("renderer memory: RGBA16F and RGBA8 targets, the bloom chain, ribbons per boid in "
          "the plane and in a volume") {
  RenderSettings settings;
  settings.bloom.enabled = false;
  settings.trails.mode = TrailMode::None;
  const glm::ivec2 frame(64, 32);
  // An HDR texel of four half floats and an output texel of four bytes.
  CHECK(renderer_memory(frame, settings, {100.0f, 100.0f}, false).fixed == 64 * 32 * (8 + 4));
  CHECK(renderer_memory(frame, settings, {100.0f, 100.0f}, false).per_boid == 0);
  settings.trails.mode = TrailMode::Ribbons;
  settings.trails.ribbon_length = 10;
  // Ten positions of a vec4 and a 20-byte owner per boid.
  CHECK(renderer_memory(frame, settings, {100.0f, 100.0f}, false).per_boid == 10 * 16 + 20);
  // In a volume an entry is two vec4s: the position and the velocity.
  CHECK(renderer_memory(frame, settings, {100.0f, 100.0f}, true).per_boid == 10 * 32 + 20);
  // A 3D world keeps ribbons for the fade map, and no map.
  settings.trails.mode = TrailMode::FadeMap;
  CHECK(renderer_memory(frame, settings, {100.0f, 100.0f}, true).per_boid == 10 * 32 + 20);
  CHECK(renderer_memory(frame, settings, {100.0f, 100.0f}, true).fixed == 64 * 32 * (8 + 4));
}

}  // namespace
}  // namespace murmur
