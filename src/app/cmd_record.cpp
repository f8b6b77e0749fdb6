// `murmur record`: render a clip headless into a directory of numbered PNG frames, or into an
// mp4 or webm video through ffmpeg.
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include "commands.hpp"
#include "memory_check.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/render/recording.hpp"
#include "murmur/render/renderer.hpp"

namespace murmur::cli {
namespace {

// The video format --format asks for, or --out's extension names (".mp4", ".webm"); nothing
// for PNG frames.
std::optional<VideoFormat> video_format(RecordFormat format, const std::filesystem::path& out) {
  switch (format) {
    case RecordFormat::kPng:
      return std::nullopt;
    case RecordFormat::kMp4:
      return VideoFormat::kMp4;
    case RecordFormat::kWebm:
      return VideoFormat::kWebm;
    case RecordFormat::kByExtension:
      break;
  }
  for (const VideoFormat video : {VideoFormat::kMp4, VideoFormat::kWebm})
    if (out.extension() == "." + std::string(video_format_name(video))) return video;
  return std::nullopt;
}

int run_record(const FlagValues& options) {
  RecordRequest request;
  request.fps = options.fps;
  request.frames = options.record_frames;
  request.steps_per_frame = options.record_steps_per_frame;
  request.skip_steps = options.skip;
  request.width = options.record_size.width;
  request.height = options.record_size.height;
  request.progress = !options.quiet;
  request.out = options.record_out;
  request.video = video_format(options.record_format, request.out);
  request.orbit_degrees_per_frame = options.orbit;
  request.subject = visit_kind(
      load_any_scenario_with_seed(options.record_scenario, options.seed),
      [&](FlockScenario&& flock) -> RecordSubject {
        const RunMemory memory = recording_memory(flock, request);
        const std::uint64_t boids = estimated_boids(flock);
        require_host_memory(memory, boids);
        request.check_gpu_memory = [memory, boids] { require_gpu_memory(memory, boids); };
        std::optional<FlockState> initial = flock_start_state(flock, options.in);
        return FlockRecording{std::move(flock), std::move(initial)};
      },
      [&](PlanScenario&& plan) -> RecordSubject {
        flock_start_state(plan, options.in);  // refuses an --in
        return std::move(plan);
      });

  check_record_request(request);
  if (!options.in) {
    std::fprintf(stderr, "seed %llu\n",
                 static_cast<unsigned long long>(recorded_scenario(request.subject).world.seed));
  }
  record_frames(request);
  return kExitOk;
}

}  // namespace

CommandDefinition record_command() {
  return {"render frames headless into PNGs or an mp4/webm video",
      "Frame k shows the state after S + k * K steps, of a flock or of a floor plan (a\n"
      "scenario with [plan]). manifest.toml is written last, so a directory with a manifest\n"
      "is complete; a video appears under its name only once ffmpeg has finished it. The\n"
      "seed of a seeded start is printed on stderr.",
      run_record};
}

}  // namespace murmur::cli
