#pragma once
// What the render passes share: where a pass draws (RenderTarget), the vertex arrays every
// draw uses (PassGeometry), the uniforms several programs have (the view, the boids' colours,
// the local exposure's inputs), programs built per variant, and how marks blend into the HDR
// frame. Each pass is one file beside this one (docs/rendering.md, "Passes of one frame").
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <glm/ext/vector_int2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "murmur/gl/draw_state.hpp"
#include "murmur/gl/objects.hpp"
#include "murmur/gl/program.hpp"
#include "murmur/render/renderer.hpp"
#include "render/bindings.h"

namespace murmur::render {

inline constexpr GLsizei kFullscreenTriangleVertices = 3;
// Under glow the HDR frame's alpha sums the boids' light on each pixel in multiples of their
// colour (mark_blend): none yet.
inline constexpr float kNoMarks = 0.0f;
inline constexpr float kHalf = 0.5f;

// A framebuffer a pass draws into and its size.
struct RenderTarget {
  GLuint framebuffer = 0;
  glm::ivec2 size{0};
  // All of it, no blending: what each pass's DrawState starts from.
  gl::DrawState whole() const { return gl::draw_into(framebuffer, size); }
};

// The vertex arrays of the passes' draws: none bound (attribute-less draws; the core profile
// needs one bound) or quads by an index buffer.
class PassGeometry {
 public:
  PassGeometry();
  void bind_empty() const;
  // One triangle over the whole viewport (shaders/render/render_fullscreen.vert).
  void draw_fullscreen() const;
  // Draws quads 0 .. quads - 1 (4 vertices each, gl_VertexID / 4 the quad) with the bound
  // program: the heads, the ribbons and the plan's markers. The index buffer is made at the
  // first call.
  void draw_quads(std::uint32_t quads);

 private:
  gl::Buffer quad_indices_;
  gl::VertexArray quad_vertex_array_;
  gl::VertexArray empty_vertex_array_;
};

// Puts the view's live count in `live_count` and binds it for the compute passes and the vertex
// shaders that drop records past it, on the GPU.
void load_live_count(gl::Buffer& live_count, BoidBufferView boids);

// The world's rectangle in the frame as a scissor box; nullopt when none of it is in the frame.
std::optional<gl::PixelRect> world_scissor(const WorldView& view);
bool world_shown(const WorldView& view);

// How heads, trails, food and plans meet the HDR frame: added (glow), or laid over it by
// their opacity (ink; the shaders premultiply their colour by it, and heads are opaque).
// Under glow the HDR alpha channel sums the boids' light in multiples of their own colour,
// which the local exposure counts (docs/rendering.md, "Local exposure"): a draw adds its
// alpha times `glow_alpha` (GL_ONE: the alpha is that multiple; GL_CONSTANT_ALPHA: the blend
// colour's alpha is; GL_ZERO: not boid light, alpha left as it is).
gl::Blend mark_blend(BlendMode blend, GLenum glow_alpha = GL_ZERO);

// What the world's rectangle starts as: the background and no marks (glow), or the paper.
glm::vec4 world_sky(const RenderSettings& settings);

void clear_colour(GLuint framebuffer, glm::vec3 colour, float alpha = 1.0f);
// Linear filtering with the given wrap on both axes (texture() lookups of bloom and trails).
void set_sampling(const gl::Texture& texture, GLenum wrap);

// Each program with its uniforms, looked up once: a uniform a shader lacks is a GpuError when
// the renderer is made, not a value silently dropped every frame.

// Where the world sits on the screen (heads, ribbons and overlays place boids with it).
struct ViewUniforms {
  explicit ViewUniforms(const gl::Program& program)
      : world_centre(program, "u_world_centre"), world_to_clip(program, "u_world_to_clip") {}
  void set(const WorldView& view) const {
    world_centre.set(view.world_centre);
    world_to_clip.set(view.world_to_clip);
  }
  gl::Uniform world_centre, world_to_clip;
};

// The local exposure's inputs (shaders/render/render_exposure.glsl) in the programs that apply
// it, compiled out of their variants without it (MURMUR_LOCAL_EXPOSURE 0).
struct LocalExposureUniforms {
  static constexpr gl::Uniform::MayBeCompiledOut kWhenOff{};
  explicit LocalExposureUniforms(const gl::Program& program)
      : cells(program, "u_local_exposure_cells", kWhenOff),
        background(program, "u_background", kWhenOff) {}
  void set(glm::ivec2 cell_grid, glm::vec3 sky) const {
    cells.set(glm::uvec2(cell_grid));
    background.set(sky);
  }
  gl::Uniform cells, background;
};

// shaders/render/render_plan.glsl's view: world units to the frame's pixels.
struct PlanViewUniforms {
  explicit PlanViewUniforms(const gl::Program& program)
      : world_centre(program, "u_world_centre"),
        pixels_per_world_unit(program, "u_pixels_per_world_unit"),
        frame_size(program, "u_frame_size") {}
  void set(const WorldView& view) const {
    world_centre.set(view.world_centre);
    pixels_per_world_unit.set(view.pixels_per_world_unit);
    frame_size.set(glm::vec2(view.frame_size));
  }
  gl::Uniform world_centre, pixels_per_world_unit, frame_size;
};

// shaders/render/render_colour.glsl's inputs, in every program that colours boids. Each program
// is built for one colour mode (colour_variant), which compiles out the other modes' uniforms.
struct ColourUniforms {
  explicit ColourUniforms(const gl::Program& program);
  // `step`: the drift palette's clock (BoidBufferView::step).
  void set(const ColourSettings& colour, const Scenario& scenario, std::uint64_t step) const;
  gl::Uniform per_boid_variation, heading_saturation, heading_value, speed_ramp_slow,
      speed_ramp_fast, speed_ramp_min, speed_ramp_max, species_colour, energy_max, health_full,
      health_empty, drift_phase_per_id, drift_phase_now, drift_from, drift_to;
};

// A program built once per variant, a set of #defines the settings choose (a colour mode, a
// kind of head, a pass's options), the first time a frame needs it. A choice that a shader
// made with a uniform costs, on llvmpipe, every side's arithmetic and texture reads at every
// vertex or pixel: it runs both sides of each branch under a mask. Each variant compiles only
// its own.
template <class Pass>
class Variants {
 public:
  const Pass& operator[](const std::string& defines) {
    std::unique_ptr<Pass>& built = built_[defines];
    if (!built) built = std::make_unique<Pass>(defines);
    return *built;
  }

 private:
  std::map<std::string, std::unique_ptr<Pass>> built_;
};

std::string variant_define(const char* name, std::uint32_t value);
std::string flag(const char* name, bool on);
// A program that colours boids in `mode` (shaders/render/render_colour.glsl).
std::string colour_variant(ColourMode mode);
// The #defines every render program is built with besides shaders/render/bindings.h: the
// constants whose one definition is a C++ setting's (kMaxColourComponent, the local
// exposure's marks, the circle radii's kinds).
std::string render_constants();

}  // namespace murmur::render
