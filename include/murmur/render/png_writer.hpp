#pragma once
// PNG output for recorded frames: written through an AtomicFile (murmur/base/atomic_file.hpp), and a
// small pool of encoder threads so the GPU renders frame k+1 while frame k is compressed.
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "murmur/base/image.hpp"

namespace murmur {

// "frame_000012.png" for index 12: a fixed-width counter from 0, so names sort in frame order
// and ffmpeg's image2 demuxer reads them with kFramePattern.
inline constexpr const char* kFramePattern = "frame_%06d.png";
std::string frame_file_name(std::uint32_t index);
// Whether `name` is a frame file name (frame_ + digits + .png); gives its index if so.
bool parse_frame_file_name(const std::string& name, std::uint32_t& index);

// Writes `image` as a PNG at `path`, streamed from the encoder into an AtomicFile: on failure
// the temporary is removed and OutputError names `path`; a file already at `path` is then left
// as it was.
void write_png(const std::filesystem::path& path, const RgbaImage& image);

// Encoder threads fed through a bounded queue: submit() blocks while the queue is full, so at
// most `max_queued` images wait in memory besides the ones being encoded. The first error a
// worker meets is rethrown on the submitting thread by the next submit() or by finish(); later
// jobs are then skipped.
class PngWriterPool {
 public:
  using WriteFunction = std::function<void(const std::filesystem::path&, const RgbaImage&)>;

  static unsigned default_thread_count();  // 2..4, by the hardware's thread count
  // The most images a pool of `threads` holds at once with the default queue: those queued
  // and those being encoded (the memory estimate, docs/reliability.md).
  static std::size_t most_images_held(unsigned threads);

  explicit PngWriterPool(unsigned threads = default_thread_count(), std::size_t max_queued = 0,
                         WriteFunction write = write_png);  // max_queued 0: 2 per thread
  ~PngWriterPool();  // drops jobs not yet started and joins; never throws (call finish())
  PngWriterPool(const PngWriterPool&) = delete;
  PngWriterPool& operator=(const PngWriterPool&) = delete;

  void submit(std::filesystem::path path, RgbaImage image);
  // Waits until every submitted image is written; rethrows the first worker error.
  void finish();
  // How many submit() calls wait for room now: the encoders are the bottleneck while any do.
  std::size_t waiting_for_room();

 private:
  struct Job {
    std::filesystem::path path;
    RgbaImage image;
  };
  void work();
  void rethrow_first_error_locked();

  WriteFunction write_;
  std::size_t max_queued_;
  std::mutex mutex_;
  std::condition_variable job_ready_;   // workers wait for jobs (or stopping_)
  std::condition_variable space_free_;  // submit waits for room; finish waits for idle
  std::deque<Job> queue_;
  std::size_t busy_ = 0;  // jobs taken by a worker and not yet done
  std::size_t waiting_for_room_ = 0;
  bool stopping_ = false;
  std::exception_ptr first_error_;
  std::vector<std::thread> threads_;
};

}  // namespace murmur
