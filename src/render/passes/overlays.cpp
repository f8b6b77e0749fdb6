#include "overlays.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <vector>

#include "murmur/gl/dispatch.hpp"
#include "murmur/render/density.hpp"

namespace murmur::render {
namespace {

constexpr GLsizei kLineVertices = 2;
// The selected boid's sight, minimum-distance and body circles (render_overlay_circles.comp).
constexpr std::size_t kSelectedCircles = 3;
constexpr std::uint32_t kMaxCirclesPerSlot = MURMUR_MAX_CIRCLES_PER_SLOT;

// The std430 OverlayShape record of shaders/render/render_overlay.vert.
struct OverlayShape {
  glm::vec4 geometry;
  glm::vec4 colour;
};
static_assert(sizeof(OverlayShape) == 32);

// The outlines drawn from the CPU: circles (obstacles, the target's ring) and segments (the
// target's cross, the grid), in the settings' colours for the blend.
struct Outlines {
  std::vector<OverlayShape> circles, segments;
};

Outlines outlines(const OverlaySettings& settings, bool ink, const Scenario& scenario,
                  const GridShape& grid, const WorldView& view) {
  Outlines shapes;
  const glm::vec4 obstacle_colour = ink ? settings.ink_obstacle_colour : settings.obstacle_colour;
  const glm::vec4 target_colour = ink ? settings.ink_target_colour : settings.target_colour;
  const glm::vec4 grid_colour = ink ? settings.ink_grid_colour : settings.grid_colour;
  if (settings.obstacles)
    for (const Obstacle& obstacle : scenario.obstacles)
      shapes.circles.push_back({{obstacle.centre, obstacle.radius, 0.0f}, obstacle_colour});
  if (settings.target && scenario.target) {
    const glm::vec2 at = scenario.target->position;
    const float ring = settings.target_marker_pixels / view.pixels_per_world_unit;
    shapes.circles.push_back({{at, ring, 0.0f}, target_colour});
    shapes.segments.push_back({{at - glm::vec2(ring, 0), at + glm::vec2(ring, 0)}, target_colour});
    shapes.segments.push_back({{at - glm::vec2(0, ring), at + glm::vec2(0, ring)}, target_colour});
  }
  if (settings.grid) {
    const glm::vec2 world = scenario.size();
    for (int column = 1; column < grid.cells.x; ++column) {
      const float x = static_cast<float>(column) * grid.cell_size.x;
      shapes.segments.push_back({{x, 0.0f, x, world.y}, grid_colour});
    }
    for (int row = 1; row < grid.cells.y; ++row) {
      const float y = static_cast<float>(row) * grid.cell_size.y;
      shapes.segments.push_back({{0.0f, y, world.x, y}, grid_colour});
    }
  }
  return shapes;
}

// The obstacles' spheres and the target's marker as `view` sees them, in the frame's pixels
// from its bottom-left corner (the lines' view of a 3D frame); what is behind the near plane is
// left out.
Outlines outlines_3d(const OverlaySettings& settings, bool ink, const Scenario& scenario,
                     const PerspectiveView& view) {
  Outlines shapes;
  const auto seen = [&](glm::vec2 plane, float z) -> std::optional<ScreenPoint> {
    std::optional<ScreenPoint> point = world_to_screen(view, {plane.x, plane.y, z});
    // world_to_screen's pixels count down from the top; the lines' count up from the bottom.
    if (point) point->pixel.y = static_cast<float>(view.frame_size.y) - point->pixel.y;
    return point;
  };
  const glm::vec4 obstacle_colour = ink ? settings.ink_obstacle_colour : settings.obstacle_colour;
  const glm::vec4 target_colour = ink ? settings.ink_target_colour : settings.target_colour;
  if (settings.obstacles)
    for (const Obstacle& obstacle : scenario.obstacles)
      if (const auto centre = seen(obstacle.centre, obstacle.z))
        shapes.circles.push_back(
            {{centre->pixel,
              obstacle.radius * view.pixels_per_unit_at_unit_depth / centre->depth, 0.0f},
             obstacle_colour});
  if (settings.target && scenario.target)
    if (const auto at = seen(scenario.target->position, scenario.target->z)) {
      const float ring = settings.target_marker_pixels;
      const glm::vec2 pixel = at->pixel;
      shapes.circles.push_back({{pixel, ring, 0.0f}, target_colour});
      shapes.segments.push_back(
          {{pixel - glm::vec2(ring, 0), pixel + glm::vec2(ring, 0)}, target_colour});
      shapes.segments.push_back(
          {{pixel - glm::vec2(0, ring), pixel + glm::vec2(0, ring)}, target_colour});
    }
  return shapes;
}

// Where a frame's overlays are drawn: the lines' view (the world's plane, or a 3D frame's
// pixels), and for a 3D world the camera its boids' circles are projected by.
struct OverlaySpace {
  WorldView lines_view;
  const PerspectiveView* camera = nullptr;
  float selected_body_radius = 0;  // world units
};

void draw_shapes(OverlayPrograms& programs, const RenderSettings& render_settings,
                 const Scenario& scenario, BoidBufferView boids, const Outlines& shapes,
                 const OverlaySpace& space, const gl::Buffer& live_count,
                 const RenderTarget& output, const PassGeometry& geometry) {
  const OverlaySettings& settings = render_settings.overlays;
  const bool ink = render_settings.blend == BlendMode::Ink;
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
  const bool selected = settings.selected_id.has_value() && settings.circles != CircleMode::None;
  const std::size_t boid_circles = circles_per_slot * static_cast<std::size_t>(circle_slots) +
                                   (selected ? kSelectedCircles : 0);
  const std::size_t total = boid_circles + shapes.circles.size() + shapes.segments.size();
  gl::DrawState state = output.whole();
  state.scissor = world_scissor(space.lines_view);
  if (total == 0 || !state.scissor) return;
  state.blend = gl::Blend::same(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);

  // One buffer for every shape of the frame: [boid circles (the trail slots' circles, then the
  // selected boid's three) | other circles | segments]; the GPU fills the boid circles in
  // place. A slot no live boid holds, or a selected id none has, keeps its zeroed shapes:
  // transparent, so nothing shows.
  const std::size_t circle_count = boid_circles + shapes.circles.size();
  gl::Buffer shape_buffer("murmur.render.overlay_shapes", total * sizeof(OverlayShape));
  shape_buffer.clear_to_zero();
  std::vector<OverlayShape> cpu_shapes = shapes.circles;
  cpu_shapes.insert(cpu_shapes.end(), shapes.segments.begin(), shapes.segments.end());
  if (!cpu_shapes.empty())
    shape_buffer.upload(boid_circles * sizeof(OverlayShape),
                        cpu_shapes.size() * sizeof(OverlayShape), cpu_shapes.data());
  shape_buffer.bind_storage(MURMUR_BIND_OVERLAY_SHAPES);
  if (boid_circles > 0) {
    std::array<float, kMaxSpecies> perception{}, separation{};
    for (std::size_t s = 0; s < std::min(scenario.species.size(), kMaxSpecies); ++s) {
      perception[s] = scenario.species[s].perception_radius;
      separation[s] = scenario.species[s].separation_radius;
    }
    const OverlayPrograms::Circles& select =
        programs.circles[space.camera != nullptr ? gl::kVolumeDefine : ""];
    select.boid_count.set(boids.count);
    select.circle_slots.set(circle_slots);
    select.circles_per_slot.set(circles_per_slot);
    const std::array<std::uint32_t, kMaxCirclesPerSlot> radius_kinds =
        all_circles ? std::array{static_cast<std::uint32_t>(settings.circle_radius.kind), 0u}
                    : std::array{static_cast<std::uint32_t>(CircleRadiusKind::Sight),
                                 static_cast<std::uint32_t>(CircleRadiusKind::Separation)};
    const std::array<glm::vec4, kMaxCirclesPerSlot> slot_colours =
        all_circles
            ? std::array{ink ? settings.ink_circle_colour : settings.circle_colour, glm::vec4(0.0f)}
            : std::array{settings.perception_colour, settings.separation_colour};
    select.slot_radius_kind.set(std::span<const std::uint32_t>(radius_kinds));
    select.slot_colour.set(std::span<const glm::vec4>(slot_colours));
    select.world_units_radius.set(settings.circle_radius.world_units);
    select.perception_radius.set(std::span<const float>(perception));
    select.separation_radius.set(std::span<const float>(separation));
    select.has_selected.set(selected);
    select.selected_id.set(settings.selected_id.value_or(0));
    select.selected_body_radius.set(space.selected_body_radius);
    select.selected_sight_colour.set(settings.selected_sight_colour);
    select.selected_distance_colour.set(settings.selected_distance_colour);
    select.selected_body_colour.set(settings.selected_body_colour);
    if (space.camera != nullptr) {
      const PerspectiveView& camera = *space.camera;
      select.world_to_clip.set(camera.world_to_clip);
      select.frame_size.set(glm::vec2(camera.frame_size));
      select.eye.set(camera.eye);
      select.view_forward.set(camera.forward);
      select.near_plane.set(camera.near_plane);
      select.pixels_at_unit_depth.set(camera.pixels_per_unit_at_unit_depth);
    }
    // The shapes' clear and upload are buffer updates; the simulation wrote the boids.
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, MURMUR_BIND_RENDER_BOIDS, boids.buffer);
    live_count.bind_storage(MURMUR_BIND_RENDER_LIVE_COUNT);
    select.program.use();
    gl::dispatch(boid_pass_dispatch(boids.count));
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // the vertex shader reads the circles
  }

  gl::apply(state);
  const OverlayPrograms::Lines& lines = programs.lines;
  lines.view.set(space.lines_view);
  lines.program.use();
  geometry.bind_empty();
  if (circle_count > 0) {
    lines.circles.set(true);
    lines.first_shape.set(std::uint32_t{0});
    glDrawArrays(GL_LINES, 0,
                 kLineVertices * MURMUR_OVERLAY_CIRCLE_SEGMENTS * static_cast<GLsizei>(circle_count));
  }
  if (!shapes.segments.empty()) {
    lines.circles.set(false);
    lines.first_shape.set(static_cast<std::uint32_t>(circle_count));
    glDrawArrays(GL_LINES, 0, kLineVertices * static_cast<GLsizei>(shapes.segments.size()));
  }
}

}  // namespace

OverlayPrograms::Circles::Circles(const std::string& defines)
    : program(gl::Program::compute("render/render_overlay_circles.comp",
                                   render_constants() + defines)) {}

OverlayPrograms::OverlayPrograms()
    : lines{gl::Program::graphics("render/render_overlay.vert", "render/render_overlay.frag",
                                  render_constants())} {}

void draw_overlays(OverlayPrograms& programs, const RenderSettings& render_settings,
                   const Scenario& scenario, BoidBufferView boids, const GridShape& grid,
                   const WorldView& view, const gl::Buffer& live_count,
                   const RenderTarget& output, const PassGeometry& geometry) {
  const bool ink = render_settings.blend == BlendMode::Ink;
  OverlaySpace space{view};
  // The circles and the boid's body are only worked out when a boid circle is drawn.
  if (render_settings.overlays.circles != CircleMode::None && render_settings.overlays.selected_id)
    space.selected_body_radius =
        kHalf * head_look(render_settings, scenario, expected_boids(scenario, boids), view).length;
  draw_shapes(programs, render_settings, scenario, boids,
              outlines(render_settings.overlays, ink, scenario, grid, view), space, live_count,
              output, geometry);
}

void draw_overlays_3d(OverlayPrograms& programs, const RenderSettings& render_settings,
                      const Scenario& scenario, BoidBufferView boids, const PerspectiveView& view,
                      const gl::Buffer& live_count, const RenderTarget& output,
                      const PassGeometry& geometry) {
  const bool ink = render_settings.blend == BlendMode::Ink;
  const OverlaySpace space{fit_world(glm::vec2(view.frame_size), view.frame_size.x,
                                     view.frame_size.y),
                           &view, kHalf * world_head_length(render_settings, scenario)};
  draw_shapes(programs, render_settings, scenario, boids,
              outlines_3d(render_settings.overlays, ink, scenario, view), space, live_count,
              output, geometry);
}

}  // namespace murmur::render
