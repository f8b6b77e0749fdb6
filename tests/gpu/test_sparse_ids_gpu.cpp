// Sparse ids on the GPU: a flock whose ids are scattered over [0, 2^32), 0 and 0xFFFFFFFF
// among them, steps on the grid and the all-pairs pass exactly as the same flock numbered
// 0..N-1 (the grid ranks cell mates by id, and an order-preserving renaming keeps every rank),
// and the harness matches GPU and CPU boids by id, not by position in a dense range.
#include <cstring>
#include <vector>

#include "gpu_test_support.hpp"
#include "murmur/flock/cpu_flock.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/flock/gpu/harness.hpp"
#include "sparse_ids.hpp"

using namespace murmur;

namespace {

// A wrapping species with a limited view and a walled one, so every branch of the step runs.
Scenario two_species() {
  Scenario s = test::world(240.0f, 180.0f, 99);
  SpeciesParams wrap = test::species("wrapper", 900, Topology::Wrap, 10.0f, 4.0f);
  wrap.fov_degrees = 270.0f;
  s.species.push_back(wrap);
  s.species.push_back(test::species("walled", 600, Topology::Bounded, 8.0f, 3.0f));
  return s;
}

bool bit_identical(const FlockState& a, const FlockState& b) {
  static_assert(sizeof(Boid) == 2 * sizeof(glm::vec2) + 4 * sizeof(std::uint32_t) + 2 * sizeof(float),
                "Boid has padding: memcmp would compare garbage");
  return a.boids.size() == b.boids.size() &&
         std::memcmp(a.boids.data(), b.boids.data(), a.boids.size() * sizeof(Boid)) == 0;
}

constexpr std::uint32_t kSteeredDenseId = 321;
constexpr std::uint32_t kSteps = 15;

}  // namespace

TEST_CASE("GPU: ids scattered over the whole uint32 range step exactly as ids 0..N-1",
          "[ids]") {
  test::gl_context();
  gl::DebugMessenger debug;
  const Scenario scenario = two_species();
  const FlockState dense_start = seeded_start(scenario);
  const std::vector<std::uint32_t> ids = test::scattered_ids(dense_start.boids.size(), 17);
  const FlockState sparse_start = test::renamed(dense_start, ids);
  const glm::vec2 steered_velocity{0.75f, -1.25f};

  for (const NeighbourSearch search : {NeighbourSearch::Grid, NeighbourSearch::Naive}) {
    INFO((search == NeighbourSearch::Grid ? "grid" : "naive"));
    GpuFlock dense(scenario, dense_start, search);
    GpuFlock sparse(scenario, sparse_start, search);
    dense.set_steered(SteeredBoid{kSteeredDenseId, steered_velocity});
    sparse.set_steered(SteeredBoid{ids[kSteeredDenseId], steered_velocity});
    dense.step(kSteps);
    sparse.step(kSteps);
    const FlockState dense_after = dense.download();
    const FlockState sparse_after = sparse.download();
    CHECK(bit_identical(test::renamed(dense_after, ids), sparse_after));
    // The steered boid flew at the set velocity, so it was found by its sparse id.
    const Boid& steered = sparse_after.boids[kSteeredDenseId];
    REQUIRE(steered.id == ids[kSteeredDenseId]);
    CHECK(steered.vel == steered_velocity);

    const std::vector<GpuNeighbourCounts> dense_counts = dense.download_neighbour_counts();
    const std::vector<GpuNeighbourCounts> sparse_counts = sparse.download_neighbour_counts();
    REQUIRE(sparse_counts.size() == dense_counts.size());
    for (std::size_t k = 0; k < dense_counts.size(); ++k) {
      INFO("boid " << k);
      REQUIRE(sparse_counts[k].id == ids[dense_counts[k].id]);
      REQUIRE(sparse_counts[k].visible == dense_counts[k].visible);
      REQUIRE(sparse_counts[k].flock == dense_counts[k].flock);
      REQUIRE(sparse_counts[k].separating == dense_counts[k].separating);
    }
  }
  CHECK(debug.error_count() == 0);
}

TEST_CASE("GPU: the harness compares a sparse-id flock with the CPU boid by boid", "[ids]") {
  test::gl_context();
  const Scenario scenario = two_species();
  const FlockState dense_start = seeded_start(scenario);
  const std::vector<std::uint32_t> ids = test::scattered_ids(dense_start.boids.size(), 23);
  CompareOptions options;
  options.lockstep_steps = 2;
  options.free_steps = 10;
  options.samples = 2;
  options.steered = SteeredBoid{ids[kSteeredDenseId], glm::vec2{0.5f, 0.5f}};
  const CompareReport report = run_comparison(scenario, test::renamed(dense_start, ids), options);
  INFO(report.table());
  CHECK(report.neighbours.boids == options.lockstep_steps * dense_start.boids.size());
  CHECK(report.passed());
}
