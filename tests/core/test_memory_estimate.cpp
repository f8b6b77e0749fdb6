// The memory estimate (docs/reliability.md, "The memory estimate"): the refusal's decision and
// its largest flock against numbers solved by hand, the GPU's report chosen from the
// extensions' numbers, and the host terms of a state, a CPU step and the statistics against
// sizes counted field by field here, not taken from the program.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>

#include <catch2/catch.hpp>

#include "murmur/base/memory.hpp"
#include "murmur/base/parallel.hpp"
#include "murmur/flock/cpu_flock.hpp"
#include "murmur/flock/kdtree.hpp"
#include "murmur/flock/state.hpp"
#include "murmur/flock/stats.hpp"
#include "test_scenarios.hpp"

namespace murmur {
namespace {

constexpr std::uint64_t kKib = 1024;

using test::one_species;

TEST_CASE("memory refusal: the largest flock that fits is solved by hand, an eighth of margin") {
  const MemoryNeed need{1000, 100};
  const MemoryHeadroom room{1'126'000, "RLIMIT_AS (ulimit -v)"};
  // (1000 + 100 N) * 9 / 8 <= 1,126,000: N = 9998 needs 1,125,900 bytes, N = 9999 1,126,012.
  CHECK(with_estimate_margin(need.bytes(9998)) == 1'125'900);
  CHECK(largest_boids_within(need, room.bytes) == 9998);
  CHECK_FALSE(memory_refusal("host", need, 9998, room));
  const std::optional<std::string> refused = memory_refusal("host", need, 20000, room);
  REQUIRE(refused);
  CHECK(refused->find("not enough host memory for 20000 boids") != std::string::npos);
  // 2,001,000 counted and an eighth: 2,251,125 bytes.
  CHECK(refused->find("an estimated 2.1 MiB") != std::string::npos);
  CHECK(refused->find("1.1 MiB may still be taken (RLIMIT_AS (ulimit -v))") != std::string::npos);
  CHECK(refused->find("at most 9998 boids fit") != std::string::npos);
  CHECK(refused->find('\n') == std::string::npos);
}

TEST_CASE("memory refusal: nothing to check against, no refusal, and a fixed part too large, none fits") {
  CHECK_FALSE(memory_refusal("GPU", MemoryNeed{1, 1'000'000'000}, 1'000'000, std::nullopt));
  const MemoryHeadroom room{1000, "MemAvailable"};
  CHECK(largest_boids_within(MemoryNeed{1000, 1}, room.bytes) == 0);
  const std::optional<std::string> refused = memory_refusal("host", MemoryNeed{1000, 1}, 5, room);
  REQUIRE(refused);
  CHECK(refused->find("no flock fits") != std::string::npos);
  // Nothing that grows with the boids: every flock fits, up to a flock's 2^32 - 1.
  CHECK(largest_boids_within(MemoryNeed{10, 0}, room.bytes) == 0xFFFFFFFFu);
}

TEST_CASE("GPU memory: NVX's available video memory first, then ATI's free VBO memory, in KiB") {
  const std::optional<MemoryHeadroom> nvx = gpu_memory_reported(2048, 4096);
  REQUIRE(nvx);
  CHECK(nvx->bytes == 2048 * kKib);
  CHECK(nvx->limit.find("GL_NVX_gpu_memory_info") != std::string::npos);
  const std::optional<MemoryHeadroom> ati = gpu_memory_reported(std::nullopt, 4096);
  REQUIRE(ati);
  CHECK(ati->bytes == 4096 * kKib);
  CHECK(ati->limit.find("GL_ATI_meminfo") != std::string::npos);
  // llvmpipe has neither: the GPU's need is then not checked.
  const std::optional<MemoryHeadroom> neither = gpu_memory_reported(std::nullopt, std::nullopt);
  CHECK_FALSE(neither);
  CHECK_FALSE(memory_refusal("GPU", MemoryNeed{0, 1'000'000}, 1'000'000, neither));
}

TEST_CASE("host terms: a state's record, a k-d tree's point, counted field by field") {
  // Boid: pos and vel (2 x 8), id, species, age (3 x 4), energy, z, vz (3 x 4).
  CHECK(flock_state_memory(one_species(10)).per_boid == 40);
  // SpeciesTotals: born, dropped, died, 8 bytes each; no food field.
  CHECK(flock_state_memory(one_species(10)).fixed == 24);
  // A point (2 or 3 floats), its index, and a quarter of a node (at most two nodes a leaf of
  // eight): a node is its box (two double vectors) and four uints.
  CHECK(KdTree<2>::bytes_per_point() == 8 + 4 + (2 * (2 * 16 + 16)) / 8);
  CHECK(KdTree<3>::bytes_per_point() == 12 + 4 + (2 * (2 * 24 + 16)) / 8);
}

TEST_CASE("host terms: a CPU step's arrays per boid, in 2D and 3D, and its threads' stacks") {
  // The living boids' copy 40, positions 8, tree 24, grazed 4, ids 4, stepped records 40,
  // neighbour sums 68 (three vec2, four uints, a vec2, a bool padded to 4, a uint, a float,
  // a vec2), events 32 (fate padded to 4, a uint, two bools padded to 4, four floats, the
  // child's fate padded to 4), eaten_by 8 (an optional uint), two flags 2.
  CHECK(cpu_step_memory(one_species(100)).per_boid == 40 + 8 + 24 + 4 + 4 + 40 + 68 + 32 + 8 + 2);
  // In 3D: positions 12, tree 32, sums 88 (vec3s of 12 for the four vectors).
  CHECK(cpu_step_memory(one_species(100, true)).per_boid ==
        40 + 12 + 32 + 4 + 4 + 40 + 88 + 32 + 8 + 2);
  // 100 boids: one thread, the caller's; a million: as many as the cores, at most eight.
  CHECK(cpu_step_memory(one_species(100)).fixed == 0);
  const std::uint64_t cores = std::clamp(std::thread::hardware_concurrency(), 1u, kMaxWorkers);
  CHECK(cpu_step_memory(one_species(1'000'000)).fixed == (cores - 1) * thread_stack_bytes());
}

TEST_CASE("host terms: the statistics' positions, tree, species and disjoint sets per boid") {
  // 2D: a position 8, its tree 24, topology (a uint) 4 and radius 4, a parent and a size 8.
  CHECK(stats_memory(one_species(10)).per_boid == 8 + 24 + 4 + 4 + 8);
  CHECK(stats_memory(one_species(10, true)).per_boid == 12 + 32 + 4 + 4 + 8);
}

}  // namespace
}  // namespace murmur
