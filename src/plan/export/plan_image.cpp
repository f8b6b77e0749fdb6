// The plan as ink on paper, rasterised on the CPU (include/murmur/plan/export/plan_export.hpp).
#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "murmur/plan/export/plan_export.hpp"

namespace murmur {
namespace {

// A line thinner than a pixel would miss every pixel centre and vanish from a small image.
constexpr float kMinStrokePixels = 1.0f;
constexpr int kChannels = 4;

// Inks the pixels whose centres lie in the stroked rectangle of the segment a-b (pixel units):
// along the segment from half a width before a to half a width past b, across it half a width
// either side, the lower edges included and the upper ones not.
void ink_segment(RgbaImage& image, glm::vec2 a, glm::vec2 b, float width) {
  // Ordered, so a segment inks the same pixels whichever way it was drawn.
  if (b.x < a.x || (b.x == a.x && b.y < a.y)) std::swap(a, b);
  const float half = width / 2;
  const float length = glm::length(b - a);
  const glm::vec2 along = length > 0 ? (b - a) / length : glm::vec2(1, 0);
  // The normal pointing right or down, so that "lower edge" means left or top on any axis.
  glm::vec2 across(-along.y, along.x);
  if (across.x < 0 || (across.x == 0 && across.y < 0)) across = -across;
  const glm::vec2 reach = half * (glm::abs(along) + glm::abs(across));
  const glm::vec2 low = glm::min(a, b) - reach;
  const glm::vec2 high = glm::max(a, b) + reach;
  const int x0 = std::max(0, static_cast<int>(std::floor(low.x)));
  const int y0 = std::max(0, static_cast<int>(std::floor(low.y)));
  const int x1 = std::min(image.width - 1, static_cast<int>(std::ceil(high.x)));
  const int y1 = std::min(image.height - 1, static_cast<int>(std::ceil(high.y)));
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const glm::vec2 centre(static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f);
      const glm::vec2 offset = centre - a;
      const float t = glm::dot(offset, along);
      const float s = glm::dot(offset, across);
      if (t < -half || t >= length + half || s < -half || s >= half) continue;
      std::uint8_t* pixel = &image.pixels[(static_cast<std::size_t>(y) * image.width + x) * kChannels];
      for (int c = 0; c < kChannels; ++c) pixel[c] = kPlanInk[c];
    }
  }
}

}  // namespace

RgbaImage plan_image(glm::vec2 canvas, const PlanDrawing& drawing, int width, int height) {
  RgbaImage image{width, height, {}};
  image.pixels.resize(static_cast<std::size_t>(width) * height * kChannels);
  for (std::size_t p = 0; p < image.pixels.size(); p += kChannels) {
    for (int c = 0; c < kChannels; ++c) image.pixels[p + c] = kPlanPaper[c];
  }
  const float scale = std::min(static_cast<float>(width) / canvas.x,
                               static_cast<float>(height) / canvas.y);
  const glm::vec2 margin = (glm::vec2(width, height) - canvas * scale) / 2.0f;
  auto pixel_point = [&](glm::vec2 world) {
    return margin + glm::vec2(plan_page_point(canvas, world)) * scale;
  };
  for (const std::vector<PlanSegment>& path : drawing) {
    for (const PlanSegment& segment : path) {
      ink_segment(image, pixel_point(segment.from), pixel_point(segment.to),
                  std::max(segment.width * scale, kMinStrokePixels));
    }
  }
  return image;
}

}  // namespace murmur
