// The ribbons' history (trail_record.comp writes it, trail_ribbon.vert reads it): per trail
// slot, a ring of (position, velocity) entries and the owner whose history it holds.
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
  vec4 trail_ring[];  // (position, velocity), ring_length entries per trail slot
};
layout(std430, binding = MURMUR_BIND_TRAIL_OWNERS) buffer TrailOwnersBlock {
  TrailOwner trail_owners[];  // per trail slot
};
