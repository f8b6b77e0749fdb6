#pragma once
// The S and V keys: screenshots and recordings (PNG frames, or a video through ffmpeg) of the
// rendered frame (the Renderer's output, without the panel: the same pixels `murmur record`
// writes). PNGs are encoded on the worker pool, so a frame waits only for its readback; video
// frames go down ffmpeg's pipe, which it encodes in its own process.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "murmur/base/image.hpp"
#include "murmur/render/png_writer.hpp"
#include "murmur/render/recording.hpp"
#include "murmur/render/video_writer.hpp"
#include "murmur/scenario/scenario.hpp"

namespace murmur::viewer {

class Captures {
 public:
  // `video`: V records a clip recording_NNNNNN.mp4|webm at `video_fps`; nothing: PNG frames.
  Captures(std::filesystem::path out_dir, std::string gl_renderer,
           std::optional<VideoFormat> video = std::nullopt, std::uint32_t video_fps = 30);
  ~Captures();  // waits for queued PNGs; a clip not stopped is abandoned; never throws

  // Queues `image` as the next free screenshot_NNNNNN.png; returns its path. Throws
  // OutputError (from an earlier failed write, or an unusable directory).
  std::filesystem::path screenshot(RgbaImage image);

  bool recording() const { return recording_.has_value(); }
  // Starts a recording into the next free recording_NNNNNN/ directory (or clip); returns it.
  // Throws OutputError (an unusable directory, no ffmpeg).
  // `described`: the scenario's fields of its manifest (describe_scenario).
  std::filesystem::path start_recording(const RecordingManifest& described, int width,
                                        int height, std::uint64_t first_step);
  // Adds one frame; its size must be the recording's (the caller stops on a resize).
  void record_frame(RgbaImage image);
  // Waits for the frames to be written, then writes manifest.toml (a clip: waits for ffmpeg
  // and renames it into place); returns the frame count.
  std::uint32_t stop_recording(std::uint64_t last_step);
  int recording_width() const { return recording_ ? recording_->width : 0; }
  int recording_height() const { return recording_ ? recording_->height : 0; }
  std::uint32_t recorded_frames() const { return recording_ ? recording_->frames : 0; }
  const std::filesystem::path& recording_path() const { return recording_->path; }

 private:
  struct Recording {
    std::filesystem::path path;  // the frames' directory, or the clip
    std::unique_ptr<VideoWriter> video;
    RecordingManifest scenario;  // its scenario's fields (describe_scenario)
    int width = 0, height = 0;
    std::uint32_t frames = 0;
    std::uint64_t first_step = 0;
  };
  void prepare_out_dir();

  std::filesystem::path out_dir_;
  std::string gl_renderer_;
  std::optional<VideoFormat> video_;
  std::uint32_t video_fps_;
  PngWriterPool writers_;
  std::uint32_t next_screenshot_ = 0;
  std::uint32_t next_recording_ = 0;
  std::optional<Recording> recording_;
};

}  // namespace murmur::viewer
