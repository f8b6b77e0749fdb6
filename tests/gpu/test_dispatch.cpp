// Compute dispatches folded into x*y workgroups past GL's 65535 per dimension: the shape every
// pass uses (murmur/gl/dispatch.hpp), the renderer's passes over every boid at the largest
// flocks, every compute shader unfolding its index, and the fold on the real driver.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "gpu_test_support.hpp"
#include "murmur/gl/debug.hpp"
#include "murmur/gl/dispatch.hpp"
#include "murmur/gl/objects.hpp"
#include "murmur/gl/program.hpp"
#include "murmur/gl/shader_source.hpp"
#include "murmur/render/renderer.hpp"

using murmur::gl::DispatchShape;
using murmur::gl::folded_dispatch;
using murmur::gl::kMaxGroupsPerDimension;

namespace {

// The most boids a scenario may hold (docs/scenarios.md).
constexpr std::uint32_t kMostBoids = std::uint32_t{1} << 24;

// A shape runs every group asked for, stays within GL's guaranteed limit in each dimension,
// and adds at most one partial row of spare groups (which the shaders skip).
void check_covers(std::uint64_t groups, DispatchShape shape) {
  INFO("groups " << groups << " as " << shape.x << " x " << shape.y);
  CHECK(shape.x <= kMaxGroupsPerDimension);
  CHECK(shape.y <= kMaxGroupsPerDimension);
  CHECK(shape.groups() >= groups);
  CHECK(shape.groups() - groups < shape.x);
}

}  // namespace

TEST_CASE("a dispatch folds into rows only past the per-dimension limit", "[dispatch]") {
  CHECK(folded_dispatch(0).groups() == 0);
  for (const std::uint32_t groups : {1u, 64u, kMaxGroupsPerDimension - 1, kMaxGroupsPerDimension}) {
    const DispatchShape shape = folded_dispatch(groups);
    CHECK(shape.x == groups);
    CHECK(shape.y == 1u);
  }
  for (const std::uint32_t groups :
       {kMaxGroupsPerDimension + 1, 2 * kMaxGroupsPerDimension, 2 * kMaxGroupsPerDimension + 1,
        kMostBoids, kMaxGroupsPerDimension * kMaxGroupsPerDimension}) {
    const DispatchShape shape = folded_dispatch(groups);
    CHECK(shape.x == kMaxGroupsPerDimension);
    check_covers(groups, shape);
  }
  CHECK(murmur::gl::groups_for(UINT32_MAX, 128) == (std::uint64_t{UINT32_MAX} + 127) / 128);
}

TEST_CASE("ribbons and overlay circles reach every boid past 65535 workgroups", "[dispatch]") {
  // One group more than a single row holds, and the largest flock validation accepts.
  for (const std::uint32_t boids :
       {kMaxGroupsPerDimension * murmur::kRenderGroupSize + 1, kMostBoids}) {
    const DispatchShape shape = murmur::boid_pass_dispatch(boids);
    INFO(boids << " boids");
    CHECK(shape.y >= 2u);
    CHECK(shape.groups() * murmur::kRenderGroupSize >= boids);
    check_covers(murmur::gl::groups_for(boids, murmur::kRenderGroupSize), shape);
  }
  const DispatchShape small = murmur::boid_pass_dispatch(1000);
  CHECK(small.x == murmur::gl::groups_for(1000, murmur::kRenderGroupSize));
  CHECK(small.y == 1u);
}

TEST_CASE("every compute shader indexes its items through compute_index.glsl", "[dispatch]") {
  // A shader reading gl_GlobalInvocationID or gl_WorkGroupID itself sees only the first row
  // of a folded dispatch: past 65535 groups its items would silently go unprocessed.
  int compute_shaders = 0;
  for (const auto& [name, text] : murmur::gl::embedded_shader_files()) {
    if (!name.ends_with(".comp")) continue;
    ++compute_shaders;
    INFO("shaders/" << name);
    // A pass of one workgroup (a total, a population update) has nothing to unfold; every
    // other pass must read its index through compute_index.glsl.
    const bool single_workgroup = text.find("linear_invocation_index") == std::string_view::npos &&
                                  text.find("linear_group_index") == std::string_view::npos;
    if (!single_workgroup)
      CHECK(text.find("#include \"common/compute_index.glsl\"") != std::string_view::npos);
    CHECK(text.find("gl_GlobalInvocationID") == std::string_view::npos);
    CHECK(text.find("gl_WorkGroupID") == std::string_view::npos);
  }
  CHECK(compute_shaders > 0);
}

TEST_CASE("a folded dispatch runs each index once on the driver", "[dispatch][gl]") {
  murmur::test::gl_context();
  murmur::gl::DebugMessenger messenger;
  std::map<std::string, std::string_view> files = murmur::gl::embedded_shader_files();
  files["count_hits.comp"] = R"(#version 450
layout(local_size_x = 1) in;
#include "common/compute_index.glsl"
layout(std430, binding = 0) buffer Hits { uint hits[]; };  // hits[u_count]: spare invocations
uniform uint u_count;
void main() { atomicAdd(hits[min(linear_invocation_index(), u_count)], 1u); }
)";
  // One invocation per group, so that the fold costs little: a second, partial row.
  constexpr std::uint32_t kCount = kMaxGroupsPerDimension + 1000;
  const murmur::gl::Program program = murmur::gl::Program::compute("count_hits.comp", {}, files);
  murmur::gl::Buffer hits("dispatch hits", sizeof(std::uint32_t) * (kCount + 1));
  hits.clear_to_zero();
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  hits.bind_storage(0);
  glProgramUniform1ui(program.id(), program.uniform("u_count"), kCount);
  program.use();
  const DispatchShape shape = folded_dispatch(kCount);
  REQUIRE(shape.y == 2u);
  murmur::gl::dispatch(shape);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<std::uint32_t> counts(kCount + 1);
  hits.download(0, sizeof(std::uint32_t) * counts.size(), counts.data());

  std::uint32_t missed = 0, repeated = 0;
  for (std::uint32_t index = 0; index < kCount; ++index) {
    if (counts[index] == 0) ++missed;
    if (counts[index] > 1) ++repeated;
  }
  CHECK(missed == 0);
  CHECK(repeated == 0);
  CHECK(counts[kCount] == shape.groups() - kCount);
  CHECK(messenger.error_count() == 0);
}
