#include "murmur/render/recording.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "murmur/base/atomic_file.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/gl/context.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/flock/gpu/gpu_flock_memory.hpp"
#include "murmur/plan/gpu/gpu_plan.hpp"
#include "murmur/plan/plan.hpp"
#include "murmur/base/progress.hpp"
#include "murmur/render/orbit_camera.hpp"
#include "murmur/render/png_writer.hpp"
#include "murmur/render/renderer.hpp"
#include "murmur/render/video_writer.hpp"
#include "murmur/flock/state.hpp"
#include "murmur/version.hpp"

namespace murmur {
namespace {

constexpr int kMaxFrameSide = 16384;  // GL_MAX_TEXTURE_SIZE of llvmpipe and most GPUs
constexpr const char* kManifestName = "manifest.toml";
constexpr const char* kWriteProbeName = ".murmur-write-probe";

// Creates the directory and proves a file can be created in it, so that a bad --out fails in
// milliseconds instead of after the first (possibly long) simulation step.
void prepare_output_directory(const std::filesystem::path& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    throw OutputError(dir.string() + ": cannot create output directory (" + error.message() + ")");
  if (!std::filesystem::is_directory(dir, error))
    throw OutputError(dir.string() + ": cannot create output directory (not a directory)");

  const std::filesystem::path probe = dir / kWriteProbeName;
  FILE* file = std::fopen(probe.c_str(), "wb");
  if (file == nullptr)
    throw OutputError(dir.string() + ": cannot write frames (" + std::strerror(errno) + ")");
  std::fclose(file);
  std::filesystem::remove(probe, error);
}

// Frames of an earlier, longer run would otherwise sit after ours and be picked up by
// `ffmpeg -i frame_%06d.png`; leftovers of an interrupted write are ours too.
void remove_stale_frames(const std::filesystem::path& dir, std::uint32_t frames) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    std::uint32_t index = 0;
    const bool stale_frame = parse_frame_file_name(name, index) && index >= frames;
    const std::optional<std::string> temporary_of = atomic_temporary_target(name);
    const bool stale_temporary = temporary_of && parse_frame_file_name(*temporary_of, index);
    if (stale_frame || stale_temporary) std::filesystem::remove(entry.path(), error);
  }
}

std::string manifest_text(const RecordRequest& req, const std::string& gl_renderer) {
  RecordingManifest manifest;
  visit_kind(
      req.subject,
      [&](const FlockRecording& flock) { describe_scenario(flock.scenario, manifest); },
      [&](const PlanScenario& plan) { describe_scenario(plan, manifest); });
  manifest.width = req.width;
  manifest.height = req.height;
  manifest.frames = req.frames;
  manifest.gl_renderer = gl_renderer;
  manifest.steps = {{"skip_steps", req.skip_steps}, {"steps_per_frame", req.steps_per_frame}};
  return manifest_toml(
      "# Written by `murmur record` after its last frame: a directory with this file holds a\n"
      "# complete recording. Frame k shows the state after skip_steps + k * steps_per_frame\n"
      "# steps.\n",
      manifest);
}

}  // namespace

void check_record_request(const RecordRequest& req) {
  if (req.frames < 1) throw InputError("--frames 0: must be at least 1");
  if (req.steps_per_frame < 1) throw InputError("--steps-per-frame 0: must be at least 1");
  if (req.video && req.fps < 1) throw InputError("--fps 0: must be at least 1");
  if (req.orbit_degrees_per_frame) {
    const auto* flock = std::get_if<FlockRecording>(&req.subject);
    if (flock == nullptr || !is_3d(flock->scenario))
      throw InputError("--orbit: turns a 3D world's camera ([world] dimensions = 3); this "
                       "scenario is " + std::string(flock ? "a 2D flock" : "a floor plan"));
  }
  if (req.width < 1 || req.width > kMaxFrameSide || req.height < 1 || req.height > kMaxFrameSide)
    throw InputError("--size " + std::to_string(req.width) + "x" + std::to_string(req.height) +
                     ": width and height must be 1.." + std::to_string(kMaxFrameSide));
}

const ScenarioCommon& recorded_scenario(const RecordSubject& subject) {
  return visit_kind(
      subject, [](const FlockRecording& flock) -> const ScenarioCommon& { return flock.scenario; },
      [](const PlanScenario& plan) -> const ScenarioCommon& { return plan; });
}

void describe_scenario(const FlockScenario& scenario, RecordingManifest& manifest) {
  manifest.scenario_source = scenario.source;
  manifest.seed = scenario.world.seed;
  manifest.plan = false;
  manifest.boids = scenario.total_count();
}

void describe_scenario(const PlanScenario& scenario, RecordingManifest& manifest) {
  manifest.scenario_source = scenario.source;
  manifest.seed = scenario.world.seed;
  manifest.plan = true;
  manifest.boids = scenario.plan.total_count();
}

std::string manifest_toml(const std::string& comment, const RecordingManifest& manifest) {
  std::ostringstream out;
  out << comment;
  out << "murmur_version = " << toml_quote(kVersion) << "\n";
  out << "scenario = " << toml_quote(manifest.scenario_source) << "\n";
  // A string, as it always was: tools reading older manifests expect one.
  out << "seed = " << toml_quote(std::to_string(manifest.seed)) << "\n";
  out << (manifest.plan ? "agents = " : "boids = ") << manifest.boids << "\n";
  out << "width = " << manifest.width << "\n";
  out << "height = " << manifest.height << "\n";
  out << "frames = " << manifest.frames << "\n";
  for (const auto& [key, value] : manifest.steps) out << key << " = " << value << "\n";
  out << "frame_pattern = " << toml_quote(kFramePattern) << "\n";
  out << "gl_renderer = " << toml_quote(manifest.gl_renderer) << "\n";
  return out.str();
}

namespace {

// Where the frames go: PNG files in a directory with a manifest, or a video through ffmpeg.
class FrameSink {
 public:
  virtual ~FrameSink() = default;
  virtual void submit(std::uint32_t frame, RgbaImage pixels) = 0;
  // Writes out the frames submitted so far and drops the rest: the run has failed.
  virtual void salvage() = 0;
  virtual void finish(const RecordRequest& req, const std::string& gl_renderer) = 0;
};

class PngDirectorySink final : public FrameSink {
 public:
  explicit PngDirectorySink(const RecordRequest& req) : dir_(req.out) {
    prepare_output_directory(dir_);
    // From here on the directory is being rewritten: it must not claim to be complete.
    std::error_code error;
    std::filesystem::remove(dir_ / kManifestName, error);
    if (error)
      throw OutputError((dir_ / kManifestName).string() + ": cannot remove (" +
                        error.message() + ")");
  }
  void submit(std::uint32_t frame, RgbaImage pixels) override {
    writers_.submit(dir_ / frame_file_name(frame), std::move(pixels));
  }
  void salvage() override {
    try {
      writers_.finish();
    } catch (const std::exception&) {  // the error that stopped the run is the one reported
    }
  }
  void finish(const RecordRequest& req, const std::string& gl_renderer) override {
    writers_.finish();
    remove_stale_frames(dir_, req.frames);
    write_file_atomically(dir_ / kManifestName, manifest_text(req, gl_renderer));
  }

 private:
  std::filesystem::path dir_;
  PngWriterPool writers_;
};

class VideoSink final : public FrameSink {
 public:
  explicit VideoSink(const RecordRequest& req)
      : video_(req.out, *req.video, req.width, req.height, req.fps) {}
  void submit(std::uint32_t, RgbaImage pixels) override { video_.write(pixels); }
  // A clip cut short is no clip: the writer's destructor removes it.
  void salvage() override {}
  void finish(const RecordRequest&, const std::string&) override { video_.finish(); }

 private:
  VideoWriter video_;
};

}  // namespace

namespace {

// Told the steps an advance has made so far, as it goes: the progress line of a long skip.
using StepsMade = std::function<void(std::uint32_t made)>;

// What a recording steps and draws: a flock, or a floor plan (docs/floor-plan.md).
class RecordedScene {
 public:
  virtual ~RecordedScene() = default;
  // `steps` steps, the same whatever `steps_made` (which may be empty) is told along the way.
  virtual void advance(std::uint32_t steps, const StepsMade& steps_made) = 0;
  virtual void render(Renderer& renderer) = 0;
};

class FlockScene final : public RecordedScene {
 public:
  FlockScene(const FlockRecording& recording, Renderer& renderer)
      : flock_(recording.scenario,
               recording.initial ? *recording.initial : seeded_start(recording.scenario)),
        renderer_(renderer) {}
  void advance(std::uint32_t steps, const StepsMade& steps_made) override {
    for (std::uint32_t step = 0; step < steps; ++step) {
      flock_.step();
      renderer_.record_step(flock_);  // trails see every step, not only the drawn ones
      if (steps_made) steps_made(step + 1);
    }
  }
  void render(Renderer& renderer) override { renderer.render(flock_); }

 private:
  GpuFlock flock_;
  Renderer& renderer_;
};

// The plan's point buffers start small and grow before any step could fill them (one
// blocking read of its counts a frame, which the frame's own readback dwarfs).
class PlanScene final : public RecordedScene {
 public:
  explicit PlanScene(const PlanScenario& scenario)
      : plan_(scenario, plan_start(scenario, scenario.world.seed),
              initial_point_capacity(scenario)) {}
  // In batches, each with one blocking read of the plan's counts to make room for it: a plan
  // goes on as if it had had the room from the start (GpuPlan::make_room), so the batches
  // change nothing but how often the progress line hears of them.
  void advance(std::uint32_t steps, const StepsMade& steps_made) override {
    for (std::uint32_t made = 0; made < steps;) {
      const std::uint32_t batch = std::min(steps - made, kStepsPerBatch);
      try {
        plan_.make_room(plan_.counts(), plan_.steps() + batch);
      } catch (const std::length_error& error) {
        throw GpuError(std::string("the plan has no room: ") + error.what());
      }
      plan_.advance(batch);
      made += batch;
      if (steps_made) steps_made(made);
    }
  }
  void render(Renderer& renderer) override {
    renderer.render(plan_);
  }
  // Throws GpuError when a step ran out of steering cells (GpuPlan::step's message).
  void check() {
    const GpuPlanCounts counts = plan_.counts();
    if (!counts.stopped()) return;
    try {
      plan_.step(0);
    } catch (const std::length_error& error) {
      throw GpuError(error.what());
    }
  }

 private:
  // A few steps' points of every agent: most plans die out long before they need more.
  static constexpr std::uint32_t kInitialStepsOfPoints = 64;
  // A plan's step takes a few milliseconds: a batch is a fraction of a second, and its read of
  // the counts costs little beside it.
  static constexpr std::uint32_t kStepsPerBatch = 64;
  static std::uint32_t initial_point_capacity(const PlanScenario& scenario) {
    const std::uint64_t agents = scenario.plan.total_count();
    return static_cast<std::uint32_t>(
        std::min<std::uint64_t>(agents * kInitialStepsOfPoints, PlanPointIndex::kNone - 1));
  }
  GpuPlan plan_;
};

}  // namespace

RunMemory recording_memory(const FlockScenario& scenario, const RecordRequest& req) {
  const glm::ivec2 frame(req.width, req.height);
  const std::uint64_t frame_bytes = std::uint64_t(req.width) * std::uint64_t(req.height) *
                                    RgbaImage::kBytesPerPixel;
  // The frame read back, and those the encoders hold (PNGs) or the one piped (video).
  const std::uint64_t frames_held =
      1 + (req.video ? 1 : PngWriterPool::most_images_held(PngWriterPool::default_thread_count()));
  RenderSettings settings = default_render_settings(scenario);
  apply_look(settings, scenario.look);
  RunMemory memory;
  memory.host = flock_state_memory(scenario) + MemoryNeed{frames_held * frame_bytes, 0};
  memory.gpu = gpu_flock_memory(scenario) + renderer_memory(frame, settings, scenario.size(), is_3d(scenario));
  return memory;
}

void record_frames(const RecordRequest& req) {
  check_record_request(req);
  const auto context = gl::create_headless_context();
  if (req.check_gpu_memory) req.check_gpu_memory();
  // Before any buffer: a bad --out or a missing ffmpeg fails before any simulation.
  std::unique_ptr<FrameSink> sink;
  if (req.video)
    sink = std::make_unique<VideoSink>(req);
  else
    sink = std::make_unique<PngDirectorySink>(req);

  // From the start of the run, so that the final line's time is the whole run's: the skipped
  // steps are a phase of their own before the frames (their rate is steps, not frames).
  const bool skipping = req.skip_steps > 0;
  Progress progress("murmur record", skipping ? "steps" : "frames",
                    skipping ? req.skip_steps : req.frames,
                    progress_display_for(stderr, !req.progress));
  if (skipping) progress.name_phase("skipping");

  Renderer renderer(req.width, req.height,
                    visit_kind(
                        req.subject,
                        [](const FlockRecording& flock) {
                          return default_render_settings(flock.scenario);
                        },
                        [](const PlanScenario& plan) { return default_render_settings(plan); }));
  apply_look(renderer.settings(), recorded_scenario(req.subject).look);
  PlanScene* plan = nullptr;
  const std::unique_ptr<RecordedScene> scene = visit_kind(
      req.subject,
      [&](const FlockRecording& flock) -> std::unique_ptr<RecordedScene> {
        return std::make_unique<FlockScene>(flock, renderer);
      },
      [&](const PlanScenario& plan_scenario) -> std::unique_ptr<RecordedScene> {
        auto plan_scene = std::make_unique<PlanScene>(plan_scenario);
        plan = plan_scene.get();
        return plan_scene;
      });

  if (skipping) {
    scene->advance(req.skip_steps, [&progress](std::uint32_t made) { progress.update(made); });
    // Frames per second from the first frame: the skipped steps are not frames.
    progress.next_phase("frames", req.frames);
  }
  // The fly-around's camera, from the scenario's starting one in this frame's aspect.
  const std::optional<OrbitCamera> orbit_start =
      req.orbit_degrees_per_frame
          ? std::optional(starting_camera(recorded_scenario(req.subject),
                                          static_cast<float>(req.width) /
                                              static_cast<float>(req.height)))
          : std::nullopt;
  for (std::uint32_t frame = 0; frame < req.frames; ++frame) {
    if (orbit_start) {
      // Turned from the start each frame (not by a sum of small turns), reduced to a turn in
      // double so that a long clip keeps its angle exact.
      const double yaw = std::remainder(*req.orbit_degrees_per_frame * frame, 360.0);
      renderer.settings().orbit_camera = orbited(*orbit_start, static_cast<float>(yaw), 0.0f);
    }
    scene->render(renderer);
    RgbaImage pixels = renderer.read_pixels();
    // A frame drawn after a GL error (or of a plan that stopped) is garbage: it must not
    // appear under a frame's name. The frames before it are good and are written first (the
    // pool's destructor would drop those still queued); the GL error is what the run reports,
    // even if a write fails too.
    try {
      context->check_gl_errors("frame " + std::to_string(frame));
      if (plan != nullptr) plan->check();
    } catch (const GpuError&) {
      sink->salvage();
      throw;
    }
    sink->submit(frame, std::move(pixels));
    // The next frame's steps run on the GPU while the workers (or ffmpeg) encode this one.
    if (frame + 1 < req.frames) scene->advance(req.steps_per_frame, {});
    progress.update(frame + 1);
  }

  context->check_gl_errors("the recording");
  // The frames still being encoded are part of the run.
  sink->finish(req, context->info().renderer);
  progress.finish();
}

}  // namespace murmur
