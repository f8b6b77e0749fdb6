// The floor-plan generator's rules on the GPU, line for line the CPU reference's
// (src/plan/plan.cpp): Processing's PVector in float32, each operation `precise` so that no
// a*b+c is fused into one rounding the CPU does not make.
#include "plan/plan_buffers.glsl"

float plan_magnitude(vec2 v) {
  precise float squared = v.x * v.x + v.y * v.y;
  precise float m = sqrt(squared);
  return m;
}

// PVector.normalize: unchanged when the magnitude is 0 or 1.
vec2 plan_normalized(vec2 v) {
  float m = plan_magnitude(v);
  precise vec2 unit = v / m;
  return (m != 0.0 && m != 1.0) ? unit : v;
}

// PVector.limit.
vec2 plan_limited(vec2 v, float limit) {
  precise float squared = v.x * v.x + v.y * v.y;
  precise float limit_squared = limit * limit;
  precise vec2 shortened = plan_normalized(v) * limit;
  return squared > limit_squared ? shortened : v;
}

// Reynolds steering as origin 003 writes it.
vec2 plan_steer(vec2 desired, vec2 velocity) {
  precise vec2 aim = plan_normalized(desired) * plan.max_speed;
  precise vec2 change = aim - velocity;
  return plan_limited(change, plan.max_force);
}

float plan_distance(vec2 a, vec2 b) {
  precise vec2 d = a - b;
  return plan_magnitude(d);
}

// Java's float remainder v % m (the sign of v), exact: in double the quotient's integer part
// times m and the difference are exact while |v / m| < 2^29 (v < 5e9 for m = 10), and a
// quotient rounded up to the next integer is corrected.
float plan_remainder(float v, float m) {
  double dv = double(v);
  double dm = double(m);
  double quotient = trunc(dv / dm);
  precise double product = quotient * dm;
  precise double r = dv - product;
  if (r != 0.0lf && (r < 0.0lf) != (dv < 0.0lf)) r += dv < 0.0lf ? -dm : dm;
  if (abs(r) >= dm) r -= dv < 0.0lf ? -dm : dm;
  return float(r);
}

// plan_snapped (include/murmur/plan/plan.hpp): origin 003's snap across a move.
float plan_snapped(float v, float snap) {
  float remainder = plan_remainder(v, snap);
  precise float below = v - remainder;
  precise float half_snap = 0.5 * snap;
  precise float above = below + snap;
  return remainder < half_snap ? below : above;
}

// The clearance index's cell of a position (PlanPointIndex::cell_of).
ivec2 plan_index_cell(vec2 position) {
  precise float inverse_side = 1.0 / plan.index_cell_side;
  precise vec2 scaled = position * inverse_side;
  return ivec2(floor(scaled));
}

// Teschner et al.'s spatial hash, then Fibonacci hashing (the CPU's constants).
const uint kPlanHashPrimeX = 73856093u;
const uint kPlanHashPrimeY = 19349663u;
const uint kPlanGoldenRatio32 = 0x9e3779b1u;

uint plan_bucket(ivec2 cell, uint buckets) {
  uint hash = (uint(cell.x) * kPlanHashPrimeX) ^ (uint(cell.y) * kPlanHashPrimeY);
  int bits = findLSB(buckets);
  return (hash * kPlanGoldenRatio32) >> uint(32 - bits);
}

// The steering grid's cell of a location, clamped into the grid.
ivec2 plan_grid_cell(vec2 p) {
  precise vec2 scaled = (p - control.grid_origin) / control.grid_cell;
  ivec2 c = ivec2(floor(scaled));
  return clamp(c, ivec2(0), control.grid_cells - 1);
}

uint plan_grid_index(ivec2 c) { return uint(c.y) * uint(control.grid_cells.x) + uint(c.x); }

