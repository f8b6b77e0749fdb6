#pragma once
// The exposure pass (docs/rendering.md, "Automatic exposure" and "Local exposure"): measures
// the HDR frame tile by tile on the GPU (shaders/render/render_exposure.comp) and leaves the
// automatic exposure's factor and the local exposure's factors per cell where the bloom and
// the resolve read them (shaders/render/render_exposure.glsl).
#include <vector>

#include <glm/ext/vector_int2.hpp>

#include "pass.hpp"

namespace murmur::render {

struct ExposurePrograms {
  // One program per stage (MURMUR_EXPOSURE_STAGE) and MURMUR_LOCAL_EXPOSURE: each reads only
  // the uniforms its stage needs.
  struct Stage {
    explicit Stage(const std::string& variant);
    gl::Program program;
    static constexpr gl::Uniform::MayBeCompiledOut kOneStage{};
    gl::Uniform world_pixel_origin{program, "u_world_pixel_origin", kOneStage},
        world_pixel_size{program, "u_world_pixel_size", kOneStage},
        tiles{program, "u_tiles", kOneStage}, lit_luminance{program, "u_lit_luminance", kOneStage},
        cells{program, "u_cells", kOneStage}, local_key{program, "u_local_key", kOneStage},
        adaptation{program, "u_adaptation", kOneStage};
  };
  // The automatic exposure's factor: the one stage with shared memory and barriers, a program
  // of its own so that the stages above run without coroutines on llvmpipe; one for each
  // MURMUR_LOCAL_EXPOSURE.
  struct Factor {
    explicit Factor(const std::string& local);
    gl::Program program;
    gl::Uniform tiles{program, "u_tiles"}, key{program, "u_key"},
        adaptation{program, "u_adaptation"};
    gl::Uniform cells{program, "u_cells", gl::Uniform::MayBeCompiledOut{}};
  };
  Variants<Stage> stages;
  Variants<Factor> factor;
  std::size_t build_every_variant();
};

// The exposures' buffers, sized by the frame, and what the last frames left in them.
struct ExposureState {
  ExposureState();
  // A new frame size: new buffers, every cell's local factor back at 1.
  void resize(glm::ivec2 frame);

  gl::Buffer factor;         // one float: the automatic exposure's factor
  gl::Buffer tile_partials;  // one vec4 per tile of the frame
  gl::Buffer cell_sums;      // one vec4 per cell: the exposures' sums
  gl::Buffer tile_factors;   // one vec2 per tile: its tile factors
  gl::Buffer local_factors;  // one float per cell: the local exposure's factor
  gl::Buffer cell_density;   // one float per cell: its density (the field's window)
  gl::Texture local_map;     // R32F, a texel per cell: local_factors to gather from
  // Views of the buffers above, through which every pass but the writer reads them
  // (shaders/render/render_exposure.glsl).
  gl::BufferTexture local_factor_texels, cell_sum_texels, cell_density_texels,
      tile_partial_texels, tile_factor_texels;
  bool local_used = false;  // local_factors may hold factors other than 1
  bool local_on = false;    // the last frame's exposure applied the local exposure
};

// The local exposure's cells over a frame: whole cells, the last row and column partly outside.
glm::ivec2 local_exposure_cell_grid(glm::ivec2 frame);

// The local exposure applies to this view: a key above 0, glow, some of the world shown.
bool local_exposure_shown(const RenderSettings& settings, const WorldView& view);

// Reads `hdr_texture` (the trails', food's and heads' light); writes `state`'s factors and
// binds them for the bloom and the resolve.
void measure_exposure(ExposurePrograms& programs, ExposureState& state,
                      const RenderSettings& settings, const WorldView& view,
                      const gl::Texture& hdr_texture);

// The local exposure's factor per cell of the last frame, row by row from the bottom.
std::vector<float> read_local_exposure(const ExposureState& state, glm::ivec2 frame,
                                       glm::ivec2* cells);

}  // namespace murmur::render
