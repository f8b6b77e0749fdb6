// `murmur record` as a library call: request checks, output directory handling, the frames
// it writes (which state each shows) and the manifest written last.
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <stb_image.h>
#include <toml++/toml.h>

#include "gpu_test_support.hpp"
#include "murmur/base/atomic_file.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/render/png_writer.hpp"
#include "murmur/render/recording.hpp"
#include "murmur/render/renderer.hpp"
#include "murmur/flock/state.hpp"
#include "murmur/version.hpp"
#include "png_files.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using murmur::InputError;
using murmur::OutputError;
using murmur::RecordRequest;
using murmur::RgbaImage;
using murmur::test::file_names;
using murmur::test::load_png;
using murmur::test::ScratchDir;
using murmur::test::TmpfsMount;
using murmur::test::disk_fault_mount_ready;

namespace {

// 24 boids of two colours in a 40x30 torus: a few milliseconds per step on llvmpipe.
murmur::Scenario small_scenario() {
  murmur::Scenario scenario = murmur::test::world(40, 30, 1234567890123456789ull);
  scenario.source = "tests/small \"quoted\".toml";
  scenario.species.push_back(murmur::test::species("red", 16, murmur::Topology::Wrap, 5, 2));
  scenario.species.push_back(murmur::test::species("blue", 8, murmur::Topology::Wrap, 5, 2));
  scenario.species[0].colour = {1, 0.1f, 0.1f};
  scenario.species[1].colour = {0.1f, 0.2f, 1};
  return scenario;
}

// The flock a request records.
murmur::Scenario& flock_of(RecordRequest& req) {
  return std::get<murmur::FlockRecording>(req.subject).scenario;
}
const murmur::Scenario& flock_of(const RecordRequest& req) {
  return std::get<murmur::FlockRecording>(req.subject).scenario;
}

RecordRequest small_request(const fs::path& out_dir) {
  RecordRequest req;
  req.subject = murmur::FlockRecording{small_scenario(), std::nullopt};
  req.out = out_dir;
  req.frames = 3;
  req.steps_per_frame = 2;
  req.width = 32;
  req.height = 24;
  req.progress = false;
  return req;
}

// Largest per-channel difference; the additive sum of overlapping heads may come out one
// 8-bit step apart when the boids arrive in another order.
int max_difference(const RgbaImage& a, const RgbaImage& b) {
  REQUIRE(a.pixels.size() == b.pixels.size());
  int largest = 0;
  for (std::size_t i = 0; i < a.pixels.size(); ++i)
    largest = std::max(largest, std::abs(int(a.pixels[i]) - int(b.pixels[i])));
  return largest;
}

// The image record_frames should have written after `steps` steps of its scenario.
RgbaImage expected_frame(const RecordRequest& req, std::uint32_t steps) {
  murmur::test::gl_context();
  murmur::GpuFlock flock(flock_of(req), murmur::seeded_start(flock_of(req)));
  murmur::Renderer renderer(req.width, req.height);
  // Trails remember every step, so the reference records each one as the recorder does.
  for (std::uint32_t s = 0; s < steps; ++s) {
    flock.step();
    renderer.record_step(flock);
  }
  renderer.render(flock);
  return renderer.read_pixels();
}

}  // namespace

TEST_CASE("bad requests are refused naming the flag, before anything is created") {
  ScratchDir scratch("bad_request");
  RecordRequest req = small_request(scratch.path / "out");
  SECTION("no frames") {
    req.frames = 0;
    CHECK_THROWS_MATCHES(murmur::record_frames(req), InputError,
                         Catch::Matchers::Message("--frames 0: must be at least 1"));
  }
  SECTION("no steps per frame") {
    req.steps_per_frame = 0;
    CHECK_THROWS_MATCHES(murmur::record_frames(req), InputError,
                         Catch::Matchers::Message("--steps-per-frame 0: must be at least 1"));
  }
  SECTION("zero width") {
    req.width = 0;
    req.height = 10;
    CHECK_THROWS_MATCHES(murmur::record_frames(req), InputError,
                         Catch::Matchers::Message("--size 0x10: width and height must be 1..16384"));
  }
  SECTION("too tall") {
    req.height = 16385;
    CHECK_THROWS_WITH(murmur::record_frames(req), Contains("--size 32x16385"));
  }
  CHECK_FALSE(fs::exists(scratch.path / "out"));
}

TEST_CASE("an output directory that cannot be written fails before the simulation starts") {
  ScratchDir scratch("unwritable");
  SECTION("a path under a regular file cannot become a directory") {
    std::ofstream(scratch.path / "file") << "x";
    const fs::path out = scratch.path / "file" / "frames";
    CHECK_THROWS_MATCHES(murmur::record_frames(small_request(out)), OutputError,
                         Catch::Matchers::Predicate<std::exception>([&](const std::exception& e) {
                           return std::string(e.what()).starts_with(out.string() + ": cannot create");
                         }));
  }
  SECTION("a read-only directory") {
    fs::path out = scratch.path / "locked";
    std::optional<TmpfsMount> read_only;
    if (geteuid() == 0) {
      read_only.emplace(out, "size=64k", MS_RDONLY);
      if (!disk_fault_mount_ready(*read_only, "read-only directory case")) return;
    } else {
      fs::create_directories(out);
      fs::permissions(out, fs::perms::owner_read | fs::perms::owner_exec);
    }
    CHECK_THROWS_MATCHES(
        murmur::record_frames(small_request(out)), OutputError,
        Catch::Matchers::Message(out.string() + ": cannot write frames (" +
                                 std::strerror(geteuid() == 0 ? EROFS : EACCES) + ")"));
    CHECK(file_names(out).empty());
    if (geteuid() != 0) fs::permissions(out, fs::perms::owner_all);
  }
}

TEST_CASE("a recording writes frame k = state after k * steps_per_frame steps, then a manifest") {
  ScratchDir scratch("frames");
  const RecordRequest req = small_request(scratch.path / "out");
  // Leftovers of an earlier, longer run: an old frame to overwrite, frames past the new end, a
  // temporary of an interrupted write, and a manifest.
  fs::create_directories(req.out);
  murmur::write_png(req.out / "frame_000001.png", RgbaImage{1, 1, {1, 2, 3, 4}});
  murmur::write_png(req.out / "frame_000003.png", RgbaImage{1, 1, {1, 2, 3, 4}});
  murmur::write_png(req.out / "frame_000009.png", RgbaImage{1, 1, {1, 2, 3, 4}});
  const std::string interrupted = murmur::atomic_temporary_name("frame_000004.png", "1-0");
  std::ofstream(req.out / interrupted) << "half";
  std::ofstream(req.out / "manifest.toml") << "frames = 10\n";
  std::ofstream(req.out / "notes.txt") << "not ours";

  murmur::record_frames(req);

  CHECK(file_names(req.out) ==
        std::vector<std::string>{"frame_000000.png", "frame_000001.png", "frame_000002.png",
                                 "manifest.toml", "notes.txt"});
  std::vector<RgbaImage> frames;
  for (std::uint32_t k = 0; k < req.frames; ++k) {
    frames.push_back(load_png(req.out / murmur::frame_file_name(k)));
    CHECK(frames.back().width == req.width);
    CHECK(frames.back().height == req.height);
  }
  CHECK(max_difference(frames[0], expected_frame(req, 0)) <= 1);
  CHECK(max_difference(frames[1], expected_frame(req, req.steps_per_frame)) <= 1);
  CHECK(max_difference(frames[1], frames[2]) > 1);  // the flock moved between frames

  const toml::table manifest = toml::parse_file((req.out / "manifest.toml").string());
  CHECK(manifest["murmur_version"].value_or(std::string()) == murmur::kVersion);
  CHECK(manifest["scenario"].value_or(std::string()) == flock_of(req).source);
  CHECK(manifest["seed"].value_or(std::string()) == "1234567890123456789");
  CHECK(manifest["boids"].value_or(0) == 24);
  CHECK(manifest["width"].value_or(0) == 32);
  CHECK(manifest["height"].value_or(0) == 24);
  CHECK(manifest["frames"].value_or(0) == 3);
  CHECK(manifest["steps_per_frame"].value_or(0) == 2);
  CHECK(manifest["skip_steps"].value_or(-1) == 0);
  CHECK(manifest["frame_pattern"].value_or(std::string()) == "frame_%06d.png");
  CHECK_FALSE(manifest["gl_renderer"].value_or(std::string()).empty());
}

TEST_CASE("skipped steps run before frame 0 and the manifest says how many") {
  ScratchDir scratch("skip");
  RecordRequest req = small_request(scratch.path / "out");
  req.frames = 2;
  req.skip_steps = 5;
  murmur::record_frames(req);
  const RgbaImage first = load_png(req.out / murmur::frame_file_name(0));
  const RgbaImage second = load_png(req.out / murmur::frame_file_name(1));
  CHECK(max_difference(first, expected_frame(req, req.skip_steps)) <= 1);
  CHECK(max_difference(second, expected_frame(req, req.skip_steps + req.steps_per_frame)) <= 1);
  CHECK(max_difference(first, expected_frame(req, 0)) > 1);  // the skip did move the flock
  const toml::table manifest = toml::parse_file((req.out / "manifest.toml").string());
  CHECK(manifest["skip_steps"].value_or(-1) == 5);
  CHECK(manifest["steps_per_frame"].value_or(0) == 2);
}

TEST_CASE("a disk that fills up during a recording fails naming the frame, with no manifest") {
  ScratchDir scratch("full");
  TmpfsMount tiny(scratch.path / "tiny", "size=64k");
  if (!disk_fault_mount_ready(tiny, "full-disk recording test")) return;
  // Fill the disk: creating the write probe (an empty file) still works, frames do not.
  {
    std::ofstream filler(tiny.dir / "filler", std::ios::binary);
    const std::vector<char> block(4096, 'x');
    while (filler.write(block.data(), static_cast<std::streamsize>(block.size()))) filler.flush();
  }
  const RecordRequest req = small_request(tiny.dir);
  const fs::path first_frame = tiny.dir / "frame_000000.png";
  CHECK_THROWS_MATCHES(murmur::record_frames(req), OutputError,
                       Catch::Matchers::Predicate<std::exception>([&](const std::exception& e) {
                         return std::string(e.what()).starts_with(first_frame.string() + ": ");
                       }));
  CHECK(file_names(tiny.dir) == std::vector<std::string>{"filler"});
}

TEST_CASE("a recording is drawn with the scenario's [render] look") {
  murmur::RenderSettings settings;
  murmur::LookParams look;
  look.trails = murmur::TrailMode::None;
  look.bloom = false;
  look.exposure = 2.0f;
  look.target_marker = false;
  murmur::apply_look(settings, look);
  CHECK_FALSE(settings.overlays.target);
  CHECK(settings.trails.mode == murmur::TrailMode::None);
  CHECK_FALSE(settings.bloom.enabled);
  CHECK(settings.exposure == 2.0f);
  CHECK(settings.colour.mode == murmur::ColourMode::Species);  // not named: left alone
  const murmur::LookParams back = murmur::look_of(settings);
  CHECK(back.trails == murmur::TrailMode::None);
  CHECK(back.bloom == false);
  CHECK(back.trail_length == settings.trails.ribbon_length);

  ScratchDir scratch("look");
  RecordRequest plain = small_request(scratch.path / "plain");
  plain.frames = 2;
  RecordRequest looked = small_request(scratch.path / "looked");
  looked.frames = 2;
  flock_of(looked).look.colour_by = murmur::ColourMode::Heading;
  flock_of(looked).look.bloom = false;
  murmur::record_frames(plain);
  murmur::record_frames(looked);
  const RgbaImage a = load_png(plain.out / murmur::frame_file_name(1));
  const RgbaImage b = load_png(looked.out / murmur::frame_file_name(1));
  CHECK(max_difference(a, b) > 16);  // another colouring, no glow: a visibly different frame
}
