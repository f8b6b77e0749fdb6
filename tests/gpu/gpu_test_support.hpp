#pragma once
// Shared by the GPU tests: one headless context per test process, and small scenarios.
#include <memory>

#include <catch2/catch.hpp>

#include "murmur/gl/context.hpp"
#include "murmur/gl/debug.hpp"
#include "murmur/scenario/scenario.hpp"
#include "test_scenarios.hpp"

namespace murmur::test {

// The process's headless GL context (created on first use, with KHR_debug output).
// CI always has Mesa's llvmpipe, so failing to create one is a test failure, not a skip.
inline gl::Context& gl_context() {
  static std::unique_ptr<gl::Context> context = [] {
    gl::HeadlessOptions options;
    options.debug = true;
    return gl::create_headless_context(options);
  }();
  context->make_current();
  return *context;
}

// A flocking species with the GPU tests' steering; `radius` is the perception radius.
inline SpeciesParams species(const char* name, std::uint32_t count, Topology topology, float radius,
                             float separation_radius) {
  return make_species(name, topology, radius, separation_radius,
                      {.align = 0.05f, .cohesion = 0.01f, .separation = 1.0f},
                      {.margin = 5.0f, .gain = 0.02f}, count);
}

// An empty world; callers add species.
inline Scenario world(float width, float height, std::uint64_t seed) {
  Scenario sc = world_of(width, height, {}, seed);
  sc.source = "test";
  return sc;
}

}  // namespace murmur::test
