#pragma once
// `murmur view --timings`: per-frame wall-clock milliseconds of each part of a frame, and at
// exit the median of each as a Markdown table row for BENCHMARKS.md. Every part ends in
// glFinish while timings are on, so the parts add up to the frame (at some cost in overlap).
#include <cstdint>
#include <string>
#include <vector>

namespace murmur::viewer {

struct FrameTime {
  double sim = 0;  // all simulation steps of the frame and their trail stamps (record_step)
  std::uint32_t steps = 0;
  // Renderer passes
  double trails = 0, heads = 0, exposure = 0, bloom = 0, overlays = 0, resolve = 0;
  double ui = 0;     // blit to the window, the panel's draw data and captures
  double total = 0;  // the whole frame, events and swap included
};

class FrameTimings {
 public:
  void add(const FrameTime& frame) { frames_.push_back(frame); }
  std::size_t size() const { return frames_.size(); }
  // "frame-time breakdown ..." header, the table header and one row of medians; `counted`
  // names what `count` counts ("boids", or a plan's "agents").
  std::string report(std::uint32_t count, const char* counted, int width, int height,
                     const std::string& gl_renderer) const;

 private:
  std::vector<FrameTime> frames_;
};

}  // namespace murmur::viewer
