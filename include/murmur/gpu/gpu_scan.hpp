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
// block's offset. Binds MURMUR_BIND_SCAN_IN and MURMUR_BIND_SCAN_SUMS.
class GpuScan {
 public:
  explicit GpuScan(std::uint32_t max_length);
  // values[0 .. n) -> their exclusive prefix sums; n at most max_length.
  void run(const gl::Buffer& values, std::uint32_t n) const;

 private:
  void run_level(const gl::Buffer& values, std::uint32_t n, std::size_t level) const;

  std::uint32_t max_length_;
  gl::Program blocks_pass_ = gl::Program::compute("scan_blocks.comp");
  gl::Program add_pass_ = gl::Program::compute("scan_add.comp");
  gl::Uniform blocks_count_{blocks_pass_, "element_count"}, add_count_{add_pass_, "element_count"};
  std::vector<gl::Buffer> level_sums_;  // block totals, one buffer per level
};

}  // namespace murmur
