#version 450
// Step 4's grid, a stable counting sort of the agents by cell in three passes of one
// invocation per agent (cell_start and cell_fill zeroed before, the scan between the first two):
// - PLAN_GRID_COUNT: each agent's cell, and the agents per cell (atomicAdd: counts do not
//   depend on the order);
// - PLAN_GRID_SCATTER: each agent listed in its cell's range of cell_entries, in atomic order;
// - PLAN_GRID_RANK: each agent placed in sorted_agents by its rank in index order among its
//   cell mates, as the CPU's stable counting sort places it.
// in: agents, control, params. in/out: agent_cell, cell_start, cell_fill, cell_entries,
// sorted_agents.
#include "plan/plan.glsl"
#include "plan/plan_grid_buffers.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

uniform uint grid_phase;  // PLAN_GRID_*

const uint PLAN_GRID_COUNT = 0u;
const uint PLAN_GRID_SCATTER = 1u;
const uint PLAN_GRID_RANK = 2u;

void main() {
  uint i = linear_invocation_index();
  if (i >= control.agent_count || control.error != MURMUR_PLAN_OK) return;
  if (grid_phase == PLAN_GRID_COUNT) {
    uint cell = plan_grid_index(plan_grid_cell(agents[i].location));
    agent_cell[i] = cell;
    atomicAdd(cell_start[cell], 1u);
    return;
  }
  uint cell = agent_cell[i];
  uint first = cell_start[cell];
  if (grid_phase == PLAN_GRID_SCATTER) {
    cell_entries[first + atomicAdd(cell_fill[cell], 1u)] = i;
    return;
  }
  uint end = cell_start[cell + 1u];
  uint rank = 0u;
  for (uint k = first; k < end; ++k) {
    if (cell_entries[k] < i) ++rank;
  }
  sorted_agents[first + rank] = i;
}
