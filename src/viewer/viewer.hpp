#pragma once
// The interactive viewer (`murmur view`): a GLFW window showing the GPU flock through the
// shared Renderer, with keys, mouse and an ImGui parameter panel (docs/viewer.md).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>

#include "murmur/render/video_writer.hpp"
#include "murmur/scenario/scenario.hpp"
#include "murmur/flock/state.hpp"
#include "viewer/step_pacer.hpp"

namespace murmur::viewer {

struct ViewerOptions {
  AnyScenario scenario;                // validated; its world.seed is the seed used
  std::filesystem::path scenario_path; // for "reset to file"
  // The first start (`--in`, read against `scenario`); nothing: the seeded start. R, Shift+R
  // and a new count restart from the seeded start.
  std::optional<FlockState> initial;
  std::uint32_t skip_steps = 0;        // steps before the first frame (trails see them)
  bool progress = true;                // the skipped steps' progress line on stderr
  int width = 1280, height = 720;      // window size, >= 1 each
  StepPacer pacer = StepPacer::per_frame(1);
  bool vsync = true;
  bool fullscreen = false;
  // Run this many frames, then exit (smoke tests, the docs' pictures). Turns on a debug context:
  // any GL error reported through KHR_debug makes the run fail with GpuError.
  std::optional<std::uint32_t> frames;
  // With `frames`: the window as shown (flock and panel) after the last frame, as a PNG.
  std::optional<std::filesystem::path> screenshot;
  std::filesystem::path out_dir = ".";  // where the S key's screenshots and V's recordings go
  // V's recordings: PNG frames in a directory (nothing), or a video at `record_fps` (ffmpeg).
  std::optional<VideoFormat> record_video;
  std::uint32_t record_fps = 30;
  bool timings = false;                 // frame-time breakdown on stdout at exit
  // Called with the window's context current, before the window is shown and before any buffer
  // is made: where `murmur view` checks the flock's GPU memory against what the driver reports.
  // Nothing: no check.
  std::function<void()> check_gpu_memory;
};

// Runs until the window closes, Esc, or `frames` frames. Throws GpuError (no display, no GL 4.5
// context, GL errors in --frames mode), OutputError (the --screenshot cannot be written).
void run_viewer(const ViewerOptions& options);

}  // namespace murmur::viewer
