// Atomic file output (include/murmur/base/atomic_file.hpp).
#include "murmur/base/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "murmur/base/errors.hpp"

namespace murmur {
namespace {

constexpr std::string_view kTemporaryPrefix = ".";
constexpr std::string_view kTemporaryInfix = ".tmp-";
// New files are readable by everyone the umask allows, as with fopen (mkstemp would give 0600
// whatever the umask says, which is why the unique name is made here instead).
constexpr mode_t kNewFileMode = 0666;
// A name can only be taken by a leftover of an earlier process with the same id: a few
// retries with the next counter value always get past those.
constexpr int kMaxNameAttempts = 100;

[[noreturn]] void throw_output_error(const std::filesystem::path& path, std::string_view what,
                                     int error) {
  throw OutputError(path.string() + ": " + std::string(what) + " (" +
                    std::strerror(error != 0 ? error : EIO) + ")");
}

// Unique among the writers of this process (the counter) and of all live processes (the
// process id), so two writers to one path never share a temporary.
std::string unique_suffix() {
  static std::atomic<unsigned long> counter{0};
  return std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
}

}  // namespace

std::string atomic_temporary_name(std::string_view file_name, std::string_view unique) {
  return std::string(kTemporaryPrefix) + std::string(file_name) + std::string(kTemporaryInfix) +
         std::string(unique);
}

std::optional<std::string> atomic_temporary_target(std::string_view file_name) {
  if (!file_name.starts_with(kTemporaryPrefix)) return std::nullopt;
  const std::size_t infix = file_name.rfind(kTemporaryInfix);
  if (infix == std::string_view::npos || infix <= kTemporaryPrefix.size() ||
      infix + kTemporaryInfix.size() == file_name.size())
    return std::nullopt;
  return std::string(file_name.substr(kTemporaryPrefix.size(), infix - kTemporaryPrefix.size()));
}

AtomicFile::AtomicFile(std::filesystem::path path) : path_(std::move(path)) {
  const std::filesystem::path directory = path_.has_parent_path() ? path_.parent_path() : ".";
  const std::string file_name = path_.filename().string();
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < kMaxNameAttempts; ++attempt) {
    temporary_ = directory / atomic_temporary_name(file_name, unique_suffix());
    fd = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, kNewFileMode);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) throw_output_error(path_, "cannot create output file", errno);
  stream_ = ::fdopen(fd, "wb");
  if (stream_ == nullptr) {
    const int error = errno;
    ::close(fd);
    ::unlink(temporary_.c_str());
    throw_output_error(path_, "cannot create output file", error);
  }
}

AtomicFile::~AtomicFile() {
  if (stream_ != nullptr) std::fclose(stream_);
  if (!committed_) ::unlink(temporary_.c_str());
}

void AtomicFile::write(const void* data, std::size_t bytes) noexcept {
  if (error_ != 0 || bytes == 0) return;
  errno = 0;
  if (std::fwrite(data, 1, bytes, stream_) != bytes) error_ = errno != 0 ? errno : EIO;
}

void AtomicFile::fail(int error) noexcept {
  if (error_ == 0) error_ = error != 0 ? error : EIO;
}

// The destructor, run as the exception leaves the writer's scope, removes the temporary.
void AtomicFile::abandon(std::string_view what, int error) {
  if (stream_ != nullptr) std::fclose(std::exchange(stream_, nullptr));
  throw_output_error(path_, what, error);
}

void AtomicFile::commit() {
  if (error_ != 0) abandon("write failed", error_);
  errno = 0;
  if (std::fflush(stream_) != 0) abandon("write failed", errno);
  // EINVAL: the file cannot be synced (not a regular file system); there is nothing to wait for.
  if (::fsync(::fileno(stream_)) != 0 && errno != EINVAL) abandon("sync failed", errno);
  // close(2) is where NFS and some full-disk cases first report a failed write.
  errno = 0;
  if (std::fclose(std::exchange(stream_, nullptr)) != 0) abandon("close failed", errno);
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0)
    abandon("cannot rename into place", errno);
  committed_ = true;
}

void write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
  AtomicFile file(path);
  file.write(contents);
  file.commit();
}

}  // namespace murmur
