#version 450
// The ecosystem's settling of each candidate of state t (docs/model.md, "An ecosystem",
// steps 5-7): the prey's energy for the fed hunters, the E_max cap, starvation, the
// survivors per species and, under the energy birth rule, who wants a child.
// in: boids (candidates with energy e3 and fate), hunt.z (fed), species, params, population.
// out: boids[slot].energy = e', .fate (STARVED); survivors[species] (atomicAdd, zeroed before:
// a count, whose total does not depend on order); child_count[slot] (energy births on).
#include "flock/sim_buffers.glsl"
#include "flock/model.glsl"
#define MURMUR_USES_HUNT
#define MURMUR_USES_SURVIVORS
#include "flock/eco_buffers.glsl"
#include "flock/ecosystem.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

void main() {
  uint slot = linear_invocation_index();
  if (slot >= population.live) return;
  Boid b = boids[slot];
  Species s = species[b.species];
  float energy = energy_after_eating(s, b.energy, hunt[slot].z != 0u);
  if (b.fate == MURMUR_FATE_LIVES && starves(s, energy)) b.fate = MURMUR_FATE_STARVED;
  boids[slot].energy = energy;
  boids[slot].fate = b.fate;
  b.energy = energy;
  bool dies = dies_in_step(s, b);
  if (!dies) atomicAdd(survivors[b.species], 1u);
  // The budding rule (tests), when on, replaces births by energy and counted in steer.
  if (params.budding_period == 0u && params.energy_births != 0u) {
    child_count[slot] = !dies && wants_child(s, energy) ? 1u : 0u;
  }
}
