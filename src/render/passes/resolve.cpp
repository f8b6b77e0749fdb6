#include "resolve.hpp"

#include "exposure.hpp"

namespace murmur::render {
namespace {

std::string resolve_variant(bool ink, bool local, bool bloom) {
  return flag("MURMUR_INK", ink) + flag("MURMUR_LOCAL_EXPOSURE", local) +
         flag("MURMUR_BLOOM", bloom);
}

}  // namespace

ResolvePrograms::Resolve::Resolve(const std::string& variant)
    : program(gl::Program::graphics("render/render_fullscreen.vert", "render/render_resolve.frag",
                                    render_constants() + variant)) {}

std::size_t ResolvePrograms::build_every_variant() {
  std::size_t built = 0;
  for (const bool ink : {false, true})
    for (const bool local : {false, true})
      for (const bool bloom : {false, true}) {
        resolve[resolve_variant(ink, local, bloom)];
        ++built;
      }
  return built;
}

void resolve_frame(ResolvePrograms& programs, const RenderSettings& settings,
                   const gl::Texture& hdr_texture, const BloomChain& bloom,
                   bool local_exposure_on, const RenderTarget& output,
                   const PassGeometry& geometry) {
  gl::apply(output.whole());  // the shader encodes sRGB itself (gl::apply turns GL's off)
  const bool with_bloom = bloom_shown(settings) && !bloom.levels.empty();
  const ResolvePrograms::Resolve& resolve = programs.resolve[resolve_variant(
      settings.blend == BlendMode::Ink, local_exposure_on, with_bloom)];
  resolve.exposure.set(settings.exposure);
  resolve.highlight_whiteness.set(settings.highlight_whiteness);
  resolve.local.set(local_exposure_cell_grid(output.size), settings.background);
  // Level 0 holds the sum of every level; dividing by their count keeps `intensity` meaning
  // the same whatever the number of levels.
  resolve.bloom_intensity.set(
      with_bloom ? settings.bloom.intensity / static_cast<float>(bloom.levels.size()) : 0.0f);
  glBindTextureUnit(MURMUR_HDR_TEXTURE_UNIT, hdr_texture.id());
  glBindTextureUnit(MURMUR_BLOOM_TEXTURE_UNIT,
                    with_bloom ? bloom.levels.front().id() : hdr_texture.id());
  resolve.program.use();
  geometry.draw_fullscreen();
}

}  // namespace murmur::render
