#include "murmur/gl/draw_state.hpp"

namespace murmur::gl {

void apply(const DrawState& state) {
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, state.framebuffer);
  glViewport(state.viewport.origin.x, state.viewport.origin.y, state.viewport.size.x,
             state.viewport.size.y);
  if (state.scissor) {
    glEnable(GL_SCISSOR_TEST);
    glScissor(state.scissor->origin.x, state.scissor->origin.y, state.scissor->size.x,
              state.scissor->size.y);
  } else {
    glDisable(GL_SCISSOR_TEST);
  }
  if (state.blend) {
    const Blend& blend = *state.blend;
    glEnable(GL_BLEND);
    glBlendEquation(blend.equation);
    glBlendFuncSeparate(blend.source_colour, blend.target_colour, blend.source_alpha,
                        blend.target_alpha);
    glBlendColor(blend.constant.r, blend.constant.g, blend.constant.b, blend.constant.a);
  } else {
    glDisable(GL_BLEND);
  }
  glColorMaski(0, GL_TRUE, GL_TRUE, GL_TRUE, state.write_alpha ? GL_TRUE : GL_FALSE);
  if (state.program_point_size)
    glEnable(GL_PROGRAM_POINT_SIZE);
  else
    glDisable(GL_PROGRAM_POINT_SIZE);
  glPointSize(state.point_size);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glDisable(GL_FRAMEBUFFER_SRGB);
}

}  // namespace murmur::gl
