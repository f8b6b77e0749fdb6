#include "murmur/render/video_writer.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "murmur/base/atomic_file.hpp"
#include "murmur/base/errors.hpp"

extern char** environ;

namespace murmur {
namespace {

constexpr const char* kFfmpeg = "ffmpeg";
constexpr std::size_t kRgbaChannels = 4;
// yuv420p stores colour per 2x2 block, so both sides must be even: an odd side gets one black
// row or column (pad's default colour) instead of a failed encode.
constexpr const char* kPadToEvenSides = "pad=ceil(iw/2)*2:ceil(ih/2)*2";
// What players and browsers decode everywhere.
constexpr const char* kPlayablePixelFormat = "yuv420p";

// ffmpeg's arguments after the input: the codec and its settings for each container. Both are
// tuned for speed (a recording is encoded as it renders), at a quality that shows trails well.
std::vector<std::string> codec_arguments(VideoFormat format) {
  switch (format) {
    case VideoFormat::kMp4:
      return {"-c:v", "libx264", "-preset", "veryfast", "-crf", "20"};
    case VideoFormat::kWebm:
      return {"-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "0",
              "-crf", "32"};
  }
  throw std::logic_error("codec_arguments: unknown video format");
}

std::vector<std::string> ffmpeg_arguments(VideoFormat format, int width, int height,
                                          std::uint32_t fps,
                                          const std::filesystem::path& output) {
  std::vector<std::string> arguments = {
      kFfmpeg, "-hide_banner", "-nostdin", "-loglevel", "error", "-y",
      // Frames arrive top row first (the renderer flips GL's bottom-up rows when it reads back).
      "-f", "rawvideo", "-pix_fmt", "rgba",
      "-s", std::to_string(width) + "x" + std::to_string(height),
      "-framerate", std::to_string(fps), "-i", "pipe:0",
      "-vf", kPadToEvenSides, "-pix_fmt", kPlayablePixelFormat};
  for (std::string& argument : codec_arguments(format)) arguments.push_back(std::move(argument));
  // The temporary's name does not end in .mp4, so the muxer is named rather than guessed.
  arguments.insert(arguments.end(), {"-f", std::string(video_format_name(format)),
                                     output.string()});
  return arguments;
}

std::string describe_wait_status(int status) {
  if (WIFSIGNALED(status)) {
    const int signal_number = WTERMSIG(status);
    return "ffmpeg was killed by signal " + std::to_string(signal_number) + " (" +
           strsignal(signal_number) + ")";
  }
  return "ffmpeg failed (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
}

bool exited_cleanly(int status) { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }

}  // namespace

std::string_view video_format_name(VideoFormat format) {
  switch (format) {
    case VideoFormat::kMp4:
      return "mp4";
    case VideoFormat::kWebm:
      return "webm";
  }
  throw std::logic_error("video_format_name: unknown video format");
}

VideoWriter::VideoWriter(std::filesystem::path path, VideoFormat format, int width, int height,
                         std::uint32_t fps)
    : path_(std::move(path)), width_(width), height_(height) {
  // A write to a pipe whose reader died must fail with EPIPE, which write() reports with
  // ffmpeg's own message, instead of killing murmur silently.
  std::signal(SIGPIPE, SIG_IGN);
  file_ = std::make_unique<AtomicFile>(path_);  // ffmpeg overwrites this temporary

  ffmpeg_stderr_ = std::tmpfile();
  if (ffmpeg_stderr_ == nullptr)
    throw OutputError(path_.string() + ": cannot capture ffmpeg's messages (" +
                      std::strerror(errno) + ")");
  int pipe_ends[2];
  if (::pipe2(pipe_ends, O_CLOEXEC) != 0)
    throw OutputError(path_.string() + ": cannot make a pipe to ffmpeg (" +
                      std::strerror(errno) + ")");
  const int read_end = pipe_ends[0];
  pipe_ = pipe_ends[1];

  std::vector<std::string> arguments =
      ffmpeg_arguments(format, width, height, fps, file_->temporary_path());
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, read_end, STDIN_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, ::fileno(ffmpeg_stderr_), STDERR_FILENO);
  const int spawn_error = posix_spawnp(&child_, kFfmpeg, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(read_end);
  if (spawn_error != 0) {
    child_ = -1;
    throw OutputError(path_.string() + ": cannot start ffmpeg (" + std::strerror(spawn_error) +
                      "): install ffmpeg (apt-get install ffmpeg), or record PNG frames "
                      "instead (--format png)");
  }
}

VideoWriter::~VideoWriter() {
  if (child_ > 0) {
    // An abandoned clip: ffmpeg must not go on writing into a temporary about to be removed.
    ::kill(child_, SIGKILL);
    close_pipe_and_reap();
  }
  if (pipe_ >= 0) ::close(pipe_);
  if (ffmpeg_stderr_ != nullptr) std::fclose(ffmpeg_stderr_);
  // file_'s destructor removes the temporary unless finish() committed it.
}

void VideoWriter::write(const RgbaImage& frame) {
  const std::size_t bytes =
      static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_) * kRgbaChannels;
  if (frame.width != width_ || frame.height != height_ || frame.pixels.size() != bytes)
    throw std::invalid_argument("VideoWriter::write: frame size differs from the video's");
  if (child_ <= 0) throw std::logic_error("VideoWriter::write: after finish()");
  const std::uint8_t* data = frame.pixels.data();
  std::size_t left = bytes;
  while (left > 0) {
    const ssize_t written = ::write(pipe_, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      fail_with_ffmpeg_status();  // EPIPE: ffmpeg has gone; its status says why
    }
    data += written;
    left -= static_cast<std::size_t>(written);
  }
}

void VideoWriter::finish() {
  if (child_ <= 0) throw std::logic_error("VideoWriter::finish: called twice");
  const int status = close_pipe_and_reap();
  if (!exited_cleanly(status))
    throw OutputError(path_.string() + ": " + describe_wait_status(status) + ffmpeg_message());
  // ffmpeg 5.1 (Debian 12) exits 0 when it cannot write the file's trailer on a full disk,
  // leaving a clip without its index. At -loglevel error whatever it prints is an error.
  const std::string message = ffmpeg_message();
  if (!message.empty())
    throw OutputError(path_.string() + ": ffmpeg reported an error and exited 0" + message);
  file_->commit();
}

void VideoWriter::fail_with_ffmpeg_status() {
  const int write_error = errno;
  const int status = close_pipe_and_reap();
  // ffmpeg exiting cleanly while murmur still had frames to send is a failure too.
  const std::string reason = exited_cleanly(status)
                                 ? "ffmpeg stopped reading frames (" +
                                       std::string(std::strerror(write_error)) + ")"
                                 : describe_wait_status(status);
  throw OutputError(path_.string() + ": " + reason + ffmpeg_message());
}

int VideoWriter::close_pipe_and_reap() {
  if (pipe_ >= 0) ::close(pipe_);  // end of input: ffmpeg finishes the file and exits
  pipe_ = -1;
  int status = 0;
  while (::waitpid(child_, &status, 0) < 0 && errno == EINTR) {
  }
  child_ = -1;
  return status;
}

// ": <ffmpeg's last line>", or nothing when it said nothing.
std::string VideoWriter::ffmpeg_message() const {
  std::string text;
  std::rewind(ffmpeg_stderr_);
  char buffer[4096];
  std::size_t read = 0;
  while ((read = std::fread(buffer, 1, sizeof buffer, ffmpeg_stderr_)) > 0)
    text.append(buffer, read);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
    text.pop_back();
  if (text.empty()) return "";
  const std::size_t line_start = text.find_last_of("\r\n");
  return ": " + (line_start == std::string::npos ? text : text.substr(line_start + 1));
}

}  // namespace murmur
