// The flock statistics' totals, written by flock_summary.comp (populations) and
// flock_summary_total.comp (sums, in double); the CPU reads them back (FlockSummaryTotals in
// src/flock/gpu/flock_readback.cpp mirrors this layout). Cleared to zero before pass 0.
layout(std430, binding = MURMUR_BIND_SUMMARY_TOTALS) buffer SummaryTotalsBlock {
  dvec2 heading_sum;   // sum of unit velocities (pass 0)
  dvec2 position_sum;  // sum of positions (pass 0)
  double milling_sum;  // sum of (r x v) / (|r| |v|) around the centroid (pass 1)
  uint species_population[];  // boids per species (pass 0, atomic)
};
