#include "viewer/captures.hpp"

#include <cstdio>
#include <system_error>

#include "murmur/base/atomic_file.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/render/recording.hpp"
#include "viewer/capture_names.hpp"

namespace murmur::viewer {
namespace {

constexpr const char* kManifestName = "manifest.toml";

void ensure_directory(const std::filesystem::path& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error || !std::filesystem::is_directory(dir, error)) {
    throw OutputError(dir.string() + ": cannot create directory" +
                      (error ? " (" + error.message() + ")" : std::string(" (not a directory)")));
  }
}

}  // namespace

Captures::Captures(std::filesystem::path out_dir, std::string gl_renderer,
                   std::optional<VideoFormat> video, std::uint32_t video_fps)
    : out_dir_(std::move(out_dir)),
      gl_renderer_(std::move(gl_renderer)),
      video_(video),
      video_fps_(video_fps) {}

Captures::~Captures() {
  // A recording still open here was cut short by an error: it gets no manifest, which marks
  // its directory incomplete. The viewer stops recordings itself on a normal exit.
  try {
    writers_.finish();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "murmur view: %s\n", error.what());
  }
}

void Captures::prepare_out_dir() { ensure_directory(out_dir_); }

std::filesystem::path Captures::screenshot(RgbaImage image) {
  prepare_out_dir();
  std::filesystem::path path =
      next_free_numbered(out_dir_, kScreenshotPrefix, kScreenshotExtension, next_screenshot_);
  writers_.submit(path, std::move(image));
  return path;
}

std::filesystem::path Captures::start_recording(const RecordingManifest& described, int width,
                                                int height, std::uint64_t first_step) {
  prepare_out_dir();
  Recording recording;
  if (video_) {
    const std::string extension = "." + std::string(video_format_name(*video_));
    recording.path = next_free_numbered(out_dir_, kRecordingPrefix, extension, next_recording_);
    recording.video =
        std::make_unique<VideoWriter>(recording.path, *video_, width, height, video_fps_);
  } else {
    recording.path = next_free_numbered(out_dir_, kRecordingPrefix, "", next_recording_);
    ensure_directory(recording.path);
  }
  recording.scenario = described;
  recording.width = width;
  recording.height = height;
  recording.first_step = first_step;
  recording_ = std::move(recording);
  return recording_->path;
}

void Captures::record_frame(RgbaImage image) {
  if (recording_->video)
    recording_->video->write(image);
  else
    writers_.submit(recording_->path / frame_file_name(recording_->frames), std::move(image));
  ++recording_->frames;
}

std::uint32_t Captures::stop_recording(std::uint64_t last_step) {
  const Recording recording = std::move(*recording_);
  recording_.reset();
  if (recording.video) {
    recording.video->finish();  // a clip under its name is complete: it needs no manifest
    return recording.frames;
  }
  writers_.finish();
  RecordingManifest manifest = recording.scenario;
  manifest.width = recording.width;
  manifest.height = recording.height;
  manifest.frames = recording.frames;
  manifest.gl_renderer = gl_renderer_;
  manifest.steps = {{"first_step", recording.first_step}, {"last_step", last_step}};
  const std::string text = manifest_toml(
      "# Written by `murmur view` when its recording stopped: a directory with this file\n"
      "# holds a complete recording. Frames are the viewer's rendered frames, so the steps\n"
      "# between two frames follow the viewer's pacing (none while paused).\n",
      manifest);
  write_file_atomically(recording.path / kManifestName, text);
  return recording.frames;
}

}  // namespace murmur::viewer
