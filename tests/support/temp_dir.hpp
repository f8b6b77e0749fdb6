#pragma once
// Scratch directories and small tmpfs mounts for tests of file output.
#include <sys/mount.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include <catch2/catch.hpp>

namespace murmur::test {

// A fresh empty directory under the system temp dir, removed afterwards. The process id in
// the name keeps test processes that ctest runs in parallel apart.
struct ScratchDir {
  std::filesystem::path path;
  explicit ScratchDir(const std::string& name) {
    path = std::filesystem::temp_directory_path() /
           ("murmur_test_" + name + "_" + std::to_string(getpid()));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
};

// A tmpfs mounted for the life of the object; `mounted` is false (with `reason`) when this
// process may not mount (not root, or a container without CAP_SYS_ADMIN).
struct TmpfsMount {
  std::filesystem::path dir;
  bool mounted = false;
  std::string reason;
  TmpfsMount(const std::filesystem::path& where, const char* options, unsigned long flags = 0)
      : dir(where) {
    std::filesystem::create_directories(dir);
    if (::mount("tmpfs", dir.c_str(), "tmpfs", flags, options) == 0)
      mounted = true;
    else
      reason = std::string("cannot mount a tmpfs (") + std::strerror(errno) + ")";
  }
  ~TmpfsMount() {
    if (mounted) ::umount2(dir.c_str(), MNT_DETACH);
  }
  TmpfsMount(const TmpfsMount&) = delete;
  TmpfsMount& operator=(const TmpfsMount&) = delete;
};

// The environment variable that lets a machine which cannot mount (no root, no
// CAP_SYS_ADMIN) skip the disk-fault tests; without it an unmountable tmpfs is a failure, so
// CI (root) can never pass them silently untested.
inline constexpr const char* kSkipDiskFaultTestsVariable = "MURMUR_SKIP_DISK_FAULT_TESTS";

// The exit status of a test that skips itself, which ctest reports as skipped rather than
// passed (SKIP_RETURN_CODE, CMakeLists.txt): Catch2 2.13 has no skip of its own.
inline constexpr int kSkippedTestExitStatus = 77;

// True when `mount` is usable. Otherwise the test fails naming the reason, unless
// MURMUR_SKIP_DISK_FAULT_TESTS=1 asks to skip: then the skip is printed and the process ends
// with kSkippedTestExitStatus (ctest runs one test case a process; the cases after it in a
// whole-executable run do not run).
inline bool disk_fault_mount_ready(const TmpfsMount& mount, const std::string& test_name) {
  if (mount.mounted) return true;
  const char* skip = std::getenv(kSkipDiskFaultTestsVariable);
  if (skip != nullptr && std::string(skip) == "1") {
    std::fprintf(stderr, "SKIPPED %s (%s=1): %s\n", test_name.c_str(),
                 kSkipDiskFaultTestsVariable, mount.reason.c_str());
    std::fflush(stderr);
    std::exit(kSkippedTestExitStatus);
  }
  FAIL(test_name << ": " << mount.reason << "; run as root, or set "
                 << kSkipDiskFaultTestsVariable << "=1 to skip the disk-fault tests");
  return false;
}

// The names of the entries of `dir`, sorted.
inline std::vector<std::string> file_names(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace murmur::test
