#version 450
// The steering pass over the grid: every boid reads state t of the boids in its own and the
// 8 surrounding cells (wrapped across the seams for torus observers) and writes state t+1.
// in: sorted_boids (state t, cell order), cell_start, cell_count, species, params, population.
// out: boids (state t+1 candidates, same slots, ages advanced), neighbour_counts, child_count.
#include "sim_buffers.glsl"
#include "model.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "compute_index.glsl"

// The distinct cell columns (or rows) an observer at `own` searches: own-1..own+1, wrapped on
// a torus. A grid of fewer than 3 cells is searched whole so no cell is visited twice.
void neighbour_span(int own, int cells, bool wrap, out int first, out int count) {
  if (cells < 3) {
    first = 0;
    count = cells;
  } else if (wrap) {
    first = own - 1;
    count = 3;
  } else {
    first = max(own - 1, 0);
    count = min(own + 1, cells - 1) - first + 1;
  }
}

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
        add_neighbour(sums, s, self.vel, d, other.vel, other.species);
      }
    }
  }
  boids[slot] = next_state(s, self, sums);
  if (params.budding_period != 0u) child_count[slot] = children_of(self);
  neighbour_counts[slot] = uvec4(sums.visible, sums.flock, sums.separating, self.id);
}
