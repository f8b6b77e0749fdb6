#version 450
// Trail slots, pass 2: lists the free slots in ascending order. The f-th free slot s has
// s - (taken slots below s) = f, so the exclusive prefix sum of the taken flags places it.
// in: slot_taken, slot_taken_before (its exclusive prefix sum), slot_count (the capacity).
// out: free_slots[f] for every free slot; births.comp gives child b the slot free_slots[b].
#include "common/common.glsl"
#define MURMUR_USES_SLOT_TAKEN
#define MURMUR_USES_SLOT_TAKEN_BEFORE
#define MURMUR_USES_FREE_SLOTS
#include "flock/trail_slot_buffers.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

uniform uint slot_count;

void main() {
  uint slot = linear_invocation_index();
  if (slot >= slot_count || slot_taken[slot] != 0u) return;
  free_slots[slot - slot_taken_before[slot]] = slot;
}
