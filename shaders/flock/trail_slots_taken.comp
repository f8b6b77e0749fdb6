#version 450
// Trail slots, pass 1 (docs/gpu.md, "Trail slots"): marks the slot of every boid that survives
// the step. Slots are unique among the live, so no two invocations write one flag: no atomics.
// in: boids (the steered candidates of state t), population, species.
// out: slot_taken[trail slot] = 1 (zeroed before).
#include "flock/sim_buffers.glsl"
#define MURMUR_USES_SLOT_TAKEN
#include "flock/trail_slot_buffers.glsl"
#include "flock/model.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

void main() {
  uint slot = linear_invocation_index();
  if (slot >= population.live) return;
  Boid b = boids[slot];
  if (dies_in_step(species[b.species], b)) return;  // its trail slot is free for a child
  slot_taken[b.trail_slot] = 1u;
}
