#version 450
// Exclusive prefix sum, second half: adds each block's scanned offset to its values.
// in: scan_counts, block_offsets (the scanned block_sums of scan_blocks.comp). in/out: values.
#include "common/common.glsl"
layout(local_size_x = MURMUR_SCAN_GROUP_SIZE) in;
#include "common/compute_index.glsl"

layout(std430, binding = MURMUR_BIND_SCAN_IN) buffer ValuesBlock { uint values[]; };
layout(std430, binding = MURMUR_BIND_SCAN_SUMS) readonly buffer OffsetsBlock { uint block_offsets[]; };

const uint kBlockSize = MURMUR_SCAN_GROUP_SIZE * MURMUR_SCAN_ITEMS_PER_THREAD;
#include "common/scan_count.glsl"

void main() {
  uint index = linear_invocation_index();
  if (index >= scan_length()) return;
  values[index] += block_offsets[index / kBlockSize];
}
