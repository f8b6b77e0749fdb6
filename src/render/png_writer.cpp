#include "murmur/render/png_writer.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <stdexcept>
#include <utility>

// libstb.so carries the implementation: no STB_IMAGE_WRITE_IMPLEMENTATION here.
#include <stb_image_write.h>

#include "murmur/base/atomic_file.hpp"

namespace murmur {
namespace {

constexpr int kRgbaChannels = 4;
constexpr unsigned kMinEncoderThreads = 2;
constexpr unsigned kMaxEncoderThreads = 4;
constexpr std::size_t kQueuedImagesPerThread = 2;
constexpr std::string_view kFramePrefix = "frame_";
constexpr std::string_view kFrameSuffix = ".png";

void write_to_atomic_file(void* context, void* data, int size) {
  static_cast<AtomicFile*>(context)->write(data, static_cast<std::size_t>(size));
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

  AtomicFile file(path);
  const int row_bytes = image.width * kRgbaChannels;
  if (stbi_write_png_to_func(write_to_atomic_file, &file, image.width, image.height,
                             kRgbaChannels, image.pixels.data(), row_bytes) == 0)
    file.fail(ENOMEM);  // stb fails only when it cannot allocate the encoded image
  file.commit();
}

// --- PngWriterPool ----------------------------------------------------------------------

unsigned PngWriterPool::default_thread_count() {
  return std::clamp(std::thread::hardware_concurrency(), kMinEncoderThreads, kMaxEncoderThreads);
}

std::size_t PngWriterPool::most_images_held(unsigned threads) {
  return (kQueuedImagesPerThread + 1) * std::max(threads, 1u);
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
  ++waiting_for_room_;
  space_free_.wait(lock, [this] { return queue_.size() < max_queued_ || first_error_; });
  --waiting_for_room_;
  rethrow_first_error_locked();
  queue_.push_back(Job{std::move(path), std::move(image)});
  lock.unlock();
  job_ready_.notify_one();
}

std::size_t PngWriterPool::waiting_for_room() {
  std::lock_guard lock(mutex_);
  return waiting_for_room_;
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
