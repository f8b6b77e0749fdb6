// The viewer's decisions that need no window (docs/viewer.md): where F fits a 2D world beside
// the panel. The viewer keeps them in header-only files for this reason.
#include <catch2/catch.hpp>

#include <optional>

#include "../../src/viewer/fit_beside_panel.hpp"

using murmur::FrameMargins;
using murmur::viewer::PanelSpan;

TEST_CASE("F fits the world in the part of the window the panel leaves free") {
  // The default window: 1280 wide, the panel 420 wide with 8 units to the window's right edge.
  constexpr float kWidth = 1280;
  const PanelSpan panel{852, 1272};
  // The world keeps clear of the panel and the sliver right of it; nothing else is covered.
  CHECK(murmur::viewer::margins_beside_panel(panel, kWidth, 1) == FrameMargins{0, 428, 0, 0});
  // A framebuffer of two pixels per window unit (a HiDPI display): margins in its pixels.
  CHECK(murmur::viewer::margins_beside_panel(panel, kWidth, 2) == FrameMargins{0, 856, 0, 0});
  // Dragged to the left, the panel leaves the right free.
  CHECK(murmur::viewer::margins_beside_panel(PanelSpan{8, 428}, kWidth, 1) ==
        FrameMargins{428, 0, 0, 0});
  // Hidden (H) or collapsed: the whole window.
  CHECK(murmur::viewer::margins_beside_panel(std::nullopt, kWidth, 1) == FrameMargins{});
  // A window hardly wider than the panel: the whole window, not a sliver beside it.
  constexpr float kNarrow = 480;
  CHECK(murmur::viewer::margins_beside_panel(PanelSpan{52, 472}, kNarrow, 1) == FrameMargins{});
  // A panel dragged partly off the window covers only what is inside it.
  CHECK(murmur::viewer::margins_beside_panel(PanelSpan{1000, 1420}, kWidth, 1) ==
        FrameMargins{0, 280, 0, 0});
}
