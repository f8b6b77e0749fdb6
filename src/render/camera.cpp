// Where the world lands in a frame: the camera's fit, pan and zoom, and the maps between frame
// pixels and world units (include/murmur/render/renderer.hpp).
#include <algorithm>

#include <glm/common.hpp>

#include "murmur/render/renderer.hpp"

namespace murmur {

WorldView fit_world(glm::vec2 world_size, int width, int height) {
  return view_for(Camera{}, world_size, width, height);
}

WorldView view_for(const Camera& camera, glm::vec2 world_size, int width, int height) {
  const glm::vec2 frame{static_cast<float>(width), static_cast<float>(height)};
  const float zoom = std::clamp(camera.zoom, kMinCameraZoom, kMaxCameraZoom);
  // The part of the frame the world is fitted into: all of it without margins (the recorder),
  // and never less than a pixel a side.
  const FrameMargins& margins = camera.fit_margins;
  const glm::vec2 fitted_part = glm::max(
      frame - glm::vec2(margins.left + margins.right, margins.top + margins.bottom),
      glm::vec2(1.0f));
  const float pixels_per_unit =
      zoom * std::min(fitted_part.x / world_size.x, fitted_part.y / world_size.y);
  // The camera's centre lands in the middle of the fitted part: this far from the frame's
  // centre, in pixels with y up (0 without margins, leaving the centre exactly as it is).
  const glm::vec2 part_offset{0.5f * (margins.left - margins.right),
                              0.5f * (margins.bottom - margins.top)};
  WorldView view;
  view.world_centre = camera.centre_in(world_size) - part_offset / pixels_per_unit;
  view.world_to_clip = 2.0f * pixels_per_unit / frame;  // clip space spans 2 units across
  view.pixels_per_world_unit = pixels_per_unit;
  view.world_size = world_size;
  view.frame_size = {width, height};

  // The world's corners in GL window pixels (y up), rounded, then clipped to the frame.
  const glm::vec2 low = 0.5f * frame + (glm::vec2(0.0f) - view.world_centre) * pixels_per_unit;
  const glm::vec2 high = 0.5f * frame + (world_size - view.world_centre) * pixels_per_unit;
  const glm::ivec2 first = glm::clamp(glm::ivec2(glm::round(low)), glm::ivec2(0), view.frame_size);
  const glm::ivec2 last = glm::clamp(glm::ivec2(glm::round(high)), glm::ivec2(0), view.frame_size);
  view.world_pixel_origin = first;
  view.world_pixel_size = last - first;
  // A fitted world always shows, even when it rounds to less than a pixel.
  if (view.world_pixel_size.x == 0 && first.x < width && high.x > 0 && low.x < frame.x)
    view.world_pixel_size.x = 1;
  if (view.world_pixel_size.y == 0 && first.y < height && high.y > 0 && low.y < frame.y)
    view.world_pixel_size.y = 1;
  return view;
}

glm::vec2 pixel_to_world(const WorldView& view, glm::vec2 pixel_from_top_left) {
  const glm::vec2 frame(view.frame_size);
  const glm::vec2 from_centre{pixel_from_top_left.x - 0.5f * frame.x,
                              0.5f * frame.y - pixel_from_top_left.y};
  return view.world_centre + from_centre / view.pixels_per_world_unit;
}

glm::vec2 world_to_pixel(const WorldView& view, glm::vec2 world) {
  const glm::vec2 frame(view.frame_size);
  const glm::vec2 from_centre = (world - view.world_centre) * view.pixels_per_world_unit;
  return {0.5f * frame.x + from_centre.x, 0.5f * frame.y - from_centre.y};
}

Camera zoom_at(const Camera& camera, glm::vec2 world_size, int width, int height,
               glm::vec2 pixel_from_top_left, float factor) {
  const WorldView before = view_for(camera, world_size, width, height);
  const glm::vec2 anchor = pixel_to_world(before, pixel_from_top_left);
  Camera zoomed = camera;
  zoomed.zoom = std::clamp(camera.zoom * factor, kMinCameraZoom, kMaxCameraZoom);
  // Same pixel offset from the camera's centre at the new scale: the anchor stays put.
  const WorldView after = view_for(zoomed, world_size, width, height);
  zoomed.centre = anchor - (pixel_to_world(after, pixel_from_top_left) -
                            zoomed.centre_in(world_size));
  return zoomed;
}

Camera pan_by(const Camera& camera, glm::vec2 world_size, int width, int height,
              glm::vec2 pixel_delta) {
  const WorldView view = view_for(camera, world_size, width, height);
  Camera panned = camera;
  // Dragging right moves the world right: the centre moves left; y is down in pixels.
  panned.centre = camera.centre_in(world_size) +
                  glm::vec2(-pixel_delta.x, pixel_delta.y) / view.pixels_per_world_unit;
  return panned;
}

}  // namespace murmur
