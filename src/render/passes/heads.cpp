#include "heads.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>

#include <glm/common.hpp>
#include <glm/vector_relational.hpp>

#include "murmur/render/density.hpp"

namespace murmur::render {
namespace {

constexpr GLuint kPointHeadVertices = 1;  // GL_POINTS: one-pixel heads and sprites
// What a head is drawn as (MURMUR_HEAD_SHAPE in shaders/render/heads.vert): a one-pixel point, a
// dart or a square cut round. Darts and squares are triangles, or one point sprite each.
enum class HeadPrimitive : std::uint32_t {
  Pixel = MURMUR_HEAD_SHAPE_PIXEL,
  Dart = MURMUR_HEAD_SHAPE_DART,
  Square = MURMUR_HEAD_SHAPE_SQUARE
};
// The widest dart drawn as a point sprite, in pixels of the sprite's side (the dart turned any
// way fits in it). llvmpipe sets up and bins a small triangle for about what it shades some 100
// pixels for, a point for far less; but a sprite shades its whole square, 5 times the dart's
// triangle at the default width, and past this side the triangle costs less (20,000 darts
// 5.4 pixels across: heads 0.80 of the triangles' time; 8.9: 1.00; 15.6: 1.48). A disc's
// square is what its two triangles cover, and its sprite always costs less (14 pixels: 0.66;
// 30: 0.83), up to GL's largest point.
constexpr float kMaxDartSpritePixels = 8.0f;

std::string heads_variant(ColourMode mode, HeadPrimitive shape, bool sprite) {
  return colour_variant(mode) +
         variant_define("MURMUR_HEAD_SHAPE", static_cast<std::uint32_t>(shape)) +
         flag("MURMUR_HEAD_SPRITE", sprite);
}

// Per species, the age at which the age look's disc is full: its max_age, or the style's scale
// (never 0: the shader divides by it).
std::array<float, kMaxSpecies> age_scales(const HeadStyle& style, const Scenario& scenario) {
  std::array<float, kMaxSpecies> scales;
  scales.fill(std::max(style.age_scale, std::numeric_limits<float>::min()));
  for (std::size_t s = 0; s < std::min(scenario.species.size(), kMaxSpecies); ++s)
    if (scenario.species[s].max_age > 0)
      scales[s] = static_cast<float>(scenario.species[s].max_age);
  return scales;
}

}  // namespace

HeadsPrograms::Heads::Heads(const std::string& variant)
    : program(gl::Program::graphics("render/heads.vert", "render/heads.frag",
                                    render_constants() + variant)) {}

std::size_t HeadsPrograms::build_every_variant() {
  std::size_t built = 0;
  for (std::size_t index = 0; index < std::size(kColourModeNames); ++index) {
    const auto mode = static_cast<ColourMode>(index);
    heads[heads_variant(mode, HeadPrimitive::Pixel, false)];
    ++built;
    for (const HeadPrimitive shape : {HeadPrimitive::Dart, HeadPrimitive::Square})
      for (const bool sprite : {false, true}) {
        heads[heads_variant(mode, shape, sprite)];
        ++built;
      }
  }
  return built;
}

PointLimits PointLimits::query() {
  PointLimits limits;
  std::array<GLfloat, 2> point_sizes{1, 1};
  glGetFloatv(GL_POINT_SIZE_RANGE, point_sizes.data());
  limits.max_point_size = point_sizes[1];
  std::array<GLint, 2> viewport_dims{0, 0};
  glGetIntegerv(GL_MAX_VIEWPORT_DIMS, viewport_dims.data());
  limits.max_viewport_size = {viewport_dims[0], viewport_dims[1]};
  return limits;
}

void draw_heads(HeadsPrograms& programs, const RenderSettings& settings, const Scenario& scenario,
                BoidBufferView boids, const WorldView& view, const PointLimits& limits,
                const RenderTarget& hdr, PassGeometry& geometry) {
  if (boids.count == 0) return;
  const HeadStyle& style = settings.heads;
  const HeadLook look = head_look(settings, scenario, expected_boids(scenario, boids), view);

  // Points, darts or squares (discs, the age look): the heads' program is built for one.
  const bool squares = style.age_look || style.shape == HeadShape::Disc;
  const HeadPrimitive shape = look.points ? HeadPrimitive::Pixel
                              : squares   ? HeadPrimitive::Square
                                          : HeadPrimitive::Dart;
  const float head_width = look.length * style.width_ratio;
  // A square's side is the head's length (the age look's largest ring); a dart turns about
  // the boid, out to its wings' corners.
  const float sprite_pixels =
      view.pixels_per_world_unit *
      (squares ? look.length : std::sqrt(look.length * look.length + head_width * head_width));
  // GL clips a point by its centre: a sprite is drawn through a viewport wider than the frame
  // by its half side (and a pixel) each way, mapping the world as the frame does, so that a
  // head whose centre has just left the frame still shows its part inside, as its triangles'
  // would.
  const int sprite_margin = static_cast<int>(std::ceil(kHalf * sprite_pixels)) + 1;
  const glm::ivec2 sprite_viewport = hdr.size + 2 * sprite_margin;
  const bool sprite = shape != HeadPrimitive::Pixel && style.sprites &&
                      sprite_pixels <= limits.max_point_size &&
                      (squares || sprite_pixels <= kMaxDartSpritePixels) &&
                      glm::all(glm::lessThanEqual(sprite_viewport, limits.max_viewport_size));
  const HeadsPrograms::Heads& heads =
      programs.heads[heads_variant(settings.colour.mode, shape, sprite)];
  heads.view.set(view);
  heads.head_length.set(look.length);
  heads.head_width.set(head_width);
  heads.notch_ratio.set(style.notch_ratio);
  heads.intensity.set(look.intensity);
  heads.age_look.set(style.age_look);
  heads.age_scale.set(std::span<const float>(age_scales(style, scenario)));
  heads.age_min_size.set(style.age_min_size);
  heads.age_min_fill.set(style.age_min_fill);
  heads.frame_size.set(glm::vec2(hdr.size));
  heads.pixels_per_world_unit.set(view.pixels_per_world_unit);
  heads.sprite_pixels.set(sprite_pixels);
  heads.sprite_clip_scale.set(glm::vec2(hdr.size) / glm::vec2(sprite_viewport));
  heads.colour.set(settings.colour, scenario, boids.step);

  // The boids were written by compute passes: the frame's load_live_count made those writes
  // visible to vertex shaders.
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, MURMUR_BIND_RENDER_BOIDS, boids.buffer);

  // A dart mirrored by a negative velocity flips its winding: nothing is culled (gl::apply).
  gl::DrawState state = hdr.whole();
  state.blend = mark_blend(settings.blend, GL_CONSTANT_ALPHA);
  // Each head adds its intensity (the multiple of its boid's colour) to the alpha channel.
  state.blend->constant = glm::vec4(0.0f, 0.0f, 0.0f, look.intensity);
  // A pixel's side comes from here, a sprite's from its vertex shader (gl_PointSize).
  state.point_size = kPointHeadPixels;
  if (sprite) {
    state.program_point_size = true;
    state.viewport = {glm::ivec2(-sprite_margin), sprite_viewport};
  }
  gl::apply(state);
  heads.program.use();
  // Every record is drawn; the vertex shader drops those past the live count (on the GPU).
  if (shape == HeadPrimitive::Pixel || sprite) {
    geometry.bind_empty();
    glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(kPointHeadVertices * boids.count));
  } else if (squares) {
    geometry.draw_quads(boids.count);
  } else {
    geometry.bind_empty();
    glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(MURMUR_HEAD_DART_VERTICES * boids.count));
  }
}

}  // namespace murmur::render
