#pragma once
// Headless recording: step the GPU flock, render each frame offscreen, write PNGs or a video.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "murmur/base/memory.hpp"
#include "murmur/render/video_writer.hpp"
#include "murmur/scenario/scenario.hpp"
#include "murmur/flock/state.hpp"

namespace murmur {

// A flock to record and where it starts.
struct FlockRecording {
  FlockScenario scenario;            // validated; its world.seed is the seed used
  // The state of step 0 (read against `scenario`); nothing: the scenario's seeded start.
  std::optional<FlockState> initial;
};

// What a recording shows: a flock, or a plan (validated; it starts from its [[plan.group]]
// tables, with its world.seed).
using RecordSubject = std::variant<FlockRecording, PlanScenario>;

// The world, look and source of the recorded scenario.
const ScenarioCommon& recorded_scenario(const RecordSubject& subject);

struct RecordRequest {
  RecordSubject subject;
  // Nothing: PNG frames. A format: one video file encoded by ffmpeg.
  std::optional<VideoFormat> video;
  // PNG frames: a directory, created if missing, for frame_000000.png ... and manifest.toml.
  // A video: the clip's file; its directory must exist.
  std::filesystem::path out;
  std::uint32_t fps = 30;            // the video's frame rate, >= 1 (not used for PNGs)
  std::uint32_t frames = 300;        // >= 1
  std::uint32_t steps_per_frame = 1; // >= 1
  std::uint32_t skip_steps = 0;      // steps before frame 0 (let flocks form first)
  int width = 1280, height = 720;    // >= 1 each
  bool progress = true;              // progress line on stderr
  // Called with the GL context current, before the output is opened and before any buffer
  // is made: where the command checks the recording's GPU memory (recording_memory) against
  // what the driver reports. Nothing: no check.
  std::function<void()> check_gpu_memory;
  // A 3D world's fly-around: frame k's camera is the scenario's starting camera turned
  // k x this many degrees about its target (yaw). Refused for a 2D world and a plan.
  std::optional<double> orbit_degrees_per_frame;
};
// --orbit's bound: a whole turn a frame (beyond it a turn less says the same).
inline constexpr double kMaxOrbitDegreesPerFrame = 360.0;

// Throws InputError naming the flag when the request asks what cannot be recorded (no frames,
// a size beyond the GPU's, --orbit of a 2D world or a plan). record_frames checks it first; a
// command checks it before it prints anything else.
void check_record_request(const RecordRequest& req);

// What recording `scenario` as `req` asks (its frame size and format) needs (the memory
// estimate, docs/reliability.md): on the host its start and the frames in flight (the
// encoders' queue and the frame being read, or the frame piped to ffmpeg); on the GPU the
// flock's buffers and the renderer's targets and trails.
RunMemory recording_memory(const FlockScenario& scenario, const RecordRequest& req);

// Renders req.frames frames (frame k shows the state after skip_steps + k * steps_per_frame
// steps; trails see the skipped steps too). PNGs are encoded on worker threads, and
// `manifest.toml` (scenario source, seed, version, size, frames, steps per frame, GL renderer)
// is written beside them last, so a directory with a manifest is complete. A video is piped to
// ffmpeg (VideoWriter) and appears under its name only once ffmpeg has finished it. Each file
// is written to a temporary name and renamed into place.
// Throws OutputError naming the path (checked before the first step: an unwritable directory
// or a missing ffmpeg fails before any simulation), GpuError without a usable context, and
// whatever check_gpu_memory throws, before any output is opened.
void record_frames(const RecordRequest& req);

// What `manifest.toml` says about a recording (murmur record's, and the viewer's V key's).
// Fills the scenario's fields of one (its source, seed, and its boids or plan agents).
struct RecordingManifest {
  std::string scenario_source;
  std::uint64_t seed = 0;
  std::uint32_t boids = 0;  // a plan's agents (written as `agents`)
  bool plan = false;        // a floor plan's recording
  int width = 0, height = 0;
  std::uint32_t frames = 0;
  std::string gl_renderer;
  // Writer-specific step keys, in order: steps_per_frame, or first_step and last_step.
  std::vector<std::pair<std::string, std::uint64_t>> steps;
};
void describe_scenario(const FlockScenario& scenario, RecordingManifest& manifest);
void describe_scenario(const PlanScenario& scenario, RecordingManifest& manifest);
// The manifest's TOML text, after `comment` (lines starting with "# ").
std::string manifest_toml(const std::string& comment, const RecordingManifest& manifest);

}  // namespace murmur
