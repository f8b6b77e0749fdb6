// `murmur record`: render a clip headless into a directory of numbered PNG frames.
#include <cstdio>

#include "commands.hpp"
#include "murmur/errors.hpp"
#include "murmur/render/recording.hpp"

namespace murmur::cli {
namespace {

constexpr std::uint64_t kDefaultFrames = 300;
constexpr std::uint64_t kDefaultStepsPerFrame = 1;
constexpr FrameSize kDefaultSize{1280, 720};
constexpr Range kFrameRange{1, UINT32_MAX};
constexpr Range kStepsPerFrameRange{1, UINT32_MAX};
constexpr Range kSkipStepsRange{0, UINT32_MAX};
// GL 4.5 guarantees textures at least this large on every implementation.
constexpr Range kFrameSideRange{1, 16384};

int run_record(const Args& args) {
  RecordRequest request;
  request.frames = static_cast<std::uint32_t>(args.unsigned_or("--frames", kDefaultFrames, kFrameRange));
  request.steps_per_frame = static_cast<std::uint32_t>(
      args.unsigned_or("--steps-per-frame", kDefaultStepsPerFrame, kStepsPerFrameRange));
  request.skip_steps =
      static_cast<std::uint32_t>(args.unsigned_or("--skip", 0, kSkipStepsRange));
  const FrameSize size = args.size_or("--size", kDefaultSize, kFrameSideRange);
  request.width = size.width;
  request.height = size.height;
  request.progress = !args.has("--quiet");
  request.out_dir = args.required_text("--out");
  request.scenario = load_scenario_flag(args);

  std::fprintf(stderr, "seed %llu\n",
               static_cast<unsigned long long>(request.scenario.world.seed));
  record_frames(request);
  return kExitOk;
}

}  // namespace

const Command& record_command() {
  static const Command command{
      .name = "record",
      .summary = "render frames headless into a directory of PNGs",
      .synopsis = "--scenario FILE --out DIR [--frames N] [--steps-per-frame K] [--skip S] [--size WxH] "
                  "[--seed S] [--quiet]",
      .flags =
          {
              {"--scenario", "FILE", "scenario TOML (required; tools/run passes scenarios/starlings.toml)"},
              {"--out", "DIR", "directory for frame_000000.png ... and manifest.toml (required)"},
              {"--frames", "N", "frames to render (default 300), in [1, 4294967295]"},
              {"--steps-per-frame", "K", "simulation steps between frames (default 1), in [1, 4294967295]"},
              {"--skip", "S", "steps before the first frame, so flocks can form (default 0), in [0, 4294967295]"},
              {"--size", "WxH", "frame size in pixels (default 1280x720), each side in [1, 16384]"},
              {"--seed", "S", "replaces the scenario's [world] seed, in [0, 2^63-1]"},
              {"--quiet", "", "no progress line on stderr"},
          },
      .notes = "Frame k shows the state after S + k * K steps. manifest.toml is written last, so a\n"
               "directory with a manifest is complete. The seed is printed on stderr.",
      .run = run_record,
  };
  return command;
}

}  // namespace murmur::cli
