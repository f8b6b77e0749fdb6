// `murmur record`: render a clip headless into a directory of numbered PNG frames.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "commands.hpp"
#include "murmur/errors.hpp"
#include "murmur/render/recording.hpp"

namespace murmur::cli {
namespace {

constexpr Range kFrameRange{1, UINT32_MAX};
constexpr Range kStepsPerFrameRange{1, UINT32_MAX};
constexpr Range kSkipStepsRange{0, UINT32_MAX};
// GL 4.5 guarantees textures at least this large on every implementation.
constexpr Range kFrameSideRange{1, 16384};

// The request's own fields hold the defaults (RecordRequest); the rest is read into it.
struct RecordOptions {
  RecordRequest request;
  std::string scenario;
  std::string out_dir;
  FrameSize size{request.width, request.height};
  std::optional<std::uint64_t> seed;
  bool quiet = false;
};

int run_record(const RecordOptions& options) {
  RecordRequest request = options.request;
  request.width = options.size.width;
  request.height = options.size.height;
  request.progress = !options.quiet;
  request.out_dir = options.out_dir;
  request.scenario = load_scenario_with_seed(options.scenario, options.seed);

  std::fprintf(stderr, "seed %llu\n",
               static_cast<unsigned long long>(request.scenario.world.seed));
  record_frames(request);
  return kExitOk;
}

}  // namespace

Command record_command(CLI::App& program) {
  CLI::App& command =
      add_command(program, "record", "render frames headless into a directory of PNGs");
  auto options = std::make_shared<RecordOptions>();
  RecordRequest& request = options->request;
  Flags flags(command);
  flags.text("--scenario", "FILE", options->scenario,
             "scenario TOML (tools/run passes scenarios/starlings.toml)")
      ->required();
  flags.text("--out", "DIR", options->out_dir,
             "directory for frame_000000.png ... and manifest.toml")
      ->required();
  flags.integer("--frames", "N", request.frames, kFrameRange, "frames to render");
  flags.integer("--steps-per-frame", "K", request.steps_per_frame, kStepsPerFrameRange,
                "simulation steps between frames");
  flags.integer("--skip", "S", request.skip_steps, kSkipStepsRange,
                "steps before the first frame, so flocks can form");
  flags.size("--size", options->size, kFrameSideRange, "frame size in pixels");
  seed_flag(flags, options->seed);
  flags.flag("--quiet", options->quiet, "no progress line on stderr");
  command.footer(
      "Frame k shows the state after S + k * K steps. manifest.toml is written last, so a\n"
      "directory with a manifest is complete. The seed is printed on stderr.");
  return {&command, [options] { return run_record(*options); }};
}

}  // namespace murmur::cli
