#version 450
// Finds the boid with id `wanted_id` wherever the grid's sort put it (ids are any unique
// uint32, so its slot cannot be computed): each invocation compares one boid's id, and the
// match writes its record.
// in: boids[0, population.live). out: found (cleared to zero by the caller: matches 0 = not found).
#include "flock/sim_buffers.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

layout(std430, binding = MURMUR_BIND_FOUND_BOID) buffer FoundBoidBlock {
  Boid found;
  uint matches;  // 1 when found; more would mean duplicate ids
};
uniform uint wanted_id;

void main() {
  uint slot = linear_invocation_index();
  if (slot >= population.live || boids[slot].id != wanted_id) return;
  found = boids[slot];
  atomicAdd(matches, 1u);
}
