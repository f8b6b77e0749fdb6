#version 450
// Live flock statistics, reduced per workgroup (the CPU adds the few partial sums in double).
// Pass `summary_pass` 0: unit-velocity sums, position sums and boids per species.
// Pass 1 (centroid known): the milling sum of (r x v) / (|r| |v|) with r = p - centroid.
// in: sorted_boids (the current state), population. out: partials[group] (pass 0: vec4(unit v sum, position sum);
// pass 1: vec4(milling sum, 0, 0, 0)), species_population (pass 0, atomic).
#include "sim_buffers.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "compute_index.glsl"

layout(std430, binding = MURMUR_BIND_SUMMARY_PARTIALS) writeonly buffer PartialsBlock {
  vec4 partials[];
};
layout(std430, binding = MURMUR_BIND_SPECIES_POPULATION) buffer SpeciesPopulationBlock {
  uint species_population[];
};
uniform uint summary_pass;
uniform vec2 flock_centroid;

shared vec4 group_sums[MURMUR_STEP_GROUP_SIZE];

void main() {
  uint slot = linear_invocation_index();
  uint local = gl_LocalInvocationID.x;
  vec4 mine = vec4(0.0);
  if (slot < population.live) {
    Boid b = sorted_boids[slot];
    float speed = length(b.vel);
    if (summary_pass == 0u) {
      // A boid at rest adds no heading (docs/model.md, "Flock statistics").
      vec2 heading = speed > 0.0 ? b.vel / speed : vec2(0.0);
      mine = vec4(heading, b.pos);
      atomicAdd(species_population[b.species], 1u);
    } else {
      vec2 r = b.pos - flock_centroid;
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
