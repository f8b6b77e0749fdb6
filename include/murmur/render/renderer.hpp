#pragma once
// Draws the flock into an offscreen target with no window: trails (a world-space fade map or
// per-boid ribbons), instanced boid heads straight from the GPU's boid buffer, all added into
// an HDR target, then a bloom chain, tone mapping into RGBA8 and thin overlays on top. The
// recorder reads that target back; the viewer blits it to its window, so both show the same
// image. docs/rendering.md describes the passes and what each costs; each pass is a file of
// src/render/passes/, and the settings are plain values (include/murmur/render/settings.hpp).
// Needs a current GL 4.5 context for its whole life.
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <glm/ext/vector_int2.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "murmur/gl/dispatch.hpp"
#include "murmur/gl/objects.hpp"
#include "murmur/gl/program.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/plan/gpu/gpu_plan.hpp"
#include "murmur/base/image.hpp"
#include "murmur/base/memory.hpp"
#include "murmur/render/settings.hpp"
#include "murmur/scenario/look.hpp"
#include "murmur/scenario/scenario.hpp"
#include "render/bindings.h"

namespace murmur {

// Where the world lands in a frame.
struct WorldView {
  // The world point at the frame's centre (world units): the camera's centre itself unless its
  // fit margins move the middle of the fitted part off the frame's centre.
  glm::vec2 world_centre{0};
  glm::vec2 world_to_clip{0};   // clip units per world unit, per axis (aspect kept)
  float pixels_per_world_unit = 0;
  glm::vec2 world_size{0};
  glm::ivec2 frame_size{0};
  // The world's rectangle in the frame, clipped to it, in pixels from the bottom-left corner
  // (GL's window coordinates); size 0 when the world is panned out of sight.
  glm::ivec2 world_pixel_origin{0};
  glm::ivec2 world_pixel_size{0};
};
// The whole world fitted into the frame and centred (Camera{} through view_for); a camera with
// fit margins fits it into the frame less the margins, centred there.
WorldView fit_world(glm::vec2 world_size, int width, int height);
WorldView view_for(const Camera& camera, glm::vec2 world_size, int width, int height);

// Frame pixels measured from the top-left corner (window and mouse convention; pixel (i, j)
// covers [i, i+1) x [j, j+1)) <-> world units (y up). Exact inverses of each other.
glm::vec2 pixel_to_world(const WorldView& view, glm::vec2 pixel_from_top_left);
glm::vec2 world_to_pixel(const WorldView& view, glm::vec2 world);

// The camera after zooming by `factor` (> 1 zooms in) about a frame pixel: the world point
// under that pixel stays under it. Zoom is clamped to [kMinCameraZoom, kMaxCameraZoom].
Camera zoom_at(const Camera& camera, glm::vec2 world_size, int width, int height,
               glm::vec2 pixel_from_top_left, float factor);
// The camera after dragging the world by `pixel_delta` (frame pixels, y down, like a mouse).
Camera pan_by(const Camera& camera, glm::vec2 world_size, int width, int height,
              glm::vec2 pixel_delta);

// The boid records to draw: a GL buffer of std430 Boid records (shaders/common/common.glsl). Without
// `live_count_buffer`, the first `count` records are the boids. With it, the boids are the
// first N records, N being the uint at offset 0 of that buffer (the flock's Population record,
// whose `live` comes first), read on the GPU and never by the CPU; `count` then is the number
// of records the buffer holds (the flock's capacity). Each record's trail_slot must be < count
// and unique (the ribbon and circles it owns).
struct BoidBufferView {
  unsigned buffer = 0;
  std::uint32_t count = 0;
  unsigned live_count_buffer = 0;
  std::uint64_t step = 0;  // the simulation step the records are at (the drift palette's clock)
};

// A food field to draw: a GL buffer of float amounts, one per cell of `grid`, row by row (the
// flock's GpuFlock::food_buffer() and food_grid(), or a test's own), and the amount of a full
// cell. buffer 0: no food field.
struct FoodBufferView {
  unsigned buffer = 0;
  GridShape grid;
  float max_per_cell = 0;
};

// Invocations per workgroup of the renderer's compute passes over boids.
inline constexpr std::uint32_t kRenderGroupSize = MURMUR_RENDER_GROUP_SIZE;
// The workgroups of a render compute pass over every boid (trail_record, overlay circles):
// folded into y past GL's per-dimension limit, like the simulation's passes.
constexpr gl::DispatchShape boid_pass_dispatch(std::uint32_t boid_count) {
  return gl::folded_dispatch(gl::groups_for(boid_count, kRenderGroupSize));
}

// Wall-clock milliseconds of each pass of one render() (with glFinish after each, so only
// when asked: it serialises the GPU). trails includes clearing the target and the food boxes.
struct RenderPassTimes {
  double trails = 0, heads = 0, exposure = 0, bloom = 0, overlays = 0, resolve = 0;
  double total() const { return trails + heads + exposure + bloom + overlays + resolve; }
};

// The GPU bytes of a Renderer's targets for a `frame` of pixels with `settings`, and of the
// trails of a flock in a world of `world`, 3D or not (the memory estimate,
// docs/reliability.md): the HDR and output targets, the bloom chain, the trails' history.
MemoryNeed renderer_memory(glm::ivec2 frame, const RenderSettings& settings, glm::vec2 world,
                           bool three_d);

class Renderer {
 public:
  Renderer(int width, int height, const RenderSettings& settings = {});
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // Width and height >= 1 (callers skip drawing while a window is minimised; 0 throws
  // std::invalid_argument); recreates the targets only when the size changes.
  void resize(int width, int height);
  int width() const { return width_; }
  int height() const { return height_; }

  // Live: changes apply from the next record_step / render.
  RenderSettings& settings() { return settings_; }
  const RenderSettings& settings() const { return settings_; }

  // Adds the flock's current positions to the trails; call after every simulation step.
  // A new boid count, world size or trail resolution starts the trails afresh.
  void record_step(const GpuFlock& flock);
  void record_step(const Scenario& scenario, BoidBufferView boids);
  // Forgets every trail (after a reset or a new flock).
  void reset_trails();

  // Draws one frame of the flock's current state (no readback). With `times`, each pass ends
  // in glFinish and its wall time is written there.
  void render(const GpuFlock& flock, RenderPassTimes* times = nullptr);
  // Same, from any buffer of Boid records (tests, replays). Species colours and world size
  // come from `scenario`; a record's species must be < scenario.species.size(), its id < count.
  void render(const Scenario& scenario, BoidBufferView boids, RenderPassTimes* times = nullptr);
  // Same, with a food field under the boids (FoodBufferView{} draws none).
  void render(const Scenario& scenario, BoidBufferView boids, const FoodBufferView& food,
              RenderPassTimes* times = nullptr);

  // Draws a floor plan's current state (no readback): its lines, then its living agents, with
  // bloom and the tone map as for a flock. The lines are kept between frames in an ink layer
  // the frame's size, so that a frame draws only the segments saved since the last one: all of
  // them again after a new plan, view, size or style (or reset_plan()).
  void render(const GpuPlan& plan, RenderPassTimes* times = nullptr);
  // Same, from a plan's buffers; world size and line widths come from `scenario` (a plan
  // scenario). `history` names the plan whose points the buffers hold: a different value (a
  // restarted plan) redraws every line.
  void render(const PlanScenario& scenario, const GpuPlanBuffers& plan, std::uint64_t history,
              RenderPassTimes* times = nullptr);
  // Forgets the ink layer: the next plan frame draws every line again.
  void reset_plan();

  // Builds now every shader variant a setting can choose (colour mode, kind of head, blend,
  // local exposure, bloom, each exposure stage; docs/rendering.md, "Shader variants"), which
  // frames otherwise build the first time they need one, and returns how many programs that
  // is: tests, and a program that would rather pay every compile up front.
  std::size_t build_every_variant();

  // The view the last render() used (for mapping mouse positions).
  WorldView view(glm::vec2 world_size) const {
    return view_for(settings_.camera, world_size, width_, height_);
  }

  // The last frame, RGBA8 with the top row first (GL stores it bottom row first).
  RgbaImage read_pixels() const;
  // The fade map as linear RGBA floats, bottom row first (tests); empty before any stamp.
  std::vector<glm::vec4> read_fade_map(glm::ivec2* size = nullptr) const;
  // The local exposure's factor per cell of the last frame, row by row from the bottom
  // (tests); `cells` gets the grid's columns and rows. All exactly 1 where nothing is dense.
  std::vector<float> read_local_exposure(glm::ivec2* cells = nullptr) const;

  // The tone-mapped RGBA8 frame, for a viewer to blit (its row 0 is the bottom row).
  unsigned output_framebuffer() const { return output_framebuffer_.id(); }
  // Where the next frames' resolve and overlays draw: the output target (the default, which
  // read_pixels and output_framebuffer see) or, when on, the window's framebuffer (0) of a
  // viewer the same size as the renderer, which saves it a full-frame copy (the same bytes:
  // both are 8 bits a channel) on frames nothing reads back.
  void draw_to_window(bool on) { draw_to_window_ = on; }
  unsigned output_texture() const { return output_texture_.id(); }

 private:
  // Each pass's programs and what the passes keep between frames (src/render/passes/).
  struct Programs;
  struct PassState;

  void create_targets();
  void frame(const Scenario& scenario, BoidBufferView boids, const GridShape& grid,
             const FoodBufferView& food, RenderPassTimes* times);
  void frame_3d(const Scenario& scenario, BoidBufferView boids, RenderPassTimes* times);
  // The bars beside the world in the letterbox colour and the world's rectangle in its sky,
  // but where a pass draws every pixel of that rectangle itself (world_drawn_over).
  void clear_frame(const WorldView& view, bool world_drawn_over);
  // Exposure, bloom and resolve: what follows the marks in a flock's frame and a plan's alike.
  // `settings`: the renderer's, or a 3D frame's with its sky's brightest colour as background.
  void light_passes(const WorldView& view, const RenderSettings& settings,
                    RenderPassTimes* times);

  int width_ = 0, height_ = 0;
  RenderSettings settings_;
  std::unique_ptr<Programs> programs_;
  std::unique_ptr<PassState> passes_;
  gl::Buffer live_count_;                // one uint: the boids of the view being drawn
  gl::Texture hdr_texture_;              // RGBA16F: additive blending must not clip at 1
  gl::Framebuffer hdr_framebuffer_;
  gl::Texture output_texture_;           // RGBA8, what gets displayed or written
  gl::Framebuffer output_framebuffer_;
  bool draw_to_window_ = false;          // draw_to_window()
  unsigned final_framebuffer() const { return draw_to_window_ ? 0 : output_framebuffer_.id(); }
};

}  // namespace murmur
