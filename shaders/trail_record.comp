#version 450 core
// Ribbons: writes every boid's position and velocity into its own ring of recent positions.
// The ring is indexed by the boid's stable id, not its slot: the grid re-sorts the slots every
// step, and a ring by slot would stitch one boid's past to another's.
#include "common.glsl"

layout(local_size_x = MURMUR_RENDER_GROUP_SIZE) in;
#include "compute_index.glsl"

layout(std430, binding = MURMUR_BIND_RENDER_BOIDS) readonly buffer RenderBoidsBlock {
  Boid render_boids[];
};
layout(std430, binding = MURMUR_BIND_TRAIL_RING) writeonly buffer TrailRingBlock {
  vec4 trail_ring[];  // (position, velocity), ring_length entries per id
};
layout(std430, binding = MURMUR_BIND_TRAIL_SPECIES) writeonly buffer TrailSpeciesBlock {
  uint trail_species[];  // per id
};

uniform uint u_boid_count;
uniform uint u_ring_length;
uniform uint u_cursor;  // the ring entry this step writes

void main() {
  uint slot = linear_invocation_index();  // dispatched folded, like the simulation
  if (slot >= u_boid_count) return;
  Boid boid = render_boids[slot];
  if (boid.id >= u_boid_count) return;  // not a valid id: drop rather than write out of range
  trail_ring[boid.id * u_ring_length + u_cursor] = vec4(boid.pos, boid.vel);
  trail_species[boid.id] = boid.species;
}
