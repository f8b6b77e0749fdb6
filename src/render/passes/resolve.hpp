#pragma once
// The resolve pass: the HDR frame and the bloom through the exposures and the tone map, encoded
// as sRGB into the 8-bit frame (shaders/render/render_resolve.frag; docs/rendering.md,
// "Passes of one frame").
#include "bloom.hpp"
#include "pass.hpp"

namespace murmur::render {

struct ResolvePrograms {
  struct Resolve {
    // MURMUR_INK, MURMUR_LOCAL_EXPOSURE and MURMUR_BLOOM (shaders/render/render_resolve.frag).
    explicit Resolve(const std::string& variant);
    gl::Program program;
    static constexpr gl::Uniform::MayBeCompiledOut kOneVariant{};
    gl::Uniform exposure{program, "u_exposure"},
        highlight_whiteness{program, "u_highlight_whiteness", kOneVariant},
        bloom_intensity{program, "u_bloom_intensity", kOneVariant};
    LocalExposureUniforms local{program};
  };
  Variants<Resolve> resolve;
  std::size_t build_every_variant();
};

// Reads `hdr_texture`, `bloom` and the exposures' factors (local_exposure_on: the exposure
// applied the local ones this frame); writes every pixel of `output`.
void resolve_frame(ResolvePrograms& programs, const RenderSettings& settings,
                   const gl::Texture& hdr_texture, const BloomChain& bloom,
                   bool local_exposure_on, const RenderTarget& output,
                   const PassGeometry& geometry);

}  // namespace murmur::render
