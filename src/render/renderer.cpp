#include "murmur/render/renderer.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "common/interface.h"
#include "murmur/gl/debug.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/flock/gpu/gpu_types.hpp"
#include "murmur/render/density.hpp"

namespace murmur {
namespace {

constexpr int kRgbaChannels = 4;
// Heads, ribbon segments and plan markers are quads: 4 vertices each and two triangles of
// them (corners 0 1 2 and 0 2 3, in heads.vert's, trail_ribbon.vert's and plan_agents.vert's
// order), by an index buffer, in one draw, not instances: llvmpipe runs an instanced draw
// instance by instance on one thread, a per-instance cost that was most of the heads pass, and
// shades each vertex of a non-indexed draw however often the triangles share it. Point heads
// are one vertex each.
constexpr GLuint kQuadCorners = 4;
constexpr std::array<GLuint, 6> kQuadCornerIndices{0, 1, 2, 0, 2, 3};
// Quads per draw: the index buffer repeats their pattern once per quad and each draw's base
// vertex moves it along, so the buffer stays small however many quads there are.
constexpr std::uint32_t kQuadsPerDraw = 1u << 16;
constexpr GLsizei kBoxVertices = 6;           // two triangles, see shaders/render/food_boxes.vert
constexpr GLsizei kLineVertices = 2;
constexpr GLuint kDartVertices = 3;            // one triangle, see shaders/render/heads.vert
constexpr GLuint kPointHeadVertices = 1;      // GL_POINTS: one-pixel heads and sprites
// What a head is drawn as (MURMUR_HEAD_SHAPE in shaders/render/heads.vert): a one-pixel point, a dart
// or a square cut round. Darts and squares are triangles, or one point sprite each.
enum class HeadPrimitive : std::uint32_t { Pixel, Dart, Square };
// The widest dart drawn as a point sprite, in pixels of the sprite's side (the dart turned any
// way fits in it). llvmpipe sets up and bins a small triangle for about what it shades some 100
// pixels for, a point for far less; but a sprite shades its whole square, 5 times the dart's
// triangle at the default width, and past this side the triangle costs less (20,000 darts
// 5.4 pixels across: heads 0.80 of the triangles' time; 8.9: 1.00; 15.6: 1.48). A disc's
// square is what its two triangles cover, and its sprite always costs less (14 pixels: 0.66;
// 30: 0.83), up to GL's largest point.
constexpr float kMaxDartSpritePixels = 8.0f;
constexpr GLsizei kFullscreenTriangleVertices = 3;
// The fade map's texels are multiplied by the fades of the steps since the last time once
// these reach this (record_step): 8 x the trails' light at most in a half float (65,504).
constexpr float kFadeMapRescaleBelow = 0.125f;
// The composite's taps on a map seen smaller than its texels (fade_map_taps_per_side).
constexpr float kFadeMapTexelsPerTap = 2.0f;
constexpr int kMaxFadeMapTapsPerSide = 16;
// The bloom's levels are the frame halved `levels` times but for the first halving: level 0 is
// a quarter of the frame's side (seed 002's glow blurs a third-size copy), the widest level
// stays where it was. On llvmpipe each bilinear tap costs a full-frame pass about as much as
// the rest of its pixel's work, and a half-size level took two passes over 230,400 texels at
// 1280x720 (its 16-tap bright-pass and the 9-tap blur added back onto it), most of the bloom's
// time. The bright-pass still weighs every frame pixel alike (quartering, its four bilinear
// taps fall at the centres of the 2x2 quarters of each texel's 4x4 block).
constexpr int kFirstBloomHalving = 2;
constexpr int kOverlayCircleSegments = 48;     // smooth at the few hundred pixels circles get
constexpr float kStepDuration = 1.0f;          // docs/model.md: one step is one time unit
constexpr float kHalf = 0.5f;
constexpr double kTurn = 6.283185307179586;  // radians
// The selected boid's sight, minimum-distance and body circles (render_overlay_circles.comp).
constexpr std::size_t kSelectedCircles = 3;
// Circles per trail slot (render_overlay_circles.comp): the first slots get a perception and a
// separation circle, `circles = "all"` one circle per boid.
constexpr std::uint32_t kMaxCirclesPerSlot = 2;

// Texture units and storage bindings of the render passes (passed to GLSL as #defines). The
// render bindings sit above the simulation's, which the simulation rebinds every step anyway.
constexpr GLuint kHdrTextureUnit = 0;
constexpr GLuint kBloomTextureUnit = 1;
constexpr GLuint kFadeMapTextureUnit = 2;
constexpr GLuint kBloomSourceTextureUnit = 3;
constexpr GLuint kBindTrailRing = 16;
constexpr GLuint kBindTrailOwners = 17;
constexpr GLuint kBindOverlayShapes = 18;
constexpr GLuint kBindLiveCount = 19;
constexpr GLuint kBindFood = 20;
constexpr GLuint kBindExposure = 21;
constexpr GLuint kBindExposurePartials = 22;
constexpr GLuint kBindPlanAgents = 23;
constexpr GLuint kBindPlanPoints = 24;
constexpr GLuint kBindPlanPrevious = 25;
constexpr GLuint kBindPlanInk = 26;
constexpr GLuint kBindLocalExposure = 27;
constexpr GLuint kBindExposureCells = 28;
constexpr GLuint kBindExposureTiles = 29;
constexpr GLuint kBindExposureDensity = 30;
constexpr GLuint kBindStampSums = 31;
// Below the render's range, in one of the simulation's slots (which it rebinds every step): the
// stamps' passes bind nothing else there.
constexpr GLuint kBindStampTexels = 1;
constexpr GLuint kPlanInkTextureUnit = 4;
// The exposure's buffers as buffer textures (shaders/render/render_exposure.glsl): the factors the
// bloom and the resolve read, then the stages' own; units 8 to 13 are the simulation's views
// (shaders/common/interface.h).
constexpr GLuint kLocalExposureTextureUnit = 6;
// The local factors as a texture: gathered by the resolve and the bloom, written by the field
// stage through an image unit.
constexpr GLuint kLocalExposureMapTextureUnit = 7;
constexpr GLuint kLocalExposureImageUnit = 0;
// The automatic exposure's factor (exposure_) as a uniform block for the per-pixel readers.
constexpr GLuint kBindExposureUniform = 0;
constexpr GLuint kExposureCellsTextureUnit = 16;
constexpr GLuint kExposureDensityTextureUnit = 17;
constexpr GLuint kExposurePartialsTextureUnit = 18;
constexpr GLuint kExposureTilesTextureUnit = 19;
constexpr GLuint kPlanSegmentVertices = 6;  // a rectangle, see shaders/render/plan_segments.vert
// Side of the square pixel tile whose sums render_exposure.comp keeps; its workgroups are a
// tile's size too (16 x 16 = 256 invocations, within every GL 4.5 implementation's minimum of
// 1024), the last stage's reduction one invocation per pixel of a tile.
constexpr int kExposureTile = 16;
// render_exposure.comp's stages (MURMUR_EXPOSURE_STAGE, a program each), in the order they run.
constexpr std::uint32_t kExposureStageCells = 0;
constexpr std::uint32_t kExposureStageTiles = 1;
constexpr std::uint32_t kExposureStageFactors = 2;
constexpr std::uint32_t kExposureStageField = 3;
// The local exposure (docs/rendering.md, "Local exposure"): the side of its cells in pixels
// (a tile holds 4 x 4), and the dense mask's reach from a dense cell, in cells: full up to
// the first, none from the second (the window of render_exposure.comp's field stage).
constexpr int kLocalExposureCell = 4;
constexpr float kLocalExposureFullReach = 2.0f;
constexpr float kLocalExposureReach = 4.0f;
// The tiles whose light sets a tile's factor: those within this many tiles of it (5 x 5), so
// that a flock and the trail behind it, some 3 tiles long, keep their contrast.
constexpr int kLocalExposureTileReach = 2;
static_assert(kExposureTile % kLocalExposureCell == 0);
constexpr std::uint32_t kExposureTileInvocations = kExposureTile * kExposureTile;
constexpr float kUnitExposureScale = 1.0f;
// The fade map's alpha sums its faded stamps (ink lays their mean colour by it): none yet.
constexpr float kNoStamps = 0.0f;
// Under glow the HDR frame's alpha sums the boids' light on each pixel in multiples of their
// colour (mark_blending): none yet.
constexpr float kNoMarks = 0.0f;
// Linear luminance above the background's that counts a pixel as showing something (a faint
// trail) for the automatic exposure; below it, the pixel is sky.
constexpr float kLitLuminance = 0.01f;
// Rec. 709 luminance of linear RGB (as shaders/render/render_exposure.comp weighs pixels).
float luminance(glm::vec3 linear) { return glm::dot(linear, glm::vec3(0.2126f, 0.7152f, 0.0722f)); }

// The std430 TrailOwner record of shaders/render/render_trails.glsl.
struct TrailOwner {
  std::uint32_t id, species, first_generation, last_generation;
  float energy;
};
static_assert(sizeof(TrailOwner) == 20);

// glDrawArraysIndirect's command (GL 4.5 spec, 10.4): the plan's ink record holds one.
struct DrawArraysIndirectCommand {
  GLuint count;
  GLuint instance_count;
  GLuint first;
  GLuint base_instance;
};
// The narrowest fade-map stamp (texels): one texel a column of its path, as a GL line.
constexpr float kMinStampWidthTexels = 1.0f;
// The fade map's image unit (trail_stamp.comp).
constexpr GLuint kFadeMapImageUnit = 0;
// trail_stamp.comp's sums a map texel: the stamps, then the colour's three channels in fixed
// point (stamp_fixed_one).
constexpr std::uint32_t kStampSumWords = 4;
// The std430 head of trail_stamp.comp's StampTexelsBlock; the listed texels follow it.
struct StampTexelsHeader {
  std::array<std::uint32_t, 4> fold_groups;  // glDispatchComputeIndirect's x, y, z; unused
  std::uint32_t listing;                     // texels listed by this step's adds so far
  std::uint32_t listed;                      // texels the fold takes
  std::uint32_t capacity;                    // the map's texels
  std::uint32_t unused;
};
static_assert(sizeof(StampTexelsHeader) == 32 && offsetof(StampTexelsHeader, listing) == 16);
// The flock's Population record starts with its live count: a view's live_count_buffer is
// read at offset 0.
static_assert(offsetof(gpu::Population, live) == 0);

// The std430 RenderPlanInk record of shaders/render/render_plan.glsl: the segments' indirect draw,
// then what the ink layer holds.
struct PlanInkRecord {
  DrawArraysIndirectCommand draw;
  GLuint first_point, inked, point_count;
};
static_assert(sizeof(PlanInkRecord) == 28 && offsetof(PlanInkRecord, inked) == 20 &&
              offsetof(PlanInkRecord, point_count) == 24);

// The std430 OverlayShape record of shaders/render/render_overlay.vert.
struct OverlayShape {
  glm::vec4 geometry;
  glm::vec4 colour;
};
static_assert(sizeof(OverlayShape) == 32);

std::string render_defines() {
  const auto define = [](const char* name, auto value) {
    return std::string("#define ") + name + " " + std::to_string(value) + "\n";
  };
  // MURMUR_MAX_SPECIES and MURMUR_COLOUR_MODE_* come from the generated params.glsl.
  return define("MURMUR_HDR_TEXTURE_UNIT", kHdrTextureUnit) +
         define("MURMUR_BLOOM_TEXTURE_UNIT", kBloomTextureUnit) +
         define("MURMUR_FADE_MAP_TEXTURE_UNIT", kFadeMapTextureUnit) +
         define("MURMUR_BLOOM_SOURCE_TEXTURE_UNIT", kBloomSourceTextureUnit) +
         define("MURMUR_BIND_TRAIL_RING", kBindTrailRing) +
         define("MURMUR_BIND_TRAIL_OWNERS", kBindTrailOwners) +
         define("MURMUR_BIND_RENDER_LIVE_COUNT", kBindLiveCount) +
         define("MURMUR_BIND_RENDER_FOOD", kBindFood) +
         define("MURMUR_BIND_OVERLAY_SHAPES", kBindOverlayShapes) +
         define("MURMUR_BIND_EXPOSURE", kBindExposure) +
         define("MURMUR_BIND_EXPOSURE_PARTIALS", kBindExposurePartials) +
         define("MURMUR_BIND_RENDER_PLAN_AGENTS", kBindPlanAgents) +
         define("MURMUR_BIND_RENDER_PLAN_POINTS", kBindPlanPoints) +
         define("MURMUR_BIND_RENDER_PLAN_PREVIOUS", kBindPlanPrevious) +
         define("MURMUR_BIND_RENDER_PLAN_INK", kBindPlanInk) +
         define("MURMUR_PLAN_INK_TEXTURE_UNIT", kPlanInkTextureUnit) +
         define("MURMUR_PLAN_SEGMENT_VERTICES", kPlanSegmentVertices) +
         define("MURMUR_EXPOSURE_TILE", kExposureTile) +
         define("MURMUR_EXPOSURE_STAGE_CELLS", kExposureStageCells) +
         define("MURMUR_EXPOSURE_STAGE_TILES", kExposureStageTiles) +
         define("MURMUR_EXPOSURE_STAGE_FACTORS", kExposureStageFactors) +
         define("MURMUR_EXPOSURE_STAGE_FIELD", kExposureStageField) +
         define("MURMUR_BIND_LOCAL_EXPOSURE", kBindLocalExposure) +
         define("MURMUR_BIND_EXPOSURE_CELLS", kBindExposureCells) +
         define("MURMUR_BIND_EXPOSURE_TILES", kBindExposureTiles) +
         define("MURMUR_BIND_EXPOSURE_DENSITY", kBindExposureDensity) +
         define("MURMUR_HEAD_DART_VERTICES", kDartVertices) +
         define("MURMUR_HEAD_SHAPE_PIXEL", static_cast<std::uint32_t>(HeadPrimitive::Pixel)) +
         define("MURMUR_HEAD_SHAPE_DART", static_cast<std::uint32_t>(HeadPrimitive::Dart)) +
         define("MURMUR_HEAD_SHAPE_SQUARE", static_cast<std::uint32_t>(HeadPrimitive::Square)) +
         define("MURMUR_HEAD_SQUARE_VERTICES", kQuadCorners) +
         define("MURMUR_BIND_EXPOSURE_UNIFORM", kBindExposureUniform) +
         define("MURMUR_LOCAL_EXPOSURE_MAP_TEXTURE_UNIT", kLocalExposureMapTextureUnit) +
         define("MURMUR_LOCAL_EXPOSURE_IMAGE_UNIT", kLocalExposureImageUnit) +
         define("MURMUR_LOCAL_EXPOSURE_TEXTURE_UNIT", kLocalExposureTextureUnit) +
         define("MURMUR_EXPOSURE_CELLS_TEXTURE_UNIT", kExposureCellsTextureUnit) +
         define("MURMUR_EXPOSURE_DENSITY_TEXTURE_UNIT", kExposureDensityTextureUnit) +
         define("MURMUR_EXPOSURE_PARTIALS_TEXTURE_UNIT", kExposurePartialsTextureUnit) +
         define("MURMUR_EXPOSURE_TILES_TEXTURE_UNIT", kExposureTilesTextureUnit) +
         define("MURMUR_LOCAL_EXPOSURE_CELL", kLocalExposureCell) +
         define("MURMUR_LOCAL_EXPOSURE_FULL_REACH", kLocalExposureFullReach) +
         define("MURMUR_LOCAL_EXPOSURE_REACH", kLocalExposureReach) +
         define("MURMUR_LOCAL_EXPOSURE_TILE_REACH", kLocalExposureTileReach) +
         define("MURMUR_LOCAL_EXPOSURE_SPARSE_MARKS", kLocalExposureSparseMarks) +
         define("MURMUR_LOCAL_EXPOSURE_DENSE_MARKS", kLocalExposureDenseMarks) +
         define("MURMUR_OVERLAY_CIRCLE_SEGMENTS", kOverlayCircleSegments) +
         define("MURMUR_CIRCLE_RADIUS_SIGHT", static_cast<std::uint32_t>(CircleRadiusKind::Sight)) +
         define("MURMUR_CIRCLE_RADIUS_SEPARATION",
                static_cast<std::uint32_t>(CircleRadiusKind::Separation)) +
         define("MURMUR_MAX_CIRCLES_PER_SLOT", kMaxCirclesPerSlot) +
         define("MURMUR_BIND_STAMP_SUMS", kBindStampSums) +
         define("MURMUR_BIND_STAMP_TEXELS", kBindStampTexels) +
         define("MURMUR_FADE_MAP_IMAGE_UNIT", kFadeMapImageUnit) +
         define("MURMUR_STAMP_SUM_WORDS", kStampSumWords) +
         define("MURMUR_MAX_COLOUR_COMPONENT", kMaxColourComponent) +
         define("MURMUR_RENDER_GROUP_SIZE", kRenderGroupSize);
}

// The exposure's tiles over a frame: whole tiles, the last row and column partly outside.
glm::ivec2 exposure_tile_grid(int width, int height) {
  return (glm::ivec2(width, height) + (kExposureTile - 1)) / kExposureTile;
}

// The local exposure's cells over a frame, likewise.
glm::ivec2 local_exposure_cell_grid(int width, int height) {
  return (glm::ivec2(width, height) + (kLocalExposureCell - 1)) / kLocalExposureCell;
}

std::size_t area(glm::ivec2 grid) {
  return static_cast<std::size_t>(grid.x) * static_cast<std::size_t>(grid.y);
}

void check_size(int width, int height) {
  if (width < 1 || height < 1)
    throw std::invalid_argument("Renderer: target size " + std::to_string(width) + "x" +
                                std::to_string(height) + " must be at least 1x1");
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

// Linear filtering with the given wrap on both axes (texture() lookups of bloom and trails).
void set_sampling(const gl::Texture& texture, GLenum wrap) {
  glTextureParameteri(texture.id(), GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTextureParameteri(texture.id(), GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTextureParameteri(texture.id(), GL_TEXTURE_WRAP_S, static_cast<GLint>(wrap));
  glTextureParameteri(texture.id(), GL_TEXTURE_WRAP_T, static_cast<GLint>(wrap));
}

void clear_colour(GLuint framebuffer, glm::vec3 colour, float alpha = 1.0f) {
  const std::array<GLfloat, kRgbaChannels> rgba{colour.r, colour.g, colour.b, alpha};
  glClearNamedFramebufferfv(framebuffer, GL_COLOR, 0, rgba.data());
}

void additive_blending() {
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFunc(GL_ONE, GL_ONE);
}

// How heads, trails, food and plans meet the HDR frame: added (glow), or laid over it by
// their opacity (ink; the shaders premultiply their colour by it, and heads are opaque).
// Under glow the HDR alpha channel sums the boids' light in multiples of their own colour,
// which the local exposure counts (docs/rendering.md, "Local exposure"): a draw adds its
// alpha times `glow_alpha` (GL_ONE: the alpha is that multiple; GL_CONSTANT_ALPHA: the blend
// colour's alpha is; GL_ZERO: not boid light, alpha left as it is).
void mark_blending(BlendMode blend, GLenum glow_alpha = GL_ZERO) {
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  if (blend == BlendMode::Glow)
    glBlendFuncSeparate(GL_ONE, GL_ONE, glow_alpha, GL_ONE);
  else
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
}

// Confines draws to the world's rectangle; false when none of it is in the frame.
bool scissor_to_world(const WorldView& view) {
  if (view.world_pixel_size.x <= 0 || view.world_pixel_size.y <= 0) return false;
  glEnable(GL_SCISSOR_TEST);
  glScissor(view.world_pixel_origin.x, view.world_pixel_origin.y, view.world_pixel_size.x,
            view.world_pixel_size.y);
  return true;
}

}  // namespace

// --- camera -------------------------------------------------------------------------------

WorldView fit_world(glm::vec2 world_size, int width, int height) {
  return view_for(Camera{}, world_size, width, height);
}

WorldView view_for(const Camera& camera, glm::vec2 world_size, int width, int height) {
  const glm::vec2 frame{static_cast<float>(width), static_cast<float>(height)};
  const float zoom = std::clamp(camera.zoom, kMinCameraZoom, kMaxCameraZoom);
  const float pixels_per_unit = zoom * std::min(frame.x / world_size.x, frame.y / world_size.y);
  WorldView view;
  view.world_centre = camera.centre_in(world_size);
  view.world_to_clip = 2.0f * pixels_per_unit / frame;  // clip space spans 2 units across
  view.pixels_per_world_unit = pixels_per_unit;
  view.world_size = world_size;
  view.frame_size = {width, height};

  // The world's corners in GL window pixels (y up), rounded, then clipped to the frame.
  const glm::vec2 low = 0.5f * frame + (glm::vec2(0.0f) - view.world_centre) * pixels_per_unit;
  const glm::vec2 high = 0.5f * frame + (world_size - view.world_centre) * pixels_per_unit;
  const glm::ivec2 first = glm::clamp(glm::ivec2(glm::round(low)), glm::ivec2(0), view.frame_size);
  const glm::ivec2 last = glm::clamp(glm::ivec2(glm::round(high)), glm::ivec2(0), view.frame_size);
  view.world_pixel_origin = first;
  view.world_pixel_size = last - first;
  // A fitted world always shows, even when it rounds to less than a pixel.
  if (view.world_pixel_size.x == 0 && first.x < width && high.x > 0 && low.x < frame.x)
    view.world_pixel_size.x = 1;
  if (view.world_pixel_size.y == 0 && first.y < height && high.y > 0 && low.y < frame.y)
    view.world_pixel_size.y = 1;
  return view;
}

glm::vec2 pixel_to_world(const WorldView& view, glm::vec2 pixel_from_top_left) {
  const glm::vec2 frame(view.frame_size);
  const glm::vec2 from_centre{pixel_from_top_left.x - 0.5f * frame.x,
                              0.5f * frame.y - pixel_from_top_left.y};
  return view.world_centre + from_centre / view.pixels_per_world_unit;
}

glm::vec2 world_to_pixel(const WorldView& view, glm::vec2 world) {
  const glm::vec2 frame(view.frame_size);
  const glm::vec2 from_centre = (world - view.world_centre) * view.pixels_per_world_unit;
  return {0.5f * frame.x + from_centre.x, 0.5f * frame.y - from_centre.y};
}

Camera zoom_at(const Camera& camera, glm::vec2 world_size, int width, int height,
               glm::vec2 pixel_from_top_left, float factor) {
  const WorldView before = view_for(camera, world_size, width, height);
  const glm::vec2 anchor = pixel_to_world(before, pixel_from_top_left);
  Camera zoomed = camera;
  zoomed.zoom = std::clamp(camera.zoom * factor, kMinCameraZoom, kMaxCameraZoom);
  // Same pixel offset from the frame centre at the new scale: the anchor stays put.
  const WorldView after = view_for(zoomed, world_size, width, height);
  zoomed.centre = anchor - (pixel_to_world(after, pixel_from_top_left) - after.world_centre);
  return zoomed;
}

Camera pan_by(const Camera& camera, glm::vec2 world_size, int width, int height,
              glm::vec2 pixel_delta) {
  const WorldView view = view_for(camera, world_size, width, height);
  Camera panned = camera;
  // Dragging right moves the world right: the centre moves left; y is down in pixels.
  panned.centre = view.world_centre +
                  glm::vec2(-pixel_delta.x, pixel_delta.y) / view.pixels_per_world_unit;
  return panned;
}

// --- the renderer's parts -----------------------------------------------------------------

// Each program with its uniforms, looked up once here: a uniform a shader lacks is a GpuError
// when the renderer is made, not a value silently dropped every frame.

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

// The local exposure's inputs (shaders/render/render_exposure.glsl) in the programs that apply it,
// compiled out of their variants without it (MURMUR_LOCAL_EXPOSURE 0).
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

// shaders/render/render_colour.glsl's inputs, in every program that colours boids. Each program is
// built for one colour mode (colour_variant), which compiles out the other modes' uniforms.
struct Renderer::ColourUniforms {
  static constexpr gl::Uniform::MayBeCompiledOut kOneMode{};
  explicit ColourUniforms(const gl::Program& program)
      : per_boid_variation(program, "u_per_boid_variation", kOneMode),
        heading_saturation(program, "u_heading_saturation", kOneMode),
        heading_value(program, "u_heading_value", kOneMode),
        speed_ramp_slow(program, "u_speed_ramp_slow", kOneMode),
        speed_ramp_fast(program, "u_speed_ramp_fast", kOneMode),
        speed_ramp_min(program, "u_speed_ramp_min", kOneMode),
        speed_ramp_max(program, "u_speed_ramp_max", kOneMode),
        species_colour(program, "u_species_colour", kOneMode),
        energy_max(program, "u_energy_max", kOneMode),
        health_full(program, "u_health_full", kOneMode),
        health_empty(program, "u_health_empty", kOneMode),
        drift_phase_per_id(program, "u_drift_phase_per_id", kOneMode),
        drift_phase_now(program, "u_drift_phase_now", kOneMode),
        drift_from(program, "u_drift_from", kOneMode),
        drift_to(program, "u_drift_to", kOneMode) {}
  gl::Uniform per_boid_variation, heading_saturation, heading_value, speed_ramp_slow,
      speed_ramp_fast, speed_ramp_min, speed_ramp_max, species_colour, energy_max, health_full,
      health_empty, drift_phase_per_id, drift_phase_now, drift_from, drift_to;
};

namespace {

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

std::string variant_define(const char* name, std::uint32_t value) {
  return std::string("#define ") + name + " " + std::to_string(value) + "\n";
}

std::string flag(const char* name, bool on) { return variant_define(name, on ? 1 : 0); }

// Each pass's variant (the defines its program is built with), for the passes and for
// Renderer::build_every_variant alike.
// A program that colours boids in `mode` (shaders/render/render_colour.glsl).
std::string colour_variant(ColourMode mode) {
  return variant_define("MURMUR_COLOUR_MODE", static_cast<std::uint32_t>(mode));
}
std::string heads_variant(ColourMode mode, HeadPrimitive shape, bool sprite) {
  return colour_variant(mode) +
         variant_define("MURMUR_HEAD_SHAPE", static_cast<std::uint32_t>(shape)) +
         flag("MURMUR_HEAD_SPRITE", sprite);
}
std::string composite_variant(bool ink, bool minified) {
  return flag("MURMUR_INK", ink) + flag("MURMUR_MINIFIED_MAP", minified);
}
std::string resolve_variant(bool ink, bool local, bool bloom) {
  return flag("MURMUR_INK", ink) + flag("MURMUR_LOCAL_EXPOSURE", local) +
         flag("MURMUR_BLOOM", bloom);
}
// The first level's bright-pass applies the local exposure; the other levels only halve.
std::string bloom_down_variant(bool first_level, bool local) {
  return flag("MURMUR_BRIGHT_PASS", first_level) +
         (first_level ? flag("MURMUR_LOCAL_EXPOSURE", local) : std::string());
}
std::string exposure_variant(std::uint32_t stage, bool local) {
  return variant_define("MURMUR_EXPOSURE_STAGE", stage) + flag("MURMUR_LOCAL_EXPOSURE", local);
}
std::string exposure_factor_variant(bool local) { return flag("MURMUR_LOCAL_EXPOSURE", local); }

}  // namespace

struct Renderer::Programs {
  struct Heads {
    // The colour mode's, MURMUR_HEAD_SHAPE and MURMUR_HEAD_SPRITE (heads.vert): which head it
    // draws and how.
    explicit Heads(const std::string& variant)
        : program(gl::Program::graphics("render/heads.vert", "render/heads.frag", render_defines() + variant)) {}
    gl::Program program;
    ViewUniforms view{program};
    ColourUniforms colour{program};
    gl::Uniform intensity{program, "u_intensity"};
    // Each kind of head reads only its own: points none of them, darts the length, width and
    // notch, squares the length and the age look.
    static constexpr gl::Uniform::MayBeCompiledOut kOneKind{};
    gl::Uniform head_length{program, "u_head_length", kOneKind},
        head_width{program, "u_head_width", kOneKind},
        notch_ratio{program, "u_notch_ratio", kOneKind}, age_look{program, "u_age_look", kOneKind},
        age_scale{program, "u_age_scale", kOneKind},
        age_min_size{program, "u_age_min_size", kOneKind},
        age_min_fill{program, "u_age_min_fill", kOneKind};
    // Sprites only.
    gl::Uniform frame_size{program, "u_frame_size", kOneKind},
        pixels_per_world_unit{program, "u_pixels_per_world_unit", kOneKind},
        sprite_pixels{program, "u_sprite_pixels", kOneKind},
        sprite_clip_scale{program, "u_sprite_clip_scale", kOneKind};
  };
  Variants<Heads> heads;
  struct Food {
    gl::Program program =
        gl::Program::graphics("render/food_boxes.vert", "render/trail_ribbon.frag", render_defines());
    ViewUniforms view{program};
    gl::Uniform columns{program, "u_columns"}, cell_size{program, "u_cell_size"},
        max_per_cell{program, "u_max_per_cell"},
        full_box_fraction{program, "u_full_box_fraction"}, colour{program, "u_food_colour"};
  } food;
  struct Resolve {
    // MURMUR_INK, MURMUR_LOCAL_EXPOSURE and MURMUR_BLOOM (shaders/render/render_resolve.frag).
    explicit Resolve(const std::string& variant)
        : program(gl::Program::graphics("render/render_fullscreen.vert", "render/render_resolve.frag",
                                        render_defines() + variant)) {}
    gl::Program program;
    static constexpr gl::Uniform::MayBeCompiledOut kOneVariant{};
    gl::Uniform exposure{program, "u_exposure"},
        highlight_whiteness{program, "u_highlight_whiteness", kOneVariant},
        bloom_intensity{program, "u_bloom_intensity", kOneVariant};
    LocalExposureUniforms local{program};
  };
  Variants<Resolve> resolve;
  // One program per stage (MURMUR_EXPOSURE_STAGE) and MURMUR_LOCAL_EXPOSURE: each reads only
  // the uniforms its stage needs.
  struct Exposure {
    explicit Exposure(const std::string& variant)
        : program(gl::Program::compute("render/render_exposure.comp", render_defines() + variant)) {}
    gl::Program program;
    static constexpr gl::Uniform::MayBeCompiledOut kOneStage{};
    gl::Uniform world_pixel_origin{program, "u_world_pixel_origin", kOneStage},
        world_pixel_size{program, "u_world_pixel_size", kOneStage},
        tiles{program, "u_tiles", kOneStage}, lit_luminance{program, "u_lit_luminance", kOneStage},
        cells{program, "u_cells", kOneStage}, local_key{program, "u_local_key", kOneStage},
        adaptation{program, "u_adaptation", kOneStage};
  };
  Variants<Exposure> exposure;
  // The automatic exposure's factor: the one stage with shared memory and barriers, a program
  // of its own so that the stages above run without coroutines on llvmpipe; one for each
  // MURMUR_LOCAL_EXPOSURE.
  struct ExposureFactor {
    explicit ExposureFactor(const std::string& local)
        : program(gl::Program::compute(
              "render/render_exposure.comp",
              render_defines() + "#define MURMUR_EXPOSURE_FACTOR_STAGE 1\n" + local)) {}
    gl::Program program;
    gl::Uniform tiles{program, "u_tiles"}, key{program, "u_key"},
        adaptation{program, "u_adaptation"};
    gl::Uniform cells{program, "u_cells", gl::Uniform::MayBeCompiledOut{}};
  };
  Variants<ExposureFactor> exposure_factor;
  struct TrailRecord {
    gl::Program program = gl::Program::compute("render/trail_record.comp", render_defines());
    gl::Uniform slot_count{program, "u_slot_count"}, ring_length{program, "u_ring_length"},
        generation{program, "u_generation"}, history_start{program, "u_history_start"};
  } trail_record;
  struct Ribbons {
    explicit Ribbons(const std::string& colour_defines)
        : program(gl::Program::graphics("render/trail_ribbon.vert", "render/trail_ribbon.frag",
                                        render_defines() + colour_defines)) {}
    gl::Program program;
    ViewUniforms view{program};
    ColourUniforms colour{program};
    gl::Uniform ring_length{program, "u_ring_length"}, generation{program, "u_generation"},
        world_size{program, "u_world_size"},
        world_units_per_pixel{program, "u_world_units_per_pixel"},
        width_pixels{program, "u_width_pixels"}, min_width_pixels{program, "u_min_width_pixels"},
        intensity{program, "u_intensity"};
  };
  Variants<Ribbons> ribbons;
  // trail_stamp.comp's three passes: the adds (a variant per colour mode), the fold's
  // preparation and the fold.
  struct Stamps {
    explicit Stamps(const std::string& defines)
        : program(gl::Program::compute("render/trail_stamp.comp", render_defines() + defines)) {}
    gl::Program program;
  };
  struct StampAdd : Stamps {
    explicit StampAdd(const std::string& colour_defines)
        : Stamps("#define MURMUR_STAMP_ADD 1\n" + colour_defines) {}
    gl::Uniform map_size{program, "u_map_size"}, world_size{program, "u_world_size"},
        step_duration{program, "u_step_duration"}, width_texels{program, "u_width_texels"},
        fixed_one{program, "u_fixed_one"};
    ColourUniforms colour{program};
  };
  Variants<StampAdd> stamp_add;
  struct StampPrepare : Stamps {
    StampPrepare() : Stamps("#define MURMUR_STAMP_PREPARE 1\n") {}
  } stamp_prepare;
  struct StampFold : Stamps {
    StampFold() : Stamps("#define MURMUR_STAMP_FOLD 1\n") {}
    gl::Uniform map_size{program, "u_map_size"}, fixed_one{program, "u_fixed_one"},
        intensity{program, "u_intensity"}, map_weight{program, "u_map_weight"};
  } stamp_fold;
  struct Fade {
    gl::Program program =
        gl::Program::graphics("render/render_fullscreen.vert", "render/trail_fade.frag", render_defines());
    gl::Uniform fade{program, "u_fade"};
  } fade;
  struct FadeComposite {
    explicit FadeComposite(const std::string& variant)  // MURMUR_INK, MURMUR_MINIFIED_MAP
        : program(gl::Program::graphics("render/render_fullscreen.vert", "render/trail_composite.frag",
                                        render_defines() + variant)) {}
    gl::Program program;
    gl::Uniform frame_size{program, "u_frame_size"}, world_centre{program, "u_world_centre"},
        pixels_per_world_unit{program, "u_pixels_per_world_unit"},
        world_size{program, "u_world_size"}, intensity{program, "u_intensity"},
        stamp_intensity{program, "u_stamp_intensity"}, sky{program, "u_sky"},
        taps_per_side{program, "u_taps_per_side", gl::Uniform::MayBeCompiledOut{}};
  };
  Variants<FadeComposite> fade_composite;
  struct BloomDown {
    // MURMUR_BRIGHT_PASS (the first level) and MURMUR_LOCAL_EXPOSURE.
    explicit BloomDown(const std::string& variant)
        : program(gl::Program::graphics("render/render_fullscreen.vert", "render/bloom_downsample.frag",
                                        render_defines() + variant)) {}
    gl::Program program;
    static constexpr gl::Uniform::MayBeCompiledOut kFirstLevelOnly{};
    gl::Uniform threshold{program, "u_threshold", kFirstLevelOnly},
        knee{program, "u_knee", kFirstLevelOnly}, source_texel{program, "u_source_texel"},
        target_size{program, "u_target_size"};
    LocalExposureUniforms local{program};
  };
  Variants<BloomDown> bloom_down;
  struct BloomUp {
    gl::Program program =
        gl::Program::graphics("render/render_fullscreen.vert", "render/bloom_upsample.frag", render_defines());
    gl::Uniform radius{program, "u_radius"}, source_texel{program, "u_source_texel"},
        target_size{program, "u_target_size"};
  } bloom_up;
  struct PlanSegments {
    gl::Program program =
        gl::Program::graphics("render/plan_segments.vert", "render/trail_ribbon.frag", render_defines());
    PlanViewUniforms view{program};
    gl::Uniform vertical_width{program, "u_vertical_width"},
        horizontal_width{program, "u_horizontal_width"},
        min_width_pixels{program, "u_min_width_pixels"},
        first_line_step{program, "u_first_line_step"}, colour{program, "u_colour"};
  } plan_segments;
  struct PlanInkRange {
    gl::Program program = gl::Program::compute("render/plan_ink_range.comp", render_defines());
  } plan_ink_range;
  struct PlanInkComposite {
    gl::Program program = gl::Program::graphics("render/render_fullscreen.vert",
                                                 "render/plan_ink_composite.frag", render_defines());
  } plan_ink_composite;
  struct PlanAgents {
    gl::Program program =
        gl::Program::graphics("render/plan_agents.vert", "render/plan_agents.frag", render_defines());
    PlanViewUniforms view{program};
    gl::Uniform marker_pixels{program, "u_marker_pixels"}, colour{program, "u_colour"};
  } plan_agents;
  struct Overlay {
    gl::Program program =
        gl::Program::graphics("render/render_overlay.vert", "render/render_overlay.frag", render_defines());
    ViewUniforms view{program};
    gl::Uniform circles{program, "u_circles"}, first_shape{program, "u_first_shape"};
  } overlay;
  struct OverlayCircles {
    gl::Program program = gl::Program::compute("render/render_overlay_circles.comp", render_defines());
    gl::Uniform boid_count{program, "u_boid_count"}, circle_slots{program, "u_circle_slots"},
        circles_per_slot{program, "u_circles_per_slot"},
        slot_radius_kind{program, "u_slot_radius_kind"},
        slot_colour{program, "u_slot_colour"}, world_units_radius{program, "u_world_units_radius"},
        perception_radius{program, "u_perception_radius"},
        separation_radius{program, "u_separation_radius"},
        has_selected{program, "u_has_selected"}, selected_id{program, "u_selected_id"},
        selected_body_radius{program, "u_selected_body_radius"},
        selected_sight_colour{program, "u_selected_sight_colour"},
        selected_distance_colour{program, "u_selected_distance_colour"},
        selected_body_colour{program, "u_selected_body_colour"};
  } overlay_circles;
};

// Trail history: both modes keep state between frames, fed by record_step.
struct Renderer::TrailState {
  // Ribbons: ring_length entries of (position, velocity) per trail slot, plus each slot's
  // TrailOwner. Generation g (the g-th record_step since the ring was made) writes entry
  // g % ring_length of every live boid's slot.
  gl::Buffer ring, owners;
  std::uint32_t ring_slots = 0;
  std::uint32_t ring_length = 0;
  std::uint32_t generation = 0;     // the newest record; 0: none yet
  std::uint32_t history_start = 1;  // the first generation after the last reset

  // Fade map: world-space RGBA16F, texel (0, 0) at world (0, 0). Its trails are the texels
  // times map_scale (record_step says why): map_scale is the product of the steps' fades since
  // the map was last multiplied by it.
  gl::Texture map;
  gl::Framebuffer map_framebuffer;
  gl::Buffer stamp_sums;  // kStampSumWords uints a texel, zero between steps (trail_stamp.comp)
  // trail_stamp.comp's StampTexelsBlock: the fold's dispatch, the list's length and capacity,
  // then the texels one step's stamps lit (a map's worth of room).
  gl::Buffer stamp_texels;
  glm::vec2 map_world{0};
  bool map_stamped = false;  // false: the map is black (composite skipped)
  float map_scale = 1.0f;

  void drop_ribbons() { history_start = generation + 1; }
  // A ribbon needs two entries: two records since the last reset.
  bool ribbons_drawable() const { return generation > history_start; }
  void clear_map() {
    if (map.id() != 0) clear_colour(map_framebuffer.id(), glm::vec3(0.0f), kNoStamps);
    map_stamped = false;
    map_scale = 1.0f;
  }
};

// A floor plan's lines, inked into a layer the frame's size and kept between frames: each frame
// adds the segments of the points saved since the last (plan_ink_range.comp), unless what the
// layer was drawn for changed, which clears it and draws every segment again.
struct Renderer::PlanInk {
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
  gl::Buffer record;  // PlanInkRecord
  std::optional<Drawn> drawn;
};

// Bloom levels, each half the size of the one before (level 0 is a quarter of the frame's side:
// kFirstBloomHalving).
struct Renderer::BloomChain {
  std::vector<gl::Texture> levels;
  std::vector<gl::Framebuffer> framebuffers;
};

namespace {

glm::ivec2 fade_map_size(const TrailSettings& trails, glm::vec2 world) {
  const float cap = static_cast<float>(std::max(1, trails.map_max_side));
  const glm::vec2 wanted = world * std::max(trails.map_pixels_per_world_unit, 0.0f);
  return glm::ivec2(glm::clamp(glm::round(wanted), glm::vec2(1.0f), glm::vec2(cap)));
}

// The composite's bilinear taps per pixel side (trail_composite.frag): a tap blends the 2x2
// texels around it, so taps at most kFadeMapTexelsPerTap apart reach every texel of a map seen
// smaller than its texels. The taps a pixel takes grow as the pixels over the world shrink, so
// the pass reads about a quarter of the map's texels at any zoom; kMaxFadeMapTapsPerSide only
// bounds the loop (a map seen 32 texels to a pixel and smaller loses some trails).
std::uint32_t fade_map_taps_per_side(glm::ivec2 map, glm::vec2 world, float pixels_per_world_unit) {
  const glm::vec2 texels_per_unit = glm::vec2(map) / world;
  const float texels_per_pixel =
      std::max(texels_per_unit.x, texels_per_unit.y) / pixels_per_world_unit;
  if (!(texels_per_pixel > kFadeMapTexelsPerTap)) return 1u;  // NaN too: one tap
  return static_cast<std::uint32_t>(std::min(std::ceil(texels_per_pixel / kFadeMapTexelsPerTap),
                                   static_cast<float>(kMaxFadeMapTapsPerSide)));
}

// The fixed point of trail_stamp.comp's colour sums, for a step of at most `records` stamps:
// the largest power of two at which `records` stamps of the brightest colour
// (kMaxColourComponent, where the shader clamps) on one texel still fit its 32-bit word, so
// no sum can wrap: 8,192 for 20,000 boids, 256 for a million. A stamp's colour is rounded to
// the nearest unit (within 1 / 16,384 or 1 / 512), which the map's half floats do not keep
// finer for values above 1/8 or 4; the sums of the rounded colours are exact.
float stamp_fixed_one(std::uint32_t records) {
  const double room = static_cast<double>(std::numeric_limits<std::uint32_t>::max()) /
                      (std::max(records, 1u) * static_cast<double>(kMaxColourComponent));
  return static_cast<float>(std::exp2(std::floor(std::log2(std::max(room, 1.0)))));
}

}  // namespace

// --- Renderer -----------------------------------------------------------------------------

Renderer::Renderer(int width, int height, const RenderSettings& settings)
    : settings_(settings),
      programs_(std::make_unique<Programs>()),
      trails_(std::make_unique<TrailState>()),
      bloom_(std::make_unique<BloomChain>()),
      plan_ink_(std::make_unique<PlanInk>()),
      empty_vertex_array_("murmur.render.empty_vertex_array"),
      live_count_("murmur.render.live_count", sizeof(std::uint32_t)),
      exposure_("murmur.render.exposure", sizeof(float), &kUnitExposureScale) {
  PlanInkRecord ink{};
  ink.draw.instance_count = 1;  // plan_ink_range.comp writes the vertex count
  plan_ink_->record = gl::Buffer("murmur.render.plan_ink", sizeof ink, &ink);
  std::array<GLfloat, 2> point_sizes{1, 1};
  glGetFloatv(GL_POINT_SIZE_RANGE, point_sizes.data());
  max_point_size_ = point_sizes[1];
  std::array<GLint, 2> viewport_dims{0, 0};
  glGetIntegerv(GL_MAX_VIEWPORT_DIMS, viewport_dims.data());
  max_viewport_size_ = {viewport_dims[0], viewport_dims[1]};
  resize(width, height);
}

Renderer::~Renderer() = default;

void Renderer::resize(int width, int height) {
  check_size(width, height);
  if (width == width_ && height == height_) return;
  width_ = width;
  height_ = height;
  create_targets();
}

void Renderer::create_targets() {
  hdr_texture_ = gl::Texture("murmur.render.hdr", GL_RGBA16F, width_, height_);
  hdr_framebuffer_ = gl::Framebuffer("murmur.render.hdr_framebuffer");
  set_sampling(hdr_texture_, GL_CLAMP_TO_EDGE);  // the first bloom level filters it
  hdr_framebuffer_.attach_colour(hdr_texture_);
  hdr_framebuffer_.check_complete();

  output_texture_ = gl::Texture("murmur.render.output", GL_RGBA8, width_, height_);
  output_framebuffer_ = gl::Framebuffer("murmur.render.output_framebuffer");
  output_framebuffer_.attach_colour(output_texture_);
  output_framebuffer_.check_complete();

  const std::size_t tiles = area(exposure_tile_grid(width_, height_));
  const std::size_t cells = area(local_exposure_cell_grid(width_, height_));
  exposure_partials_ = gl::Buffer("murmur.render.exposure_partials", tiles * sizeof(glm::vec4));
  exposure_cells_ = gl::Buffer("murmur.render.exposure_cells", cells * sizeof(glm::vec4));
  exposure_tiles_ = gl::Buffer("murmur.render.exposure_tiles", tiles * sizeof(glm::vec2));
  // A new frame size starts every cell's local factor at 1 (nothing dimmed yet).
  const std::vector<float> unit_factors(cells, kUnitExposureScale);
  local_exposure_ = gl::Buffer("murmur.render.local_exposure", cells * sizeof(float),
                               unit_factors.data());
  exposure_density_ = gl::Buffer("murmur.render.exposure_density", cells * sizeof(float));
  const glm::ivec2 cell_grid = local_exposure_cell_grid(width_, height_);
  local_exposure_map_ =
      gl::Texture("murmur.render.local_exposure_map", GL_R32F, cell_grid.x, cell_grid.y);
  set_sampling(local_exposure_map_, GL_CLAMP_TO_EDGE);  // gathered: the filter is not used
  local_exposure_texels_ =
      gl::BufferTexture("murmur.render.local_exposure_texels", GL_R32F, local_exposure_);
  exposure_cell_texels_ =
      gl::BufferTexture("murmur.render.exposure_cell_texels", GL_RGBA32F, exposure_cells_);
  exposure_density_texels_ =
      gl::BufferTexture("murmur.render.exposure_density_texels", GL_R32F, exposure_density_);
  exposure_partial_texels_ =
      gl::BufferTexture("murmur.render.exposure_partial_texels", GL_RGBA32F, exposure_partials_);
  exposure_tile_texels_ =
      gl::BufferTexture("murmur.render.exposure_tile_texels", GL_RG32F, exposure_tiles_);
  local_exposure_used_ = false;

  // Bloom levels are made lazily (bloom_pass) so that changing `levels` live works.
  bloom_->levels.clear();
  bloom_->framebuffers.clear();
}

void Renderer::load_live_count(BoidBufferView boids) {
  // The simulation's shaders wrote the count (copied below) and the records and the food field
  // that the passes after this read. One barrier for all of them: llvmpipe waits for all the
  // work queued before any barrier, so the passes' own would keep each draw from overlapping
  // the one before (e.g. the heads' vertices, shaded on this thread, with the trails' pixels).
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
  if (boids.live_count_buffer != 0) {
    glCopyNamedBufferSubData(boids.live_count_buffer, live_count_.id(), 0, 0,
                             sizeof(std::uint32_t));
  } else {
    live_count_.upload(0, sizeof(std::uint32_t), &boids.count);
  }
  live_count_.bind_storage(kBindLiveCount);
}

void Renderer::set_colour_uniforms(const ColourUniforms& uniforms, const Scenario& scenario,
                                   std::uint64_t step) const {
  const ColourSettings& colour = settings_.colour;
  uniforms.per_boid_variation.set(colour.per_boid_variation);
  uniforms.heading_saturation.set(colour.heading_saturation);
  uniforms.heading_value.set(colour.heading_value);
  uniforms.speed_ramp_slow.set(colour.speed_ramp_slow);
  uniforms.speed_ramp_fast.set(colour.speed_ramp_fast);
  float slowest = colour.speed_ramp_min, fastest = colour.speed_ramp_max;
  if (slowest >= fastest && !scenario.species.empty()) {
    slowest = scenario.species.front().min_speed;
    fastest = scenario.species.front().max_speed;
    for (const SpeciesParams& species : scenario.species) {
      slowest = std::min(slowest, species.min_speed);
      fastest = std::max(fastest, species.max_speed);
    }
  }
  uniforms.speed_ramp_min.set(slowest);
  uniforms.speed_ramp_max.set(fastest);

  std::array<glm::vec3, kMaxSpecies> colours{};
  const std::size_t species_count = std::min(scenario.species.size(), kMaxSpecies);
  for (std::size_t s = 0; s < species_count; ++s) colours[s] = scenario.species[s].colour;
  uniforms.species_colour.set(std::span<const glm::vec3>(colours));
  std::array<float, kMaxSpecies> energy_max{};
  for (std::size_t s = 0; s < species_count; ++s) energy_max[s] = scenario.species[s].energy_max;
  uniforms.energy_max.set(std::span<const float>(energy_max));
  uniforms.health_full.set(colour.health_full);
  uniforms.health_empty.set(colour.health_empty);
  uniforms.drift_phase_per_id.set(colour.drift_phase_per_id);
  // Reduced in double: a float product loses the phase's fraction after some 10^5 steps.
  const double phase_now = std::fmod(static_cast<double>(colour.drift_phase_per_step) *
                                         static_cast<double>(step),
                                     kTurn);
  uniforms.drift_phase_now.set(static_cast<float>(phase_now < 0 ? phase_now + kTurn : phase_now));
  uniforms.drift_from.set(colour.drift_from);
  uniforms.drift_to.set(colour.drift_to);
}

// --- trails: history --------------------------------------------------------------------

void Renderer::reset_trails() {
  trails_->drop_ribbons();
  trails_->clear_map();
}

namespace {
// The flock's state: capacity() records, the first Population::live of them live.
BoidBufferView flock_view(const GpuFlock& flock) {
  return BoidBufferView{flock.boid_buffer(), flock.capacity(), flock.population_buffer(),
                        flock.step_index()};
}
}  // namespace

void Renderer::record_step(const GpuFlock& flock) {
  record_step(flock.scenario(), flock_view(flock));
}

void Renderer::record_step(const Scenario& scenario, BoidBufferView boids) {
  gl::DebugGroup group("render: record trails");
  TrailState& trails = *trails_;
  const TrailSettings& settings = settings_.trails;
  // History of a mode not shown is dropped, so switching modes never shows stale trails.
  if (settings.mode != TrailMode::Ribbons) trails.drop_ribbons();
  if (settings.mode != TrailMode::FadeMap && trails.map_stamped) trails.clear_map();
  if (settings.mode == TrailMode::None || boids.count == 0) return;

  // The simulation's compute passes wrote the boids; the passes below read them (the barrier
  // is load_live_count's).
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, MURMUR_BIND_RENDER_BOIDS, boids.buffer);
  load_live_count(boids);

  if (settings.mode == TrailMode::Ribbons) {
    const auto length =
        static_cast<std::uint32_t>(std::max(settings.ribbon_length, kMinRibbonLength));
    if (trails.ring_slots != boids.count || trails.ring_length != length) {
      const std::size_t entries = static_cast<std::size_t>(boids.count) * length;
      trails.ring = gl::Buffer("murmur.render.trail_ring", entries * sizeof(glm::vec4));
      // Zeroed owners have last generation 0 < history_start: no slot has a history yet.
      trails.owners = gl::Buffer("murmur.render.trail_owners", boids.count * sizeof(TrailOwner));
      trails.owners.clear_to_zero();
      trails.ring_slots = boids.count;
      trails.ring_length = length;
      trails.generation = 0;
      trails.history_start = 1;
    }
    ++trails.generation;
    const Programs::TrailRecord& pass = programs_->trail_record;
    pass.slot_count.set(boids.count);
    pass.ring_length.set(length);
    pass.generation.set(trails.generation);
    pass.history_start.set(trails.history_start);
    trails.ring.bind_storage(kBindTrailRing);
    trails.owners.bind_storage(kBindTrailOwners);
    // The owners' clear is a buffer update; trail_record reads them.
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
    pass.program.use();
    gl::dispatch(boid_pass_dispatch(boids.count));
    return;
  }

  // Fade map: fade everything, then stamp each boid's last step.
  const glm::vec2 world = scenario.size();
  const glm::ivec2 size = fade_map_size(settings, world);
  if (trails.map.id() == 0 || trails.map.width() != size.x || trails.map.height() != size.y ||
      trails.map_world != world) {
    trails.map = gl::Texture("murmur.render.fade_map", GL_RGBA16F, size.x, size.y);
    set_sampling(trails.map, GL_REPEAT);  // the torus: leaving one edge enters the other
    trails.map_framebuffer = gl::Framebuffer("murmur.render.fade_map_framebuffer");
    trails.map_framebuffer.attach_colour(trails.map);
    trails.map_framebuffer.check_complete();
    trails.stamp_sums = gl::Buffer("murmur.render.stamp_sums", static_cast<std::size_t>(size.x) *
                                                                   size.y * kStampSumWords *
                                                                   sizeof(std::uint32_t));
    trails.stamp_sums.clear_to_zero();
    const auto texels = static_cast<std::uint32_t>(size.x) * static_cast<std::uint32_t>(size.y);
    const StampTexelsHeader header{{0, 1, 1, 0}, 0, 0, texels, 0};
    trails.stamp_texels = gl::Buffer("murmur.render.stamp_texels",
                                     sizeof header + std::size_t{texels} * sizeof(std::uint32_t));
    trails.stamp_texels.upload(0, sizeof header, &header);
    trails.map_world = world;
    clear_colour(trails.map_framebuffer.id(), glm::vec3(0.0f), kNoStamps);
    trails.map_scale = 1.0f;
  }
  // The trails fade by fade_per_step a step: trail = map_scale x map, and a step multiplies
  // map_scale by the fade instead of every texel, then stamps its light divided by map_scale.
  // Only when map_scale falls below kFadeMapRescaleBelow are the texels multiplied by it (one
  // pass over the map, which cost llvmpipe about as much as a frame's composite, every step
  // before) and map_scale goes back to 1. So the texels hold at most 1 / kFadeMapRescaleBelow
  // times the trails' light: a fade of 1 never multiplies, and one of 0 every step, as before.
  trails.map_scale *= std::clamp(settings.fade_per_step, 0.0f, 1.0f);
  if (trails.map_scale < kFadeMapRescaleBelow) {
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, trails.map_framebuffer.id());
    glViewport(0, 0, size.x, size.y);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glBindVertexArray(empty_vertex_array_.id());
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFunc(GL_ZERO, GL_SRC_COLOR);  // map *= map_scale
    programs_->fade.fade.set(trails.map_scale);
    programs_->fade.program.use();
    glDrawArrays(GL_TRIANGLES, 0, kFullscreenTriangleVertices);
    glDisable(GL_BLEND);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    trails.map_scale = 1.0f;
  }

  // map += stamps / map_scale, by trail_stamp.comp (it says how and why): the adds, one
  // invocation a record, then the fold, one a texel they lit.
  const float fixed_one = stamp_fixed_one(boids.count);
  trails.stamp_sums.bind_storage(kBindStampSums);
  trails.stamp_texels.bind_storage(kBindStampTexels);
  const Programs::StampAdd& add = programs_->stamp_add[colour_variant(settings_.colour.mode)];
  set_colour_uniforms(add.colour, scenario, boids.step);
  add.map_size.set(size);
  add.world_size.set(world);
  add.step_duration.set(kStepDuration);
  add.width_texels.set(std::max(settings.stamp_width(), kMinStampWidthTexels));
  add.fixed_one.set(fixed_one);
  add.program.use();
  // No barrier first: the sums' and the list's first contents are GL commands, not shader
  // writes, and the last step's fold and preparation, which wrote them since, end in the
  // barrier below.
  gl::dispatch(boid_pass_dispatch(boids.count));
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // the preparation reads the list's length
  programs_->stamp_prepare.program.use();
  gl::dispatch_linear(1);
  // The fold reads the sums and the list, and is dispatched from the arguments just written.
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
  const Programs::StampFold& fold = programs_->stamp_fold;
  fold.map_size.set(size);
  fold.fixed_one.set(fixed_one);
  fold.intensity.set(settings.stamp_brightness());
  fold.map_weight.set(1.0f / trails.map_scale);
  fold.program.use();
  glBindImageTexture(kFadeMapImageUnit, trails.map.id(), 0, GL_FALSE, 0, GL_READ_WRITE,
                     GL_RGBA16F);
  glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, trails.stamp_texels.id());
  glDispatchComputeIndirect(offsetof(StampTexelsHeader, fold_groups));
  glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, 0);
  // The composite samples the map, the next step's fade blends into it, read_fade_map reads
  // it, and the next step's adds use the sums the fold cleared.
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT |
                  GL_TEXTURE_UPDATE_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                  GL_SHADER_STORAGE_BARRIER_BIT);
  trails.map_stamped = true;
}

std::vector<glm::vec4> Renderer::read_fade_map(glm::ivec2* size) const {
  const gl::Texture& map = trails_->map;
  const bool exists = map.id() != 0;
  if (size != nullptr) *size = exists ? glm::ivec2(map.width(), map.height()) : glm::ivec2(0);
  if (!exists) return {};
  std::vector<glm::vec4> texels(static_cast<std::size_t>(map.width()) * map.height());
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(map.id(), 0, GL_RGBA, GL_FLOAT,
                    static_cast<GLsizei>(texels.size() * sizeof(glm::vec4)), texels.data());
  for (glm::vec4& texel : texels) texel *= trails_->map_scale;  // the trails' light
  return texels;
}

// --- the frame ----------------------------------------------------------------------------

namespace {

// Runs one pass in its own debug group (so captures and debug messages name it) and, when
// timing, waits for the GPU and charges the wall time to `slot`.
struct PassRunner {
  RenderPassTimes* times = nullptr;
  template <class Pass>
  void operator()(const char* name, double RenderPassTimes::*slot, const Pass& pass) const {
    const auto start = std::chrono::steady_clock::now();
    {
      gl::DebugGroup pass_group(name);
      pass();
    }
    if (times != nullptr) {
      glFinish();
      times->*slot =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
    }
  }
};

}  // namespace

void Renderer::render(const GpuFlock& flock, RenderPassTimes* times) {
  const Scenario& scenario = flock.scenario();
  FoodBufferView food;
  if (const std::optional<GridShape> food_grid = flock.food_grid(); food_grid && scenario.food)
    food = FoodBufferView{flock.food_buffer(), *food_grid, scenario.food->max_per_cell};
  frame(scenario, flock_view(flock), flock.grid(), food, times);
}

void Renderer::render(const Scenario& scenario, BoidBufferView boids, RenderPassTimes* times) {
  render(scenario, boids, FoodBufferView{}, times);
}

void Renderer::render(const Scenario& scenario, BoidBufferView boids, const FoodBufferView& food,
                      RenderPassTimes* times) {
  frame(scenario, boids, grid_shape_for(scenario, boids.count), food, times);
}

void Renderer::frame(const Scenario& scenario, BoidBufferView boids, const GridShape& grid,
                     const FoodBufferView& food, RenderPassTimes* times) {
  const WorldView view = view_for(settings_.camera, scenario.size(), width_, height_);
  gl::DebugGroup frame_group("render frame");
  if (times != nullptr) glFinish();  // earlier work (the simulation) is not ours to time
  load_live_count(boids);
  const PassRunner run{times};
  run("trails", &RenderPassTimes::trails, [&] {
    clear_pass(view, fade_map_composited(view));
    trails_pass(scenario, boids.step, expected_boids(scenario, boids), view);
    food_pass(food, view);
  });
  run("heads", &RenderPassTimes::heads, [&] { heads_pass(scenario, boids, view); });
  run("exposure", &RenderPassTimes::exposure, [&] { exposure_pass(view); });
  run("bloom", &RenderPassTimes::bloom, [&] { bloom_pass(); });
  run("resolve", &RenderPassTimes::resolve, [&] { resolve_pass(); });
  run("overlays", &RenderPassTimes::overlays,
      [&] { overlays_pass(scenario, boids, grid, view); });
}

void Renderer::render(const GpuPlan& plan, RenderPassTimes* times) {
  render(plan.scenario(), plan.buffers(), plan.history(), times);
}

void Renderer::render(const PlanScenario& scenario, const GpuPlanBuffers& plan,
                      std::uint64_t history, RenderPassTimes* times) {
  const WorldView view = view_for(settings_.camera, scenario.size(), width_, height_);
  gl::DebugGroup frame_group("render plan frame");
  if (times != nullptr) glFinish();  // earlier work (the plan's steps) is not ours to time
  const PassRunner run{times};
  run("trails", &RenderPassTimes::trails, [&] {
    clear_pass(view, false);
    plan_ink_pass(scenario, plan, history, view);
  });
  run("heads", &RenderPassTimes::heads, [&] { plan_agents_pass(plan, view); });
  run("exposure", &RenderPassTimes::exposure, [&] { exposure_pass(view); });
  run("bloom", &RenderPassTimes::bloom, [&] { bloom_pass(); });
  run("resolve", &RenderPassTimes::resolve, [&] { resolve_pass(); });
}

void Renderer::reset_plan() { plan_ink_->drawn.reset(); }

std::size_t Renderer::build_every_variant() {
  Programs& programs = *programs_;
  std::size_t built = 0;
  const auto build = [&](auto& variants, const std::string& defines) {
    variants[defines];
    ++built;
  };
  for (std::size_t index = 0; index < std::size(kColourModeNames); ++index) {
    const auto mode = static_cast<ColourMode>(index);
    build(programs.heads, heads_variant(mode, HeadPrimitive::Pixel, false));
    for (const HeadPrimitive shape : {HeadPrimitive::Dart, HeadPrimitive::Square})
      for (const bool sprite : {false, true})
        build(programs.heads, heads_variant(mode, shape, sprite));
    build(programs.stamp_add, colour_variant(mode));
    build(programs.ribbons, colour_variant(mode));
  }
  for (const bool ink : {false, true}) {
    for (const bool minified : {false, true})
      build(programs.fade_composite, composite_variant(ink, minified));
    for (const bool local : {false, true})
      for (const bool bloom : {false, true})
        build(programs.resolve, resolve_variant(ink, local, bloom));
  }
  build(programs.bloom_down, bloom_down_variant(false, false));
  for (const bool local : {false, true}) {
    build(programs.bloom_down, bloom_down_variant(true, local));
    for (const std::uint32_t stage : {kExposureStageCells, kExposureStageTiles,
                                      kExposureStageFactors, kExposureStageField})
      build(programs.exposure, exposure_variant(stage, local));
    build(programs.exposure_factor, exposure_factor_variant(local));
  }
  return built;
}

void Renderer::plan_ink_pass(const PlanScenario& scenario, const GpuPlanBuffers& plan,
                             std::uint64_t history, const WorldView& view) {
  PlanInk& ink = *plan_ink_;
  const PlanParams& params = scenario.plan;
  const PlanStyle& style = settings_.plan;
  const bool on_paper = settings_.blend == BlendMode::Ink;
  const PlanInk::Drawn wanted{history,
                              glm::ivec2(width_, height_),
                              view.world_centre,
                              view.pixels_per_world_unit,
                              params.vertical_width,
                              params.horizontal_width,
                              style.min_line_pixels,
                              on_paper ? glm::vec4(style.ink, 1.0f) : glm::vec4(style.glow, 1.0f)};
  if (ink.layer.id() == 0 || ink.layer.width() != width_ || ink.layer.height() != height_) {
    ink.layer = gl::Texture("murmur.render.plan_ink_layer", GL_RGBA16F, width_, height_);
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
  ink.record.bind_storage(kBindPlanInk);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // the copy reaches plan_ink_range
  programs_->plan_ink_range.program.use();
  glDispatchCompute(1, 1, 1);
  // plan_ink_range writes the draw's command and first point; the draw and its vertex shader
  // read them
  glMemoryBarrier(GL_COMMAND_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);

  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kBindPlanPoints, plan.points);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kBindPlanPrevious, plan.previous);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kBindPlanAgents, plan.agents);  // children's origins
  const Programs::PlanSegments& segments = programs_->plan_segments;
  segments.view.set(view);
  segments.vertical_width.set(params.vertical_width);
  segments.horizontal_width.set(params.horizontal_width);
  segments.min_width_pixels.set(style.min_line_pixels);
  segments.first_line_step.set(static_cast<std::uint32_t>(kPlanFirstLineStep));
  segments.colour.set(wanted.colour);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, ink.framebuffer.id());
  glViewport(0, 0, width_, height_);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  // The union of the strokes: where segments overlap (every corner) the layer keeps one
  // stroke's colour instead of adding them up, so joints do not show as dots.
  glEnable(GL_BLEND);
  glBlendEquation(GL_MAX);
  glBindVertexArray(empty_vertex_array_.id());
  segments.program.use();
  glBindBuffer(GL_DRAW_INDIRECT_BUFFER, ink.record.id());
  glDrawArraysIndirect(GL_TRIANGLES, reinterpret_cast<const void*>(offsetof(PlanInkRecord, draw)));
  glBlendEquation(GL_FUNC_ADD);
  glDisable(GL_BLEND);

  // The layer onto the frame, inside the world's rectangle: the page ends at the canvas.
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, hdr_framebuffer_.id());
  glViewport(0, 0, width_, height_);
  if (!scissor_to_world(view)) return;
  glBindTextureUnit(kPlanInkTextureUnit, ink.layer.id());
  mark_blending(settings_.blend);
  programs_->plan_ink_composite.program.use();
  glDrawArrays(GL_TRIANGLES, 0, kFullscreenTriangleVertices);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
}

void Renderer::plan_agents_pass(const GpuPlanBuffers& plan, const WorldView& view) {
  const PlanStyle& style = settings_.plan;
  if (!style.agents || plan.agent_count == 0 || !scissor_to_world(view)) {
    glDisable(GL_SCISSOR_TEST);
    return;
  }
  const bool on_paper = settings_.blend == BlendMode::Ink;
  const Programs::PlanAgents& agents = programs_->plan_agents;
  agents.view.set(view);
  agents.marker_pixels.set(style.agent_marker_pixels);
  agents.colour.set(glm::vec4(on_paper ? style.agent_ink : style.agent_glow, 1.0f));
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // the plan's passes wrote the agents
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kBindPlanAgents, plan.agents);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, hdr_framebuffer_.id());
  glViewport(0, 0, width_, height_);
  mark_blending(settings_.blend);
  agents.program.use();
  draw_quads(static_cast<std::uint32_t>(plan.agent_count));
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
}

glm::vec4 Renderer::world_sky() const {
  // Under glow the world's alpha starts with no marks (the local exposure counts them there).
  return settings_.blend == BlendMode::Ink ? glm::vec4(settings_.paper, 1.0f)
                                           : glm::vec4(settings_.background, kNoMarks);
}

bool Renderer::fade_map_composited(const WorldView& view) const {
  return settings_.trails.mode == TrailMode::FadeMap && trails_->map_stamped &&
         view.world_pixel_size.x > 0 && view.world_pixel_size.y > 0;
}

void Renderer::clear_pass(const WorldView& view, bool world_drawn_over) {
  // The bars first, over the whole target (a viewer's UI may have left a scissor box), then
  // the world's rectangle, so the world's edges show even where no boid is near them. A pass
  // that writes every pixel of the world's rectangle itself (world_drawn_over) lays the sky
  // there, and the bars need clearing only where the rectangle leaves some of the frame.
  glDisable(GL_SCISSOR_TEST);
  const bool world_fills_frame = view.world_pixel_origin == glm::ivec2(0) &&
                                 view.world_pixel_size == glm::ivec2(width_, height_);
  if (!(world_drawn_over && world_fills_frame))
    clear_colour(hdr_framebuffer_.id(), settings_.letterbox);
  if (!world_drawn_over && scissor_to_world(view)) {
    const glm::vec4 sky = world_sky();
    clear_colour(hdr_framebuffer_.id(), glm::vec3(sky), sky.a);
  }
  glDisable(GL_SCISSOR_TEST);
}

void Renderer::trails_pass(const Scenario& scenario, std::uint64_t step, float boids,
                           const WorldView& view) {
  const TrailSettings& settings = settings_.trails;
  const TrailState& trails = *trails_;
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, hdr_framebuffer_.id());
  glViewport(0, 0, width_, height_);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glBindVertexArray(empty_vertex_array_.id());

  if (fade_map_composited(view)) {
    scissor_to_world(view);
    const std::uint32_t taps_per_side = fade_map_taps_per_side(
        glm::ivec2(trails.map.width(), trails.map.height()), scenario.size(),
        view.pixels_per_world_unit);
    const Programs::FadeComposite& composite = programs_->fade_composite[composite_variant(
        settings_.blend == BlendMode::Ink, taps_per_side > 1)];
    composite.frame_size.set(glm::vec2(width_, height_));
    composite.world_centre.set(view.world_centre);
    composite.pixels_per_world_unit.set(view.pixels_per_world_unit);
    composite.world_size.set(scenario.size());
    // map_scale: the map's texels times it are the trails (record_step).
    composite.intensity.set(settings.map_intensity * trails.map_scale *
                            fade_map_density_scale(settings_, scenario, boids,
                                                   glm::ivec2(trails.map.width(),
                                                              trails.map.height())));
    composite.stamp_intensity.set(settings.stamp_brightness());
    composite.taps_per_side.set(taps_per_side);
    // The composite lays the trails over the sky itself (clear_pass left the world's rectangle
    // to it), as blending over it would have.
    composite.sky.set(world_sky());
    glBindTextureUnit(kFadeMapTextureUnit, trails.map.id());
    glDisable(GL_BLEND);
    composite.program.use();
    glDrawArrays(GL_TRIANGLES, 0, kFullscreenTriangleVertices);
    glDisable(GL_SCISSOR_TEST);
  } else if (settings.mode == TrailMode::Ribbons && trails.ribbons_drawable()) {
    const Programs::Ribbons& ribbons = programs_->ribbons[colour_variant(settings_.colour.mode)];
    set_colour_uniforms(ribbons.colour, scenario, step);
    ribbons.view.set(view);
    ribbons.ring_length.set(trails.ring_length);
    ribbons.generation.set(trails.generation);
    ribbons.world_size.set(scenario.size());
    ribbons.world_units_per_pixel.set(1.0f / view.pixels_per_world_unit);
    ribbons.width_pixels.set(settings.ribbon_width());
    ribbons.min_width_pixels.set(settings.ribbon_min_width_pixels);
    ribbons.intensity.set(settings.ribbon_brightness() *
                          ribbon_density_scale(settings_, scenario, boids, view));
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // trail_record wrote the ring
    trails.ring.bind_storage(kBindTrailRing);
    trails.owners.bind_storage(kBindTrailOwners);
    mark_blending(settings_.blend, GL_ONE);  // alpha: the opacity, its light
    ribbons.program.use();
    // Every slot's segments; those of slots no live boid holds collapse in the vertex shader.
    draw_quads(trails.ring_slots * (trails.ring_length - 1));
    glDisable(GL_BLEND);
  }
}

void Renderer::food_pass(const FoodBufferView& food, const WorldView& view) {
  const FoodSettings& settings = settings_.food;
  const std::uint32_t cells = food.grid.cell_count();
  if (!settings.enabled || food.buffer == 0 || cells == 0 || !(food.max_per_cell > 0)) return;
  if (!scissor_to_world(view)) return;  // the last row and column may reach past the world
  const Programs::Food& pass = programs_->food;
  pass.view.set(view);
  pass.columns.set(static_cast<std::uint32_t>(food.grid.cells.x));
  pass.cell_size.set(food.grid.cell_size);
  pass.max_per_cell.set(food.max_per_cell);
  pass.full_box_fraction.set(settings.full_box_fraction);
  pass.colour.set(settings.colour);
  // The simulation's grazing wrote the field: the frame's load_live_count made it visible.
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kBindFood, food.buffer);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, hdr_framebuffer_.id());
  glViewport(0, 0, width_, height_);
  glBindVertexArray(empty_vertex_array_.id());
  mark_blending(settings_.blend);
  pass.program.use();
  glDrawArrays(GL_TRIANGLES, 0, kBoxVertices * static_cast<GLsizei>(cells));
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
}

void Renderer::heads_pass(const Scenario& scenario, BoidBufferView boids, const WorldView& view) {
  if (boids.count == 0) return;
  const HeadStyle& style = settings_.heads;
  const HeadLook look = head_look(settings_, scenario, expected_boids(scenario, boids), view);

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
  const glm::ivec2 sprite_viewport = glm::ivec2(width_, height_) + 2 * sprite_margin;
  const bool sprite = shape != HeadPrimitive::Pixel && style.sprites &&
                      sprite_pixels <= max_point_size_ &&
                      (squares || sprite_pixels <= kMaxDartSpritePixels) &&
                      glm::all(glm::lessThanEqual(sprite_viewport, max_viewport_size_));
  const Programs::Heads& heads =
      programs_->heads[heads_variant(settings_.colour.mode, shape, sprite)];
  heads.view.set(view);
  heads.head_length.set(look.length);
  heads.head_width.set(head_width);
  heads.notch_ratio.set(style.notch_ratio);
  heads.intensity.set(look.intensity);
  heads.age_look.set(style.age_look);
  heads.age_scale.set(std::span<const float>(age_scales(style, scenario)));
  heads.age_min_size.set(style.age_min_size);
  heads.age_min_fill.set(style.age_min_fill);
  heads.frame_size.set(glm::vec2(width_, height_));
  heads.pixels_per_world_unit.set(view.pixels_per_world_unit);
  heads.sprite_pixels.set(sprite_pixels);
  heads.sprite_clip_scale.set(glm::vec2(width_, height_) / glm::vec2(sprite_viewport));
  set_colour_uniforms(heads.colour, scenario, boids.step);

  // The boids were written by compute passes: the frame's load_live_count made those writes
  // visible to vertex shaders.
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, MURMUR_BIND_RENDER_BOIDS, boids.buffer);

  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, hdr_framebuffer_.id());
  glViewport(0, 0, width_, height_);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);  // a dart mirrored by a negative velocity flips its winding
  // Each head adds its intensity (the multiple of its boid's colour) to the alpha channel.
  glBlendColor(0.0f, 0.0f, 0.0f, look.intensity);
  mark_blending(settings_.blend, GL_CONSTANT_ALPHA);
  heads.program.use();
  // Every record is drawn; the vertex shader drops those past the live count (on the GPU).
  if (shape == HeadPrimitive::Pixel || sprite) {
    // A sprite's side comes from its vertex shader (gl_PointSize), a pixel's from here.
    if (sprite) {
      glEnable(GL_PROGRAM_POINT_SIZE);
      glViewport(-sprite_margin, -sprite_margin, sprite_viewport.x, sprite_viewport.y);
    }
    glPointSize(kPointHeadPixels);
    glBindVertexArray(empty_vertex_array_.id());
    glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(kPointHeadVertices * boids.count));
    glDisable(GL_PROGRAM_POINT_SIZE);
    glViewport(0, 0, width_, height_);
  } else if (squares) {
    draw_quads(boids.count);
  } else {
    glBindVertexArray(empty_vertex_array_.id());
    glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(kDartVertices * boids.count));
  }
  glDisable(GL_BLEND);
}

void Renderer::draw_quads(std::uint32_t quads) {
  if (quad_vertex_array_.id() == 0) {
    std::vector<GLuint> indices;
    indices.reserve(kQuadsPerDraw * kQuadCornerIndices.size());
    for (std::uint32_t quad = 0; quad < kQuadsPerDraw; ++quad)
      for (const GLuint corner : kQuadCornerIndices) indices.push_back(quad * kQuadCorners + corner);
    quad_indices_ = gl::Buffer("murmur.render.quad_indices", indices.size() * sizeof(GLuint),
                               indices.data());
    quad_vertex_array_ = gl::VertexArray("murmur.render.quad_vertex_array");
    glVertexArrayElementBuffer(quad_vertex_array_.id(), quad_indices_.id());
  }
  glBindVertexArray(quad_vertex_array_.id());
  for (std::uint32_t first = 0; first < quads; first += kQuadsPerDraw) {
    const std::uint32_t drawn = std::min(kQuadsPerDraw, quads - first);
    glDrawElementsBaseVertex(GL_TRIANGLES, static_cast<GLsizei>(drawn * kQuadCornerIndices.size()),
                             GL_UNSIGNED_INT, nullptr, static_cast<GLint>(first * kQuadCorners));
  }
  glBindVertexArray(empty_vertex_array_.id());
}

bool Renderer::local_exposure_shown(const WorldView& view) const {
  const bool world_shown = view.world_pixel_size.x > 0 && view.world_pixel_size.y > 0;
  return settings_.local_exposure_key > 0 && world_shown && settings_.blend == BlendMode::Glow;
}

void Renderer::exposure_pass(const WorldView& view) {
  exposure_.bind_storage(kBindExposure);
  local_exposure_.bind_storage(kBindLocalExposure);
  // The bloom and the resolve read the factors from these.
  glBindBufferBase(GL_UNIFORM_BUFFER, kBindExposureUniform, exposure_.id());
  glBindTextureUnit(kLocalExposureMapTextureUnit, local_exposure_map_.id());
  local_exposure_texels_.bind(kLocalExposureTextureUnit);
  const bool world_shown = view.world_pixel_size.x > 0 && view.world_pixel_size.y > 0;
  // Paper is meant to be white: ink is never darkened by the exposure.
  const bool automatic =
      settings_.auto_exposure_key > 0 && world_shown && settings_.blend == BlendMode::Glow;
  const bool local = local_exposure_shown(view);
  local_exposure_on_ = local;
  if (!automatic) exposure_.upload(0, sizeof(float), &kUnitExposureScale);
  const glm::ivec2 tiles = exposure_tile_grid(width_, height_);
  const glm::ivec2 cells = local_exposure_cell_grid(width_, height_);
  const auto tile_count = static_cast<std::uint32_t>(area(tiles));
  const auto cell_count = static_cast<std::uint32_t>(area(cells));
  if (!local && local_exposure_used_) {
    // Off for now: the factors start again from 1 when it is turned back on.
    const std::vector<float> unit_factors(cell_count, kUnitExposureScale);
    local_exposure_.upload(0, unit_factors.size() * sizeof(float), unit_factors.data());
    local_exposure_used_ = false;
  }
  if (!automatic && !local) return;
  exposure_partials_.bind_storage(kBindExposurePartials);
  exposure_cells_.bind_storage(kBindExposureCells);
  exposure_tiles_.bind_storage(kBindExposureTiles);
  exposure_density_.bind_storage(kBindExposureDensity);
  exposure_cell_texels_.bind(kExposureCellsTextureUnit);
  exposure_density_texels_.bind(kExposureDensityTextureUnit);
  exposure_partial_texels_.bind(kExposurePartialsTextureUnit);
  exposure_tile_texels_.bind(kExposureTilesTextureUnit);
  // The heads and trails were drawn into the HDR target; this samples it like a texture.
  glBindTextureUnit(kHdrTextureUnit, hdr_texture_.id());
  // Each stage reads what the one before wrote; all but the last run one invocation per cell
  // or per tile.
  const auto stage = [&](std::uint32_t which, std::uint32_t items) {
    const Programs::Exposure& pass = programs_->exposure[exposure_variant(which, local)];
    pass.program.use();
    pass.world_pixel_origin.set(view.world_pixel_origin);
    pass.world_pixel_size.set(view.world_pixel_size);
    pass.tiles.set(glm::uvec2(tiles));
    pass.cells.set(glm::uvec2(cells));
    pass.lit_luminance.set(kLitLuminance + luminance(settings_.background));
    pass.local_key.set(settings_.local_exposure_key);
    pass.adaptation.set(std::clamp(settings_.exposure_adaptation, 0.0f, 1.0f));
    gl::dispatch_linear(gl::groups_for(items, kExposureTileInvocations));
    // The next stage reads this one's writes through the views; the field's own buffer (and
    // for the last stage, the bloom and the resolve) too.
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
  };
  stage(kExposureStageCells, cell_count);
  stage(kExposureStageTiles, tile_count);
  if (local) {
    stage(kExposureStageFactors, tile_count);
    glBindImageTexture(kLocalExposureImageUnit, local_exposure_map_.id(), 0, GL_FALSE, 0,
                       GL_WRITE_ONLY, GL_R32F);
    stage(kExposureStageField, cell_count);
    local_exposure_used_ = true;
  }
  if (automatic) {
    const Programs::ExposureFactor& total =
        programs_->exposure_factor[exposure_factor_variant(local)];
    total.program.use();
    total.tiles.set(glm::uvec2(tiles));
    total.cells.set(glm::uvec2(cells));
    total.key.set(settings_.auto_exposure_key);
    total.adaptation.set(std::clamp(settings_.exposure_adaptation, 0.0f, 1.0f));
    glDispatchCompute(1, 1, 1);  // one workgroup
    // The bloom and the resolve read the factor as a uniform block.
    glMemoryBarrier(GL_UNIFORM_BARRIER_BIT);
  }
}

std::vector<float> Renderer::read_local_exposure(glm::ivec2* cells) const {
  const glm::ivec2 grid = local_exposure_cell_grid(width_, height_);
  if (cells != nullptr) *cells = grid;
  std::vector<float> factors(area(grid));
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  local_exposure_.download(0, factors.size() * sizeof(float), factors.data());
  return factors;
}

void Renderer::bloom_pass() {
  const BloomSettings& settings = settings_.bloom;
  if (!bloom_shown()) return;

  // Level sizes halve (rounding down, never below 1) and the chain stops once a level is 1x1.
  std::vector<glm::ivec2> sizes;
  glm::ivec2 size{width_, height_};
  const int halvings = std::max(settings.levels, kFirstBloomHalving);
  for (int halving = 1; halving <= halvings && (size.x > 1 || size.y > 1); ++halving) {
    size = glm::max(size / 2, glm::ivec2(1));
    if (halving >= kFirstBloomHalving) sizes.push_back(size);
  }
  if (sizes.empty()) return;  // a 1x1 frame has nothing to spread light over
  BloomChain& chain = *bloom_;
  if (chain.levels.size() != sizes.size()) {
    chain.levels.clear();
    chain.framebuffers.clear();
    for (const glm::ivec2 level_size : sizes) {
      chain.levels.emplace_back("murmur.render.bloom_level", GL_RGBA16F, level_size.x,
                                level_size.y);
      set_sampling(chain.levels.back(), GL_CLAMP_TO_EDGE);
      chain.framebuffers.emplace_back("murmur.render.bloom_framebuffer");
      chain.framebuffers.back().attach_colour(chain.levels.back());
      chain.framebuffers.back().check_complete();
    }
  }

  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_DEPTH_TEST);
  glBindVertexArray(empty_vertex_array_.id());
  const auto draw_into = [&](std::size_t level, const gl::Texture& source) {
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, chain.framebuffers[level].id());
    glViewport(0, 0, sizes[level].x, sizes[level].y);
    glBindTextureUnit(kBloomSourceTextureUnit, source.id());
    glDrawArrays(GL_TRIANGLES, 0, kFullscreenTriangleVertices);
  };

  glDisable(GL_BLEND);
  for (std::size_t level = 0; level < sizes.size(); ++level) {
    const bool first = level == 0;
    const Programs::BloomDown& down =
        programs_->bloom_down[bloom_down_variant(first, local_exposure_on_)];
    down.program.use();
    if (first) {
      down.threshold.set(std::max(settings.threshold, 0.0f));
      down.knee.set(std::max(settings.threshold, 0.0f) *
                    std::clamp(settings.soft_knee, 0.0f, 1.0f));
      down.local.set(local_exposure_cell_grid(width_, height_), settings_.background);
    }
    const gl::Texture& source = first ? hdr_texture_ : chain.levels[level - 1];
    down.source_texel.set(1.0f / glm::vec2(source.width(), source.height()));
    down.target_size.set(glm::vec2(sizes[level]));
    draw_into(level, source);
  }

  const Programs::BloomUp& up = programs_->bloom_up;
  up.program.use();
  additive_blending();
  // Level 0's alpha is the local factor its bright-pass stored for the resolve.
  glColorMaski(0, GL_TRUE, GL_TRUE, GL_TRUE, GL_FALSE);
  up.radius.set(std::max(settings.radius, 0.0f));
  for (std::size_t level = sizes.size() - 1; level > 0; --level) {
    const gl::Texture& source = chain.levels[level];
    up.source_texel.set(1.0f / glm::vec2(source.width(), source.height()));
    up.target_size.set(glm::vec2(sizes[level - 1]));
    draw_into(level - 1, source);
  }
  glColorMaski(0, GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glDisable(GL_BLEND);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
}

bool Renderer::bloom_shown() const {
  const BloomSettings& bloom = settings_.bloom;
  return bloom.enabled && bloom.intensity > 0 && settings_.blend == BlendMode::Glow;
}

void Renderer::resolve_pass() {
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, final_framebuffer());
  glViewport(0, 0, width_, height_);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_FRAMEBUFFER_SRGB);  // the shader encodes sRGB itself
  const BloomSettings& bloom = settings_.bloom;
  const bool with_bloom = bloom_shown() && !bloom_->levels.empty();
  const Programs::Resolve& resolve = programs_->resolve[resolve_variant(
      settings_.blend == BlendMode::Ink, local_exposure_on_, with_bloom)];
  resolve.exposure.set(settings_.exposure);
  resolve.highlight_whiteness.set(settings_.highlight_whiteness);
  resolve.local.set(local_exposure_cell_grid(width_, height_), settings_.background);
  // Level 0 holds the sum of every level; dividing by their count keeps `intensity` meaning
  // the same whatever the number of levels.
  resolve.bloom_intensity.set(
      with_bloom ? bloom.intensity / static_cast<float>(bloom_->levels.size()) : 0.0f);
  glBindTextureUnit(kHdrTextureUnit, hdr_texture_.id());
  glBindTextureUnit(kBloomTextureUnit,
                    with_bloom ? bloom_->levels.front().id() : hdr_texture_.id());
  resolve.program.use();
  glBindVertexArray(empty_vertex_array_.id());
  glDrawArrays(GL_TRIANGLES, 0, kFullscreenTriangleVertices);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
}

void Renderer::overlays_pass(const Scenario& scenario, BoidBufferView boids, const GridShape& grid,
                             const WorldView& view) {
  const OverlaySettings& settings = settings_.overlays;
  // Boid circles by trail slot: every slot's one circle, or the first slots' pairs.
  const bool all_circles = settings.circles == CircleMode::All;
  const std::uint32_t circle_slots =
      settings.circles == CircleMode::None
          ? 0
          : std::min<std::uint32_t>(
                all_circles ? boids.count
                            : static_cast<std::uint32_t>(
                                  std::max(settings.circles_for_first_trail_slots, 0)),
                boids.count);
  const std::uint32_t circles_per_slot = all_circles ? 1 : kMaxCirclesPerSlot;

  // Circles first (boid circles, then obstacles and the target's ring), then segments.
  std::vector<OverlayShape> circles;
  std::vector<OverlayShape> segments;
  const bool ink = settings_.blend == BlendMode::Ink;
  const glm::vec4 obstacle_colour = ink ? settings.ink_obstacle_colour : settings.obstacle_colour;
  const glm::vec4 target_colour = ink ? settings.ink_target_colour : settings.target_colour;
  const glm::vec4 grid_colour = ink ? settings.ink_grid_colour : settings.grid_colour;
  if (settings.obstacles)
    for (const Obstacle& obstacle : scenario.obstacles)
      circles.push_back({{obstacle.centre, obstacle.radius, 0.0f}, obstacle_colour});
  if (settings.target && scenario.target) {
    const glm::vec2 at = scenario.target->position;
    const float ring = settings.target_marker_pixels / view.pixels_per_world_unit;
    circles.push_back({{at, ring, 0.0f}, target_colour});
    segments.push_back({{at - glm::vec2(ring, 0), at + glm::vec2(ring, 0)}, target_colour});
    segments.push_back({{at - glm::vec2(0, ring), at + glm::vec2(0, ring)}, target_colour});
  }
  if (settings.grid) {
    const glm::vec2 world = scenario.size();
    for (int column = 1; column < grid.cells.x; ++column) {
      const float x = static_cast<float>(column) * grid.cell_size.x;
      segments.push_back({{x, 0.0f, x, world.y}, grid_colour});
    }
    for (int row = 1; row < grid.cells.y; ++row) {
      const float y = static_cast<float>(row) * grid.cell_size.y;
      segments.push_back({{0.0f, y, world.x, y}, grid_colour});
    }
  }
  const bool selected = settings.selected_id.has_value() && settings.circles != CircleMode::None;
  const std::size_t boid_circles = circles_per_slot * static_cast<std::size_t>(circle_slots) +
                                   (selected ? kSelectedCircles : 0);
  const std::size_t total = boid_circles + circles.size() + segments.size();
  if (total == 0 || !scissor_to_world(view)) {
    glDisable(GL_SCISSOR_TEST);
    return;
  }

  // One buffer for every shape of the frame: [boid circles (the trail slots' circles, then the
  // selected boid's three) | other circles | segments]; the GPU fills the boid circles in
  // place. A slot no live boid holds, or a selected id none has, keeps its zeroed shapes:
  // transparent, so nothing shows.
  const std::size_t circle_count = boid_circles + circles.size();
  gl::Buffer shapes("murmur.render.overlay_shapes", total * sizeof(OverlayShape));
  shapes.clear_to_zero();
  std::vector<OverlayShape> cpu_shapes = circles;
  cpu_shapes.insert(cpu_shapes.end(), segments.begin(), segments.end());
  if (!cpu_shapes.empty())
    shapes.upload(boid_circles * sizeof(OverlayShape), cpu_shapes.size() * sizeof(OverlayShape),
                  cpu_shapes.data());
  shapes.bind_storage(kBindOverlayShapes);
  if (boid_circles > 0) {
    std::array<float, kMaxSpecies> perception{}, separation{};
    for (std::size_t s = 0; s < std::min(scenario.species.size(), kMaxSpecies); ++s) {
      perception[s] = scenario.species[s].perception_radius;
      separation[s] = scenario.species[s].separation_radius;
    }
    const Programs::OverlayCircles& select = programs_->overlay_circles;
    select.boid_count.set(boids.count);
    select.circle_slots.set(circle_slots);
    select.circles_per_slot.set(circles_per_slot);
    const std::array<std::uint32_t, kMaxCirclesPerSlot> radius_kinds =
        all_circles ? std::array{static_cast<std::uint32_t>(settings.circle_radius.kind), 0u}
                    : std::array{static_cast<std::uint32_t>(CircleRadiusKind::Sight),
                                 static_cast<std::uint32_t>(CircleRadiusKind::Separation)};
    const std::array<glm::vec4, kMaxCirclesPerSlot> slot_colours =
        all_circles ? std::array{settings_.blend == BlendMode::Ink ? settings.ink_circle_colour
                                                                   : settings.circle_colour,
                                 glm::vec4(0.0f)}
                    : std::array{settings.perception_colour, settings.separation_colour};
    select.slot_radius_kind.set(std::span<const std::uint32_t>(radius_kinds));
    select.slot_colour.set(std::span<const glm::vec4>(slot_colours));
    select.world_units_radius.set(settings.circle_radius.world_units);
    select.perception_radius.set(std::span<const float>(perception));
    select.separation_radius.set(std::span<const float>(separation));
    select.has_selected.set(selected);
    select.selected_id.set(settings.selected_id.value_or(0));
    select.selected_body_radius.set(
        kHalf * head_look(settings_, scenario, expected_boids(scenario, boids), view).length);
    select.selected_sight_colour.set(settings.selected_sight_colour);
    select.selected_distance_colour.set(settings.selected_distance_colour);
    select.selected_body_colour.set(settings.selected_body_colour);
    // The shapes' clear and upload are buffer updates; the simulation wrote the boids.
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, MURMUR_BIND_RENDER_BOIDS, boids.buffer);
    live_count_.bind_storage(kBindLiveCount);
    select.program.use();
    gl::dispatch(boid_pass_dispatch(boids.count));
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // the vertex shader reads the circles
  }

  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, final_framebuffer());
  glViewport(0, 0, width_, height_);
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  const Programs::Overlay& overlay = programs_->overlay;
  overlay.view.set(view);
  overlay.program.use();
  glBindVertexArray(empty_vertex_array_.id());
  if (circle_count > 0) {
    overlay.circles.set(true);
    overlay.first_shape.set(std::uint32_t{0});
    glDrawArrays(GL_LINES, 0,
                 kLineVertices * kOverlayCircleSegments * static_cast<GLsizei>(circle_count));
  }
  if (!segments.empty()) {
    overlay.circles.set(false);
    overlay.first_shape.set(static_cast<std::uint32_t>(circle_count));
    glDrawArrays(GL_LINES, 0, kLineVertices * static_cast<GLsizei>(segments.size()));
  }
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
}

RgbaImage Renderer::read_pixels() const {
  RgbaImage image;
  image.width = width_;
  image.height = height_;
  const std::size_t row_bytes = static_cast<std::size_t>(width_) * kRgbaChannels;
  std::vector<std::uint8_t> bottom_up(row_bytes * static_cast<std::size_t>(height_));

  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);  // read into client memory
  glPixelStorei(GL_PACK_ALIGNMENT, 1);     // tightly packed rows, whatever the width
  glGetTextureImage(output_texture_.id(), 0, GL_RGBA, GL_UNSIGNED_BYTE,
                    static_cast<GLsizei>(bottom_up.size()), bottom_up.data());

  // GL's row 0 is the bottom of the image; PNG and every image viewer start at the top.
  image.pixels.resize(bottom_up.size());
  for (int row = 0; row < height_; ++row) {
    const auto source = bottom_up.begin() + static_cast<std::ptrdiff_t>(row * row_bytes);
    const auto target = image.pixels.begin() +
                        static_cast<std::ptrdiff_t>((height_ - 1 - row) * row_bytes);
    std::copy(source, source + static_cast<std::ptrdiff_t>(row_bytes), target);
  }
  return image;
}

}  // namespace murmur
