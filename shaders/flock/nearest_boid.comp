#version 450
// Finds the boid nearest to `point` (the cursor, when the user picks a boid to steer), with
// the distance each boid's species sees (the minimum image on a torus). Two passes:
// pass 0 keeps the smallest distance (atomicMin on its bits: non-negative floats order like
// their bit patterns); pass 1 keeps the smallest id among the boids at exactly that distance,
// so a tie resolves the same way on every run.
// in: boids[0, population.live). out: nearest (cleared by the caller to all ones: distance_bits
// stays all ones, a NaN no distance has, when there is no boid).
#include "flock/model.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

layout(std430, binding = MURMUR_BIND_NEAREST_BOID) buffer NearestBoidBlock {
  uint distance_bits;
  uint nearest_id;
};
uniform uint nearest_pass;
uniform vec2 point;
uniform vec2 world_size;
uniform uint wrapping_species;  // bit s set: species s lives on a torus

void main() {
  uint slot = linear_invocation_index();
  if (slot >= population.live) return;
  Boid b = boids[slot];
  bool wraps = (wrapping_species & (1u << b.species)) != 0u;
  uint topology = wraps ? MURMUR_TOPOLOGY_WRAP : MURMUR_TOPOLOGY_BOUNDED;
  uint bits = floatBitsToUint(length(displacement(point, b.pos, topology, world_size)));
  if (nearest_pass == 0u) {
    atomicMin(distance_bits, bits);
  } else if (bits == distance_bits) {
    atomicMin(nearest_id, b.id);
  }
}
