#pragma once
// The heads pass: one mark per boid straight from the boid buffer, a one-pixel point, a dart or
// a disc (a ring with the age look), as triangles or as one point sprite each
// (shaders/render/heads.vert, heads.frag; docs/rendering.md, "Heads" and "Heads as sprites").
#include <glm/ext/vector_int2.hpp>

#include "pass.hpp"

namespace murmur::render {

struct HeadsPrograms {
  struct Heads {
    // The colour mode's, MURMUR_HEAD_SHAPE and MURMUR_HEAD_SPRITE (heads.vert): which head it
    // draws and how.
    explicit Heads(const std::string& variant);
    gl::Program program;
    ViewUniforms view{program};
    ColourUniforms colour{program};
    gl::Uniform intensity{program, "u_intensity"};
    // Each kind of head reads only its own: points none of them, darts the length, width and
    // notch, squares the length and the age look.
    static constexpr gl::Uniform::MayBeCompiledOut kOneKind{};
    gl::Uniform head_length{program, "u_head_length", kOneKind},
        head_width{program, "u_head_width", kOneKind},
        notch_ratio{program, "u_notch_ratio", kOneKind}, age_look{program, "u_age_look", kOneKind},
        age_scale{program, "u_age_scale", kOneKind},
        age_min_size{program, "u_age_min_size", kOneKind},
        age_min_fill{program, "u_age_min_fill", kOneKind};
    // Sprites only.
    gl::Uniform frame_size{program, "u_frame_size", kOneKind},
        pixels_per_world_unit{program, "u_pixels_per_world_unit", kOneKind},
        sprite_pixels{program, "u_sprite_pixels", kOneKind},
        sprite_clip_scale{program, "u_sprite_clip_scale", kOneKind};
  };
  Variants<Heads> heads;
  std::size_t build_every_variant();
};

// What this GL draws points and viewports up to: GL_POINT_SIZE_RANGE's upper end (the widest
// sprite) and GL_MAX_VIEWPORT_DIMS (a sprite's viewport is wider than the frame).
struct PointLimits {
  float max_point_size = 1;
  glm::ivec2 max_viewport_size{0};
  static PointLimits query();
};

// Reads the boids; writes `hdr`.
void draw_heads(HeadsPrograms& programs, const RenderSettings& settings, const Scenario& scenario,
                BoidBufferView boids, const WorldView& view, const PointLimits& limits,
                const RenderTarget& hdr, PassGeometry& geometry);

}  // namespace murmur::render
