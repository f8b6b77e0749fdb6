#version 450
// Births (docs/model.md, "Births"): every parent writes its children after the boids of state
// t, at L + its exclusive prefix sum of children (parent order = slot order = cell order),
// with ids next_id + that index, and trail slot free_slots[that index] (docs/gpu.md, "Trail
// slots"). No atomics: the scans decide every slot, id and trail slot.
// in: boids (state t+1 candidates of the parents), child_count, child_offset, free_slots,
// population, params. out: boids[L + b] for each child born (L + b < capacity).
#include "sim_buffers.glsl"
#define MURMUR_USES_FREE_SLOTS
#include "trail_slot_buffers.glsl"
#include "model.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "compute_index.glsl"

void main() {
  uint slot = linear_invocation_index();
  uint live = population.live;
  if (slot >= live) return;
  uint children = child_count[slot];
  if (children == 0u) return;
  uint total = child_offset[live - 1u] + child_count[live - 1u];
  Boid parent_after = boids[slot];
  for (uint k = 0u; k < children; ++k) {
    uint birth = child_offset[slot] + k;
    if (params.fault == MURMUR_FAULT_REVERSED_BIRTHS) birth = total - 1u - birth;
    // L + b < C written as b < C - L, which cannot overflow: L <= C always.
    if (birth >= params.capacity - live) continue;
    Boid child = child_of(parent_after, k, population.next_id + birth);
    // At least C - L slots are free (at most L boids survive), and birth < C - L.
    child.trail_slot = free_slots[birth];
    boids[live + birth] = child;
  }
}
