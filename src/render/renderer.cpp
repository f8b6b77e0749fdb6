#include "murmur/render/renderer.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <stdexcept>
#include <string>

#include <glm/common.hpp>

#include "interface.h"
#include "murmur/gl/debug.hpp"
#include "murmur/gpu/gpu_flock.hpp"

namespace murmur {
namespace {

constexpr int kRgbaChannels = 4;
constexpr GLuint kHdrTextureUnit = 0;
constexpr GLsizei kDartVertices = 6;           // two triangles, see shaders/heads.vert
constexpr GLsizei kFullscreenTriangleVertices = 3;

std::string heads_defines() {
  return "#define MURMUR_MAX_SPECIES " + std::to_string(kMaxSpecies) + "\n";
}

std::string resolve_defines() {
  return "#define MURMUR_HDR_TEXTURE_UNIT " + std::to_string(kHdrTextureUnit) + "\n";
}

void check_size(int width, int height) {
  if (width < 1 || height < 1)
    throw std::invalid_argument("Renderer: target size " + std::to_string(width) + "x" +
                                std::to_string(height) + " must be at least 1x1");
}

float smallest_perception_radius(const Scenario& scenario) {
  float radius = scenario.species.empty() ? 0.0f : scenario.species.front().perception_radius;
  for (const SpeciesParams& species : scenario.species)
    radius = std::min(radius, species.perception_radius);
  return radius;
}

// Head length in world units: the style's, or the scenario's default, but never under the
// style's minimum on-screen size.
float head_length_for(const HeadStyle& style, const Scenario& scenario, const WorldView& view) {
  const float length = style.length > 0 ? style.length
                                        : kDefaultHeadLengthPerRadius *
                                              smallest_perception_radius(scenario);
  return std::max(length, style.min_length_pixels / view.pixels_per_world_unit);
}

}  // namespace

WorldView fit_world(glm::vec2 world_size, int width, int height) {
  const glm::vec2 frame{static_cast<float>(width), static_cast<float>(height)};
  const float pixels_per_unit = std::min(frame.x / world_size.x, frame.y / world_size.y);
  WorldView view;
  view.world_centre = world_size * 0.5f;
  // Clip space spans 2 units across the frame.
  view.world_to_clip = 2.0f * pixels_per_unit / frame;
  view.pixels_per_world_unit = pixels_per_unit;
  const glm::vec2 used = world_size * pixels_per_unit;
  view.world_pixel_size = glm::clamp(glm::ivec2(glm::round(used)), glm::ivec2(1),
                                     glm::ivec2(width, height));
  view.world_pixel_origin = (glm::ivec2(width, height) - view.world_pixel_size) / 2;
  return view;
}

Renderer::Renderer(int width, int height, const RenderSettings& settings)
    : settings_(settings),
      heads_program_(gl::Program::graphics("heads.vert", "heads.frag", heads_defines())),
      resolve_program_(gl::Program::graphics("render_fullscreen.vert", "render_resolve.frag",
                                             resolve_defines())),
      empty_vertex_array_("murmur.render.empty_vertex_array") {
  resize(width, height);
}

void Renderer::resize(int width, int height) {
  check_size(width, height);
  if (width == width_ && height == height_) return;
  width_ = width;
  height_ = height;
  create_targets();
}

void Renderer::create_targets() {
  hdr_texture_ = gl::Texture("murmur.render.hdr", GL_RGBA16F, width_, height_);
  hdr_framebuffer_ = gl::Framebuffer("murmur.render.hdr_framebuffer");
  hdr_framebuffer_.attach_colour(hdr_texture_);
  hdr_framebuffer_.check_complete();

  output_texture_ = gl::Texture("murmur.render.output", GL_RGBA8, width_, height_);
  output_framebuffer_ = gl::Framebuffer("murmur.render.output_framebuffer");
  output_framebuffer_.attach_colour(output_texture_);
  output_framebuffer_.check_complete();
}

void Renderer::render(const GpuFlock& flock) {
  render(flock.scenario(), BoidBufferView{flock.boid_buffer(), flock.count()});
}

void Renderer::render(const Scenario& scenario, BoidBufferView boids) {
  // The frame as a list of named passes (the viewer's bloom and trails slot in here), each in
  // its own debug group so captures and debug messages say which pass did what.
  struct NamedPass {
    const char* name;
    std::function<void()> run;
  };
  const std::array<NamedPass, 3> passes{{
      {"clear", [&] { clear_pass(scenario); }},
      {"heads", [&] { heads_pass(scenario, boids); }},
      {"resolve", [&] { resolve_pass(); }},
  }};
  gl::DebugGroup frame_group("render frame");
  for (const NamedPass& pass : passes) {
    gl::DebugGroup pass_group(pass.name);
    pass.run();
  }
}

void Renderer::clear_pass(const Scenario& scenario) {
  // The bars first, over the whole target (a viewer's UI may have left a scissor box), then
  // the world's rectangle, so the world's edges show even where no boid is near them.
  const auto clear_to = [this](glm::vec3 colour) {
    const std::array<GLfloat, kRgbaChannels> rgba{colour.r, colour.g, colour.b, 1.0f};
    glClearNamedFramebufferfv(hdr_framebuffer_.id(), GL_COLOR, 0, rgba.data());
  };
  glDisable(GL_SCISSOR_TEST);
  clear_to(settings_.letterbox);
  const WorldView view = fit_world(scenario.size(), width_, height_);
  glEnable(GL_SCISSOR_TEST);
  glScissor(view.world_pixel_origin.x, view.world_pixel_origin.y, view.world_pixel_size.x,
            view.world_pixel_size.y);
  clear_to(settings_.background);
  glDisable(GL_SCISSOR_TEST);
}

void Renderer::heads_pass(const Scenario& scenario, BoidBufferView boids) {
  if (boids.count == 0) return;
  const WorldView view = fit_world(scenario.size(), width_, height_);
  const HeadStyle& style = settings_.heads;
  const float head_length = head_length_for(style, scenario, view);

  const GLuint program = heads_program_.id();
  glProgramUniform2f(program, heads_program_.uniform("u_world_centre"), view.world_centre.x,
                     view.world_centre.y);
  glProgramUniform2f(program, heads_program_.uniform("u_world_to_clip"), view.world_to_clip.x,
                     view.world_to_clip.y);
  glProgramUniform1f(program, heads_program_.uniform("u_head_length"), head_length);
  glProgramUniform1f(program, heads_program_.uniform("u_head_width"),
                     head_length * style.width_ratio);
  glProgramUniform1f(program, heads_program_.uniform("u_notch_ratio"), style.notch_ratio);

  std::array<glm::vec3, kMaxSpecies> colours{};
  const std::size_t species_count = std::min(scenario.species.size(), kMaxSpecies);
  for (std::size_t s = 0; s < species_count; ++s) colours[s] = scenario.species[s].colour;
  glProgramUniform3fv(program, heads_program_.uniform("u_species_colour"),
                      static_cast<GLsizei>(kMaxSpecies), &colours[0].x);

  // The boids were written by compute passes; make those writes visible to vertex shaders.
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, MURMUR_BIND_RENDER_BOIDS, boids.buffer);

  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, hdr_framebuffer_.id());
  glViewport(0, 0, width_, height_);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);  // a dart mirrored by a negative velocity flips its winding
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFunc(GL_ONE, GL_ONE);
  heads_program_.use();
  glBindVertexArray(empty_vertex_array_.id());
  glDrawArraysInstanced(GL_TRIANGLES, 0, kDartVertices, static_cast<GLsizei>(boids.count));
  glDisable(GL_BLEND);
}

void Renderer::resolve_pass() {
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, output_framebuffer_.id());
  glViewport(0, 0, width_, height_);
  glDisable(GL_BLEND);
  glDisable(GL_FRAMEBUFFER_SRGB);  // the shader encodes sRGB itself
  glProgramUniform1f(resolve_program_.id(), resolve_program_.uniform("u_exposure"),
                     settings_.exposure);
  glBindTextureUnit(kHdrTextureUnit, hdr_texture_.id());
  resolve_program_.use();
  glBindVertexArray(empty_vertex_array_.id());
  glDrawArrays(GL_TRIANGLES, 0, kFullscreenTriangleVertices);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
}

RgbaImage Renderer::read_pixels() const {
  RgbaImage image;
  image.width = width_;
  image.height = height_;
  const std::size_t row_bytes = static_cast<std::size_t>(width_) * kRgbaChannels;
  std::vector<std::uint8_t> bottom_up(row_bytes * static_cast<std::size_t>(height_));

  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);  // read into client memory
  glPixelStorei(GL_PACK_ALIGNMENT, 1);     // tightly packed rows, whatever the width
  glGetTextureImage(output_texture_.id(), 0, GL_RGBA, GL_UNSIGNED_BYTE,
                    static_cast<GLsizei>(bottom_up.size()), bottom_up.data());

  // GL's row 0 is the bottom of the image; PNG and every image viewer start at the top.
  image.pixels.resize(bottom_up.size());
  for (int row = 0; row < height_; ++row) {
    const auto source = bottom_up.begin() + static_cast<std::ptrdiff_t>(row * row_bytes);
    const auto target = image.pixels.begin() +
                        static_cast<std::ptrdiff_t>((height_ - 1 - row) * row_bytes);
    std::copy(source, source + static_cast<std::ptrdiff_t>(row_bytes), target);
  }
  return image;
}

}  // namespace murmur
