// The ecosystem's working buffers (docs/gpu.md, "An ecosystem"). Like trail_slot_buffers.glsl,
// a pass declares only those it uses (Mesa's limit of 16 storage blocks per compute shader),
// by defining first: MURMUR_USES_FOOD, MURMUR_USES_FOOD_GRAZERS, MURMUR_USES_HUNT,
// MURMUR_USES_TALLY, MURMUR_USES_SURVIVORS.

#ifdef MURMUR_USES_FOOD
layout(std430, binding = MURMUR_BIND_FOOD) buffer FoodBlock {
  float food[];  // f_c of state t, row by row; food_update.comp makes it state t+1
};
#endif

#ifdef MURMUR_USES_FOOD_GRAZERS
layout(std430, binding = MURMUR_BIND_FOOD_GRAZERS) buffer FoodGrazersBlock {
  uint food_grazers[];  // n_c: grazers of state t in each food cell
};
#endif

#ifdef MURMUR_USES_HUNT
// Per sorted slot of state t (docs/model.md, "Catching"):
//   x: the slot of the prey it strikes, or MURMUR_NO_STRIKE; y: that prey's dist_sq (float
//   bits), both written by steer; z: 1 when it eats its prey (catch.comp writes the winner's,
//   each hunter at most once, so no atomics); w: the id of the hunter that ate it, or
//   MURMUR_NO_STRIKE (catch.comp, for its own slot).
layout(std430, binding = MURMUR_BIND_HUNT) buffer HuntBlock {
  uvec4 hunt[];
};
#endif

#ifdef MURMUR_USES_TALLY
// SpeciesTally (common.glsl) seen as its counters: counter c of species s is
// tally_counters[s * MURMUR_TALLY_COUNTERS + c] = (low word, high word).
layout(std430, binding = MURMUR_BIND_TALLY) buffer TallyBlock {
  uvec2 tally_counters[];
};

// Adds to a 64-bit counter: atomicAdd returns each invocation a distinct old low word, so
// exactly one addition sees the low word wrap and carries. The total does not depend on the
// order, so no decision does either.
void tally_add(uint species_index, uint counter, uint amount) {
  uint index = species_index * MURMUR_TALLY_COUNTERS + counter;
  uint old = atomicAdd(tally_counters[index].x, amount);
  if (old + amount < old) atomicAdd(tally_counters[index].y, 1u);
}
#endif

#ifdef MURMUR_USES_SURVIVORS
layout(std430, binding = MURMUR_BIND_SURVIVORS) buffer SurvivorsBlock {
  uint survivors[];  // L'_s: boids of species s that survive the step (settle.comp counts)
};
#endif
