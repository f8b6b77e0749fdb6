#pragma once
// The camera of a 3D world (docs/rendering.md, "Three dimensions"): it looks at a target from a
// distance, a yaw about +y and a pitch above the x-z plane, so that dragging orbits, scrolling
// dollies, shift-dragging pans and a slow turn about the target never rolls the horizon. Plain
// values and GLM: no GL, so the viewer, the recorder and tests share one definition of where a
// point lands on the screen.
#include <cstddef>
#include <optional>
#include <span>

#include <glm/ext/vector_int2.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "murmur/scenario/scenario.hpp"

namespace murmur {

// Looking straight up or down loses the horizon's direction: the pitch stays this far inside.
inline constexpr float kMaxCameraPitchDegrees = 89.0f;
// The camera's distance from its target, in radii of the world's box (half its diagonal): from
// inside a bird's neighbourhood to where the box is a few pixels wide.
inline constexpr float kMinCameraDistanceRadii = 1e-3f;
inline constexpr float kMaxCameraDistanceRadii = 100.0f;
// The fitted camera leaves this share of the frame around the world's box.
inline constexpr float kFittedCameraMargin = 1.05f;

struct OrbitCamera {
  glm::vec3 target{0};
  float distance = 1;       // world units from the target to the eye, > 0
  float yaw_degrees = 0;    // about +y; 0 puts the eye on +z of the target, looking along -z
  float pitch_degrees = 0;  // the eye's elevation above the target's x-z plane
  float fov_degrees = 50;   // vertical
  float orbit_speed = 0;    // degrees per second the viewer turns the yaw by itself

  // The eye: target + distance (cos pitch sin yaw, sin pitch, cos pitch cos yaw).
  glm::vec3 eye() const;
  bool operator==(const OrbitCamera&) const = default;
};

// The camera at `position` looking at `target` (its pitch held within kMaxCameraPitchDegrees).
// `position` must differ from `target`.
OrbitCamera camera_looking(glm::vec3 position, glm::vec3 target, float fov_degrees,
                           float orbit_speed);
// Where a scenario's camera starts in a frame of `aspect` = width / height: its [camera] keys,
// each absent one fitted (docs/scenarios.md, "[camera]"): the target at the box's centre, the
// eye on +z looking along -z from where the whole box fills the frame.
OrbitCamera starting_camera(const ScenarioCommon& scenario, float aspect);

// What one frame of a camera is: its matrices (GL's conventions: a right-handed view space
// looking along -z, clip depth -1 at the near plane and 1 at the far one, which enclose the
// world's box), its frame and its scale.
struct PerspectiveView {
  glm::mat4 world_to_view{1}, view_to_clip{1}, world_to_clip{1};
  glm::vec3 eye{0}, right{1, 0, 0}, up{0, 1, 0}, forward{0, 0, -1};
  float near_plane = 0, far_plane = 0;
  glm::ivec2 frame_size{0};
  // Pixels across one world unit at view depth 1: divide by a point's depth for its scale.
  float pixels_per_unit_at_unit_depth = 0;
};
PerspectiveView perspective_view(const OrbitCamera& camera, glm::vec3 world_box, int width,
                                 int height);

// A world point's frame pixel from the top-left corner (the mouse's convention), and its depth
// along the view (world units); nullopt when it is not in front of the near plane.
struct ScreenPoint {
  glm::vec2 pixel{0};
  float depth = 0;
};
std::optional<ScreenPoint> world_to_screen(const PerspectiveView& view, glm::vec3 world);

// The camera turned about its target by the given degrees (pitch clamped), moved towards it
// by `factor` (> 1 nearer; the distance clamped to the world's scale), or moved with the
// plane through its target that faces it, so that the target follows a drag of `pixel_delta`
// (frame pixels, y down).
OrbitCamera orbited(const OrbitCamera& camera, float yaw_degrees, float pitch_degrees);
OrbitCamera dollied(const OrbitCamera& camera, glm::vec3 world_box, float factor);
OrbitCamera panned(const OrbitCamera& camera, int frame_height, glm::vec2 pixel_delta);

// The point of `positions` drawn nearest to `pixel` (top-left convention) and within
// `max_pixels` of it, the nearer to the eye on a tie; nullopt when none is.
std::optional<std::size_t> nearest_on_screen(const PerspectiveView& view,
                                             std::span<const glm::vec3> positions,
                                             glm::vec2 pixel, float max_pixels);

}  // namespace murmur
