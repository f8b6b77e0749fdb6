// The ribbons' history (trail_record.comp writes it, trail_ribbon.vert and trail_ribbon_3d.vert
// read it): per trail slot, a ring of (position, velocity) entries and the owner whose history
// it holds.
#include "render/bindings.h"

// Whose ribbon a trail slot holds: its entries of generations first_generation ..
// last_generation (at most the ring's length of them) are that boid's. A slot whose
// last_generation is not the newest holds no live boid and is not drawn.
struct TrailOwner {
  uint id;
  uint species;
  uint first_generation;
  uint last_generation;
  float energy;  // at last_generation: a ribbon coloured by health shows its boid's now
};

layout(std430, binding = MURMUR_BIND_TRAIL_RING) buffer TrailRingBlock {
  vec4 trail_ring[];  // ring_length entries per trail slot, kRibbonEntryVec4s vec4s each
};
layout(std430, binding = MURMUR_BIND_TRAIL_OWNERS) buffer TrailOwnersBlock {
  TrailOwner trail_owners[];  // per trail slot
};

#ifdef MURMUR_3D
const uint kRibbonEntryVec4s = MURMUR_RIBBON_ENTRY_VEC4S_3D;  // (position, 0), (velocity, 0)
#else
const uint kRibbonEntryVec4s = MURMUR_RIBBON_ENTRY_VEC4S_2D;  // (position, velocity)
#endif

// The first vec4 of a trail slot's entry of generation `generation`.
uint ring_entry_index(uint trail_slot, uint ring_length, uint generation) {
  return (trail_slot * ring_length + generation % ring_length) * kRibbonEntryVec4s;
}
