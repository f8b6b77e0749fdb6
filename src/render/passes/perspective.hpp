#pragma once
// A 3D world's passes (docs/rendering.md, "Three dimensions"): the sky, coloured by each view
// ray's elevation, then the ribbons in space and the heads in perspective from the 48-byte
// records, faded into the sky by depth fog (shaders/render/sky_3d.frag, trail_ribbon_3d.vert,
// heads_3d.vert with heads.frag).
#include <memory>
#include <string>

#include <glm/ext/vector_int2.hpp>

#include "murmur/render/orbit_camera.hpp"
#include "pass.hpp"
#include "trail_history.hpp"

namespace murmur::render {

// One 3D frame's camera and fog.
struct PerspectiveFrame {
  PerspectiveView view;
  // The view depth where the fog starts: the nearest reach of the world box's bounding sphere
  // (0 with the eye inside it), so a bird at the front of the box keeps all its light.
  float fog_start = 0;
  float fog_distance = 1;  // world units, > 0 (RenderSettings::fog_distance, or the diagonal)
  float focus_depth = 1;   // the camera's target's view depth (its distance), > 0
};
// The settings' orbit camera, or the scenario's starting one for the frame's aspect.
PerspectiveFrame perspective_frame(const RenderSettings& settings, const Scenario& scenario,
                                   glm::ivec2 frame_size);

// The camera and the fog in every program that draws marks in perspective (heads_3d.vert,
// trail_ribbon_3d.vert).
struct PerspectiveUniforms {
  explicit PerspectiveUniforms(const gl::Program& program);
  void set(const PerspectiveFrame& frame) const;
  gl::Uniform world_to_clip, eye, view_forward, near_plane, pixels_at_unit_depth, fog_start,
      inverse_fog;
};

struct PerspectivePrograms {
  struct Sky {
    Sky();
    gl::Program program;
    gl::Uniform clip_to_world{program, "u_clip_to_world"}, eye{program, "u_eye"},
        frame_size{program, "u_frame_size"}, horizon{program, "u_sky_horizon"},
        top{program, "u_sky_top"}, alpha{program, "u_sky_alpha"};
  };
  struct Heads {
    // The colour mode's and MURMUR_HEAD_SHAPE (dart or square: a disc).
    explicit Heads(const std::string& variant);
    gl::Program program;
    ColourUniforms colour{program};
    PerspectiveUniforms camera{program};
    gl::Uniform view_right{program, "u_view_right"}, view_up{program, "u_view_up"},
        head_length{program, "u_head_length"},
        head_length_pixels{program, "u_head_length_pixels"},
        width_ratio{program, "u_width_ratio"};
    static constexpr gl::Uniform::MayBeCompiledOut kDartOnly{};
    gl::Uniform notch_ratio{program, "u_notch_ratio", kDartOnly};
  };
  struct Ribbons {
    explicit Ribbons(const std::string& colour_defines);
    gl::Program program;
    ColourUniforms colour{program};
    PerspectiveUniforms camera{program};
    gl::Uniform ring_length{program, "u_ring_length"}, generation{program, "u_generation"},
        world_size{program, "u_world_size"}, focus_depth{program, "u_focus_depth"},
        width_pixels{program, "u_width_pixels"},
        min_width_pixels{program, "u_min_width_pixels"}, intensity{program, "u_intensity"};
  };
  std::unique_ptr<Sky> sky;  // built by the first 3D frame
  Variants<Heads> heads;
  Variants<Ribbons> ribbons;
  std::size_t build_every_variant();
};

// Writes every pixel of `hdr`: the sky, no marks (glow) or opaque (ink).
void draw_sky(PerspectivePrograms& programs, const RenderSettings& settings,
              const PerspectiveFrame& frame, const RenderTarget& hdr, PassGeometry& geometry);
// Reads the ribbons' ring (trail_history.hpp, two vec4s an entry) when the trails kept are
// ribbons and two records have been made; writes `hdr`.
void draw_ribbons_3d(PerspectivePrograms& programs, const TrailHistory& history,
                     const RenderSettings& settings, const Scenario& scenario, std::uint64_t step,
                     const PerspectiveFrame& frame, const RenderTarget& hdr,
                     PassGeometry& geometry);
// Reads the boids (Boid3D records); writes `hdr`.
void draw_heads_3d(PerspectivePrograms& programs, const RenderSettings& settings,
                   const Scenario& scenario, BoidBufferView boids, const PerspectiveFrame& frame,
                   const RenderTarget& hdr, PassGeometry& geometry);

}  // namespace murmur::render
