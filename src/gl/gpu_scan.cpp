#include "murmur/gl/gpu_scan.hpp"

#include <algorithm>
#include <string>

#include "common/interface.h"
#include "murmur/base/errors.hpp"
#include "murmur/gl/dispatch.hpp"
#include "murmur/gl/gl.hpp"

namespace murmur {
namespace {

constexpr std::uint32_t kScanBlock = MURMUR_SCAN_GROUP_SIZE * MURMUR_SCAN_ITEMS_PER_THREAD;

using gl::dispatch_linear;  // folded past GL's per-dimension limit (murmur/gl/dispatch.hpp)
using gl::groups_for;

// Shader-storage writes of one pass become visible to the next pass's reads.
void storage_barrier() { glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT); }

// The bytes of each level's block totals for a scan of `max_length` values.
std::vector<std::size_t> level_sum_bytes(std::uint32_t max_length) {
  std::vector<std::size_t> levels;
  for (std::uint32_t n = max_length;;) {
    const std::uint32_t blocks = groups_for(n, kScanBlock);
    levels.push_back(sizeof(std::uint32_t) * std::max(blocks, 1u));
    if (blocks <= 1) return levels;
    n = blocks;
  }
}

}  // namespace

GpuScan::GpuScan(std::uint32_t max_length) : max_length_(max_length) {
  for (const std::size_t bytes : level_sum_bytes(max_length)) {
    level_sums_.emplace_back("scan block totals level " + std::to_string(level_sums_.size()), bytes);
  }
}

std::size_t GpuScan::bytes_for(std::uint32_t max_length) {
  std::size_t total = 0;
  for (const std::size_t bytes : level_sum_bytes(max_length)) total += bytes;
  return total;
}

void GpuScan::run(const gl::Buffer& values, std::uint32_t n) const {
  if (n > max_length_) {
    throw GpuError("internal: scan of " + std::to_string(n) + " values exceeds its allocation");
  }
  // The passes declare the count's buffer: something is bound there, never read.
  values.bind_storage(MURMUR_BIND_SCAN_COUNT);
  if (n > 0) run_level(values, n, 0, MURMUR_SCAN_NO_COUNT);
}

void GpuScan::run(const gl::Buffer& values, std::uint32_t n, const gl::Buffer& counts,
                  std::size_t count_offset) const {
  if (n > max_length_ || count_offset % sizeof(std::uint32_t) != 0 ||
      count_offset + sizeof(std::uint32_t) > counts.size()) {
    throw GpuError("internal: scan of " + std::to_string(n) + " values counted at byte " +
                   std::to_string(count_offset) + " exceeds its allocation");
  }
  counts.bind_storage(MURMUR_BIND_SCAN_COUNT);
  if (n > 0) {
    run_level(values, n, 0, static_cast<std::uint32_t>(count_offset / sizeof(std::uint32_t)));
  }
}

void GpuScan::run_level(const gl::Buffer& values, std::uint32_t n, std::size_t level,
                        std::uint32_t count_word) const {
  const std::uint32_t blocks = groups_for(n, kScanBlock);
  const auto level_number = static_cast<std::uint32_t>(level);
  values.bind_storage(MURMUR_BIND_SCAN_IN);
  level_sums_[level].bind_storage(MURMUR_BIND_SCAN_SUMS);
  blocks_pass_.use();
  blocks_count_.set(n);
  blocks_word_.set(count_word);
  blocks_level_.set(level_number);
  dispatch_linear(blocks);
  storage_barrier();  // scan_blocks writes values + block totals; the next level reads them
  if (blocks <= 1) return;
  run_level(level_sums_[level], blocks, level + 1, count_word);
  values.bind_storage(MURMUR_BIND_SCAN_IN);
  level_sums_[level].bind_storage(MURMUR_BIND_SCAN_SUMS);
  add_pass_.use();
  add_count_.set(n);
  add_word_.set(count_word);
  add_level_.set(level_number);
  dispatch_linear(groups_for(n, MURMUR_SCAN_GROUP_SIZE));
  storage_barrier();  // scan_add writes values; the caller's next pass reads them
}

}  // namespace murmur
