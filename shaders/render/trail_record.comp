#version 450 core
#include "render/bindings.h"
// Ribbons: writes every live boid's position and velocity into the ring of its trail slot
// (MURMUR_3D: from the 48-byte records, into entries of two vec4s).
// The ring is indexed by the boid's trail slot (kept for life, docs/gpu.md), not its buffer
// slot: the grid re-sorts the records every step, and a ring by record would stitch one boid's
// past to another's. A slot's owner says whose history the ring holds and since when, so a
// child that inherits a dead boid's slot starts a ribbon of its own.
#include "render/render_boids.glsl"
#include "render/render_trails.glsl"

layout(local_size_x = MURMUR_RENDER_GROUP_SIZE) in;
#include "common/compute_index.glsl"

uniform uint u_slot_count;      // trail slots the ring holds
uniform uint u_ring_length;
uniform uint u_generation;      // this record_step's number; it writes entry u_generation % length
uniform uint u_history_start;   // the first generation since the trails were last forgotten

void main() {
  uint record = linear_invocation_index();  // dispatched folded, like the simulation
  if (record >= min(render_live_count, u_slot_count)) return;
  Boid boid = render_boids[record];
  if (boid.trail_slot >= u_slot_count) return;  // not a valid slot: drop, never write out of range
  TrailOwner owner = trail_owners[boid.trail_slot];
  bool continues = owner.id == boid.id && owner.last_generation + 1u == u_generation &&
                   owner.last_generation >= u_history_start;
  trail_owners[boid.trail_slot] =
      TrailOwner(boid.id, boid.species, continues ? owner.first_generation : u_generation,
                 u_generation, boid.energy);
  uint entry = ring_entry_index(boid.trail_slot, u_ring_length, u_generation);
#ifdef MURMUR_3D
  trail_ring[entry] = vec4(position_of(boid), 0.0);
  trail_ring[entry + 1u] = vec4(velocity_of(boid), 0.0);
#else
  trail_ring[entry] = vec4(boid.pos, boid.vel);
#endif
}
