#pragma once
// How the viewer's mouse, keys and clock move a 3D world's camera (docs/viewer.md, "Three
// dimensions"): a left drag orbits, the slow turn follows the frame's time, a click's pixel
// becomes a point at a boid's depth for steering. Header-only and windowless, like the viewer's
// other decisions, so that tests/gpu/test_window_logic.cpp checks them without a window.
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "murmur/render/orbit_camera.hpp"

namespace murmur::viewer {

// A drag across a 1280-pixel-wide window turns the camera most of the way round.
inline constexpr float kOrbitDegreesPerPixel = 0.25f;
// The slow turn where the scenario's [camera] orbit_speed is 0: a full turn in a minute.
inline constexpr float kDefaultOrbitSpeedDegrees = 6.0f;
// A click picks the boid drawn nearest to it, if one is drawn within this reach.
inline constexpr float kPickReachPixels = 24.0f;

// A left drag by `pixel_delta` (frame pixels, y down): the world turns with the cursor, so a
// drag to the right moves the eye to the left (yaw down), and a drag down raises the eye.
inline OrbitCamera orbit_dragged(const OrbitCamera& camera, glm::vec2 pixel_delta) {
  return orbited(camera, -pixel_delta.x * kOrbitDegreesPerPixel,
                 pixel_delta.y * kOrbitDegreesPerPixel);
}

// The slow turn's speed in degrees per second: the camera's, or the default where it has none.
inline float turn_speed(const OrbitCamera& camera) {
  return camera.orbit_speed != 0.0f ? camera.orbit_speed : kDefaultOrbitSpeedDegrees;
}

// The camera after `elapsed_seconds` of turning by itself: the yaw grows at turn_speed.
inline OrbitCamera turned_by_itself(const OrbitCamera& camera, double elapsed_seconds) {
  return orbited(camera, static_cast<float>(turn_speed(camera) * elapsed_seconds), 0.0f);
}

// The world point drawn at `pixel` (top-left convention) at `depth` along the view: where a
// steered boid at that depth is sent when the cursor is at `pixel`.
inline glm::vec3 world_at_depth(const PerspectiveView& view, float fov_degrees, glm::vec2 pixel,
                                float depth) {
  const glm::vec2 frame(view.frame_size);
  const float half_height = std::tan(glm::radians(fov_degrees) / 2.0f);  // at depth 1
  const float half_width = half_height * frame.x / frame.y;
  const glm::vec2 ndc(2.0f * pixel.x / frame.x - 1.0f, 1.0f - 2.0f * pixel.y / frame.y);
  return view.eye + depth * (view.forward + ndc.x * half_width * view.right +
                             ndc.y * half_height * view.up);
}

}  // namespace murmur::viewer
