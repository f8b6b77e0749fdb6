// The trail slots' working buffers (docs/gpu.md, "Trail slots"). Mesa counts every declared
// storage block against the limit of 16 per compute shader, and sim_buffers.glsl declares up
// to 14, so a pass that includes both defines which of these it uses first:
// MURMUR_USES_SLOT_TAKEN, MURMUR_USES_SLOT_TAKEN_BEFORE, MURMUR_USES_FREE_SLOTS.

#ifdef MURMUR_USES_SLOT_TAKEN
layout(std430, binding = MURMUR_BIND_SLOT_TAKEN) buffer SlotTakenBlock {
  uint slot_taken[];  // 1 where a boid that survives the step holds the trail slot
};
#endif

#ifdef MURMUR_USES_SLOT_TAKEN_BEFORE
layout(std430, binding = MURMUR_BIND_SLOT_TAKEN_BEFORE) buffer SlotTakenBeforeBlock {
  uint slot_taken_before[];  // exclusive prefix sum of slot_taken
};
#endif

#ifdef MURMUR_USES_FREE_SLOTS
layout(std430, binding = MURMUR_BIND_FREE_SLOTS) buffer FreeSlotsBlock {
  uint free_slots[];  // the free trail slots, ascending
};
#endif
