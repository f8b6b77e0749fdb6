#include "bloom.hpp"

#include <algorithm>

#include <glm/common.hpp>

#include "exposure.hpp"

namespace murmur::render {
namespace {

// The bloom's levels are the frame halved `levels` times but for the first halving: level 0 is
// a quarter of the frame's side (origin 002's glow blurs a third-size copy), the widest level
// stays where it was. On llvmpipe each bilinear tap costs a full-frame pass about as much as
// the rest of its pixel's work, and a half-size level took two passes over 230,400 texels at
// 1280x720 (its 16-tap bright-pass and the 9-tap blur added back onto it), most of the bloom's
// time. The bright-pass still weighs every frame pixel alike (quartering, its four bilinear
// taps fall at the centres of the 2x2 quarters of each texel's 4x4 block).
constexpr int kFirstBloomHalving = 2;

// The first level's bright-pass applies the local exposure; the other levels only halve.
std::string down_variant(bool first_level, bool local) {
  return flag("MURMUR_BRIGHT_PASS", first_level) +
         (first_level ? flag("MURMUR_LOCAL_EXPOSURE", local) : std::string());
}

}  // namespace

BloomPrograms::Down::Down(const std::string& variant)
    : program(gl::Program::graphics("render/render_fullscreen.vert",
                                    "render/bloom_downsample.frag", render_constants() + variant)) {}

BloomPrograms::BloomPrograms()
    : up{gl::Program::graphics("render/render_fullscreen.vert", "render/bloom_upsample.frag",
                               render_constants())} {}

std::size_t BloomPrograms::build_every_variant() {
  down[down_variant(false, false)];
  for (const bool local : {false, true}) down[down_variant(true, local)];
  return 3;
}

namespace {

// Level sizes halve (rounding down, never below 1) and the chain stops once a level is 1x1.
std::vector<glm::ivec2> bloom_level_sizes(glm::ivec2 frame, const BloomSettings& bloom) {
  std::vector<glm::ivec2> sizes;
  glm::ivec2 size = frame;
  const int halvings = std::max(bloom.levels, kFirstBloomHalving);
  for (int halving = 1; halving <= halvings && (size.x > 1 || size.y > 1); ++halving) {
    size = glm::max(size / 2, glm::ivec2(1));
    if (halving >= kFirstBloomHalving) sizes.push_back(size);
  }
  return sizes;
}

// A bloom level's texel: RGBA16F.
constexpr std::size_t kBloomTexelBytes = 4 * sizeof(std::uint16_t);

}  // namespace

std::uint64_t bloom_bytes(glm::ivec2 frame, const RenderSettings& settings) {
  if (!bloom_shown(settings)) return 0;
  std::uint64_t bytes = 0;
  for (const glm::ivec2 size : bloom_level_sizes(frame, settings.bloom)) {
    bytes += kBloomTexelBytes * std::uint64_t(size.x) * std::uint64_t(size.y);
  }
  return bytes;
}

bool bloom_shown(const RenderSettings& settings) {
  const BloomSettings& bloom = settings.bloom;
  return bloom.enabled && bloom.intensity > 0 && settings.blend == BlendMode::Glow;
}

void draw_bloom(BloomPrograms& programs, BloomChain& chain, const RenderSettings& settings,
                const gl::Texture& hdr_texture, bool local_exposure_on,
                const PassGeometry& geometry) {
  const BloomSettings& bloom = settings.bloom;
  if (!bloom_shown(settings)) return;

  const glm::ivec2 frame(hdr_texture.width(), hdr_texture.height());
  const std::vector<glm::ivec2> sizes = bloom_level_sizes(frame, bloom);
  if (sizes.empty()) return;  // a 1x1 frame has nothing to spread light over
  if (chain.levels.size() != sizes.size()) {
    chain.clear();
    for (const glm::ivec2 level_size : sizes) {
      chain.levels.emplace_back("murmur.render.bloom_level", GL_RGBA16F, level_size.x,
                                level_size.y);
      set_sampling(chain.levels.back(), GL_CLAMP_TO_EDGE);
      chain.framebuffers.emplace_back("murmur.render.bloom_framebuffer");
      chain.framebuffers.back().attach_colour(chain.levels.back());
      chain.framebuffers.back().check_complete();
    }
  }

  // Down the chain, each level replacing its pixels; back up, each level added onto the one
  // above but for its alpha: level 0's is the local factor its bright-pass stored for the
  // resolve.
  const auto draw_into = [&](std::size_t level, const gl::Texture& source, bool going_up) {
    gl::DrawState state = gl::draw_into(chain.framebuffers[level].id(), sizes[level]);
    if (going_up) {
      state.blend = gl::Blend::add();
      state.write_alpha = false;
    }
    gl::apply(state);
    glBindTextureUnit(MURMUR_BLOOM_SOURCE_TEXTURE_UNIT, source.id());
    geometry.draw_fullscreen();
  };

  for (std::size_t level = 0; level < sizes.size(); ++level) {
    const bool first = level == 0;
    const BloomPrograms::Down& down = programs.down[down_variant(first, local_exposure_on)];
    down.program.use();
    if (first) {
      down.threshold.set(std::max(bloom.threshold, 0.0f));
      down.knee.set(std::max(bloom.threshold, 0.0f) * std::clamp(bloom.soft_knee, 0.0f, 1.0f));
      down.local.set(local_exposure_cell_grid(frame), settings.background);
    }
    const gl::Texture& source = first ? hdr_texture : chain.levels[level - 1];
    down.source_texel.set(1.0f / glm::vec2(source.width(), source.height()));
    down.target_size.set(glm::vec2(sizes[level]));
    draw_into(level, source, false);
  }

  const BloomPrograms::Up& up = programs.up;
  up.program.use();
  up.radius.set(std::max(bloom.radius, 0.0f));
  for (std::size_t level = sizes.size() - 1; level > 0; --level) {
    const gl::Texture& source = chain.levels[level];
    up.source_texel.set(1.0f / glm::vec2(source.width(), source.height()));
    up.target_size.set(glm::vec2(sizes[level - 1]));
    draw_into(level - 1, source, true);
  }
}

}  // namespace murmur::render
