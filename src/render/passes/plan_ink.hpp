#pragma once
// The plan ink pass (docs/rendering.md, "Floor plans"): a floor plan's lines, inked into a
// layer the frame's size and kept between frames. Each frame adds the segments of the points
// saved since the last (shaders/render/plan_ink_range.comp, plan_segments.vert), unless what
// the layer was drawn for changed, which clears it and draws every segment again; then lays the
// layer onto the frame (plan_ink_composite.frag).
#include <cstdint>
#include <optional>

#include "pass.hpp"

namespace murmur::render {

struct PlanInkPrograms {
  struct Segments {
    gl::Program program;
    PlanViewUniforms view{program};
    gl::Uniform vertical_width{program, "u_vertical_width"},
        horizontal_width{program, "u_horizontal_width"},
        min_width_pixels{program, "u_min_width_pixels"},
        first_line_step{program, "u_first_line_step"}, colour{program, "u_colour"};
  };
  PlanInkPrograms();
  Segments segments;
  gl::Program range;
  gl::Program composite;
};

struct PlanInk {
  PlanInk();
  // What the layer's pixels depend on.
  struct Drawn {
    std::uint64_t history = 0;
    glm::ivec2 frame{0};
    glm::vec2 world_centre{0.0f};
    float pixels_per_world_unit = 0;
    float vertical_width = 0, horizontal_width = 0, min_width_pixels = 0;
    glm::vec4 colour{0.0f};
    bool operator==(const Drawn&) const = default;
  };
  gl::Texture layer;  // RGBA16F, premultiplied: glowing lines must not clip at 1
  gl::Framebuffer framebuffer;
  gl::Buffer record;  // shaders/render/render_plan.glsl's RenderPlanInk
  std::optional<Drawn> drawn;
  // The next frame draws every line again.
  void forget() { drawn.reset(); }
};

// Reads the plan's buffers (`history` names the plan whose points they hold); writes `ink` and
// the world's rectangle of `hdr`.
void draw_plan_ink(const PlanInkPrograms& programs, PlanInk& ink, const RenderSettings& settings,
                   const PlanScenario& scenario, const GpuPlanBuffers& plan,
                   std::uint64_t history, const WorldView& view, const RenderTarget& hdr,
                   const PassGeometry& geometry);

}  // namespace murmur::render
