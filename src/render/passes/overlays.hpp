#pragma once
// The overlays pass: thin lines drawn on the final image after the tone map (they do not glow),
// alpha-blended: boid circles found on the GPU (shaders/render/render_overlay_circles.comp),
// obstacles, the target and the grid (render_overlay.vert; docs/rendering.md, "Overlays"); in
// a 3D world the same shapes as the camera sees them.
#include <string>

#include "murmur/render/orbit_camera.hpp"
#include "pass.hpp"

namespace murmur::render {

struct OverlayPrograms {
  struct Lines {
    gl::Program program;
    ViewUniforms view{program};
    gl::Uniform circles{program, "u_circles"}, first_shape{program, "u_first_shape"};
  };
  struct Circles {
    explicit Circles(const std::string& defines);
    gl::Program program;
    gl::Uniform boid_count{program, "u_boid_count"}, circle_slots{program, "u_circle_slots"},
        circles_per_slot{program, "u_circles_per_slot"},
        slot_radius_kind{program, "u_slot_radius_kind"},
        slot_colour{program, "u_slot_colour"}, world_units_radius{program, "u_world_units_radius"},
        perception_radius{program, "u_perception_radius"},
        separation_radius{program, "u_separation_radius"},
        has_selected{program, "u_has_selected"}, selected_id{program, "u_selected_id"},
        selected_body_radius{program, "u_selected_body_radius"},
        selected_sight_colour{program, "u_selected_sight_colour"},
        selected_distance_colour{program, "u_selected_distance_colour"},
        selected_body_colour{program, "u_selected_body_colour"};
    // A 3D world's camera: in the MURMUR_3D variant alone.
    static constexpr gl::Uniform::MayBeCompiledOut kVolumeOnly{};
    gl::Uniform world_to_clip{program, "u_world_to_clip", kVolumeOnly},
        frame_size{program, "u_frame_size", kVolumeOnly}, eye{program, "u_eye", kVolumeOnly},
        view_forward{program, "u_view_forward", kVolumeOnly},
        near_plane{program, "u_near_plane", kVolumeOnly},
        pixels_at_unit_depth{program, "u_pixels_at_unit_depth", kVolumeOnly};
  };
  OverlayPrograms();
  Lines lines;
  // By dimension: "" for the plane, gl::kVolumeDefine for a volume (from the 48-byte records,
  // projected into the frame); each built the first time a frame needs it, so that a run of
  // one kind of world compiles no program for the other.
  Variants<Circles> circles;
};

// Reads the boids (bound with `live_count`), the scenario's obstacles and target and the
// simulation's `grid`; writes the world's rectangle of `output`.
void draw_overlays(OverlayPrograms& programs, const RenderSettings& settings,
                   const Scenario& scenario, BoidBufferView boids, const GridShape& grid,
                   const WorldView& view, const gl::Buffer& live_count,
                   const RenderTarget& output, const PassGeometry& geometry);

// A 3D world's overlays, in the frame's pixels: the spheres of the selected boid's sight,
// minimum distance and body and the boid circles' spheres, as `view` sees them (each a circle of
// its radius at its centre's depth), the obstacles' spheres likewise, and the target's ring and
// cross around the point it is seen at. No grid: a volume's cells drawn as lines would hide the
// flock. Writes all of `output`.
void draw_overlays_3d(OverlayPrograms& programs, const RenderSettings& settings,
                      const Scenario& scenario, BoidBufferView boids, const PerspectiveView& view,
                      const gl::Buffer& live_count, const RenderTarget& output,
                      const PassGeometry& geometry);

}  // namespace murmur::render
