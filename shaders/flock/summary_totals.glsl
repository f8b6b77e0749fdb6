// The flock statistics' totals, written by flock_summary.comp (populations) and
// flock_summary_total.comp (sums, in double); the CPU reads them back (SummaryTotals in
// src/flock/gpu/flock_readback.cpp mirrors this layout). Cleared to zero before the first pass.
layout(std430, binding = MURMUR_BIND_SUMMARY_TOTALS) buffer SummaryTotalsBlock {
  dvec2 heading_sum;   // sum of unit velocities (heading pass)
  dvec2 position_sum;  // sum of positions (heading pass)
  // Sums of cos and sin of each axis' angle 2 pi p / side: (x cos, x sin, y cos, y sin)
  // (circle pass, only where a species wraps).
  dvec4 circle_sum;
  double milling_sum;  // sum of (r x v) / (|r| |v|) around the centroid (milling pass)
  // Boids farther than MURMUR_MILLING_COMPACT_SHARE of the side from the centroid on an axis
  // (milling pass; counted where a species wraps, 0 otherwise).
  double beyond_compact;
  uint species_population[];  // boids per species (heading pass, atomic)
};
