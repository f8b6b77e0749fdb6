#version 450
// The steering pass over the grid: every boid reads state t of the boids in its own and the
// 8 surrounding cells (wrapped across the seams for torus observers) and writes state t+1.
// Compiled with MURMUR_ECOSYSTEM for a scenario with the ecosystem's keys: it then also senses
// prey and hunters, steers by them and by the food field, and spends and gains energy.
// in: sorted_boids (state t, cell order), cell_start, cell_count, species, params, population;
// ecosystem: food, food_grazers.
// out: boids (state t+1 candidates, same slots, ages advanced), neighbour_counts, child_count
// (budding rule on); ecosystem: hunt (strike target, not fed, not eaten).
#include "sim_buffers.glsl"
#include "model.glsl"
#ifdef MURMUR_ECOSYSTEM
#define MURMUR_USES_FOOD
#define MURMUR_USES_FOOD_GRAZERS
#define MURMUR_USES_HUNT
#include "eco_buffers.glsl"
#include "ecosystem.glsl"
#endif
#include "grid_search.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "compute_index.glsl"

void main() {
  uint slot = linear_invocation_index();
  if (slot >= population.live) return;
  Boid self = sorted_boids[slot];
  Species s = species[self.species];
  bool wrap = s.topology == MURMUR_TOPOLOGY_WRAP && params.fault != MURMUR_FAULT_BROKEN_WRAP;
  ivec2 own = cell_coords(self.pos);

  int first_x, columns, first_y, rows;
  neighbour_span(own.x, params.grid.x, wrap, first_x, columns);
  neighbour_span(own.y, params.grid.y, wrap, first_y, rows);
  if (params.fault == MURMUR_FAULT_DROP_NEIGHBOUR_ROW && rows == 3) rows = 2;

  NeighbourSums sums = empty_sums();
#ifdef MURMUR_ECOSYSTEM
  Sensing sensed = no_sensing();
#endif
  for (int row = 0; row < rows; ++row) {
    int cy = (first_y + row + params.grid.y) % params.grid.y;
    for (int column = 0; column < columns; ++column) {
      int cx = (first_x + column + params.grid.x) % params.grid.x;
      uint cell = cell_index(ivec2(cx, cy));
      uint first = cell_start[cell];
      uint end = first + cell_count[cell];
      for (uint k = first; k < end; ++k) {
        if (k == slot) continue;
        Boid other = sorted_boids[k];
        vec2 d = displacement(self.pos, other.pos, s.topology, params.world);
        bool seen = add_neighbour(sums, s, self.vel, d, other.vel, other.species);
#ifdef MURMUR_ECOSYSTEM
        if (seen) sense_neighbour(sensed, s, d, other.species, other.id, k);
#endif
      }
    }
  }
#ifdef MURMUR_ECOSYSTEM
  boids[slot] = ecosystem_next_state(s, self, sums, sensed, slot);
#else
  boids[slot] = next_state(s, self, steering_acc(s, self, sums, params.world));
#endif
  if (params.budding_period != 0u) child_count[slot] = children_of(self);
  neighbour_counts[slot] = uvec4(sums.visible, sums.flock, sums.separating, self.id);
}
