#version 450
// Births (docs/model.md, "Births"): every parent writes its children after the boids of state
// t, at L + its exclusive prefix sum of children (parent order = slot order = cell order),
// with ids next_id + that index, and trail slot free_slots[that index] (docs/gpu.md, "Trail
// slots"). No atomics decide anything: the scans decide every slot, id and trail slot; the
// tallies of children born and dropped are counts.
// The child is the budding rule's when that test-only rule is on, else the energy rule's
// (docs/model.md, "Births by energy"): then a parent whose child is born keeps half its energy.
// in: boids (state t+1 candidates of the parents), child_count, child_offset, free_slots,
// population, species, params. out: boids[L + b] for each child born (L + b < capacity), the
// parents' energy, tally (born, dropped).
#include "flock/sim_buffers.glsl"
#define MURMUR_USES_FREE_SLOTS
#include "flock/trail_slot_buffers.glsl"
#include "flock/model.glsl"
#define MURMUR_USES_TALLY
#include "flock/eco_buffers.glsl"
// A 3D world has no ecosystem (docs/model.md, "World and state in 3D"), so no births by energy:
// only the budding rule's.
#ifndef MURMUR_3D
#include "flock/ecosystem.glsl"
#endif
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

uniform uvec2 birth_step;  // the step being taken (low word, high word): keys the Philox draws

void main() {
  uint slot = linear_invocation_index();
  uint live = population.live;
  if (slot >= live) return;
  uint children = child_count[slot];
  if (children == 0u) return;
  uint total = child_offset[live - 1u] + child_count[live - 1u];
  Boid parent_after = boids[slot];
  Species s = species[parent_after.species];
  bool budding = params.budding_period != 0u;
  uint born = 0u;
  for (uint k = 0u; k < children; ++k) {
    uint birth = child_offset[slot] + k;
    if (params.fault == MURMUR_FAULT_REVERSED_BIRTHS) birth = total - 1u - birth;
    // L + b < C written as b < C - L, which cannot overflow: L <= C always.
    if (birth >= params.capacity - live) continue;
    uint id = population.next_id + birth;
#ifdef MURMUR_3D
    Boid child = child_of(parent_after, k, id);
#else
    Boid child = budding ? child_of(parent_after, k, id)
                         : child_by_energy(s, parent_after, id, birth_step);
#endif
    // At least C - L slots are free (at most L boids survive), and birth < C - L.
    child.trail_slot = free_slots[birth];
    boids[live + birth] = child;
    ++born;
  }
  if (born > 0u) tally_add(parent_after.species, MURMUR_TALLY_BORN, born);
  if (born < children) tally_add(parent_after.species, MURMUR_TALLY_DROPPED, children - born);
#ifndef MURMUR_3D
  if (!budding && born > 0u) boids[slot].energy = parent_share(parent_after.energy);
#endif
}
