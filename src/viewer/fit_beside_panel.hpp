#pragma once
// Where F (and the start) fits a 2D world in the viewer's window (docs/viewer.md, "Fitting
// beside the panel"): in the part of the frame the panel leaves free, so that the panel covers
// none of the fitted world; with the panel hidden or collapsed, in the whole frame. The margins
// go into the camera (Camera::fit_margins), whose zoom and pan then stay relative to that fit.
// Header-only, so tests/core/test_viewer_logic.cpp tests it without a window.
#include <algorithm>
#include <optional>

#include "murmur/render/settings.hpp"

namespace murmur::viewer {

// The panel window's extent across the window, in ImGui's display units (window coordinates,
// from the left edge).
struct PanelSpan {
  float left = 0;
  float right = 0;
};

// A free part narrower than this share of the frame's width is not worth fitting into (a window
// hardly wider than the panel): the world is fitted into the whole frame, under the panel.
inline constexpr float kMinFreeShareOfWidth = 0.25f;

// The margins, in frame pixels, that keep a fitted world clear of `panel` on a display
// `display_width` units wide; `pixels_per_unit` is the framebuffer's pixels per display unit
// (ImGui's DisplayFramebufferScale.x). The wider of the parts left and right of the panel is the
// free one: the margin on the other side covers the panel and whatever lies beyond it.
inline FrameMargins margins_beside_panel(const std::optional<PanelSpan>& panel, float display_width,
                                         float pixels_per_unit) {
  if (!panel || !(display_width > 0)) return {};
  const float free_left = std::clamp(panel->left, 0.0f, display_width);
  const float free_right = display_width - std::clamp(panel->right, free_left, display_width);
  const float free = std::max(free_left, free_right);
  if (free < kMinFreeShareOfWidth * display_width) return {};
  FrameMargins margins;
  const float covered = (display_width - free) * pixels_per_unit;
  if (free_left >= free_right) {
    margins.right = covered;
  } else {
    margins.left = covered;
  }
  return margins;
}

}  // namespace murmur::viewer
