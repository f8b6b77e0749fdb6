// `murmur view`: the interactive viewer (src/viewer, docs/viewer.md).
#include <cstdio>
#include <optional>
#include <string>

#include "commands.hpp"
#include "memory_check.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/gl/window.hpp"
#include "murmur/render/renderer.hpp"
#include "murmur/render/settings.hpp"
#include "viewer/viewer.hpp"

namespace murmur::cli {
namespace {

int run_view(const FlagValues& view) {
  viewer::ViewerOptions options;
  options.skip_steps = view.skip;
  options.progress = !view.quiet;
  options.width = view.view_size.width;
  options.height = view.view_size.height;
  options.pacer = view.step_rate ? viewer::StepPacer::at_rate(*view.step_rate)
                                 : viewer::StepPacer::per_frame(view.view_steps_per_frame);
  options.vsync = !view.no_vsync;
  options.fullscreen = view.fullscreen;
  options.frames = view.view_frames;
  if (view.screenshot) {
    check_output_file(*view.screenshot, "--screenshot");
    options.screenshot = *view.screenshot;
  }
  options.out_dir = view.out_dir;
  options.record_video = view.record_video;
  options.record_fps = view.record_fps;
  options.timings = view.timings;
  options.scenario_path = view.view_scenario;
  options.scenario = load_any_scenario_with_seed(view.view_scenario, view.seed);
  if (const auto* flock = std::get_if<FlockScenario>(&options.scenario)) {
    // The viewer reads the state and its statistics back, and draws through the renderer's
    // targets at --size (a fullscreen window's may be larger: left to the allocations' check).
    RunMemory memory = flock_run_memory(*flock, FlockBackend::Gpu, FlockReads::StateAndStats);
    RenderSettings settings = default_render_settings(*flock);
    apply_look(settings, flock->look);
    memory.gpu +=
        renderer_memory({options.width, options.height}, settings, flock->size(), is_3d(*flock));
    const std::uint64_t boids = estimated_boids(*flock);
    require_host_memory(memory, boids);
    // The driver asked is the window's context's, so the GPU's check waits for the window.
    options.check_gpu_memory = [memory, boids] { require_gpu_memory(memory, boids); };
  }
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

CommandDefinition view_command() {
  return {"open the interactive viewer (needs a display)",
      "Keys: Space pause, N step, R reset (Shift+R new seed), 1-4 rule modes, S screenshot,\n"
      "V record, H panel, F fit, F11 fullscreen, Esc quit. Mouse: scroll zooms, drag pans,\n"
      "click drops an obstacle, right click sets the target, Ctrl+drag steers a boid.\n"
      "Without a display (no $DISPLAY) it exits 4; murmur record renders headless.",
      run_view};
}

}  // namespace murmur::cli
