#version 450
// The all-pairs steering pass: the benchmark's baseline and a second oracle for the grid.
// in: sorted_boids (state t, cell order), species, params, population.
// out: boids (state t+1 candidates, same slots), neighbour_counts, child_count.
#include "sim_buffers.glsl"
#include "model.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "compute_index.glsl"

void main() {
  uint slot = linear_invocation_index();
  if (slot >= population.live) return;
  Boid self = sorted_boids[slot];
  Species s = species[self.species];
  NeighbourSums sums = empty_sums();
  for (uint k = 0u; k < population.live; ++k) {
    if (k == slot) continue;
    Boid other = sorted_boids[k];
    vec2 d = displacement(self.pos, other.pos, s.topology, params.world);
    add_neighbour(sums, s, self.vel, d, other.vel, other.species);
  }
  boids[slot] = next_state(s, self, sums);
  if (params.budding_period != 0u) child_count[slot] = children_of(self);
  neighbour_counts[slot] = uvec4(sums.visible, sums.flock, sums.separating, self.id);
}
