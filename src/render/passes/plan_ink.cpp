#include "plan_ink.hpp"

#include <cstddef>

namespace murmur::render {
namespace {

// glDrawArraysIndirect's command (GL 4.5 spec, 10.4): the plan's ink record holds one.
struct DrawArraysIndirectCommand {
  GLuint count;
  GLuint instance_count;
  GLuint first;
  GLuint base_instance;
};

// The std430 RenderPlanInk record of shaders/render/render_plan.glsl: the segments' indirect
// draw, then what the ink layer holds.
struct PlanInkRecord {
  DrawArraysIndirectCommand draw;
  GLuint first_point, inked, point_count;
};
static_assert(sizeof(PlanInkRecord) == 28 && offsetof(PlanInkRecord, inked) == 20 &&
              offsetof(PlanInkRecord, point_count) == 24);

PlanInkRecord empty_record() {
  PlanInkRecord ink{};
  ink.draw.instance_count = 1;  // plan_ink_range.comp writes the vertex count
  return ink;
}

}  // namespace

PlanInkPrograms::PlanInkPrograms()
    : segments{gl::Program::graphics("render/plan_segments.vert", "render/trail_ribbon.frag",
                                     render_constants())},
      range(gl::Program::compute("render/plan_ink_range.comp", render_constants())),
      composite(gl::Program::graphics("render/render_fullscreen.vert",
                                      "render/plan_ink_composite.frag", render_constants())) {}

PlanInk::PlanInk() {
  const PlanInkRecord ink = empty_record();
  record = gl::Buffer("murmur.render.plan_ink", sizeof ink, &ink);
}

void draw_plan_ink(const PlanInkPrograms& programs, PlanInk& ink, const RenderSettings& settings,
                   const PlanScenario& scenario, const GpuPlanBuffers& plan,
                   std::uint64_t history, const WorldView& view, const RenderTarget& hdr,
                   const PassGeometry& geometry) {
  const PlanParams& params = scenario.plan;
  const PlanStyle& style = settings.plan;
  const bool on_paper = settings.blend == BlendMode::Ink;
  const PlanInk::Drawn wanted{history,
                              hdr.size,
                              view.world_centre,
                              view.pixels_per_world_unit,
                              params.vertical_width,
                              params.horizontal_width,
                              style.min_line_pixels,
                              on_paper ? glm::vec4(style.ink, 1.0f) : glm::vec4(style.glow, 1.0f)};
  if (ink.layer.id() == 0 || ink.layer.width() != hdr.size.x || ink.layer.height() != hdr.size.y) {
    ink.layer = gl::Texture("murmur.render.plan_ink_layer", GL_RGBA16F, hdr.size.x, hdr.size.y);
    ink.framebuffer = gl::Framebuffer("murmur.render.plan_ink_framebuffer");
    ink.framebuffer.attach_colour(ink.layer);
    ink.framebuffer.check_complete();
    ink.drawn.reset();
  }
  if (ink.drawn != wanted) {
    clear_colour(ink.framebuffer.id(), glm::vec3(0.0f), 0.0f);
    const GLuint nothing_inked = 0;
    ink.record.upload(offsetof(PlanInkRecord, inked), sizeof nothing_inked, &nothing_inked);
    ink.drawn = wanted;
  }

  // The segments saved since the last frame, counted on the GPU from the plan's point count.
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
  glCopyNamedBufferSubData(plan.control, ink.record.id(),
                           static_cast<GLintptr>(plan.point_count_offset),
                           offsetof(PlanInkRecord, point_count), sizeof(GLuint));
  ink.record.bind_storage(MURMUR_BIND_RENDER_PLAN_INK);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // the copy reaches plan_ink_range
  programs.range.use();
  glDispatchCompute(1, 1, 1);
  // plan_ink_range writes the draw's command and first point; the draw and its vertex shader
  // read them
  glMemoryBarrier(GL_COMMAND_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);

  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, MURMUR_BIND_RENDER_PLAN_POINTS, plan.points);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, MURMUR_BIND_RENDER_PLAN_PREVIOUS, plan.previous);
  // The children's origins.
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, MURMUR_BIND_RENDER_PLAN_AGENTS, plan.agents);
  const PlanInkPrograms::Segments& segments = programs.segments;
  segments.view.set(view);
  segments.vertical_width.set(params.vertical_width);
  segments.horizontal_width.set(params.horizontal_width);
  segments.min_width_pixels.set(style.min_line_pixels);
  segments.first_line_step.set(static_cast<std::uint32_t>(kPlanFirstLineStep));
  segments.colour.set(wanted.colour);
  // The union of the strokes: where segments overlap (every corner) the layer keeps one
  // stroke's colour instead of adding them up, so joints do not show as dots.
  gl::DrawState layer = gl::draw_into(ink.framebuffer.id(), hdr.size);
  layer.blend = gl::Blend::same(GL_ONE, GL_ONE, GL_MAX);
  gl::apply(layer);
  geometry.bind_empty();
  segments.program.use();
  glBindBuffer(GL_DRAW_INDIRECT_BUFFER, ink.record.id());
  glDrawArraysIndirect(GL_TRIANGLES, reinterpret_cast<const void*>(offsetof(PlanInkRecord, draw)));

  // The layer onto the frame, inside the world's rectangle: the page ends at the canvas.
  gl::DrawState frame = hdr.whole();
  frame.scissor = world_scissor(view);
  if (!frame.scissor) return;
  frame.blend = mark_blend(settings.blend);
  gl::apply(frame);
  glBindTextureUnit(MURMUR_PLAN_INK_TEXTURE_UNIT, ink.layer.id());
  programs.composite.use();
  geometry.draw_fullscreen();
}

}  // namespace murmur::render
