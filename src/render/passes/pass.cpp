#include "pass.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <vector>

namespace murmur::render {
namespace {

constexpr int kRgbaChannels = 4;
// Heads, ribbon segments and plan markers are quads: 4 vertices each and two triangles of
// them (corners 0 1 2 and 0 2 3, in heads.vert's, trail_ribbon.vert's and plan_agents.vert's
// order), by an index buffer, in one draw, not instances: llvmpipe runs an instanced draw
// instance by instance on one thread, a per-instance cost that was most of the heads pass, and
// shades each vertex of a non-indexed draw however often the triangles share it.
constexpr GLuint kQuadCorners = MURMUR_HEAD_SQUARE_VERTICES;
constexpr std::array<GLuint, 6> kQuadCornerIndices{0, 1, 2, 0, 2, 3};
// Quads per draw: the index buffer repeats their pattern once per quad and each draw's base
// vertex moves it along, so the buffer stays small however many quads there are.
constexpr std::uint32_t kQuadsPerDraw = 1u << 16;
constexpr double kTurn = 6.283185307179586;  // radians

}  // namespace

PassGeometry::PassGeometry() : empty_vertex_array_("murmur.render.empty_vertex_array") {}

void PassGeometry::bind_empty() const { glBindVertexArray(empty_vertex_array_.id()); }

void PassGeometry::draw_fullscreen() const {
  bind_empty();
  glDrawArrays(GL_TRIANGLES, 0, kFullscreenTriangleVertices);
}

void PassGeometry::draw_quads(std::uint32_t quads) {
  if (quad_vertex_array_.id() == 0) {
    std::vector<GLuint> indices;
    indices.reserve(kQuadsPerDraw * kQuadCornerIndices.size());
    for (std::uint32_t quad = 0; quad < kQuadsPerDraw; ++quad)
      for (const GLuint corner : kQuadCornerIndices) indices.push_back(quad * kQuadCorners + corner);
    quad_indices_ = gl::Buffer("murmur.render.quad_indices", indices.size() * sizeof(GLuint),
                               indices.data());
    quad_vertex_array_ = gl::VertexArray("murmur.render.quad_vertex_array");
    glVertexArrayElementBuffer(quad_vertex_array_.id(), quad_indices_.id());
  }
  glBindVertexArray(quad_vertex_array_.id());
  for (std::uint32_t first = 0; first < quads; first += kQuadsPerDraw) {
    const std::uint32_t drawn = std::min(kQuadsPerDraw, quads - first);
    glDrawElementsBaseVertex(GL_TRIANGLES, static_cast<GLsizei>(drawn * kQuadCornerIndices.size()),
                             GL_UNSIGNED_INT, nullptr, static_cast<GLint>(first * kQuadCorners));
  }
  bind_empty();
}

void load_live_count(gl::Buffer& live_count, BoidBufferView boids) {
  // The simulation's shaders wrote the count (copied below) and the records and the food field
  // that the passes after this read. One barrier for all of them: llvmpipe waits for all the
  // work queued before any barrier, so the passes' own would keep each draw from overlapping
  // the one before (e.g. the heads' vertices, shaded on this thread, with the trails' pixels).
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
  if (boids.live_count_buffer != 0) {
    glCopyNamedBufferSubData(boids.live_count_buffer, live_count.id(), 0, 0,
                             sizeof(std::uint32_t));
  } else {
    live_count.upload(0, sizeof(std::uint32_t), &boids.count);
  }
  live_count.bind_storage(MURMUR_BIND_RENDER_LIVE_COUNT);
}

bool world_shown(const WorldView& view) {
  return view.world_pixel_size.x > 0 && view.world_pixel_size.y > 0;
}

std::optional<gl::PixelRect> world_scissor(const WorldView& view) {
  if (!world_shown(view)) return std::nullopt;
  return gl::PixelRect{view.world_pixel_origin, view.world_pixel_size};
}

gl::Blend mark_blend(BlendMode blend, GLenum glow_alpha) {
  if (blend == BlendMode::Glow) return gl::Blend{GL_FUNC_ADD, GL_ONE, GL_ONE, glow_alpha, GL_ONE};
  return gl::Blend::same(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
}

glm::vec4 world_sky(const RenderSettings& settings) {
  // Under glow the world's alpha starts with no marks (the local exposure counts them there).
  return settings.blend == BlendMode::Ink ? glm::vec4(settings.paper, 1.0f)
                                          : glm::vec4(settings.background, kNoMarks);
}

void clear_colour(GLuint framebuffer, glm::vec3 colour, float alpha) {
  const std::array<GLfloat, kRgbaChannels> rgba{colour.r, colour.g, colour.b, alpha};
  glClearNamedFramebufferfv(framebuffer, GL_COLOR, 0, rgba.data());
}

void set_sampling(const gl::Texture& texture, GLenum wrap) {
  glTextureParameteri(texture.id(), GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTextureParameteri(texture.id(), GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTextureParameteri(texture.id(), GL_TEXTURE_WRAP_S, static_cast<GLint>(wrap));
  glTextureParameteri(texture.id(), GL_TEXTURE_WRAP_T, static_cast<GLint>(wrap));
}

namespace {
constexpr gl::Uniform::MayBeCompiledOut kOneMode{};
}  // namespace

ColourUniforms::ColourUniforms(const gl::Program& program)
    : per_boid_variation(program, "u_per_boid_variation", kOneMode),
      heading_saturation(program, "u_heading_saturation", kOneMode),
      heading_value(program, "u_heading_value", kOneMode),
      speed_ramp_slow(program, "u_speed_ramp_slow", kOneMode),
      speed_ramp_fast(program, "u_speed_ramp_fast", kOneMode),
      speed_ramp_min(program, "u_speed_ramp_min", kOneMode),
      speed_ramp_max(program, "u_speed_ramp_max", kOneMode),
      species_colour(program, "u_species_colour", kOneMode),
      energy_max(program, "u_energy_max", kOneMode),
      health_full(program, "u_health_full", kOneMode),
      health_empty(program, "u_health_empty", kOneMode),
      drift_phase_per_id(program, "u_drift_phase_per_id", kOneMode),
      drift_phase_now(program, "u_drift_phase_now", kOneMode),
      drift_from(program, "u_drift_from", kOneMode),
      drift_to(program, "u_drift_to", kOneMode) {}

void ColourUniforms::set(const ColourSettings& colour, const Scenario& scenario,
                         std::uint64_t step) const {
  per_boid_variation.set(colour.per_boid_variation);
  heading_saturation.set(colour.heading_saturation);
  heading_value.set(colour.heading_value);
  speed_ramp_slow.set(colour.speed_ramp_slow);
  speed_ramp_fast.set(colour.speed_ramp_fast);
  float slowest = colour.speed_ramp_min, fastest = colour.speed_ramp_max;
  if (slowest >= fastest && !scenario.species.empty()) {
    slowest = scenario.species.front().min_speed;
    fastest = scenario.species.front().max_speed;
    for (const SpeciesParams& species : scenario.species) {
      slowest = std::min(slowest, species.min_speed);
      fastest = std::max(fastest, species.max_speed);
    }
  }
  speed_ramp_min.set(slowest);
  speed_ramp_max.set(fastest);

  std::array<glm::vec3, kMaxSpecies> colours{};
  const std::size_t species_count = std::min(scenario.species.size(), kMaxSpecies);
  for (std::size_t s = 0; s < species_count; ++s) colours[s] = scenario.species[s].colour;
  species_colour.set(std::span<const glm::vec3>(colours));
  std::array<float, kMaxSpecies> energies{};
  for (std::size_t s = 0; s < species_count; ++s) energies[s] = scenario.species[s].energy_max;
  energy_max.set(std::span<const float>(energies));
  health_full.set(colour.health_full);
  health_empty.set(colour.health_empty);
  drift_phase_per_id.set(colour.drift_phase_per_id);
  // Reduced in double: a float product loses the phase's fraction after some 10^5 steps.
  const double phase_now = std::fmod(static_cast<double>(colour.drift_phase_per_step) *
                                         static_cast<double>(step),
                                     kTurn);
  drift_phase_now.set(static_cast<float>(phase_now < 0 ? phase_now + kTurn : phase_now));
  drift_from.set(colour.drift_from);
  drift_to.set(colour.drift_to);
}

std::string variant_define(const char* name, std::uint32_t value) {
  return std::string("#define ") + name + " " + std::to_string(value) + "\n";
}

std::string flag(const char* name, bool on) { return variant_define(name, on ? 1 : 0); }

std::string colour_variant(ColourMode mode) {
  return variant_define("MURMUR_COLOUR_MODE", static_cast<std::uint32_t>(mode));
}

std::string render_constants() {
  const auto define = [](const char* name, auto value) {
    return std::string("#define ") + name + " " + std::to_string(value) + "\n";
  };
  // MURMUR_MAX_SPECIES and MURMUR_COLOUR_MODE_* come from the generated params.glsl.
  return define("MURMUR_LOCAL_EXPOSURE_SPARSE_MARKS", kLocalExposureSparseMarks) +
         define("MURMUR_LOCAL_EXPOSURE_DENSE_MARKS", kLocalExposureDenseMarks) +
         define("MURMUR_CIRCLE_RADIUS_SIGHT", static_cast<std::uint32_t>(CircleRadiusKind::Sight)) +
         define("MURMUR_CIRCLE_RADIUS_SEPARATION",
                static_cast<std::uint32_t>(CircleRadiusKind::Separation)) +
         define("MURMUR_MAX_COLOUR_COMPONENT", kMaxColourComponent);
}

}  // namespace murmur::render
