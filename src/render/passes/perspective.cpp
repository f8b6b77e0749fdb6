#include "perspective.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

#include "murmur/render/density.hpp"

namespace murmur::render {
namespace {

// heads.frag's point-sprite cut: never in 3D, whose heads are triangles.
constexpr bool kNoSprites = false;

std::string heads_3d_variant(ColourMode mode, bool discs) {
  return colour_variant(mode) +
         variant_define("MURMUR_HEAD_SHAPE", discs ? MURMUR_HEAD_SHAPE_SQUARE
                                                   : MURMUR_HEAD_SHAPE_DART) +
         flag("MURMUR_HEAD_SPRITE", kNoSprites) + gl::kVolumeDefine;
}

bool draws_discs(const HeadStyle& style) {
  return style.shape == HeadShape::Disc || style.age_look;
}

}  // namespace

PerspectiveFrame perspective_frame(const RenderSettings& settings, const Scenario& scenario,
                                   glm::ivec2 frame_size) {
  const glm::vec3 box = world_box(scenario);
  const float aspect = static_cast<float>(frame_size.x) / static_cast<float>(frame_size.y);
  const OrbitCamera camera = settings.orbit_camera.value_or(starting_camera(scenario, aspect));
  PerspectiveFrame frame;
  frame.view = perspective_view(camera, box, frame_size.x, frame_size.y);
  const float diagonal = glm::length(box);
  const float to_centre = glm::dot(kHalf * box - frame.view.eye, frame.view.forward);
  frame.fog_start = std::max(to_centre - kHalf * diagonal, 0.0f);
  frame.fog_distance = settings.fog_distance > 0 ? settings.fog_distance : diagonal;
  frame.focus_depth = camera.distance;
  return frame;
}

PerspectiveUniforms::PerspectiveUniforms(const gl::Program& program)
    : world_to_clip(program, "u_world_to_clip"),
      eye(program, "u_eye"),
      view_forward(program, "u_view_forward"),
      near_plane(program, "u_near_plane"),
      pixels_at_unit_depth(program, "u_pixels_at_unit_depth"),
      fog_start(program, "u_fog_start"),
      inverse_fog(program, "u_inverse_fog") {}

void PerspectiveUniforms::set(const PerspectiveFrame& frame) const {
  const PerspectiveView& view = frame.view;
  world_to_clip.set(view.world_to_clip);
  eye.set(view.eye);
  view_forward.set(view.forward);
  near_plane.set(view.near_plane);
  pixels_at_unit_depth.set(view.pixels_per_unit_at_unit_depth);
  fog_start.set(frame.fog_start);
  inverse_fog.set(1.0f / frame.fog_distance);
}

PerspectivePrograms::Sky::Sky()
    : program(gl::Program::graphics("render/render_fullscreen.vert", "render/sky_3d.frag")) {}

PerspectivePrograms::Heads::Heads(const std::string& variant)
    : program(gl::Program::graphics("render/heads_3d.vert", "render/heads.frag",
                                    render_constants() + variant)) {}

PerspectivePrograms::Ribbons::Ribbons(const std::string& colour_defines)
    : program(gl::Program::graphics("render/trail_ribbon_3d.vert", "render/trail_ribbon.frag",
                                    render_constants() + colour_defines + gl::kVolumeDefine)) {}

std::size_t PerspectivePrograms::build_every_variant() {
  std::size_t built = 0;
  if (!sky) sky = std::make_unique<Sky>();
  ++built;
  for (std::size_t index = 0; index < std::size(kColourModeNames); ++index) {
    const auto mode = static_cast<ColourMode>(index);
    for (const bool discs : {false, true}) {
      heads[heads_3d_variant(mode, discs)];
      ++built;
    }
    ribbons[colour_variant(mode)];
    ++built;
  }
  return built;
}

void draw_sky(PerspectivePrograms& programs, const RenderSettings& settings,
              const PerspectiveFrame& frame, const RenderTarget& hdr, PassGeometry& geometry) {
  if (!programs.sky) programs.sky = std::make_unique<PerspectivePrograms::Sky>();
  const PerspectivePrograms::Sky& sky = *programs.sky;
  const SkyColours colours = sky_colours(settings);
  sky.clip_to_world.set(glm::inverse(frame.view.world_to_clip));
  sky.eye.set(frame.view.eye);
  sky.frame_size.set(glm::vec2(hdr.size));
  sky.horizon.set(colours.horizon);
  sky.top.set(colours.top);
  sky.alpha.set(world_sky(settings).a);
  gl::apply(hdr.whole());
  sky.program.use();
  geometry.draw_fullscreen();
}

void draw_ribbons_3d(PerspectivePrograms& programs, const TrailHistory& history,
                     const RenderSettings& settings, const Scenario& scenario, std::uint64_t step,
                     const PerspectiveFrame& frame, const RenderTarget& hdr,
                     PassGeometry& geometry) {
  const TrailSettings& trails = settings.trails;
  if (kept_trail_mode(trails, true) != TrailMode::Ribbons || !history.ribbons_drawable()) return;
  const PerspectivePrograms::Ribbons& ribbons = programs.ribbons[colour_variant(settings.colour.mode)];
  ribbons.colour.set(settings.colour, scenario, step);
  ribbons.camera.set(frame);
  ribbons.ring_length.set(history.ring_length);
  ribbons.generation.set(history.generation);
  ribbons.world_size.set(world_box(scenario));
  ribbons.focus_depth.set(frame.focus_depth);
  ribbons.width_pixels.set(trails.ribbon_width());
  ribbons.min_width_pixels.set(trails.ribbon_min_width_pixels);
  ribbons.intensity.set(trails.ribbon_brightness());
  draw_ribbon_segments(ribbons.program, history, settings.blend, hdr, geometry);
}

void draw_heads_3d(PerspectivePrograms& programs, const RenderSettings& settings,
                   const Scenario& scenario, BoidBufferView boids, const PerspectiveFrame& frame,
                   const RenderTarget& hdr, PassGeometry& geometry) {
  if (boids.count == 0) return;
  const HeadStyle& style = settings.heads;
  const bool discs = draws_discs(style);
  const PerspectivePrograms::Heads& heads =
      programs.heads[heads_3d_variant(settings.colour.mode, discs)];
  heads.camera.set(frame);
  heads.view_right.set(frame.view.right);
  heads.view_up.set(frame.view.up);
  const bool pixel_sized = style.size > 0 && style.size_units == HeadSizeUnits::Pixels;
  heads.head_length.set(pixel_sized ? 0.0f : world_head_length(settings, scenario));
  heads.head_length_pixels.set(pixel_sized ? style.size : 0.0f);
  heads.width_ratio.set(discs ? 1.0f : style.width_ratio);
  heads.notch_ratio.set(style.notch_ratio);
  heads.colour.set(settings.colour, scenario, boids.step);

  // The boids were written by compute passes: the frame's load_live_count made those writes
  // visible to vertex shaders.
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, MURMUR_BIND_RENDER_BOIDS, boids.buffer);
  gl::DrawState state = hdr.whole();
  // Glow adds each head's share of its light and counts it in alpha as marks; ink lays it over
  // the sky by that share. Birds of one colour compose the same in any order under ink (the
  // sky keeps the product of their (1 - share)s), so no depth sort is needed.
  state.blend = mark_blend(settings.blend, GL_ONE);
  gl::apply(state);
  heads.program.use();
  if (discs) {
    geometry.draw_quads(boids.count);
  } else {
    geometry.bind_empty();
    glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(MURMUR_HEAD_DART_VERTICES * boids.count));
  }
}

}  // namespace murmur::render
