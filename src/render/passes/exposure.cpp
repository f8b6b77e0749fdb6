#include "exposure.hpp"

#include <algorithm>

#include <glm/geometric.hpp>

#include "murmur/gl/dispatch.hpp"

namespace murmur::render {
namespace {

static_assert(MURMUR_EXPOSURE_TILE % MURMUR_LOCAL_EXPOSURE_CELL == 0);
constexpr std::uint32_t kExposureTileInvocations = MURMUR_EXPOSURE_TILE * MURMUR_EXPOSURE_TILE;
constexpr float kUnitExposureScale = 1.0f;
// Linear luminance above the background's that counts a pixel as showing something (a faint
// trail) for the automatic exposure; below it, the pixel is sky.
constexpr float kLitLuminance = 0.01f;
// Rec. 709 luminance of linear RGB (as shaders/render/render_exposure.comp weighs pixels).
float luminance(glm::vec3 linear) { return glm::dot(linear, glm::vec3(0.2126f, 0.7152f, 0.0722f)); }

// The exposure's tiles over a frame: whole tiles, the last row and column partly outside.
glm::ivec2 exposure_tile_grid(glm::ivec2 frame) {
  return (frame + (MURMUR_EXPOSURE_TILE - 1)) / MURMUR_EXPOSURE_TILE;
}

std::size_t area(glm::ivec2 grid) {
  return static_cast<std::size_t>(grid.x) * static_cast<std::size_t>(grid.y);
}

std::string stage_variant(std::uint32_t stage, bool local) {
  return variant_define("MURMUR_EXPOSURE_STAGE", stage) + flag("MURMUR_LOCAL_EXPOSURE", local);
}
std::string factor_variant(bool local) { return flag("MURMUR_LOCAL_EXPOSURE", local); }

}  // namespace

ExposurePrograms::Stage::Stage(const std::string& variant)
    : program(gl::Program::compute("render/render_exposure.comp", render_constants() + variant)) {}

ExposurePrograms::Factor::Factor(const std::string& local)
    : program(gl::Program::compute(
          "render/render_exposure.comp",
          render_constants() + "#define MURMUR_EXPOSURE_FACTOR_STAGE 1\n" + local)) {}

std::size_t ExposurePrograms::build_every_variant() {
  std::size_t built = 0;
  for (const bool local : {false, true}) {
    for (const std::uint32_t stage : {MURMUR_EXPOSURE_STAGE_CELLS, MURMUR_EXPOSURE_STAGE_TILES,
                                      MURMUR_EXPOSURE_STAGE_FACTORS, MURMUR_EXPOSURE_STAGE_FIELD}) {
      stages[stage_variant(stage, local)];
      ++built;
    }
    factor[factor_variant(local)];
    ++built;
  }
  return built;
}

glm::ivec2 local_exposure_cell_grid(glm::ivec2 frame) {
  return (frame + (MURMUR_LOCAL_EXPOSURE_CELL - 1)) / MURMUR_LOCAL_EXPOSURE_CELL;
}

ExposureState::ExposureState()
    : factor("murmur.render.exposure", sizeof(float), &kUnitExposureScale) {}

void ExposureState::resize(glm::ivec2 frame) {
  const std::size_t tiles = area(exposure_tile_grid(frame));
  const glm::ivec2 cell_grid = local_exposure_cell_grid(frame);
  const std::size_t cells = area(cell_grid);
  tile_partials = gl::Buffer("murmur.render.exposure_partials", tiles * sizeof(glm::vec4));
  cell_sums = gl::Buffer("murmur.render.exposure_cells", cells * sizeof(glm::vec4));
  tile_factors = gl::Buffer("murmur.render.exposure_tiles", tiles * sizeof(glm::vec2));
  // A new frame size starts every cell's local factor at 1 (nothing dimmed yet).
  const std::vector<float> unit_factors(cells, kUnitExposureScale);
  local_factors = gl::Buffer("murmur.render.local_exposure", cells * sizeof(float),
                             unit_factors.data());
  cell_density = gl::Buffer("murmur.render.exposure_density", cells * sizeof(float));
  local_map = gl::Texture("murmur.render.local_exposure_map", GL_R32F, cell_grid.x, cell_grid.y);
  set_sampling(local_map, GL_CLAMP_TO_EDGE);  // gathered: the filter is not used
  local_factor_texels =
      gl::BufferTexture("murmur.render.local_exposure_texels", GL_R32F, local_factors);
  cell_sum_texels = gl::BufferTexture("murmur.render.exposure_cell_texels", GL_RGBA32F, cell_sums);
  cell_density_texels =
      gl::BufferTexture("murmur.render.exposure_density_texels", GL_R32F, cell_density);
  tile_partial_texels =
      gl::BufferTexture("murmur.render.exposure_partial_texels", GL_RGBA32F, tile_partials);
  tile_factor_texels =
      gl::BufferTexture("murmur.render.exposure_tile_texels", GL_RG32F, tile_factors);
  local_used = false;
}

bool local_exposure_shown(const RenderSettings& settings, const WorldView& view) {
  return settings.local_exposure_key > 0 && world_shown(view) &&
         settings.blend == BlendMode::Glow;
}

void measure_exposure(ExposurePrograms& programs, ExposureState& state,
                      const RenderSettings& settings, const WorldView& view,
                      const gl::Texture& hdr_texture) {
  state.factor.bind_storage(MURMUR_BIND_EXPOSURE);
  state.local_factors.bind_storage(MURMUR_BIND_LOCAL_EXPOSURE);
  // The bloom and the resolve read the factors from these.
  glBindBufferBase(GL_UNIFORM_BUFFER, MURMUR_BIND_EXPOSURE_UNIFORM, state.factor.id());
  glBindTextureUnit(MURMUR_LOCAL_EXPOSURE_MAP_TEXTURE_UNIT, state.local_map.id());
  state.local_factor_texels.bind(MURMUR_LOCAL_EXPOSURE_TEXTURE_UNIT);
  // Paper is meant to be white: ink is never darkened by the exposure.
  const bool automatic =
      settings.auto_exposure_key > 0 && world_shown(view) && settings.blend == BlendMode::Glow;
  const bool local = local_exposure_shown(settings, view);
  state.local_on = local;
  if (!automatic) state.factor.upload(0, sizeof(float), &kUnitExposureScale);
  const glm::ivec2 frame = view.frame_size;
  const glm::ivec2 tiles = exposure_tile_grid(frame);
  const glm::ivec2 cells = local_exposure_cell_grid(frame);
  const auto tile_count = static_cast<std::uint32_t>(area(tiles));
  const auto cell_count = static_cast<std::uint32_t>(area(cells));
  if (!local && state.local_used) {
    // Off for now: the factors start again from 1 when it is turned back on.
    const std::vector<float> unit_factors(cell_count, kUnitExposureScale);
    state.local_factors.upload(0, unit_factors.size() * sizeof(float), unit_factors.data());
    state.local_used = false;
  }
  if (!automatic && !local) return;
  state.tile_partials.bind_storage(MURMUR_BIND_EXPOSURE_PARTIALS);
  state.cell_sums.bind_storage(MURMUR_BIND_EXPOSURE_CELLS);
  state.tile_factors.bind_storage(MURMUR_BIND_EXPOSURE_TILES);
  state.cell_density.bind_storage(MURMUR_BIND_EXPOSURE_DENSITY);
  state.cell_sum_texels.bind(MURMUR_EXPOSURE_CELLS_TEXTURE_UNIT);
  state.cell_density_texels.bind(MURMUR_EXPOSURE_DENSITY_TEXTURE_UNIT);
  state.tile_partial_texels.bind(MURMUR_EXPOSURE_PARTIALS_TEXTURE_UNIT);
  state.tile_factor_texels.bind(MURMUR_EXPOSURE_TILES_TEXTURE_UNIT);
  // The heads and trails were drawn into the HDR target; this samples it like a texture.
  glBindTextureUnit(MURMUR_HDR_TEXTURE_UNIT, hdr_texture.id());
  // Each stage reads what the one before wrote; all but the last run one invocation per cell
  // or per tile.
  const auto stage = [&](std::uint32_t which, std::uint32_t items) {
    const ExposurePrograms::Stage& pass = programs.stages[stage_variant(which, local)];
    pass.program.use();
    pass.world_pixel_origin.set(view.world_pixel_origin);
    pass.world_pixel_size.set(view.world_pixel_size);
    pass.tiles.set(glm::uvec2(tiles));
    pass.cells.set(glm::uvec2(cells));
    pass.lit_luminance.set(kLitLuminance + luminance(settings.background));
    pass.local_key.set(settings.local_exposure_key);
    pass.adaptation.set(std::clamp(settings.exposure_adaptation, 0.0f, 1.0f));
    gl::dispatch_linear(gl::groups_for(items, kExposureTileInvocations));
    // The next stage reads this one's writes through the views; the field's own buffer (and
    // for the last stage, the bloom and the resolve) too.
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
  };
  stage(MURMUR_EXPOSURE_STAGE_CELLS, cell_count);
  stage(MURMUR_EXPOSURE_STAGE_TILES, tile_count);
  if (local) {
    stage(MURMUR_EXPOSURE_STAGE_FACTORS, tile_count);
    glBindImageTexture(MURMUR_LOCAL_EXPOSURE_IMAGE_UNIT, state.local_map.id(), 0, GL_FALSE, 0,
                       GL_WRITE_ONLY, GL_R32F);
    stage(MURMUR_EXPOSURE_STAGE_FIELD, cell_count);
    state.local_used = true;
  }
  if (automatic) {
    const ExposurePrograms::Factor& total = programs.factor[factor_variant(local)];
    total.program.use();
    total.tiles.set(glm::uvec2(tiles));
    total.cells.set(glm::uvec2(cells));
    total.key.set(settings.auto_exposure_key);
    total.adaptation.set(std::clamp(settings.exposure_adaptation, 0.0f, 1.0f));
    glDispatchCompute(1, 1, 1);  // one workgroup
    // The bloom and the resolve read the factor as a uniform block.
    glMemoryBarrier(GL_UNIFORM_BARRIER_BIT);
  }
}

std::vector<float> read_local_exposure(const ExposureState& state, glm::ivec2 frame,
                                       glm::ivec2* cells) {
  const glm::ivec2 grid = local_exposure_cell_grid(frame);
  if (cells != nullptr) *cells = grid;
  std::vector<float> factors(area(grid));
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  state.local_factors.download(0, factors.size() * sizeof(float), factors.data());
  return factors;
}

}  // namespace murmur::render
