#pragma once
// The fixed-function state of a draw as one value: where it draws (framebuffer, viewport,
// scissor box), how its colour meets the target's, which channels it writes and how large its
// points are. A pass builds one and hands it to apply() before it draws, so no pass depends on
// what the pass before it left enabled.
#include <optional>

#include <glm/ext/vector_int2.hpp>
#include <glm/vec4.hpp>

#include "murmur/gl/gl.hpp"

namespace murmur::gl {

// A rectangle of a framebuffer in pixels from its bottom-left corner (GL's window coordinates).
struct PixelRect {
  glm::ivec2 origin{0};
  glm::ivec2 size{0};
};

// target = source x source factor (equation) target x target factor, for the colour channels
// and for alpha apart (glBlendEquation, glBlendFuncSeparate).
struct Blend {
  GLenum equation = GL_FUNC_ADD;
  GLenum source_colour = GL_ONE, target_colour = GL_ZERO;
  GLenum source_alpha = GL_ONE, target_alpha = GL_ZERO;
  glm::vec4 constant{0.0f};  // what the GL_CONSTANT_* factors read (glBlendColor)

  // The same factors for colour and alpha.
  static constexpr Blend same(GLenum source, GLenum target, GLenum equation = GL_FUNC_ADD) {
    return Blend{equation, source, target, source, target, glm::vec4(0.0f)};
  }
  // Sums: everything drawn adds onto the target.
  static constexpr Blend add() { return same(GL_ONE, GL_ONE); }
};

struct DrawState {
  GLuint framebuffer = 0;            // the draw framebuffer; 0: the window's
  PixelRect viewport;
  std::optional<PixelRect> scissor;  // nullopt: the whole framebuffer
  std::optional<Blend> blend;        // nullopt: a draw replaces the target's pixels
  bool write_alpha = true;           // colour attachment 0's alpha channel
  bool program_point_size = false;   // points take the vertex shader's gl_PointSize ...
  float point_size = 1.0f;           // ... or this
};

// The whole frame of a framebuffer of `size` pixels, no blending.
inline DrawState draw_into(GLuint framebuffer, glm::ivec2 size) {
  DrawState state;
  state.framebuffer = framebuffer;
  state.viewport = {glm::ivec2(0), size};
  return state;
}

// Sets every field of `state`, and turns off what no draw uses (depth test, face culling, the
// framebuffer's sRGB encoding: the shaders encode sRGB themselves).
void apply(const DrawState& state);

}  // namespace murmur::gl
