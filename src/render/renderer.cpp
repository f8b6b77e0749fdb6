// The renderer: its targets, each pass's programs and state, and the frame's ordered list of
// passes (Renderer::frame). Each pass is a function of its own file in src/render/passes/,
// named for what it reads and what it writes.
#include "murmur/render/renderer.hpp"

#include "murmur/base/errors.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include <glm/common.hpp>

#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/flock/gpu/gpu_types.hpp"
#include "murmur/gl/debug.hpp"
#include "murmur/render/density.hpp"
#include "passes/bloom.hpp"
#include "passes/exposure.hpp"
#include "passes/food.hpp"
#include "passes/heads.hpp"
#include "passes/overlays.hpp"
#include "passes/pass.hpp"
#include "passes/perspective.hpp"
#include "passes/plan_agents.hpp"
#include "passes/plan_ink.hpp"
#include "passes/resolve.hpp"
#include "passes/trail_history.hpp"
#include "passes/trails.hpp"

namespace murmur {
namespace {

constexpr int kRgbaChannels = 4;
// The targets' texels: the HDR frame's RGBA16F, the output's RGBA8 (create_targets).
constexpr std::uint64_t kHdrTexelBytes = 4 * sizeof(std::uint16_t);
constexpr std::uint64_t kOutputTexelBytes = kRgbaChannels;
// The flock's Population record starts with its live count: a view's live_count_buffer is
// read at offset 0.
static_assert(offsetof(gpu::Population, live) == 0);

void check_size(int width, int height) {
  if (width < 1 || height < 1)
    throw std::invalid_argument("Renderer: target size " + std::to_string(width) + "x" +
                                std::to_string(height) + " must be at least 1x1");
}

// The flock's state: capacity() records, the first Population::live of them live.
BoidBufferView flock_view(const GpuFlock& flock) {
  return BoidBufferView{flock.boid_buffer(), flock.capacity(), flock.population_buffer(),
                        flock.step_index()};
}

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

// Each pass's programs, built when the renderer is made (a variant the first time a frame
// needs it).
struct Renderer::Programs {
  render::TrailHistoryPrograms trail_history;
  render::TrailsPrograms trails;
  render::FoodPrograms food;
  render::HeadsPrograms heads;
  render::ExposurePrograms exposure;
  render::BloomPrograms bloom;
  render::ResolvePrograms resolve;
  render::OverlayPrograms overlays;
  render::PlanInkPrograms plan_ink;
  render::PlanAgentsPrograms plan_agents;
  render::PerspectivePrograms perspective;
};

// What the passes keep between frames, and what they draw with.
struct Renderer::PassState {
  render::PassGeometry geometry;
  render::PointLimits point_limits = render::PointLimits::query();
  render::TrailHistory trail_history;
  render::ExposureState exposure;
  render::BloomChain bloom;
  render::PlanInk plan_ink;
};

Renderer::Renderer(int width, int height, const RenderSettings& settings)
    : settings_(settings),
      programs_(std::make_unique<Programs>()),
      passes_(std::make_unique<PassState>()),
      live_count_("murmur.render.live_count", sizeof(std::uint32_t)) {
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

MemoryNeed renderer_memory(glm::ivec2 frame, const RenderSettings& settings, glm::vec2 world,
                           bool three_d) {
  const std::uint64_t pixels = std::uint64_t(frame.x) * std::uint64_t(frame.y);
  const MemoryNeed targets{pixels * (kHdrTexelBytes + kOutputTexelBytes) +
                               render::bloom_bytes(frame, settings),
                           0};
  return targets + render::trail_history_memory(settings.trails, world, three_d);
}

void Renderer::create_targets() {
  hdr_texture_ = gl::Texture("murmur.render.hdr", GL_RGBA16F, width_, height_);
  hdr_framebuffer_ = gl::Framebuffer("murmur.render.hdr_framebuffer");
  render::set_sampling(hdr_texture_, GL_CLAMP_TO_EDGE);  // the first bloom level filters it
  hdr_framebuffer_.attach_colour(hdr_texture_);
  hdr_framebuffer_.check_complete();

  output_texture_ = gl::Texture("murmur.render.output", GL_RGBA8, width_, height_);
  output_framebuffer_ = gl::Framebuffer("murmur.render.output_framebuffer");
  output_framebuffer_.attach_colour(output_texture_);
  output_framebuffer_.check_complete();

  passes_->exposure.resize({width_, height_});
  // Bloom levels are made by the next frame that blooms, so that changing `levels` live works.
  passes_->bloom.clear();
}

// --- the trail history ------------------------------------------------------------------

void Renderer::reset_trails() { passes_->trail_history.reset(); }


void Renderer::record_step(const GpuFlock& flock) {
  record_step(flock.scenario(), flock_view(flock));
}

void Renderer::record_step(const Scenario& scenario, BoidBufferView boids) {
  gl::DebugGroup group("render: record trails");
  render::record_trails(programs_->trail_history, passes_->trail_history, settings_, scenario,
                        boids, live_count_, passes_->geometry);
}

std::vector<glm::vec4> Renderer::read_fade_map(glm::ivec2* size) const {
  return passes_->trail_history.read_fade_map(size);
}

// --- the frame ----------------------------------------------------------------------------

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
  if (is_3d(scenario)) {
    frame_3d(scenario, boids, times);
    return;
  }
  const WorldView view = view_for(settings_.camera, scenario.size(), width_, height_);
  gl::DebugGroup frame_group("render frame");
  if (times != nullptr) glFinish();  // earlier work (the simulation) is not ours to time
  Programs& programs = *programs_;
  PassState& passes = *passes_;
  const render::RenderTarget hdr{hdr_framebuffer_.id(), {width_, height_}};
  const render::RenderTarget output{final_framebuffer(), {width_, height_}};
  render::load_live_count(live_count_, boids);
  const float expected = expected_boids(scenario, boids);
  const PassRunner run{times};
  run("trails", &RenderPassTimes::trails, [&] {
    clear_frame(view, render::fade_map_composited(passes.trail_history, settings_.trails, view));
    render::draw_trails(programs.trails, passes.trail_history, settings_, scenario, boids.step,
                        expected, view, hdr, passes.geometry);
    render::draw_food(programs.food, food, settings_, view, hdr, passes.geometry);
  });
  run("heads", &RenderPassTimes::heads, [&] {
    render::draw_heads(programs.heads, settings_, scenario, boids, view, passes.point_limits, hdr,
                       passes.geometry);
  });
  light_passes(view, settings_, times);
  run("overlays", &RenderPassTimes::overlays, [&] {
    render::draw_overlays(programs.overlays, settings_, scenario, boids, grid, view, live_count_,
                          output, passes.geometry);
  });
  // The window's framebuffer bound, nothing blended or cut, for whatever draws next.
  gl::apply(gl::draw_into(0, {width_, height_}));
}

// A 3D world's frame: the sky, the ribbons in space and the heads in perspective with depth
// fog, then the light passes and the overlays as the camera sees them
// (docs/rendering.md, "Three dimensions").
void Renderer::frame_3d(const Scenario& scenario, BoidBufferView boids, RenderPassTimes* times) {
  const glm::vec2 frame_size(static_cast<float>(width_), static_cast<float>(height_));
  const WorldView whole_frame = fit_world(frame_size, width_, height_);
  const render::PerspectiveFrame camera =
      render::perspective_frame(settings_, scenario, {width_, height_});
  gl::DebugGroup frame_group("render 3D frame");
  if (times != nullptr) glFinish();  // earlier work (the simulation) is not ours to time
  Programs& programs = *programs_;
  PassState& passes = *passes_;
  const render::RenderTarget hdr{hdr_framebuffer_.id(), {width_, height_}};
  render::load_live_count(live_count_, boids);
  const PassRunner run{times};
  run("trails", &RenderPassTimes::trails, [&] {
    render::draw_sky(programs.perspective, settings_, camera, hdr, passes.geometry);
    render::draw_ribbons_3d(programs.perspective, passes.trail_history, settings_, scenario,
                            boids.step, camera, hdr, passes.geometry);
  });
  run("heads", &RenderPassTimes::heads, [&] {
    render::draw_heads_3d(programs.perspective, settings_, scenario, boids, camera, hdr,
                          passes.geometry);
  });
  // The exposures count as lit, and the local exposure dims, only light above the empty
  // world's: here the brighter of the sky's two colours, channel by channel.
  RenderSettings lit = settings_;
  const SkyColours sky = sky_colours(settings_);
  lit.background = glm::max(sky.horizon, sky.top);
  light_passes(whole_frame, lit, times);
  const render::RenderTarget output{final_framebuffer(), {width_, height_}};
  run("overlays", &RenderPassTimes::overlays, [&] {
    render::draw_overlays_3d(programs.overlays, settings_, scenario, boids, camera.view,
                             live_count_, output, passes.geometry);
  });
  gl::apply(gl::draw_into(0, {width_, height_}));
}

// The passes after the marks, the same for a flock and a plan.
void Renderer::light_passes(const WorldView& view, const RenderSettings& settings,
                            RenderPassTimes* times) {
  Programs& programs = *programs_;
  PassState& passes = *passes_;
  const render::RenderTarget output{final_framebuffer(), {width_, height_}};
  const PassRunner run{times};
  run("exposure", &RenderPassTimes::exposure, [&] {
    render::measure_exposure(programs.exposure, passes.exposure, settings, view, hdr_texture_);
  });
  run("bloom", &RenderPassTimes::bloom, [&] {
    render::draw_bloom(programs.bloom, passes.bloom, settings, hdr_texture_,
                       passes.exposure.local_on, passes.geometry);
  });
  run("resolve", &RenderPassTimes::resolve, [&] {
    render::resolve_frame(programs.resolve, settings, hdr_texture_, passes.bloom,
                          passes.exposure.local_on, output, passes.geometry);
  });
}

void Renderer::render(const GpuPlan& plan, RenderPassTimes* times) {
  render(plan.scenario(), plan.buffers(), plan.history(), times);
}

void Renderer::render(const PlanScenario& scenario, const GpuPlanBuffers& plan,
                      std::uint64_t history, RenderPassTimes* times) {
  const WorldView view = view_for(settings_.camera, scenario.size(), width_, height_);
  gl::DebugGroup frame_group("render plan frame");
  if (times != nullptr) glFinish();  // earlier work (the plan's steps) is not ours to time
  Programs& programs = *programs_;
  PassState& passes = *passes_;
  const render::RenderTarget hdr{hdr_framebuffer_.id(), {width_, height_}};
  const PassRunner run{times};
  run("trails", &RenderPassTimes::trails, [&] {
    clear_frame(view, false);
    render::draw_plan_ink(programs.plan_ink, passes.plan_ink, settings_, scenario, plan, history,
                          view, hdr, passes.geometry);
  });
  run("heads", &RenderPassTimes::heads, [&] {
    render::draw_plan_agents(programs.plan_agents, settings_, plan, view, hdr, passes.geometry);
  });
  light_passes(view, settings_, times);
  gl::apply(gl::draw_into(0, {width_, height_}));
}

void Renderer::reset_plan() { passes_->plan_ink.forget(); }

std::size_t Renderer::build_every_variant() {
  Programs& programs = *programs_;
  return programs.heads.build_every_variant() + programs.trail_history.build_every_variant() +
         programs.trails.build_every_variant() + programs.resolve.build_every_variant() +
         programs.bloom.build_every_variant() + programs.exposure.build_every_variant() +
         programs.perspective.build_every_variant();
}

void Renderer::clear_frame(const WorldView& view, bool world_drawn_over) {
  // The bars first, over the whole target (a viewer's UI may have left a scissor box), then
  // the world's rectangle, so the world's edges show even where no boid is near them. A pass
  // that writes every pixel of the world's rectangle itself (world_drawn_over) lays the sky
  // there, and the bars need clearing only where the rectangle leaves some of the frame.
  const render::RenderTarget hdr{hdr_framebuffer_.id(), {width_, height_}};
  gl::DrawState state = hdr.whole();
  gl::apply(state);
  const bool world_fills_frame = view.world_pixel_origin == glm::ivec2(0) &&
                                 view.world_pixel_size == glm::ivec2(width_, height_);
  if (!(world_drawn_over && world_fills_frame))
    render::clear_colour(hdr.framebuffer, settings_.letterbox);
  state.scissor = render::world_scissor(view);
  if (world_drawn_over || !state.scissor) return;
  gl::apply(state);
  const glm::vec4 sky = render::world_sky(settings_);
  render::clear_colour(hdr.framebuffer, glm::vec3(sky), sky.a);
  gl::apply(hdr.whole());  // clears that follow (the plan's ink layer) are not cut
}

std::vector<float> Renderer::read_local_exposure(glm::ivec2* cells) const {
  return render::read_local_exposure(passes_->exposure, {width_, height_}, cells);
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
