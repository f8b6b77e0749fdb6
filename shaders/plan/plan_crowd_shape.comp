#version 450
// Step 4's grid, second part (one invocation, a loop over the blocks only): the total of the
// blocks in block order and their bounding box, then the grid's shape as the CPU's crowd_of
// chooses it: cells at least the steering's reach, grown past MURMUR_PLAN_MAX_CELLS_PER_AGENT
// cells per agent. A grid of more cells than the capacity stops the plan with
// MURMUR_PLAN_CELLS_FULL. in: partials, control, params. out: control (the grid, the length of
// its scan, the total).
#include "plan/plan.glsl"
#include "plan/plan_grid_buffers.glsl"
layout(local_size_x = 1) in;

uniform uint step_number;

void main() {
  if (control.error != MURMUR_PLAN_OK) return;
  uint n = control.agent_count;
  uint blocks = (n + MURMUR_PLAN_TOTAL_BLOCK - 1u) / MURMUR_PLAN_TOTAL_BLOCK;
  dvec2 total = dvec2(0.0lf);
  vec2 low = vec2(0.0), high = vec2(0.0);
  if (blocks > 0u) {
    low = partials[0].low;
    high = partials[0].high;
  }
  for (uint b = 0u; b < blocks; ++b) {
    precise dvec2 summed = total + partials[b].total;
    total = summed;
    low = min(low, partials[b].low);
    high = max(high, partials[b].high);
  }
  // Agents that wander far would ask for many empty cells: the cells grow instead.
  precise vec2 extent = high - low;
  precise double area = double(extent.x) * double(extent.y);
  precise double area_per_cell = area / double(MURMUR_PLAN_MAX_CELLS_PER_AGENT * max(n, 1u));
  precise float reach_cell =
      plan.reach * (1.0 + MURMUR_PLAN_CANDIDATE_SLACK) + MURMUR_PLAN_MIN_CANDIDATE_RADIUS;
  float spread_cell = float(sqrt(area_per_cell));
  float cell = max(max(reach_cell, spread_cell), MURMUR_PLAN_MIN_CANDIDATE_RADIUS);
  precise vec2 across = extent / cell;
  ivec2 cells = ivec2(floor(across)) + 1;
  if (uint(cells.x) > plan.cell_capacity || uint(cells.y) > plan.cell_capacity / uint(cells.x)) {
    control.error = MURMUR_PLAN_CELLS_FULL;
    control.error_step = step_number;
    control.error_need = uint(min(double(cells.x) * double(cells.y), double(0xFFFFFFFFu)));
    return;
  }
  control.location_total = total;
  control.grid_origin = low;
  control.grid_cell = cell;
  control.grid_cells = cells;
  control.grid_entries = uint(cells.x) * uint(cells.y) + 1u;
}
