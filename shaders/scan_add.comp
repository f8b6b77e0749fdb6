#version 450
// Exclusive prefix sum, second half: adds each block's scanned offset to its values.
// in: block_offsets (the scanned block_sums of scan_blocks.comp). in/out: values.
#include "common.glsl"
layout(local_size_x = MURMUR_SCAN_GROUP_SIZE) in;
#include "compute_index.glsl"

layout(std430, binding = MURMUR_BIND_SCAN_IN) buffer ValuesBlock { uint values[]; };
layout(std430, binding = MURMUR_BIND_SCAN_SUMS) readonly buffer OffsetsBlock { uint block_offsets[]; };
uniform uint element_count;

const uint kBlockSize = MURMUR_SCAN_GROUP_SIZE * MURMUR_SCAN_ITEMS_PER_THREAD;

void main() {
  uint index = linear_invocation_index();
  if (index >= element_count) return;
  values[index] += block_offsets[index / kBlockSize];
}
