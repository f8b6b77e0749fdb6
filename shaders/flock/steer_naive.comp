#version 450
// The all-pairs steering pass: the benchmark's baseline and a second oracle for the grid.
// MURMUR_ECOSYSTEM, MURMUR_TOPOLOGICAL and MURMUR_3D as in steer_grid.comp.
// in: sorted_boids (state t, cell order), species, params, population; ecosystem: food,
// food_grazers.
// out: boids (state t+1 candidates, same slots), neighbour_counts, child_count; ecosystem: hunt.
#include "flock/sim_buffers.glsl"
#include "flock/model.glsl"
#ifdef MURMUR_ECOSYSTEM
#define MURMUR_USES_FOOD
#define MURMUR_USES_FOOD_GRAZERS
#define MURMUR_USES_HUNT
#include "flock/eco_buffers.glsl"
#include "flock/ecosystem.glsl"
#endif
#ifdef MURMUR_TOPOLOGICAL
#include "flock/nearest.glsl"
#endif
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

void main() {
  uint slot = linear_invocation_index();
  if (slot >= population.live) return;
  Boid self = sorted_boids[slot];
  Species s = species[self.species];
  NeighbourSums sums = empty_sums();
#ifdef MURMUR_ECOSYSTEM
  Sensing sensed = no_sensing();
#endif
#ifdef MURMUR_TOPOLOGICAL
  if (s.neighbours == MURMUR_NEIGHBOURS_TOPOLOGICAL) {
    uint limit = neighbour_limit(s);
    nearest_count = 0u;
    for (uint k = 0u; k < population.live; ++k) {
      if (k == slot) continue;
      Boid other = sorted_boids[k];
      vecD d = displacement(position_of(self), position_of(other), s.topology, world_sides());
      if (!in_view(s, d, velocity_of(self))) continue;
      float dist_sq = dot_in_order(d, d);
      if (could_be_kept(limit, dist_sq)) keep_nearest(limit, dist_sq, other.id, k);
    }
    for (uint n = 0u; n < nearest_count; ++n) {
      Boid other = sorted_boids[nearest_slot[n]];
      vecD d = displacement(position_of(self), position_of(other), s.topology, world_sides());
      bool seen = add_neighbour(sums, s, velocity_of(self), d, velocity_of(other), other.species);
#ifdef MURMUR_ECOSYSTEM
      if (seen) sense_neighbour(sensed, s, d, other.species, other.id, nearest_slot[n]);
#endif
    }
  } else  // a metric observer: the loop below, the pass without MURMUR_TOPOLOGICAL
#endif
  for (uint k = 0u; k < population.live; ++k) {
    if (k == slot) continue;
    Boid other = sorted_boids[k];
    vecD d = displacement(position_of(self), position_of(other), s.topology, world_sides());
    bool seen = add_neighbour(sums, s, velocity_of(self), d, velocity_of(other), other.species);
#ifdef MURMUR_ECOSYSTEM
    if (seen) sense_neighbour(sensed, s, d, other.species, other.id, k);
#endif
  }
  if (s.rule != MURMUR_RULE_BOIDS) {
#ifdef MURMUR_ECOSYSTEM
    record_no_strike(slot);
#endif
    boids[slot] = rule_next_state(s, self, sums);
  } else {
#ifdef MURMUR_ECOSYSTEM
    boids[slot] = ecosystem_next_state(s, self, sums, sensed, slot);
#else
    boids[slot] = next_state(s, self, steering_acc(s, self, sums, world_sides()));
#endif
  }
  if (params.budding_period != 0u) child_count[slot] = children_of(self);
  neighbour_counts[slot] = uvec4(sums.visible, sums.flock, sums.separating, self.id);
}
