#include "trails.hpp"

#include <algorithm>
#include <cmath>

#include "murmur/render/density.hpp"

namespace murmur::render {
namespace {

// The composite's taps on a map seen smaller than its texels (fade_map_taps_per_side).
constexpr float kFadeMapTexelsPerTap = 2.0f;
constexpr int kMaxFadeMapTapsPerSide = 16;

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

std::string composite_variant(bool ink, bool minified) {
  return flag("MURMUR_INK", ink) + flag("MURMUR_MINIFIED_MAP", minified);
}

void composite_fade_map(TrailsPrograms& programs, const TrailHistory& history,
                        const RenderSettings& settings, const Scenario& scenario, float boids,
                        const WorldView& view, const RenderTarget& hdr,
                        const PassGeometry& geometry) {
  const glm::ivec2 map_size(history.map.width(), history.map.height());
  const std::uint32_t taps_per_side =
      fade_map_taps_per_side(map_size, scenario.size(), view.pixels_per_world_unit);
  const TrailsPrograms::FadeComposite& composite = programs.fade_composite[composite_variant(
      settings.blend == BlendMode::Ink, taps_per_side > 1)];
  composite.frame_size.set(glm::vec2(hdr.size));
  composite.world_centre.set(view.world_centre);
  composite.pixels_per_world_unit.set(view.pixels_per_world_unit);
  composite.world_size.set(scenario.size());
  // map_scale: the map's texels times it are the trails (record_trails).
  composite.intensity.set(settings.trails.map_intensity * history.map_scale *
                          fade_map_density_scale(settings, scenario, boids, map_size));
  composite.stamp_intensity.set(settings.trails.stamp_brightness());
  composite.taps_per_side.set(taps_per_side);
  // The composite lays the trails over the sky itself (the clear left the world's rectangle
  // to it), as blending over it would have.
  composite.sky.set(world_sky(settings));
  glBindTextureUnit(MURMUR_FADE_MAP_TEXTURE_UNIT, history.map.id());
  gl::DrawState state = hdr.whole();
  state.scissor = world_scissor(view);
  gl::apply(state);
  composite.program.use();
  geometry.draw_fullscreen();
}

void draw_ribbons(TrailsPrograms& programs, const TrailHistory& history,
                  const RenderSettings& settings, const Scenario& scenario, std::uint64_t step,
                  float boids, const WorldView& view, const RenderTarget& hdr,
                  PassGeometry& geometry) {
  const TrailSettings& trails = settings.trails;
  const TrailsPrograms::Ribbons& ribbons = programs.ribbons[colour_variant(settings.colour.mode)];
  ribbons.colour.set(settings.colour, scenario, step);
  ribbons.view.set(view);
  ribbons.ring_length.set(history.ring_length);
  ribbons.generation.set(history.generation);
  ribbons.world_size.set(scenario.size());
  ribbons.world_units_per_pixel.set(1.0f / view.pixels_per_world_unit);
  ribbons.width_pixels.set(trails.ribbon_width());
  ribbons.min_width_pixels.set(trails.ribbon_min_width_pixels);
  ribbons.intensity.set(trails.ribbon_brightness() *
                        ribbon_density_scale(settings, scenario, boids, view));
  draw_ribbon_segments(ribbons.program, history, settings.blend, hdr, geometry);
}

}  // namespace

TrailsPrograms::FadeComposite::FadeComposite(const std::string& variant)
    : program(gl::Program::graphics("render/render_fullscreen.vert", "render/trail_composite.frag",
                                    render_constants() + variant)) {}

TrailsPrograms::Ribbons::Ribbons(const std::string& colour_defines)
    : program(gl::Program::graphics("render/trail_ribbon.vert", "render/trail_ribbon.frag",
                                    render_constants() + colour_defines)) {}

std::size_t TrailsPrograms::build_every_variant() {
  std::size_t built = 0;
  for (std::size_t index = 0; index < std::size(kColourModeNames); ++index, ++built)
    ribbons[colour_variant(static_cast<ColourMode>(index))];
  for (const bool ink : {false, true})
    for (const bool minified : {false, true}) {
      fade_composite[composite_variant(ink, minified)];
      ++built;
    }
  return built;
}

bool fade_map_composited(const TrailHistory& history, const TrailSettings& settings,
                         const WorldView& view) {
  return settings.mode == TrailMode::FadeMap && history.map_stamped && world_shown(view);
}

void draw_trails(TrailsPrograms& programs, const TrailHistory& history,
                 const RenderSettings& settings, const Scenario& scenario, std::uint64_t step,
                 float boids, const WorldView& view, const RenderTarget& hdr,
                 PassGeometry& geometry) {
  if (fade_map_composited(history, settings.trails, view))
    composite_fade_map(programs, history, settings, scenario, boids, view, hdr, geometry);
  else if (settings.trails.mode == TrailMode::Ribbons && history.ribbons_drawable())
    draw_ribbons(programs, history, settings, scenario, step, boids, view, hdr, geometry);
}

}  // namespace murmur::render
