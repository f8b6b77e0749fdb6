// `murmur view`: the interactive viewer (src/viewer, docs/viewer.md).
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "commands.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/gl/window.hpp"
#include "viewer/viewer.hpp"

namespace murmur::cli {
namespace {

constexpr const char* kDefaultScenario = "scenarios/starlings.toml";
// GL 4.5 guarantees textures at least this large on every implementation.
constexpr Range kWindowSideRange{1, 16384};
constexpr Range kStepsPerFrameRange{1, 1000};
constexpr RealRange kStepRateRange{0.001, 100000};
constexpr Range kFrameRange{1, UINT32_MAX};

// The viewer's own options hold the defaults (ViewerOptions); the rest is read into them.
struct ViewOptions {
  viewer::ViewerOptions viewer;
  std::string scenario = kDefaultScenario;
  std::optional<std::uint64_t> seed;
  std::optional<std::string> in;
  FrameSize size{viewer.width, viewer.height};
  std::uint32_t steps_per_frame = viewer.pacer.steps_per_frame();
  std::optional<double> step_rate;
  bool no_vsync = false;
  std::string out_dir = viewer.out_dir.string();
  std::optional<std::string> screenshot;
};

int run_view(const ViewOptions& view) {
  viewer::ViewerOptions options = view.viewer;
  options.width = view.size.width;
  options.height = view.size.height;
  options.pacer = view.step_rate ? viewer::StepPacer::at_rate(*view.step_rate)
                                 : viewer::StepPacer::per_frame(view.steps_per_frame);
  options.vsync = !view.no_vsync;
  if (view.screenshot) {
    check_output_file(*view.screenshot, "--screenshot");
    options.screenshot = *view.screenshot;
  }
  options.out_dir = view.out_dir;
  options.scenario_path = view.scenario;
  options.scenario = load_any_scenario_with_seed(view.scenario, view.seed);
  options.initial = std::visit(
      [&](const auto& kind) { return flock_start_state(kind, view.in); }, options.scenario);

  // After the flags and the scenario (bad input is exit 2 everywhere), before the seed line:
  // without a display the one line on stderr says so.
  gl::require_display();
  std::fprintf(stderr, "seed %llu\n",
               static_cast<unsigned long long>(common_of(options.scenario).world.seed));
  viewer::run_viewer(options);
  return kExitOk;
}

}  // namespace

Command view_command(CLI::App& program) {
  CLI::App& command = add_command(program, "view", "open the interactive viewer (needs a display)");
  auto view = std::make_shared<ViewOptions>();
  Flags flags(command);
  flags.text("--scenario", "FILE", view->scenario, "scenario TOML");
  start_flags(flags, view->in, view->seed);
  skip_flag(flags, view->viewer.skip_steps);
  flags.size("--size", view->size, kWindowSideRange, "window size");
  CLI::Option* steps_per_frame = flags.integer("--steps-per-frame", "K", view->steps_per_frame,
                                               kStepsPerFrameRange, "simulation steps each frame");
  flags.real("--step-rate", "HZ", view->step_rate, kStepRateRange,
             "steps per second instead, whatever the frame rate")
      ->excludes(steps_per_frame);
  flags.flag("--no-vsync", view->no_vsync,
             "draw as fast as possible instead of at the display's refresh");
  flags.flag("--fullscreen", view->viewer.fullscreen,
             "start fullscreen on the primary monitor (F11 toggles)");
  flags.text("--out-dir", "DIR", view->out_dir,
             "where S writes screenshot_NNNNNN.png and V recording_NNNNNN/");
  flags.choice<std::optional<VideoFormat>>(
      "--record-format", "FORMAT", view->viewer.record_video,
      {{"png", std::nullopt}, {"mp4", VideoFormat::kMp4}, {"webm", VideoFormat::kWebm}},
      "what V records: recording_NNNNNN/ PNG frames, or a recording_NNNNNN.mp4|webm clip");
  flags.integer("--record-fps", "F", view->viewer.record_fps, kVideoFpsRange,
                "frames per second of V's clips");
  flags.flag("--timings", view->viewer.timings,
             "print a median frame-time breakdown on stdout at exit");
  CLI::Option* frames = flags.integer("--frames", "N", view->viewer.frames, kFrameRange,
                                      "exit after N frames; GL errors then fail the run");
  flags.text("--screenshot", "FILE", view->screenshot,
             "the window (flock and panel) after the last frame, as PNG")
      ->needs(frames);
  command.footer(
      "Keys: Space pause, N step, R reset (Shift+R new seed), 1-4 rule modes, S screenshot,\n"
      "V record, H panel, F fit, F11 fullscreen, Esc quit. Mouse: scroll zooms, drag pans,\n"
      "click drops an obstacle, right click sets the target, Ctrl+drag steers a boid.\n"
      "Without a display (no $DISPLAY) it exits 4; murmur record renders headless.");
  return {&command, [view] { return run_view(*view); }};
}

}  // namespace murmur::cli
