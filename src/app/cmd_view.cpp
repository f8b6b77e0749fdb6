// `murmur view`: the interactive viewer (src/viewer, docs/viewer.md).
#include <cstdio>

#include "commands.hpp"
#include "murmur/errors.hpp"
#include "murmur/gl/window.hpp"
#include "viewer/viewer.hpp"

namespace murmur::cli {
namespace {

constexpr const char* kDefaultScenario = "scenarios/starlings.toml";
constexpr FrameSize kDefaultSize{1280, 720};
// GL 4.5 guarantees textures at least this large on every implementation.
constexpr Range kWindowSideRange{1, 16384};
constexpr Range kStepsPerFrameRange{1, 1000};
constexpr RealRange kStepRateRange{0.001, 100000};
constexpr Range kFrameRange{1, UINT32_MAX};

int run_view(const Args& args) {
  viewer::ViewerOptions options;
  const FrameSize size = args.size_or("--size", kDefaultSize, kWindowSideRange);
  options.width = size.width;
  options.height = size.height;
  if (args.has("--steps-per-frame") && args.has("--step-rate"))
    args.fail("--steps-per-frame and --step-rate exclude each other: give one");
  if (const auto rate = args.optional_real("--step-rate", kStepRateRange)) {
    options.pacer = viewer::StepPacer::at_rate(*rate);
  } else {
    options.pacer = viewer::StepPacer::per_frame(
        static_cast<std::uint32_t>(args.unsigned_or("--steps-per-frame", 1, kStepsPerFrameRange)));
  }
  options.vsync = !args.has("--no-vsync");
  options.fullscreen = args.has("--fullscreen");
  if (const auto frames = args.optional_unsigned("--frames", kFrameRange))
    options.frames = static_cast<std::uint32_t>(*frames);
  args.requires_flag("--screenshot", "--frames");
  if (const auto screenshot = args.text("--screenshot")) {
    check_output_file(*screenshot, "--screenshot");
    options.screenshot = *screenshot;
  }
  if (const auto out_dir = args.text("--out-dir")) options.out_dir = *out_dir;
  options.timings = args.has("--timings");

  options.scenario_path = args.text("--scenario").value_or(kDefaultScenario);
  options.scenario = load_scenario(options.scenario_path);
  if (const auto seed = seed_flag(args)) options.scenario.world.seed = *seed;

  // After the flags and the scenario (bad input is exit 2 everywhere), before the seed line:
  // without a display the one line on stderr says so.
  gl::require_display();
  std::fprintf(stderr, "seed %llu\n",
               static_cast<unsigned long long>(options.scenario.world.seed));
  viewer::run_viewer(options);
  return kExitOk;
}

}  // namespace

const Command& view_command() {
  static const Command command{
      .name = "view",
      .summary = "open the interactive viewer (needs a display)",
      .synopsis = "[--scenario FILE] [--seed S] [--size WxH] [--steps-per-frame K | --step-rate HZ]\n"
                  "       [--no-vsync] [--fullscreen] [--out-dir DIR] [--timings]\n"
                  "       [--frames N [--screenshot FILE]]",
      .flags =
          {
              {"--scenario", "FILE", "scenario TOML (default scenarios/starlings.toml)"},
              {"--seed", "S", "replaces the scenario's [world] seed, in [0, 2^63-1]"},
              {"--size", "WxH", "window size (default 1280x720), each side in [1, 16384]"},
              {"--steps-per-frame", "K", "simulation steps each frame (default 1), in [1, 1000]"},
              {"--step-rate", "HZ", "steps per second instead, whatever the frame rate, in [0.001, 100000]"},
              {"--no-vsync", "", "draw as fast as possible instead of at the display's refresh"},
              {"--fullscreen", "", "start fullscreen on the primary monitor (F11 toggles)"},
              {"--out-dir", "DIR", "where S writes screenshot_NNNNNN.png and V recording_NNNNNN/ (default .)"},
              {"--timings", "", "print a median frame-time breakdown on stdout at exit"},
              {"--frames", "N", "exit after N frames, in [1, 4294967295]; GL errors then fail the run"},
              {"--screenshot", "FILE", "with --frames: the window (flock and panel) after the last frame, as PNG"},
          },
      .notes = "Keys: Space pause, N step, R reset (Shift+R new seed), 1-4 rule modes, S screenshot,\n"
               "V record, H panel, F fit, F11 fullscreen, Esc quit. Mouse: scroll zooms, drag pans,\n"
               "click drops an obstacle, right click sets the target, Ctrl+drag steers a boid.\n"
               "Without a display (no $DISPLAY) it exits 4; murmur record renders headless.",
      .run = run_view,
  };
  return command;
}

}  // namespace murmur::cli
