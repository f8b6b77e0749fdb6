#version 450
// Live flock statistics, reduced per workgroup (flock_summary_total.comp adds the partials in
// double, on the GPU, so the whole summary is read back at once and never waited for).
// The passes (uniform summary_pass; docs/model.md, "Flock statistics"):
// - heading: unit-velocity sums, position sums and boids per species;
// - circle (only where a species wraps): cos and sin of each axis' angle 2 pi p / side;
// - milling: the sum of (r x v) / (|r| |v|), r the boid's offset from the centroid (the mean
//   position in walls, the circular mean per axis where a species wraps: then r is what the
//   boid's own species sees, the minimum image on a torus), and the count of boids beyond
//   MURMUR_MILLING_COMPACT_SHARE of the side from it on an axis.
// in: boids[0, population.live) (the current state, bound by FlockReadback), totals (the
// milling pass). out: partials[group] (heading: vec4(unit v sum, position sum); circle:
// vec4(x cos, x sin, y cos, y sin); milling: vec4(milling sum, beyond count, 0, 0)),
// totals.species_population (heading pass, atomic).
#include "flock/model.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"
#include "flock/summary_totals.glsl"

layout(std430, binding = MURMUR_BIND_SUMMARY_PARTIALS) writeonly buffer PartialsBlock {
  vec4 partials[];
};
uniform uint summary_pass;
uniform vec2 world_size;
uniform uint wrapping_species;  // bit s set: species s lives on a torus

// A whole turn: an axis of side L is a circle, position p at angle kTau * p / L.
const float kTau = 6.28318530718;

shared vec4 group_sums[MURMUR_STEP_GROUP_SIZE];

void main() {
  uint slot = linear_invocation_index();
  uint local = gl_LocalInvocationID.x;
  vec4 mine = vec4(0.0);
  uint boid_count = population.live;
  if (slot < boid_count) {
    Boid b = boids[slot];
    float speed = length(b.vel);
    if (summary_pass == MURMUR_SUMMARY_HEADING_PASS) {
      // A boid at rest adds no heading (docs/model.md, "Flock statistics").
      vec2 heading = speed > 0.0 ? b.vel / speed : vec2(0.0);
      mine = vec4(heading, b.pos);
      atomicAdd(species_population[b.species], 1u);
    } else if (summary_pass == MURMUR_SUMMARY_CIRCLE_PASS) {
      vec2 angle = kTau * b.pos / world_size;
      mine = vec4(cos(angle.x), sin(angle.x), cos(angle.y), sin(angle.y));
    } else {
      vec2 flock_centre;
      vec2 r;
      if (wrapping_species == 0u) {
        flock_centre = vec2(position_sum / double(boid_count));
        r = b.pos - flock_centre;
      } else {
        // The circular mean, from (-L/2, L/2] into [0, L). Where an axis' directions cancel
        // there is no centroid; the CPU then ignores this pass (FlockReadback).
        vec2 mean_angle = vec2(atan(float(circle_sum.y), float(circle_sum.x)),
                               atan(float(circle_sum.w), float(circle_sum.z)));
        flock_centre = world_size * mean_angle / kTau;
        flock_centre += mix(vec2(0.0), world_size, lessThan(flock_centre, vec2(0.0)));
        bool wraps = (wrapping_species & (1u << b.species)) != 0u;
        r = displacement(flock_centre, b.pos,
                         wraps ? MURMUR_TOPOLOGY_WRAP : MURMUR_TOPOLOGY_BOUNDED, world_size);
        if (any(greaterThan(abs(r), MURMUR_MILLING_COMPACT_SHARE * world_size))) mine.y = 1.0;
      }
      float radius = length(r);
      if (radius > 0.0 && speed > 0.0) {
        mine.x = (r.x * b.vel.y - r.y * b.vel.x) / (radius * speed);
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
