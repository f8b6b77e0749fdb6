#pragma once
// Video output: frames piped as raw RGBA into an `ffmpeg` child process, which encodes them
// into a hidden temporary beside the final file (murmur's atomic writer, atomic_file.hpp); the
// temporary is renamed into place only when ffmpeg exits cleanly.
#include <sys/types.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "murmur/base/image.hpp"

namespace murmur {

class AtomicFile;

enum class VideoFormat { kMp4, kWebm };

// "mp4" or "webm": the extension, and ffmpeg's muxer name.
std::string_view video_format_name(VideoFormat format);

class VideoWriter {
 public:
  // Starts `ffmpeg` (found on PATH) for `width` x `height` frames at `fps` frames per second.
  // Throws OutputError "<path>: cannot start ffmpeg (...): install ffmpeg, or record PNG
  // frames instead" when there is none, or naming `path` when the temporary cannot be made.
  VideoWriter(std::filesystem::path path, VideoFormat format, int width, int height,
              std::uint32_t fps);
  // Unless finish() succeeded: stops ffmpeg, reaps it and removes the temporary.
  ~VideoWriter();
  VideoWriter(const VideoWriter&) = delete;
  VideoWriter& operator=(const VideoWriter&) = delete;

  // Sends one frame (rows top first, the size given at construction). Throws OutputError with
  // ffmpeg's exit status and last message when ffmpeg has stopped reading.
  void write(const RgbaImage& frame);
  // Closes the pipe, waits for ffmpeg and renames the clip into place. Throws OutputError
  // "<path>: ffmpeg failed (exit status 1): <its last line>" (or "was killed by signal 9").
  void finish();

  const std::filesystem::path& path() const { return path_; }

 private:
  [[noreturn]] void fail_with_ffmpeg_status();
  int close_pipe_and_reap();  // the raw wait status
  std::string ffmpeg_message() const;

  std::filesystem::path path_;
  int width_;
  int height_;
  std::unique_ptr<AtomicFile> file_;
  pid_t child_ = -1;
  int pipe_ = -1;                     // ffmpeg's stdin
  std::FILE* ffmpeg_stderr_ = nullptr;  // an unnamed temporary file holding what ffmpeg said
};

}  // namespace murmur
