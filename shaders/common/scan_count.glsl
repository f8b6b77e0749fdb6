// The length a scan pass takes (GpuScan): its element_count, or, when scan_count_word names one,
// fewer: the count the GPU wrote in that word of scan_counts (values[0 .. count) at level 0),
// divided into blocks once per level above, so that no readback sizes the passes. After
// compute_index.glsl and a kBlockSize.
layout(std430, binding = MURMUR_BIND_SCAN_COUNT) readonly buffer ScanCountBlock {
  uint scan_counts[];
};
uniform uint element_count;    // the most values of this level: what the dispatch covers
uniform uint scan_count_word;  // MURMUR_SCAN_NO_COUNT, or the word of scan_counts
uniform uint scan_level;       // 0 for the values, 1 for their block totals, ...

uint scan_length() {
  if (scan_count_word == MURMUR_SCAN_NO_COUNT) return element_count;
  uint n = scan_counts[scan_count_word];
  for (uint level = 0u; level < scan_level; ++level) n = (n + kBlockSize - 1u) / kBlockSize;
  return min(n, element_count);
}
