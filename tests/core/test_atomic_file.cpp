// AtomicFile: the final name holds either the old file or the whole new one, temporaries are
// unique per writer, and every failure names the path and the cause and leaves no temporary.
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "murmur/base/atomic_file.hpp"
#include "murmur/base/errors.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Equals;
using murmur::AtomicFile;
using murmur::OutputError;
using murmur::test::file_names;
using murmur::test::ScratchDir;

namespace {

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

template <class F>
std::string output_error_of(F&& f) {
  try {
    f();
  } catch (const OutputError& error) {
    return error.what();
  }
  return "(no OutputError)";
}

// The descriptor this process holds open on `path`, found through /proc (AtomicFile keeps
// its descriptor to itself).
std::optional<int> open_descriptor_of(const fs::path& path) {
  for (const auto& entry : fs::directory_iterator("/proc/self/fd")) {
    std::error_code error;
    if (fs::read_symlink(entry.path(), error) == path) return std::stoi(entry.path().filename());
  }
  return std::nullopt;
}

std::string failure_text(const fs::path& path, const std::string& what, int error) {
  return path.string() + ": " + what + " (" + std::strerror(error) + ")";
}

}  // namespace

TEST_CASE("write_file_atomically writes the whole text and leaves no temporary", "[atomic_file]") {
  ScratchDir dir("atomic_write");
  const fs::path path = dir.path / "notes.txt";
  murmur::write_file_atomically(path, "first\n");
  CHECK(read_text(path) == "first\n");
  murmur::write_file_atomically(path, "second, longer\n");
  CHECK(read_text(path) == "second, longer\n");
  CHECK(file_names(dir.path) == std::vector<std::string>{"notes.txt"});
}

TEST_CASE("a new file gets the permissions the umask allows, as fopen would", "[atomic_file]") {
  ScratchDir dir("atomic_mode");
  const mode_t saved = ::umask(022);
  murmur::write_file_atomically(dir.path / "shared.txt", "x");
  ::umask(saved);
  const fs::perms perms = fs::status(dir.path / "shared.txt").permissions();
  CHECK((perms & fs::perms::all) == (fs::perms::owner_read | fs::perms::owner_write |
                                     fs::perms::group_read | fs::perms::others_read));
}

TEST_CASE("the temporary is hidden, beside the file, and names the file it is for",
          "[atomic_file]") {
  ScratchDir dir("atomic_name");
  AtomicFile file(dir.path / "frame_000003.png");
  CHECK(file.temporary_path().parent_path() == dir.path);
  const std::string name = file.temporary_path().filename();
  CHECK(name.starts_with("."));
  CHECK(murmur::atomic_temporary_target(name) == "frame_000003.png");
  CHECK(fs::exists(file.temporary_path()));
  CHECK_FALSE(fs::exists(dir.path / "frame_000003.png"));

  CHECK(murmur::atomic_temporary_target(murmur::atomic_temporary_name("a.tmp-b", "7-1")) ==
        "a.tmp-b");
  CHECK_FALSE(murmur::atomic_temporary_target("frame_000003.png"));
  CHECK_FALSE(murmur::atomic_temporary_target("frame_000003.png.tmp"));
  CHECK_FALSE(murmur::atomic_temporary_target(".bashrc"));
  CHECK_FALSE(murmur::atomic_temporary_target(".tmp-1-0"));
  CHECK_FALSE(murmur::atomic_temporary_target(".frame.png.tmp-"));
}

TEST_CASE("two writers to one path never share or clobber a temporary", "[atomic_file]") {
  ScratchDir dir("atomic_two");
  const fs::path path = dir.path / "state.csv";
  AtomicFile first(path);
  AtomicFile second(path);
  CHECK(first.temporary_path() != second.temporary_path());

  first.write("first writer, part one; ");
  second.write("second writer, whole");
  second.commit();
  CHECK(read_text(path) == "second writer, whole");
  first.write("part two");
  first.commit();
  CHECK(read_text(path) == "first writer, part one; part two");
  CHECK(file_names(dir.path) == std::vector<std::string>{"state.csv"});
}

TEST_CASE("writers on many threads each publish a whole file", "[atomic_file]") {
  ScratchDir dir("atomic_threads");
  const fs::path path = dir.path / "shared.bin";
  constexpr int kWriters = 8;
  constexpr std::size_t kBytes = 256 * 1024;  // several stdio buffers: writes interleave
  std::vector<std::string> contents;
  for (int w = 0; w < kWriters; ++w) contents.emplace_back(kBytes, static_cast<char>('a' + w));
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w)
    threads.emplace_back([&, w] { murmur::write_file_atomically(path, contents[w]); });
  for (std::thread& thread : threads) thread.join();

  const std::string result = read_text(path);
  REQUIRE(result.size() == kBytes);
  CHECK(result == std::string(kBytes, result.front()));  // one writer's bytes, none mixed in
  CHECK(file_names(dir.path) == std::vector<std::string>{"shared.bin"});
}

TEST_CASE("an AtomicFile dropped without commit leaves the old file and no temporary",
          "[atomic_file]") {
  ScratchDir dir("atomic_drop");
  const fs::path path = dir.path / "manifest.toml";
  murmur::write_file_atomically(path, "old");
  {
    AtomicFile file(path);
    file.write("new, but abandoned");
  }
  CHECK(read_text(path) == "old");
  CHECK(file_names(dir.path) == std::vector<std::string>{"manifest.toml"});
}

TEST_CASE("every failure names the path and the cause and leaves nothing behind",
          "[atomic_file]") {
  ScratchDir dir("atomic_fail");
  const fs::path path = dir.path / "out.csv";
  murmur::write_file_atomically(path, "old contents");

  SECTION("the directory does not exist") {
    const fs::path missing = dir.path / "no-such-dir" / "out.csv";
    CHECK_THAT(output_error_of([&] { murmur::write_file_atomically(missing, "x"); }),
               Equals(failure_text(missing, "cannot create output file", ENOENT)));
  }

  SECTION("a writer marks its contents as failed") {
    AtomicFile file(path);
    file.write("half an image");
    file.fail(ENOMEM);
    file.write("never written");
    CHECK_FALSE(file.ok());
    CHECK_THAT(output_error_of([&] { file.commit(); }),
               Equals(failure_text(path, "write failed", ENOMEM)));
  }

  SECTION("a write fails part way (the file size limit stands in for a full disk)") {
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit saved{};
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &saved) == 0);
    constexpr rlim_t kTinyFileLimit = 1000;
    rlimit tiny = saved;
    tiny.rlim_cur = kTinyFileLimit;
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &tiny) == 0);
    const std::string error = output_error_of(
        [&] { murmur::write_file_atomically(path, std::string(64 * 1024, 'x')); });
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &saved) == 0);
    std::signal(SIGXFSZ, SIG_DFL);
    CHECK_THAT(error, Equals(failure_text(path, "write failed", EFBIG)));
  }

  SECTION("the sync fails") {
    AtomicFile file(path);
    // Nothing buffered, so the flush has nothing to write and the sync is the first to fail.
    const std::optional<int> fd = open_descriptor_of(file.temporary_path());
    REQUIRE(fd);
    REQUIRE(::close(*fd) == 0);
    CHECK_THAT(output_error_of([&] { file.commit(); }),
               Equals(failure_text(path, "sync failed", EBADF)));
  }

  SECTION("the rename fails (a non-empty directory holds the final name)") {
    const fs::path taken = dir.path / "taken";
    fs::create_directories(taken / "inside");
    CHECK_THAT(output_error_of([&] { murmur::write_file_atomically(taken, "x"); }),
               Equals(failure_text(taken, "cannot rename into place", EISDIR)));
    CHECK(fs::is_directory(taken / "inside"));
    fs::remove_all(taken);
  }

  CHECK(read_text(path) == "old contents");
  CHECK(file_names(dir.path) == std::vector<std::string>{"out.csv"});
}
