#pragma once
// An exclusive prefix sum over a buffer of uints in place, on the GPU (docs/gpu.md, "Scan"):
// shared by the flock's passes and the floor plan's. Needs a current GL 4.5 context.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "murmur/gl/objects.hpp"
#include "murmur/gl/program.hpp"

namespace murmur {

// For any length: scan blocks, scan the block totals the same way one level up, then add each
// block's offset. Binds MURMUR_BIND_SCAN_IN, MURMUR_BIND_SCAN_SUMS and MURMUR_BIND_SCAN_COUNT.
class GpuScan {
 public:
  explicit GpuScan(std::uint32_t max_length);
  // The bytes of the block totals a scan of `max_length` values allocates (the memory
  // estimate, docs/reliability.md).
  static std::size_t bytes_for(std::uint32_t max_length);
  // values[0 .. n) -> their exclusive prefix sums; n at most max_length.
  void run(const gl::Buffer& values, std::uint32_t n) const;
  // values[0 .. count) -> their exclusive prefix sums, where count is the uint32 at byte
  // `count_offset` (a multiple of 4) of `counts` as the GPU's earlier passes left it, at most n
  // (no readback): the passes are dispatched for n values, and their workgroups past count
  // return at once. values[count .. n) are left as they are.
  void run(const gl::Buffer& values, std::uint32_t n, const gl::Buffer& counts,
           std::size_t count_offset) const;

 private:
  // `count_word`: MURMUR_SCAN_NO_COUNT, or the word of `counts` that holds the count.
  void run_level(const gl::Buffer& values, std::uint32_t n, std::size_t level,
                 std::uint32_t count_word) const;

  std::uint32_t max_length_;
  gl::Program blocks_pass_ = gl::Program::compute("common/scan_blocks.comp");
  gl::Program add_pass_ = gl::Program::compute("common/scan_add.comp");
  gl::Uniform blocks_count_{blocks_pass_, "element_count"}, add_count_{add_pass_, "element_count"};
  gl::Uniform blocks_word_{blocks_pass_, "scan_count_word"}, add_word_{add_pass_, "scan_count_word"};
  gl::Uniform blocks_level_{blocks_pass_, "scan_level"}, add_level_{add_pass_, "scan_level"};
  std::vector<gl::Buffer> level_sums_;  // block totals, one buffer per level
};

}  // namespace murmur
