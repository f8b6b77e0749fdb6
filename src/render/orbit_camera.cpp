// The 3D world's camera: its eye, its matrices and the moves the viewer makes
// (include/murmur/render/orbit_camera.hpp).
#include "murmur/render/orbit_camera.hpp"

#include <algorithm>
#include <cmath>

#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

namespace murmur {
namespace {

constexpr glm::vec3 kUp{0.0f, 1.0f, 0.0f};
// The near plane never comes closer than this share of the far one: a 24-bit depth (or a
// float's) keeps its precision over the box.
constexpr float kNearestPlaneShare = 1e-4f;

float world_radius(glm::vec3 world_box) { return 0.5f * glm::length(world_box); }

}  // namespace

glm::vec3 OrbitCamera::eye() const {
  const float yaw = glm::radians(yaw_degrees), pitch = glm::radians(pitch_degrees);
  return target + distance * glm::vec3(std::cos(pitch) * std::sin(yaw), std::sin(pitch),
                                       std::cos(pitch) * std::cos(yaw));
}

OrbitCamera camera_looking(glm::vec3 position, glm::vec3 target, float fov_degrees,
                           float orbit_speed) {
  const glm::vec3 offset = position - target;
  OrbitCamera camera;
  camera.target = target;
  camera.distance = glm::length(offset);
  const float elevation = glm::degrees(std::asin(std::clamp(offset.y / camera.distance, -1.0f, 1.0f)));
  camera.pitch_degrees = std::clamp(elevation, -kMaxCameraPitchDegrees, kMaxCameraPitchDegrees);
  // Straight above or below, the yaw is free: keep 0 (x to the right).
  camera.yaw_degrees = (offset.x == 0.0f && offset.z == 0.0f)
                           ? 0.0f
                           : glm::degrees(std::atan2(offset.x, offset.z));
  camera.fov_degrees = fov_degrees;
  camera.orbit_speed = orbit_speed;
  return camera;
}

OrbitCamera starting_camera(const ScenarioCommon& scenario, float aspect) {
  const CameraParams defaults = camera_defaults();
  const CameraParams& keys = scenario.camera;
  const glm::vec3 box = world_box(scenario);
  const glm::vec3 target = keys.target.value_or(0.5f * box);
  const float fov = keys.fov.value_or(*defaults.fov);
  const float orbit_speed = keys.orbit_speed.value_or(*defaults.orbit_speed);
  if (keys.position) return camera_looking(*keys.position, target, fov, orbit_speed);
  // The box's front face (the nearest) filling the frame's height or width, whichever binds,
  // with the box's far half behind it.
  const float half_tan = std::tan(0.5f * glm::radians(fov));
  const float to_front = kFittedCameraMargin *
                         std::max(0.5f * box.y / half_tan, 0.5f * box.x / (half_tan * aspect));
  OrbitCamera camera;
  camera.target = target;
  camera.distance = to_front + 0.5f * box.z;
  camera.fov_degrees = fov;
  camera.orbit_speed = orbit_speed;
  return camera;
}

PerspectiveView perspective_view(const OrbitCamera& camera, glm::vec3 world_box, int width,
                                 int height) {
  PerspectiveView view;
  view.frame_size = {width, height};
  view.eye = camera.eye();
  view.world_to_view = glm::lookAt(view.eye, camera.target, kUp);
  // The view's rows are its axes in world space.
  view.right = {view.world_to_view[0][0], view.world_to_view[1][0], view.world_to_view[2][0]};
  view.up = {view.world_to_view[0][1], view.world_to_view[1][1], view.world_to_view[2][1]};
  view.forward = -glm::vec3(view.world_to_view[0][2], view.world_to_view[1][2],
                            view.world_to_view[2][2]);
  // Near and far enclose the box's bounding sphere (and the target, wherever it was panned).
  const glm::vec3 centre = 0.5f * world_box;
  const float radius = world_radius(world_box);
  const float to_centre = glm::dot(centre - view.eye, view.forward);
  const float to_target = camera.distance;
  view.far_plane = std::max(to_centre + radius, to_target) * kFittedCameraMargin;
  view.near_plane = std::max(std::min(to_centre - radius, to_target) / kFittedCameraMargin,
                             view.far_plane * kNearestPlaneShare);
  const float aspect = static_cast<float>(width) / static_cast<float>(height);
  const float fov = glm::radians(camera.fov_degrees);
  view.view_to_clip = glm::perspective(fov, aspect, view.near_plane, view.far_plane);
  view.world_to_clip = view.view_to_clip * view.world_to_view;
  view.pixels_per_unit_at_unit_depth =
      0.5f * static_cast<float>(height) / std::tan(0.5f * fov);
  return view;
}

std::optional<ScreenPoint> world_to_screen(const PerspectiveView& view, glm::vec3 world) {
  const glm::vec4 clip = view.world_to_clip * glm::vec4(world, 1.0f);
  const float depth = glm::dot(world - view.eye, view.forward);
  if (depth < view.near_plane || clip.w <= 0.0f) return std::nullopt;
  const glm::vec2 ndc = glm::vec2(clip) / clip.w;
  const glm::vec2 frame(view.frame_size);
  return ScreenPoint{{(0.5f * ndc.x + 0.5f) * frame.x, (0.5f - 0.5f * ndc.y) * frame.y}, depth};
}

OrbitCamera orbited(const OrbitCamera& camera, float yaw_degrees, float pitch_degrees) {
  OrbitCamera turned = camera;
  // The yaw kept within a turn, so that a long orbit keeps its float precision.
  turned.yaw_degrees = std::remainder(camera.yaw_degrees + yaw_degrees, 360.0f);
  turned.pitch_degrees = std::clamp(camera.pitch_degrees + pitch_degrees,
                                    -kMaxCameraPitchDegrees, kMaxCameraPitchDegrees);
  return turned;
}

OrbitCamera dollied(const OrbitCamera& camera, glm::vec3 world_box, float factor) {
  OrbitCamera moved = camera;
  const float radius = world_radius(world_box);
  moved.distance = std::clamp(camera.distance / factor, kMinCameraDistanceRadii * radius,
                              kMaxCameraDistanceRadii * radius);
  return moved;
}

OrbitCamera panned(const OrbitCamera& camera, int frame_height, glm::vec2 pixel_delta) {
  // The view's axes, as glm::lookAt makes them (perspective_view).
  const glm::vec3 forward = glm::normalize(camera.target - camera.eye());
  const glm::vec3 right = glm::normalize(glm::cross(forward, kUp));
  const glm::vec3 up = glm::cross(right, forward);
  // World units per pixel in the plane through the target that faces the eye.
  const float units_per_pixel = 2.0f * camera.distance *
                                std::tan(0.5f * glm::radians(camera.fov_degrees)) /
                                static_cast<float>(frame_height);
  OrbitCamera moved = camera;
  // Dragging right carries the world right, so the target moves left; pixels' y is down.
  moved.target += units_per_pixel * (-pixel_delta.x * right + pixel_delta.y * up);
  return moved;
}

std::optional<std::size_t> nearest_on_screen(const PerspectiveView& view,
                                             std::span<const glm::vec3> positions,
                                             glm::vec2 pixel, float max_pixels) {
  std::optional<std::size_t> best;
  float best_pixels = max_pixels * max_pixels, best_depth = 0;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const std::optional<ScreenPoint> drawn = world_to_screen(view, positions[i]);
    if (!drawn) continue;
    const glm::vec2 offset = drawn->pixel - pixel;
    const float pixels = glm::dot(offset, offset);
    if (pixels > best_pixels || (best && pixels == best_pixels && drawn->depth >= best_depth))
      continue;
    best = i;
    best_pixels = pixels;
    best_depth = drawn->depth;
  }
  return best;
}

}  // namespace murmur
