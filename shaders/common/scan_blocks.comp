#version 450
// Exclusive prefix sum, first half: each workgroup scans its block of
// MURMUR_SCAN_GROUP_SIZE * MURMUR_SCAN_ITEMS_PER_THREAD values in place and writes the block's
// total to block_sums. GpuScan scans block_sums the same way (recursively) and then
// scan_add.comp adds each block's offset, so any number of cells works. Workgroups past the
// scan's length (scan_count.glsl) return at once.
// in: scan_counts. in/out: values[scan_length()]. out: block_sums[blocks].
#include "common/common.glsl"
layout(local_size_x = MURMUR_SCAN_GROUP_SIZE) in;
#include "common/compute_index.glsl"

layout(std430, binding = MURMUR_BIND_SCAN_IN) buffer ValuesBlock { uint values[]; };
layout(std430, binding = MURMUR_BIND_SCAN_SUMS) writeonly buffer SumsBlock { uint block_sums[]; };

const uint kBlockSize = MURMUR_SCAN_GROUP_SIZE * MURMUR_SCAN_ITEMS_PER_THREAD;
#include "common/scan_count.glsl"
shared uint thread_totals[MURMUR_SCAN_GROUP_SIZE];

void main() {
  uint scanned = scan_length();
  // The same for the whole workgroup: no invocation leaves before a barrier the others reach.
  if (linear_group_index() * kBlockSize >= scanned) return;
  uint local = gl_LocalInvocationID.x;
  uint first = linear_group_index() * kBlockSize + local * MURMUR_SCAN_ITEMS_PER_THREAD;

  // Each thread scans its own consecutive items serially.
  uint items[MURMUR_SCAN_ITEMS_PER_THREAD];
  uint running = 0u;
  for (uint k = 0u; k < MURMUR_SCAN_ITEMS_PER_THREAD; ++k) {
    uint index = first + k;
    uint value = index < scanned ? values[index] : 0u;
    items[k] = running;
    running += value;
  }
  thread_totals[local] = running;
  barrier();

  // Inclusive Hillis-Steele scan of the thread totals in shared memory.
  for (uint offset = 1u; offset < MURMUR_SCAN_GROUP_SIZE; offset <<= 1) {
    uint addend = local >= offset ? thread_totals[local - offset] : 0u;
    barrier();  // every read of this round happens before any write
    thread_totals[local] += addend;
    barrier();  // every write of this round is seen by the next round's reads
  }
  uint thread_offset = local > 0u ? thread_totals[local - 1u] : 0u;

  for (uint k = 0u; k < MURMUR_SCAN_ITEMS_PER_THREAD; ++k) {
    uint index = first + k;
    if (index < scanned) values[index] = thread_offset + items[k];
  }
  if (local == MURMUR_SCAN_GROUP_SIZE - 1u) block_sums[linear_group_index()] = thread_totals[local];
}
