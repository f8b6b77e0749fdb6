#include "trail_history.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>

#include <glm/common.hpp>

#include "murmur/gl/dispatch.hpp"

namespace murmur::render {
namespace {

// The fade map's texels are multiplied by the fades of the steps since the last time once
// these reach this (record_trails): 8 x the trails' light at most in a half float (65,504).
constexpr float kFadeMapRescaleBelow = 0.125f;
constexpr float kStepDuration = 1.0f;  // docs/model.md: one step is one time unit
// The narrowest fade-map stamp (texels): one texel a column of its path, as a GL line.
constexpr float kMinStampWidthTexels = 1.0f;
// The fade map's alpha sums its faded stamps (ink lays their mean colour by it): none yet.
constexpr float kNoStamps = 0.0f;

// The std430 TrailOwner record of shaders/render/render_trails.glsl.
struct TrailOwner {
  std::uint32_t id, species, first_generation, last_generation;
  float energy;
};
static_assert(sizeof(TrailOwner) == 20);

// The std430 head of trail_stamp.comp's StampTexelsBlock; the listed texels follow it.
struct StampTexelsHeader {
  std::array<std::uint32_t, 4> fold_groups;  // glDispatchComputeIndirect's x, y, z; unused
  std::uint32_t listing;                     // texels listed by this step's adds so far
  std::uint32_t listed;                      // texels the fold takes
  std::uint32_t capacity;                    // the map's texels
  std::uint32_t unused;
};
static_assert(sizeof(StampTexelsHeader) == 32 && offsetof(StampTexelsHeader, listing) == 16);

glm::ivec2 fade_map_size(const TrailSettings& trails, glm::vec2 world) {
  const float cap = static_cast<float>(std::max(1, trails.map_max_side));
  const glm::vec2 wanted = world * std::max(trails.map_pixels_per_world_unit, 0.0f);
  return glm::ivec2(glm::clamp(glm::round(wanted), glm::vec2(1.0f), glm::vec2(cap)));
}

// The fixed point of trail_stamp.comp's colour sums, for a step of at most `records` stamps:
// the largest power of two at which `records` stamps of the brightest colour
// (kMaxColourComponent, where the shader clamps) on one texel still fit its 32-bit word, so
// no sum can wrap: 8,192 for 20,000 boids, 256 for a million. A stamp's colour is rounded to
// the nearest unit (within 1 / 16,384 or 1 / 512), which the map's half floats do not keep
// finer for values above 1/8 or 4; the sums of the rounded colours are exact.
float stamp_fixed_one(std::uint32_t records) {
  const double room = static_cast<double>(std::numeric_limits<std::uint32_t>::max()) /
                      (std::max(records, 1u) * static_cast<double>(kMaxColourComponent));
  return static_cast<float>(std::exp2(std::floor(std::log2(std::max(room, 1.0)))));
}

gl::Program stamp_program(const std::string& stage_defines) {
  return gl::Program::compute("render/trail_stamp.comp", render_constants() + stage_defines);
}

// The ring's entries per boid and the vec4s of one: a position and its velocity.
std::uint32_t ribbon_entries(const TrailSettings& settings) {
  return static_cast<std::uint32_t>(std::max(settings.ribbon_length, kMinRibbonLength));
}
std::uint32_t ribbon_entry_vec4s(bool three_d) {
  return three_d ? MURMUR_RIBBON_ENTRY_VEC4S_3D : MURMUR_RIBBON_ENTRY_VEC4S_2D;
}
// The fade map's texel (RGBA16F), its stamp sums and its place in the list of stamped texels.
constexpr std::size_t kFadeTexelBytes = 4 * sizeof(std::uint16_t);
constexpr std::size_t kStampBytesPerTexel =
    MURMUR_STAMP_SUM_WORDS * sizeof(std::uint32_t) + sizeof(std::uint32_t);

void record_ribbons(TrailHistoryPrograms::Record& pass, TrailHistory& history,
                    const TrailSettings& settings, BoidBufferView boids, bool three_d) {
  const std::uint32_t length = ribbon_entries(settings);
  const std::uint32_t entry_vec4s = ribbon_entry_vec4s(three_d);
  if (history.ring_slots != boids.count || history.ring_length != length ||
      history.ring_entry_vec4s != entry_vec4s) {
    const std::size_t entries = static_cast<std::size_t>(boids.count) * length;
    history.ring = gl::Buffer("murmur.render.trail_ring", entries * entry_vec4s * sizeof(glm::vec4));
    // Zeroed owners have last generation 0 < history_start: no slot has a history yet.
    history.owners = gl::Buffer("murmur.render.trail_owners", boids.count * sizeof(TrailOwner));
    history.owners.clear_to_zero();
    history.ring_slots = boids.count;
    history.ring_length = length;
    history.ring_entry_vec4s = entry_vec4s;
    history.generation = 0;
    history.history_start = 1;
  }
  ++history.generation;
  pass.slot_count.set(boids.count);
  pass.ring_length.set(length);
  pass.generation.set(history.generation);
  pass.history_start.set(history.history_start);
  history.ring.bind_storage(MURMUR_BIND_TRAIL_RING);
  history.owners.bind_storage(MURMUR_BIND_TRAIL_OWNERS);
  // The owners' clear is a buffer update; trail_record reads them.
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
  pass.program.use();
  gl::dispatch(boid_pass_dispatch(boids.count));
}

// A map of `size` texels over `world`, black, with its stamps' sums and list.
void make_fade_map(TrailHistory& history, glm::ivec2 size, glm::vec2 world) {
  history.map = gl::Texture("murmur.render.fade_map", GL_RGBA16F, size.x, size.y);
  set_sampling(history.map, GL_REPEAT);  // the torus: leaving one edge enters the other
  history.map_framebuffer = gl::Framebuffer("murmur.render.fade_map_framebuffer");
  history.map_framebuffer.attach_colour(history.map);
  history.map_framebuffer.check_complete();
  history.stamp_sums = gl::Buffer("murmur.render.stamp_sums", static_cast<std::size_t>(size.x) *
                                                                  size.y * MURMUR_STAMP_SUM_WORDS *
                                                                  sizeof(std::uint32_t));
  history.stamp_sums.clear_to_zero();
  const auto texels = static_cast<std::uint32_t>(size.x) * static_cast<std::uint32_t>(size.y);
  const StampTexelsHeader header{{0, 1, 1, 0}, 0, 0, texels, 0};
  history.stamp_texels = gl::Buffer("murmur.render.stamp_texels",
                                    sizeof header + std::size_t{texels} * sizeof(std::uint32_t));
  history.stamp_texels.upload(0, sizeof header, &header);
  history.map_world = world;
  clear_colour(history.map_framebuffer.id(), glm::vec3(0.0f), kNoStamps);
  history.map_scale = 1.0f;
}

void record_fade_map(TrailHistoryPrograms& programs, TrailHistory& history,
                     const RenderSettings& render_settings, const Scenario& scenario,
                     BoidBufferView boids, const PassGeometry& geometry) {
  const TrailSettings& settings = render_settings.trails;
  const glm::vec2 world = scenario.size();
  const glm::ivec2 size = fade_map_size(settings, world);
  if (history.map.id() == 0 || history.map.width() != size.x || history.map.height() != size.y ||
      history.map_world != world)
    make_fade_map(history, size, world);
  // The trails fade by fade_per_step a step: trail = map_scale x map, and a step multiplies
  // map_scale by the fade instead of every texel, then stamps its light divided by map_scale.
  // Only when map_scale falls below kFadeMapRescaleBelow are the texels multiplied by it (one
  // pass over the map, which cost llvmpipe about as much as a frame's composite, every step
  // before) and map_scale goes back to 1. So the texels hold at most 1 / kFadeMapRescaleBelow
  // times the trails' light: a fade of 1 never multiplies, and one of 0 every step, as before.
  history.map_scale *= std::clamp(settings.fade_per_step, 0.0f, 1.0f);
  if (history.map_scale < kFadeMapRescaleBelow) {
    gl::DrawState fade = gl::draw_into(history.map_framebuffer.id(), size);
    fade.blend = gl::Blend::same(GL_ZERO, GL_SRC_COLOR);  // map *= map_scale
    gl::apply(fade);
    programs.fade.fade.set(history.map_scale);
    programs.fade.program.use();
    geometry.draw_fullscreen();
    gl::apply(gl::draw_into(0, size));  // what draws or clears next does not reach the map
    history.map_scale = 1.0f;
  }

  // map += stamps / map_scale, by trail_stamp.comp (it says how and why): the adds, one
  // invocation a record, then the fold, one a texel they lit.
  const float fixed_one = stamp_fixed_one(boids.count);
  history.stamp_sums.bind_storage(MURMUR_BIND_STAMP_SUMS);
  history.stamp_texels.bind_storage(MURMUR_BIND_STAMP_TEXELS);
  const TrailHistoryPrograms::StampAdd& add =
      programs.stamp_add[colour_variant(render_settings.colour.mode)];
  add.colour.set(render_settings.colour, scenario, boids.step);
  add.map_size.set(size);
  add.world_size.set(world);
  add.step_duration.set(kStepDuration);
  add.width_texels.set(std::max(settings.stamp_width(), kMinStampWidthTexels));
  add.fixed_one.set(fixed_one);
  add.program.use();
  // No barrier first: the sums' and the list's first contents are GL commands, not shader
  // writes, and the last step's fold and preparation, which wrote them since, end in the
  // barrier below.
  gl::dispatch(boid_pass_dispatch(boids.count));
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // the preparation reads the list's length
  programs.stamp_prepare.use();
  gl::dispatch_linear(1);
  // The fold reads the sums and the list, and is dispatched from the arguments just written.
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
  const TrailHistoryPrograms::StampFold& fold = programs.stamp_fold;
  fold.map_size.set(size);
  fold.fixed_one.set(fixed_one);
  fold.intensity.set(settings.stamp_brightness());
  fold.map_weight.set(1.0f / history.map_scale);
  fold.program.use();
  glBindImageTexture(MURMUR_FADE_MAP_IMAGE_UNIT, history.map.id(), 0, GL_FALSE, 0, GL_READ_WRITE,
                     GL_RGBA16F);
  glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, history.stamp_texels.id());
  glDispatchComputeIndirect(offsetof(StampTexelsHeader, fold_groups));
  glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, 0);
  // The composite samples the map, the next step's fade blends into it, read_fade_map reads
  // it, and the next step's adds use the sums the fold cleared.
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT |
                  GL_TEXTURE_UPDATE_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                  GL_SHADER_STORAGE_BARRIER_BIT);
  history.map_stamped = true;
}

}  // namespace

void TrailHistory::clear_map() {
  if (map.id() != 0) clear_colour(map_framebuffer.id(), glm::vec3(0.0f), kNoStamps);
  map_stamped = false;
  map_scale = 1.0f;
}

std::vector<glm::vec4> TrailHistory::read_fade_map(glm::ivec2* size) const {
  const bool exists = map.id() != 0;
  if (size != nullptr) *size = exists ? glm::ivec2(map.width(), map.height()) : glm::ivec2(0);
  if (!exists) return {};
  std::vector<glm::vec4> texels(static_cast<std::size_t>(map.width()) * map.height());
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(map.id(), 0, GL_RGBA, GL_FLOAT,
                    static_cast<GLsizei>(texels.size() * sizeof(glm::vec4)), texels.data());
  for (glm::vec4& texel : texels) texel *= map_scale;  // the trails' light
  return texels;
}

TrailHistoryPrograms::StampAdd::StampAdd(const std::string& colour_defines)
    : program(stamp_program("#define MURMUR_STAMP_ADD 1\n" + colour_defines)) {}

TrailHistoryPrograms::TrailHistoryPrograms()
    : record{gl::Program::compute("render/trail_record.comp", render_constants())},
      stamp_prepare(stamp_program("#define MURMUR_STAMP_PREPARE 1\n")),
      stamp_fold{stamp_program("#define MURMUR_STAMP_FOLD 1\n")},
      fade{gl::Program::graphics("render/render_fullscreen.vert", "render/trail_fade.frag",
                                 render_constants())} {}

std::size_t TrailHistoryPrograms::build_every_variant() {
  for (std::size_t index = 0; index < std::size(kColourModeNames); ++index)
    stamp_add[colour_variant(static_cast<ColourMode>(index))];
  return std::size(kColourModeNames);
}

TrailMode kept_trail_mode(const TrailSettings& settings, bool three_d) {
  return three_d && settings.mode == TrailMode::FadeMap ? TrailMode::Ribbons : settings.mode;
}

MemoryNeed trail_history_memory(const TrailSettings& settings, glm::vec2 world, bool three_d) {
  const TrailMode mode = kept_trail_mode(settings, three_d);
  if (mode == TrailMode::Ribbons) {
    return {0, ribbon_entries(settings) * ribbon_entry_vec4s(three_d) * sizeof(glm::vec4) +
                   sizeof(TrailOwner)};
  }
  if (mode != TrailMode::FadeMap) return {};
  const glm::ivec2 size = fade_map_size(settings, world);
  const std::uint64_t texels = std::uint64_t(size.x) * std::uint64_t(size.y);
  return {texels * (kFadeTexelBytes + kStampBytesPerTexel) + sizeof(StampTexelsHeader), 0};
}

void draw_ribbon_segments(const gl::Program& program, const TrailHistory& history,
                          BlendMode blend, const RenderTarget& hdr, PassGeometry& geometry) {
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // trail_record wrote the ring
  history.ring.bind_storage(MURMUR_BIND_TRAIL_RING);
  history.owners.bind_storage(MURMUR_BIND_TRAIL_OWNERS);
  gl::DrawState state = hdr.whole();
  state.blend = mark_blend(blend, GL_ONE);  // alpha: the opacity, its light
  gl::apply(state);
  program.use();
  geometry.draw_quads(history.ring_slots * (history.ring_length - 1));
}

void record_trails(TrailHistoryPrograms& programs, TrailHistory& history,
                   const RenderSettings& settings, const Scenario& scenario, BoidBufferView boids,
                   gl::Buffer& live_count, const PassGeometry& geometry) {
  const bool three_d = is_3d(scenario);
  const TrailMode mode = kept_trail_mode(settings.trails, three_d);
  if (mode != TrailMode::Ribbons) history.drop_ribbons();
  if (mode != TrailMode::FadeMap && history.map_stamped) history.clear_map();
  if (mode == TrailMode::None || boids.count == 0) return;

  // The simulation's compute passes wrote the boids; the passes below read them (the barrier
  // is load_live_count's).
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, MURMUR_BIND_RENDER_BOIDS, boids.buffer);
  load_live_count(live_count, boids);
  if (mode != TrailMode::Ribbons) {
    record_fade_map(programs, history, settings, scenario, boids, geometry);
    return;
  }
  if (three_d && !programs.record_3d)
    programs.record_3d = std::make_unique<TrailHistoryPrograms::Record>(
        TrailHistoryPrograms::Record{gl::Program::compute(
            "render/trail_record.comp", render_constants() + gl::kVolumeDefine)});
  record_ribbons(three_d ? *programs.record_3d : programs.record, history, settings.trails, boids,
                 three_d);
}

}  // namespace murmur::render
