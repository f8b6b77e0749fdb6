#pragma once
// The trails pass: the trail history drawn into the HDR frame, the fade map composited over the
// world's rectangle (shaders/render/trail_composite.frag) or every boid's ribbon
// (trail_ribbon.vert).
#include <cstdint>

#include "pass.hpp"
#include "trail_history.hpp"

namespace murmur::render {

struct TrailsPrograms {
  struct FadeComposite {
    explicit FadeComposite(const std::string& variant);  // MURMUR_INK, MURMUR_MINIFIED_MAP
    gl::Program program;
    gl::Uniform frame_size{program, "u_frame_size"}, world_centre{program, "u_world_centre"},
        pixels_per_world_unit{program, "u_pixels_per_world_unit"},
        world_size{program, "u_world_size"}, intensity{program, "u_intensity"},
        stamp_intensity{program, "u_stamp_intensity"}, sky{program, "u_sky"},
        taps_per_side{program, "u_taps_per_side", gl::Uniform::MayBeCompiledOut{}};
  };
  struct Ribbons {
    explicit Ribbons(const std::string& colour_defines);
    gl::Program program;
    ViewUniforms view{program};
    ColourUniforms colour{program};
    gl::Uniform ring_length{program, "u_ring_length"}, generation{program, "u_generation"},
        world_size{program, "u_world_size"},
        world_units_per_pixel{program, "u_world_units_per_pixel"},
        width_pixels{program, "u_width_pixels"}, min_width_pixels{program, "u_min_width_pixels"},
        intensity{program, "u_intensity"};
  };
  Variants<FadeComposite> fade_composite;
  Variants<Ribbons> ribbons;
  std::size_t build_every_variant();
};

// This frame's trails lay the fade map over every pixel of the world's rectangle (which the
// clear then leaves to them).
bool fade_map_composited(const TrailHistory& history, const TrailSettings& settings,
                         const WorldView& view);

// Reads `history`; writes the world's rectangle of `hdr`. boids: expected_boids
// (include/murmur/render/density.hpp), for the trails' dimming.
void draw_trails(TrailsPrograms& programs, const TrailHistory& history,
                 const RenderSettings& settings, const Scenario& scenario, std::uint64_t step,
                 float boids, const WorldView& view, const RenderTarget& hdr,
                 PassGeometry& geometry);

}  // namespace murmur::render
