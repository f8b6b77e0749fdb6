// PNG frame output: atomic writes, error reporting, and the encoder pool.
#include <sys/mount.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <stb_image.h>

#include "murmur/base/errors.hpp"
#include "murmur/render/png_writer.hpp"
#include "png_files.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using murmur::OutputError;
using murmur::PngWriterPool;
using murmur::RgbaImage;
using murmur::test::file_names;
using murmur::test::load_png;
using murmur::test::ScratchDir;
using murmur::test::TmpfsMount;
using murmur::test::disk_fault_mount_ready;

namespace {

// Every pixel different and no symmetry, so a flip, transpose or channel swap shows.
RgbaImage asymmetric_image(int width, int height) {
  RgbaImage image{width, height, {}};
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      image.pixels.push_back(static_cast<std::uint8_t>(x * 37 + y * 11));
      image.pixels.push_back(static_cast<std::uint8_t>(y * 53 + 7));
      image.pixels.push_back(static_cast<std::uint8_t>(x * 3 + y * 101 + 1));
      image.pixels.push_back(static_cast<std::uint8_t>(255 - x - y));
    }
  return image;
}

// Random bytes: deflate cannot shrink them, so the PNG is about as large as the raw image.
RgbaImage noise_image(int width, int height) {
  RgbaImage image{width, height, {}};
  std::mt19937 random(12345);
  image.pixels.resize(static_cast<std::size_t>(width) * height * 4);
  for (auto& byte : image.pixels) byte = static_cast<std::uint8_t>(random());
  return image;
}

}  // namespace

TEST_CASE("frame files are named with a fixed-width counter from 0") {
  CHECK(murmur::frame_file_name(0) == "frame_000000.png");
  CHECK(murmur::frame_file_name(12) == "frame_000012.png");
  CHECK(murmur::frame_file_name(1234567) == "frame_1234567.png");

  std::uint32_t index = 99;
  CHECK(murmur::parse_frame_file_name("frame_000012.png", index));
  CHECK(index == 12);
  CHECK_FALSE(murmur::parse_frame_file_name("frame_.png", index));
  CHECK_FALSE(murmur::parse_frame_file_name("frame_00001a.png", index));
  CHECK_FALSE(murmur::parse_frame_file_name("frame_000001.png.tmp", index));
  CHECK_FALSE(murmur::parse_frame_file_name("manifest.toml", index));
}

TEST_CASE("a written PNG reads back with identical pixels and no temporary file left") {
  ScratchDir scratch("roundtrip");
  const RgbaImage image = asymmetric_image(5, 3);
  const fs::path path = scratch.path / murmur::frame_file_name(0);
  murmur::write_png(path, image);

  const RgbaImage back = load_png(path);
  CHECK(back.width == 5);
  CHECK(back.height == 3);
  CHECK(back.pixels == image.pixels);
  CHECK(file_names(scratch.path) == std::vector<std::string>{"frame_000000.png"});
}

TEST_CASE("writing over an existing frame replaces it") {
  ScratchDir scratch("overwrite");
  const fs::path path = scratch.path / "frame_000000.png";
  murmur::write_png(path, asymmetric_image(2, 2));
  const RgbaImage second = asymmetric_image(4, 1);
  murmur::write_png(path, second);
  CHECK(load_png(path).pixels == second.pixels);
}

TEST_CASE("an unwritable directory gives an OutputError naming the path and leaves no file") {
  ScratchDir scratch("unwritable");
  fs::path dir = scratch.path / "locked";
  // Root ignores permission bits, so as root the directory is a read-only tmpfs instead.
  std::unique_ptr<TmpfsMount> read_only;
  if (geteuid() == 0) {
    read_only = std::make_unique<TmpfsMount>(dir, "size=64k", MS_RDONLY);
    if (!disk_fault_mount_ready(*read_only, "read-only directory case")) return;
  } else {
    fs::create_directories(dir);
    fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
  }

  const fs::path path = dir / "frame_000000.png";
  try {
    murmur::write_png(path, asymmetric_image(3, 3));
    FAIL("write_png succeeded in an unwritable directory");
  } catch (const OutputError& error) {
    CHECK_THAT(error.what(), Catch::Matchers::Contains(path.string()));
  }
  if (fs::exists(dir)) CHECK(file_names(dir).empty());
  if (geteuid() != 0 && fs::exists(dir)) fs::permissions(dir, fs::perms::owner_all);
}

TEST_CASE("a full disk is reported naming the path, and no frame is left half-written") {
  ScratchDir scratch("full");
  TmpfsMount tiny(scratch.path / "tiny", "size=64k");
  if (!disk_fault_mount_ready(tiny, "full-disk PNG test")) return;
  // A small frame fits; a 256 KiB incompressible one cannot.
  const fs::path kept = tiny.dir / "frame_000000.png";
  const RgbaImage small = asymmetric_image(8, 8);
  murmur::write_png(kept, small);

  const fs::path too_big = tiny.dir / "frame_000001.png";
  try {
    murmur::write_png(too_big, noise_image(256, 256));
    FAIL("write_png succeeded on a full disk");
  } catch (const OutputError& error) {
    CHECK_THAT(error.what(), Catch::Matchers::Contains(too_big.string()));
    CHECK_THAT(error.what(), Catch::Matchers::Contains(std::strerror(ENOSPC)));
  }
  CHECK(file_names(tiny.dir) == std::vector<std::string>{"frame_000000.png"});

  SECTION("a failed overwrite keeps the earlier frame intact") {
    CHECK_THROWS_AS(murmur::write_png(kept, noise_image(256, 256)), OutputError);
    CHECK(load_png(kept).pixels == small.pixels);
    CHECK(file_names(tiny.dir) == std::vector<std::string>{"frame_000000.png"});
  }
}

TEST_CASE("the pool writes every submitted frame") {
  ScratchDir scratch("pool");
  std::vector<RgbaImage> images;
  {
    PngWriterPool pool(2);
    for (std::uint32_t i = 0; i < 6; ++i) {
      images.push_back(asymmetric_image(3 + static_cast<int>(i), 2));
      pool.submit(scratch.path / murmur::frame_file_name(i), images.back());
    }
    pool.finish();
  }
  for (std::uint32_t i = 0; i < 6; ++i)
    CHECK(load_png(scratch.path / murmur::frame_file_name(i)).pixels == images[i].pixels);
}

TEST_CASE("a worker's error is rethrown by finish and by later submits") {
  ScratchDir scratch("pool_error");
  SECTION("a real write into a missing directory") {
    PngWriterPool pool(2);
    const fs::path bad = scratch.path / "missing" / "frame_000000.png";
    pool.submit(bad, asymmetric_image(2, 2));
    try {
      pool.finish();
      FAIL("finish() did not report the failed write");
    } catch (const OutputError& error) {
      CHECK_THAT(error.what(), Catch::Matchers::Contains(bad.string()));
    }
    CHECK_THROWS_AS(pool.submit(scratch.path / "frame_000001.png", asymmetric_image(2, 2)),
                    OutputError);
    CHECK_FALSE(fs::exists(scratch.path / "frame_000001.png"));
  }
  SECTION("the first error wins, and the main thread sees it at the next submit") {
    std::atomic<int> calls{0};
    PngWriterPool pool(1, 1, [&](const fs::path& path, const RgbaImage&) {
      ++calls;
      throw OutputError(path.string() + ": planted failure");
    });
    pool.submit("first.png", asymmetric_image(1, 1));
    // With one worker and one queue slot, submits keep succeeding only until the worker has
    // failed; one of the next few must rethrow.
    bool rethrown = false;
    for (int i = 0; i < 100 && !rethrown; ++i) {
      try {
        pool.submit("later.png", asymmetric_image(1, 1));
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      } catch (const OutputError& error) {
        rethrown = true;
        CHECK_THAT(error.what(), Catch::Matchers::Contains("first.png: planted failure"));
      }
    }
    CHECK(rethrown);
    CHECK_THROWS_WITH(pool.finish(), Catch::Matchers::Contains("first.png"));
  }
}

TEST_CASE("submit blocks while the queue is full, so memory stays bounded") {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> written{0};
  PngWriterPool pool(1, 2, [&](const fs::path&, const RgbaImage&) {
    released.wait();
    ++written;
  });
  // One image in the worker's hands and two queued fill the pool.
  for (int i = 0; i < 3; ++i) pool.submit("frame.png", asymmetric_image(1, 1));
  CHECK(pool.waiting_for_room() == 0u);
  auto fourth = std::async(std::launch::async,
                           [&] { pool.submit("frame.png", asymmetric_image(1, 1)); });
  // Whichever comes first: the fourth submit waiting for room (right), or returning (wrong).
  // What happened, not a window of time: a loaded machine may take long to start the thread.
  while (pool.waiting_for_room() == 0 &&
         fourth.wait_for(std::chrono::milliseconds(1)) == std::future_status::timeout) {
  }
  CHECK(pool.waiting_for_room() == 1u);
  CHECK(fourth.wait_for(std::chrono::seconds(0)) == std::future_status::timeout);
  CHECK(written == 0);
  release.set_value();
  fourth.get();
  pool.finish();
  CHECK(written == 4);
}
