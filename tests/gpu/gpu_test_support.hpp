#pragma once
// Shared by the GPU tests: one headless context per test process, and small scenarios.
#include <memory>

#include <catch2/catch.hpp>

#include "murmur/gl/context.hpp"
#include "murmur/gl/debug.hpp"
#include "murmur/scenario.hpp"

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

inline SpeciesParams species(const char* name, std::uint32_t count, Topology topology, float radius,
                             float separation_radius) {
  SpeciesParams s;
  s.name = name;
  s.count = count;
  s.topology = topology;
  s.perception_radius = radius;
  s.separation_radius = separation_radius;
  s.fov_degrees = 360;
  s.align_weight = 0.05f;
  s.cohesion_weight = 0.01f;
  s.separation_weight = 1.0f;
  s.max_force = 0.1f;
  s.min_speed = 0.5f;
  s.max_speed = 2.0f;
  if (topology == Topology::Bounded) {
    s.edge_margin = 5.0f;
    s.edge_gain = 0.02f;
  }
  return s;
}

inline Scenario world(float width, float height, std::uint64_t seed) {
  Scenario sc;
  sc.world.width = width;
  sc.world.height = height;
  sc.world.seed = seed;
  sc.source = "test";
  return sc;
}

}  // namespace murmur::test
