#include "murmur/render/png_writer.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <utility>

// libstb.so carries the implementation: no STB_IMAGE_WRITE_IMPLEMENTATION here.
#include <stb_image_write.h>

#include "murmur/errors.hpp"

namespace murmur {
namespace {

constexpr int kRgbaChannels = 4;
constexpr unsigned kMinEncoderThreads = 2;
constexpr unsigned kMaxEncoderThreads = 4;
constexpr std::size_t kQueuedImagesPerThread = 2;
constexpr const char* kTemporarySuffix = ".tmp";
constexpr std::string_view kFramePrefix = "frame_";
constexpr std::string_view kFrameSuffix = ".png";

std::filesystem::path temporary_path_for(const std::filesystem::path& path) {
  std::filesystem::path temporary = path;
  temporary += kTemporarySuffix;
  return temporary;
}

std::string errno_text(int error) { return std::strerror(error); }

// An open temporary file that removes itself unless committed, so every early exit (throw)
// leaves no half-written file behind.
class TemporaryFile {
 public:
  explicit TemporaryFile(const std::filesystem::path& final_path)
      : final_path_(final_path), temporary_path_(temporary_path_for(final_path)) {
    file_ = std::fopen(temporary_path_.c_str(), "wb");
    if (file_ == nullptr) fail(errno);
  }
  ~TemporaryFile() {
    if (file_ != nullptr) std::fclose(file_);
    if (!committed_) {
      std::error_code ignored;
      std::filesystem::remove(temporary_path_, ignored);
    }
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  // Called from stb's write callback: cannot throw through C code, so the error is kept.
  void write(const void* data, std::size_t bytes) {
    if (write_error_ != 0) return;
    errno = 0;
    if (std::fwrite(data, 1, bytes, file_) != bytes) write_error_ = errno != 0 ? errno : EIO;
  }

  void commit() {
    if (write_error_ != 0) fail(write_error_);
    errno = 0;
    if (std::fflush(file_) != 0) fail(errno);
    FILE* file = std::exchange(file_, nullptr);
    // close(2) is where NFS and some full-disk cases first report a failed write.
    if (std::fclose(file) != 0) fail(errno);
    std::error_code error;
    std::filesystem::rename(temporary_path_, final_path_, error);
    if (error) throw OutputError(final_path_.string() + ": cannot write (" + error.message() + ")");
    committed_ = true;
  }

  [[noreturn]] void fail(int error) const {
    throw OutputError(final_path_.string() + ": cannot write (" +
                      errno_text(error != 0 ? error : EIO) + ")");
  }

 private:
  std::filesystem::path final_path_;
  std::filesystem::path temporary_path_;
  FILE* file_ = nullptr;
  int write_error_ = 0;
  bool committed_ = false;
};

void write_to_temporary_file(void* context, void* data, int size) {
  static_cast<TemporaryFile*>(context)->write(data, static_cast<std::size_t>(size));
}

}  // namespace

std::string frame_file_name(std::uint32_t index) {
  char name[64];
  std::snprintf(name, sizeof name, kFramePattern, static_cast<int>(index));
  return name;
}

bool parse_frame_file_name(const std::string& name, std::uint32_t& index) {
  if (name.size() <= kFramePrefix.size() + kFrameSuffix.size()) return false;
  if (!name.starts_with(kFramePrefix) || !name.ends_with(kFrameSuffix)) return false;
  const std::string digits =
      name.substr(kFramePrefix.size(), name.size() - kFramePrefix.size() - kFrameSuffix.size());
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  try {
    const unsigned long value = std::stoul(digits);
    if (value > UINT32_MAX) return false;
    index = static_cast<std::uint32_t>(value);
  } catch (const std::out_of_range&) {
    return false;
  }
  return true;
}

void write_png(const std::filesystem::path& path, const RgbaImage& image) {
  const std::size_t expected_bytes =
      static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * kRgbaChannels;
  if (image.width < 1 || image.height < 1 || image.pixels.size() != expected_bytes)
    throw std::invalid_argument("write_png: image size does not match its pixel count");

  TemporaryFile file(path);
  const int row_bytes = image.width * kRgbaChannels;
  if (stbi_write_png_to_func(write_to_temporary_file, &file, image.width, image.height,
                             kRgbaChannels, image.pixels.data(), row_bytes) == 0)
    file.fail(ENOMEM);  // stb fails only when it cannot allocate the encoded image
  file.commit();
}

void write_text_file_atomically(const std::filesystem::path& path, const std::string& text) {
  TemporaryFile file(path);
  file.write(text.data(), text.size());
  file.commit();
}

// --- PngWriterPool ----------------------------------------------------------------------

unsigned PngWriterPool::default_thread_count() {
  return std::clamp(std::thread::hardware_concurrency(), kMinEncoderThreads, kMaxEncoderThreads);
}

PngWriterPool::PngWriterPool(unsigned threads, std::size_t max_queued, WriteFunction write)
    : write_(std::move(write)),
      max_queued_(max_queued != 0 ? max_queued
                                  : kQueuedImagesPerThread * std::max(threads, 1u)) {
  for (unsigned i = 0; i < std::max(threads, 1u); ++i) threads_.emplace_back([this] { work(); });
}

PngWriterPool::~PngWriterPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  job_ready_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void PngWriterPool::rethrow_first_error_locked() {
  if (first_error_) std::rethrow_exception(first_error_);
}

void PngWriterPool::submit(std::filesystem::path path, RgbaImage image) {
  std::unique_lock lock(mutex_);
  space_free_.wait(lock, [this] { return queue_.size() < max_queued_ || first_error_; });
  rethrow_first_error_locked();
  queue_.push_back(Job{std::move(path), std::move(image)});
  lock.unlock();
  job_ready_.notify_one();
}

void PngWriterPool::finish() {
  std::unique_lock lock(mutex_);
  space_free_.wait(lock, [this] { return (queue_.empty() && busy_ == 0) || first_error_; });
  rethrow_first_error_locked();
}

void PngWriterPool::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    job_ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    Job job = std::move(queue_.front());
    queue_.pop_front();
    ++busy_;
    lock.unlock();
    space_free_.notify_all();

    std::exception_ptr error;
    try {
      write_(job.path, job.image);
    } catch (...) {
      error = std::current_exception();
    }

    lock.lock();
    --busy_;
    if (error && !first_error_) {
      first_error_ = error;
      queue_.clear();  // the recording has failed: later frames are not worth encoding
    }
    space_free_.notify_all();
  }
}

}  // namespace murmur
