#pragma once
// The bloom pass: the HDR frame's bright parts down a chain of halvings
// (shaders/render/bloom_downsample.frag) and blurred back up, level by level, onto the chain's
// first level (bloom_upsample.frag), which the resolve adds (docs/rendering.md, "The bloom's
// first level").
#include <vector>

#include "pass.hpp"

namespace murmur::render {

struct BloomPrograms {
  struct Down {
    // MURMUR_BRIGHT_PASS (the first level) and MURMUR_LOCAL_EXPOSURE.
    explicit Down(const std::string& variant);
    gl::Program program;
    static constexpr gl::Uniform::MayBeCompiledOut kFirstLevelOnly{};
    gl::Uniform threshold{program, "u_threshold", kFirstLevelOnly},
        knee{program, "u_knee", kFirstLevelOnly}, source_texel{program, "u_source_texel"},
        target_size{program, "u_target_size"};
    LocalExposureUniforms local{program};
  };
  struct Up {
    gl::Program program;
    gl::Uniform radius{program, "u_radius"}, source_texel{program, "u_source_texel"},
        target_size{program, "u_target_size"};
  };
  BloomPrograms();
  Variants<Down> down;
  Up up;
  std::size_t build_every_variant();
};

// Bloom levels, each half the size of the one before (level 0 is a quarter of the frame's
// side). Made by the first frame that blooms at a frame size, so that changing `levels` live
// works; a resize drops them.
struct BloomChain {
  std::vector<gl::Texture> levels;
  std::vector<gl::Framebuffer> framebuffers;
  void clear() {
    levels.clear();
    framebuffers.clear();
  }
};

// On, with some intensity, and not ink (glow on paper is a smear).
bool bloom_shown(const RenderSettings& settings);

// The GPU bytes of the bloom chain's levels for a frame of `frame` pixels (the memory
// estimate, docs/reliability.md); none when the bloom is not shown.
std::uint64_t bloom_bytes(glm::ivec2 frame, const RenderSettings& settings);

// Reads `hdr_texture` and the local exposure's factors (local_exposure_on: the exposure
// applied them this frame); writes `chain`, its level 0 the sum of every level.
void draw_bloom(BloomPrograms& programs, BloomChain& chain, const RenderSettings& settings,
                const gl::Texture& hdr_texture, bool local_exposure_on,
                const PassGeometry& geometry);

}  // namespace murmur::render
