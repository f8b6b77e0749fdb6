#include "viewer/frame_timings.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>

namespace murmur::viewer {
namespace {

constexpr double kMillisecondsPerSecond = 1000.0;

double median_of(const std::vector<FrameTime>& frames, const std::function<double(const FrameTime&)>& part) {
  std::vector<double> values;
  values.reserve(frames.size());
  for (const FrameTime& frame : frames) values.push_back(part(frame));
  if (values.empty()) return 0;
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

}  // namespace

std::string FrameTimings::report(std::uint32_t count, const char* counted, int width, int height,
                                 const std::string& gl_renderer) const {
  const double total = median_of(frames_, [](const FrameTime& f) { return f.total; });
  const double steps = median_of(frames_, [](const FrameTime& f) { return double(f.steps); });
  char text[1024];
  std::snprintf(
      text, sizeof text,
      "frame-time breakdown: median ms over %zu frames, %u %s, %dx%d, %.0f steps/frame, %s\n"
      "| %s | sim | trails | heads | exposure | bloom | overlays | resolve | blit+UI | frame | fps |\n"
      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
      "| %u | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n",
      frames_.size(), count, counted, width, height, steps, gl_renderer.c_str(), counted, count,
      median_of(frames_, [](const FrameTime& f) { return f.sim; }),
      median_of(frames_, [](const FrameTime& f) { return f.trails; }),
      median_of(frames_, [](const FrameTime& f) { return f.heads; }),
      median_of(frames_, [](const FrameTime& f) { return f.exposure; }),
      median_of(frames_, [](const FrameTime& f) { return f.bloom; }),
      median_of(frames_, [](const FrameTime& f) { return f.overlays; }),
      median_of(frames_, [](const FrameTime& f) { return f.resolve; }),
      median_of(frames_, [](const FrameTime& f) { return f.ui; }), total,
      total > 0 ? kMillisecondsPerSecond / total : 0.0);
  return text;
}

}  // namespace murmur::viewer
