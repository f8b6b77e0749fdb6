#pragma once
// The S and V keys: screenshots and PNG-sequence recordings of the rendered frame (the
// Renderer's output, without the panel: the same pixels `murmur record` writes). PNGs are
// encoded on the worker pool, so a frame waits only for its readback.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "murmur/render/image.hpp"
#include "murmur/render/png_writer.hpp"
#include "murmur/scenario.hpp"

namespace murmur::viewer {

class Captures {
 public:
  explicit Captures(std::filesystem::path out_dir, std::string gl_renderer);
  ~Captures();  // waits for queued PNGs; never throws

  // Queues `image` as the next free screenshot_NNNNNN.png; returns its path. Throws
  // OutputError (from an earlier failed write, or an unusable directory).
  std::filesystem::path screenshot(RgbaImage image);

  bool recording() const { return recording_.has_value(); }
  // Starts a recording into the next free recording_NNNNNN/ directory; returns it.
  std::filesystem::path start_recording(const Scenario& scenario, int width, int height,
                                        std::uint64_t first_step);
  // Adds one frame; its size must be the recording's (the caller stops on a resize).
  void record_frame(RgbaImage image);
  // Waits for the frames to be written, then writes manifest.toml; returns the frame count.
  std::uint32_t stop_recording(std::uint64_t last_step);
  int recording_width() const { return recording_ ? recording_->width : 0; }
  int recording_height() const { return recording_ ? recording_->height : 0; }
  std::uint32_t recorded_frames() const { return recording_ ? recording_->frames : 0; }
  const std::filesystem::path& recording_dir() const { return recording_->dir; }

 private:
  struct Recording {
    std::filesystem::path dir;
    std::string scenario_source;
    std::uint64_t seed = 0;
    std::uint32_t boids = 0;
    int width = 0, height = 0;
    std::uint32_t frames = 0;
    std::uint64_t first_step = 0;
  };
  void prepare_out_dir();

  std::filesystem::path out_dir_;
  std::string gl_renderer_;
  PngWriterPool writers_;
  std::uint32_t next_screenshot_ = 0;
  std::uint32_t next_recording_ = 0;
  std::optional<Recording> recording_;
};

}  // namespace murmur::viewer
