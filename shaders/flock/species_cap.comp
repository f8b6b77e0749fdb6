#version 450
// The species cap (docs/model.md, "Births by energy"), for one capped species s at a time.
// Phase MURMUR_CAP_SELECT (over the capacity): child_offset = the wishes of s's boids, 0
// elsewhere, for the exclusive scan in slot order (the parent order) that gives each wish w_i.
// Phase MURMUR_CAP_APPLY (over the live boids): a wish of s is dropped, and counted, when
// L'_s + w_i >= max_count.
// in: boids (candidates), child_count, child_offset (scanned, APPLY), survivors, species,
// params, population. out: child_offset (SELECT), child_count, tally (dropped).
#include "flock/sim_buffers.glsl"
#include "flock/model.glsl"
#define MURMUR_USES_SURVIVORS
#define MURMUR_USES_TALLY
#include "flock/eco_buffers.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

uniform uint cap_phase;
uniform uint capped_species;

void main() {
  uint slot = linear_invocation_index();
  if (cap_phase == MURMUR_CAP_SELECT) {
    if (slot >= params.capacity) return;
    bool wish = slot < population.live && boids[slot].species == capped_species &&
                child_count[slot] != 0u;
    child_offset[slot] = wish ? 1u : 0u;
    return;
  }
  if (slot >= population.live) return;
  if (boids[slot].species != capped_species || child_count[slot] == 0u) return;
  if (survivors[capped_species] + child_offset[slot] < species[capped_species].max_count) return;
  child_count[slot] = 0u;
  tally_add(capped_species, MURMUR_TALLY_DROPPED, 1u);
}
