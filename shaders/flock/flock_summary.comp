#version 450
// Live flock statistics, reduced per workgroup (flock_summary_total.comp adds the partials in
// double, on the GPU, so the whole summary is read back at once and never waited for).
// Pass `summary_pass` 0: unit-velocity sums, position sums and boids per species.
// Pass 1 (the centroid is position_sum / population.live from pass 0's totals): the milling
// sum of (r x v) / (|r| |v|) with r = p - centroid.
// in: boids[0, population.live) (the current state, bound by FlockReadback), totals (pass 1). out: partials[group] (pass 0: vec4(unit v sum,
// position sum); pass 1: vec4(milling sum, 0, 0, 0)), totals.species_population (pass 0, atomic).
#include "flock/sim_buffers.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"
#include "flock/summary_totals.glsl"

layout(std430, binding = MURMUR_BIND_SUMMARY_PARTIALS) writeonly buffer PartialsBlock {
  vec4 partials[];
};
uniform uint summary_pass;

shared vec4 group_sums[MURMUR_STEP_GROUP_SIZE];

void main() {
  uint slot = linear_invocation_index();
  uint local = gl_LocalInvocationID.x;
  vec4 mine = vec4(0.0);
  uint boid_count = population.live;
  if (slot < boid_count) {
    Boid b = boids[slot];
    float speed = length(b.vel);
    if (summary_pass == 0u) {
      // A boid at rest adds no heading (docs/model.md, "Flock statistics").
      vec2 heading = speed > 0.0 ? b.vel / speed : vec2(0.0);
      mine = vec4(heading, b.pos);
      atomicAdd(species_population[b.species], 1u);
    } else {
      vec2 flock_centre = vec2(position_sum / double(boid_count));
      vec2 r = b.pos - flock_centre;
      float radius = length(r);
      if (radius > 0.0 && speed > 0.0) {
        mine = vec4((r.x * b.vel.y - r.y * b.vel.x) / (radius * speed), 0.0, 0.0, 0.0);
      }
    }
  }
  group_sums[local] = mine;
  barrier();
  // Tree reduction in shared memory; MURMUR_STEP_GROUP_SIZE is a power of two.
  for (uint stride = MURMUR_STEP_GROUP_SIZE / 2u; stride > 0u; stride >>= 1) {
    if (local < stride) group_sums[local] += group_sums[local + stride];
    barrier();
  }
  if (local == 0u) partials[linear_group_index()] = group_sums[0];
}
