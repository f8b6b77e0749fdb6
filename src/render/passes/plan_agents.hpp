#pragma once
// The plan agents pass: a floor plan's living agents as discs at the ends of their lines
// (shaders/render/plan_agents.vert, plan_agents.frag; docs/rendering.md, "Floor plans").
#include "pass.hpp"

namespace murmur::render {

struct PlanAgentsPrograms {
  PlanAgentsPrograms();
  gl::Program program;
  PlanViewUniforms view{program};
  gl::Uniform marker_pixels{program, "u_marker_pixels"}, colour{program, "u_colour"};
};

// Reads the plan's agents; writes the world's rectangle of `hdr`.
void draw_plan_agents(const PlanAgentsPrograms& programs, const RenderSettings& settings,
                      const GpuPlanBuffers& plan, const WorldView& view, const RenderTarget& hdr,
                      PassGeometry& geometry);

}  // namespace murmur::render
