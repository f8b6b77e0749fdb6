#version 450
// Catching (docs/model.md, "An ecosystem", step 3): every prey looks for the hunters that
// strike it in the 3 x 3 cells around its own (wrapped: a torus hunter sees across the seams;
// a striker is within its perception radius, so within one cell) and is eaten by the one with
// the least (dist_sq, id). Each hunter strikes at most one prey, so it is written by at most
// one invocation: no atomics decide anything.
// in: sorted_boids (state t), cell_start, cell_count, species, params, population, hunt.xy.
// out: boids[prey].fate = EATEN, hunt[winner].z = 1 (fed), hunt[prey].w = the winner's id.
#include "flock/sim_buffers.glsl"
#include "flock/model.glsl"
#define MURMUR_USES_HUNT
#include "flock/eco_buffers.glsl"
#include "flock/grid_search.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

void main() {
  uint slot = linear_invocation_index();
  if (slot >= population.live) return;
  Boid self = sorted_boids[slot];
  if (species[self.species].hunter_mask == 0u) return;
  ivec2 own = cell_coords(self.pos);
  int first_x, columns, first_y, rows;
  neighbour_span(own.x, params.grid.x, true, first_x, columns);
  neighbour_span(own.y, params.grid.y, true, first_y, rows);

  uint winner = MURMUR_NO_STRIKE;
  uint winner_id = MURMUR_NO_STRIKE;
  float winner_dist_sq = 0.0;
  for (int row = 0; row < rows; ++row) {
    // GLSL leaves % of a negative operand undefined: first - 1 is shifted up by the grid.
    int cy = (first_y + row + params.grid.y) % params.grid.y;
    for (int column = 0; column < columns; ++column) {
      int cx = (first_x + column + params.grid.x) % params.grid.x;
      uint cell = cell_index(ivec2(cx, cy));
      uint first = cell_start[cell];
      uint end = first + cell_count[cell];
      for (uint k = first; k < end; ++k) {
        if (hunt[k].x != slot) continue;
        // The planted fault: every striker eats, so a prey feeds several hunters.
        if (params.fault == MURMUR_FAULT_GREEDY_HUNTER) hunt[k].z = 1u;
        float dist_sq = uintBitsToFloat(hunt[k].y);
        uint id = sorted_boids[k].id;
        if (winner == MURMUR_NO_STRIKE || dist_sq < winner_dist_sq ||
            (dist_sq == winner_dist_sq && id < winner_id)) {
          winner = k;
          winner_id = id;
          winner_dist_sq = dist_sq;
        }
      }
    }
  }
  if (winner == MURMUR_NO_STRIKE) return;
  boids[slot].fate = MURMUR_FATE_EATEN;
  hunt[winner].z = 1u;
  hunt[slot].w = winner_id;
}
