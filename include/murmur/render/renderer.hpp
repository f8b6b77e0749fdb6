#pragma once
// Draws the flock into an offscreen target with no window: instanced boid heads straight from
// the GPU's boid buffer, added into an HDR target, then tone-mapped into RGBA8. The recorder
// reads that target back; the viewer blits it to its window, so both show the same image.
// Needs a current GL 4.5 context for its whole life.
#include <cstdint>

#include <glm/vec2.hpp>
#include <glm/ext/vector_int2.hpp>
#include <glm/vec3.hpp>

#include "murmur/gl/objects.hpp"
#include "murmur/gl/program.hpp"
#include "murmur/render/image.hpp"
#include "murmur/scenario.hpp"

namespace murmur {

class GpuFlock;

// How boid heads look. A head is a dart: its tip points along the velocity and its wide,
// notched end trails; the boid's position is the midpoint of its length.
struct HeadStyle {
  float length = 0;             // world units, tip to tail; 0: kDefaultHeadLengthPerRadius
                                // times the smallest perception radius of the scenario
  float width_ratio = 0.5f;     // wing span / length
  float notch_ratio = 0.3f;     // depth of the tail notch / length, in [0, 1)
  float min_length_pixels = 4;  // heads never shrink below this on screen, so a large world
                                // in a small frame still shows every boid
};

inline constexpr float kDefaultHeadLengthPerRadius = 0.5f;

struct RenderSettings {
  HeadStyle heads;
  glm::vec3 background{0.004f, 0.005f, 0.010f};  // linear RGB of the empty world
  glm::vec3 letterbox{0.0f, 0.0f, 0.0f};         // linear RGB of the bars beside the world
  float exposure = 1.0f;  // tone map: out = 1 - exp(-exposure * hdr), then sRGB encoding
};

// Where the world lands in a frame: the whole world fitted into it with its aspect kept, and
// centred (bars on the two sides that are left over).
struct WorldView {
  glm::vec2 world_centre{0};    // world units
  glm::vec2 world_to_clip{0};   // clip units per world unit, per axis
  float pixels_per_world_unit = 0;
  glm::ivec2 world_pixel_origin{0};  // the world's rectangle in the frame, in pixels from
  glm::ivec2 world_pixel_size{0};    // the bottom-left corner (GL's window coordinates)
};
WorldView fit_world(glm::vec2 world_size, int width, int height);

// The boid records to draw: a GL buffer of std430 Boid records (shaders/common.glsl).
struct BoidBufferView {
  unsigned buffer = 0;
  std::uint32_t count = 0;
};

class Renderer {
 public:
  Renderer(int width, int height, const RenderSettings& settings = {});

  // Width and height >= 1 (callers skip drawing while a window is minimised); recreates the
  // targets only when the size changes.
  void resize(int width, int height);
  int width() const { return width_; }
  int height() const { return height_; }

  RenderSettings& settings() { return settings_; }
  const RenderSettings& settings() const { return settings_; }

  // Draws one frame of the flock's current state (no readback).
  void render(const GpuFlock& flock);
  // Same, from any buffer of Boid records (tests, replays). Species colours and world size
  // come from `scenario`; a record's species must be < scenario.species.size().
  void render(const Scenario& scenario, BoidBufferView boids);

  // The last frame, RGBA8 with the top row first (GL stores it bottom row first).
  RgbaImage read_pixels() const;

  // The tone-mapped RGBA8 frame, for a viewer to blit (its row 0 is the bottom row).
  unsigned output_framebuffer() const { return output_framebuffer_.id(); }
  unsigned output_texture() const { return output_texture_.id(); }

 private:
  void create_targets();
  void clear_pass(const Scenario& scenario);
  void heads_pass(const Scenario& scenario, BoidBufferView boids);
  void resolve_pass();

  int width_ = 0, height_ = 0;
  RenderSettings settings_;
  gl::Program heads_program_;
  gl::Program resolve_program_;
  gl::VertexArray empty_vertex_array_;  // core profile needs one bound for attribute-less draws
  gl::Texture hdr_texture_;             // RGBA16F: additive blending must not clip at 1
  gl::Framebuffer hdr_framebuffer_;
  gl::Texture output_texture_;          // RGBA8, what gets displayed or written
  gl::Framebuffer output_framebuffer_;
};

}  // namespace murmur
