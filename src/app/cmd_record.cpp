// `murmur record`: render a clip headless into a directory of numbered PNG frames, or into an
// mp4 or webm video through ffmpeg.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "commands.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/render/recording.hpp"

namespace murmur::cli {
namespace {

constexpr Range kFrameRange{1, UINT32_MAX};
constexpr Range kStepsPerFrameRange{1, UINT32_MAX};
// GL 4.5 guarantees textures at least this large on every implementation.
constexpr Range kFrameSideRange{1, 16384};

enum class OutputFormat { kByExtension, kPng, kMp4, kWebm };

// The video format --format asks for, or --out's extension names (".mp4", ".webm"); nothing
// for PNG frames.
std::optional<VideoFormat> video_format(OutputFormat format, const std::filesystem::path& out) {
  switch (format) {
    case OutputFormat::kPng:
      return std::nullopt;
    case OutputFormat::kMp4:
      return VideoFormat::kMp4;
    case OutputFormat::kWebm:
      return VideoFormat::kWebm;
    case OutputFormat::kByExtension:
      break;
  }
  for (const VideoFormat video : {VideoFormat::kMp4, VideoFormat::kWebm})
    if (out.extension() == "." + std::string(video_format_name(video))) return video;
  return std::nullopt;
}

// The request's own fields hold the defaults (RecordRequest); the rest is read into it.
struct RecordOptions {
  RecordRequest request;
  std::string scenario;
  std::string out;
  OutputFormat format = OutputFormat::kByExtension;
  FrameSize size{request.width, request.height};
  std::optional<std::uint64_t> seed;
  std::optional<std::string> in;
  bool quiet = false;
};

int run_record(const RecordOptions& options) {
  RecordRequest request = options.request;
  request.width = options.size.width;
  request.height = options.size.height;
  request.progress = !options.quiet;
  request.out = options.out;
  request.video = video_format(options.format, request.out);
  request.subject = visit_kind(
      load_any_scenario_with_seed(options.scenario, options.seed),
      [&](FlockScenario&& flock) -> RecordSubject {
        std::optional<FlockState> initial = flock_start_state(flock, options.in);
        return FlockRecording{std::move(flock), std::move(initial)};
      },
      [&](PlanScenario&& plan) -> RecordSubject {
        flock_start_state(plan, options.in);  // refuses an --in
        return std::move(plan);
      });

  if (!options.in) {
    std::fprintf(stderr, "seed %llu\n",
                 static_cast<unsigned long long>(recorded_scenario(request.subject).world.seed));
  }
  record_frames(request);
  return kExitOk;
}

}  // namespace

Command record_command(CLI::App& program) {
  CLI::App& command =
      add_command(program, "record", "render frames headless into PNGs or an mp4/webm video");
  auto options = std::make_shared<RecordOptions>();
  RecordRequest& request = options->request;
  Flags flags(command);
  flags.text("--scenario", "FILE", options->scenario,
             "scenario TOML (tools/run passes scenarios/starlings.toml)")
      ->required();
  flags.text("--out", "PATH", options->out,
             "clip.mp4 or clip.webm (ffmpeg), or a directory for frame_000000.png ...")
      ->required();
  flags.choice<OutputFormat>("--format", "FORMAT", options->format,
                             {{"auto", OutputFormat::kByExtension},
                              {"png", OutputFormat::kPng},
                              {"mp4", OutputFormat::kMp4},
                              {"webm", OutputFormat::kWebm}},
                             "auto: mp4 or webm by --out's extension, else PNG frames");
  flags.integer("--fps", "F", request.fps, kVideoFpsRange, "the video's frames per second");
  flags.integer("--frames", "N", request.frames, kFrameRange, "frames to render");
  flags.integer("--steps-per-frame", "K", request.steps_per_frame, kStepsPerFrameRange,
                "simulation steps between frames");
  skip_flag(flags, request.skip_steps);
  flags.size("--size", options->size, kFrameSideRange, "frame size in pixels");
  start_flags(flags, options->in, options->seed);
  quiet_flag(flags, options->quiet);
  command.footer(
      "Frame k shows the state after S + k * K steps, of a flock or of a floor plan (a\n"
      "scenario with [plan]). manifest.toml is written last, so a directory with a manifest\n"
      "is complete; a video appears under its name only once ffmpeg has finished it. The\n"
      "seed of a seeded start is printed on stderr.");
  return {&command, [options] { return run_record(*options); }};
}

}  // namespace murmur::cli
