#version 450
// Step 4's steering (origin 003's flock()), one invocation per agent this step moved
// (`movers_out`: the living are among them), living agents only: separation from the agents
// closer than separation_radius, cohesion toward the centroid of those farther than
// cohesion_min_distance. The 3 x 3 cells' agents are merged into index order, so every sum
// runs in the CPU's order. in: movers_out, agents, cell_start, sorted_agents, control, params.
// out: the agent's acceleration.
#include "plan/plan.glsl"
#include "plan/plan_grid_buffers.glsl"
#include "plan/plan_listed.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

const int kNeighbourCells = 9;  // the 3 x 3 cells around the agent's

uniform uint step_number;  // the step being made (its low word)

void main() {
  uint k = linear_invocation_index();
  if (k >= plan_listed_count(step_number) || control.error != MURMUR_PLAN_OK) return;
  uint i = movers_out[k];
  if (agents[i].alive == 0u) return;
  vec2 at = agents[i].location;
  vec2 velocity = agents[i].velocity;
  ivec2 centre = plan_grid_cell(at);
  ivec2 first = max(centre - 1, ivec2(0));
  ivec2 last = min(centre + 1, control.grid_cells - 1);
  // Each cell's list: its cursor, its end, and the agent at its cursor (MURMUR_PLAN_NONE once
  // done), kept so that a candidate costs one read of sorted_agents rather than one per list.
  uint cursor[kNeighbourCells], end[kNeighbourCells], head[kNeighbourCells];
  int lists = 0;
  for (int y = first.y; y <= last.y; ++y) {
    for (int x = first.x; x <= last.x; ++x) {
      uint c = plan_grid_index(ivec2(x, y));
      cursor[lists] = cell_start[c];
      end[lists] = cell_start[c + 1u];
      head[lists] = cursor[lists] < end[lists] ? sorted_agents[cursor[lists]] : MURMUR_PLAN_NONE;
      ++lists;
    }
  }
  precise vec2 separation = vec2(0.0);
  uint separating = 0u;
  precise dvec2 near_sum = dvec2(0.0lf);
  uint near_count = 0u;
  while (true) {
    // The smallest agent index at the head of a cell's list: cells hold theirs in index order.
    int best = -1;
    uint best_agent = MURMUR_PLAN_NONE;
    for (int l = 0; l < lists; ++l) {
      if (head[l] < best_agent) {
        best = l;
        best_agent = head[l];
      }
    }
    if (best < 0) break;
    uint after = ++cursor[best];
    head[best] = after < end[best] ? sorted_agents[after] : MURMUR_PLAN_NONE;
    vec2 other = agents[best_agent].location;
    float distance = plan_distance(at, other);
    if (distance > 0.0 && distance < plan.separation_radius) {
      precise vec2 away = plan_normalized(at - other) / distance;
      separation += away;
      ++separating;
    }
    if (!(distance > plan.cohesion_min_distance)) {
      near_sum += dvec2(other);
      ++near_count;
    }
  }
  precise vec2 acceleration = vec2(0.0);
  if (separating > 0u) acceleration += plan_steer(separation, velocity) * plan.separation_weight;
  uint far_count = control.agent_count - near_count;
  if (far_count > 0u) {
    precise dvec2 far_sum = control.location_total - near_sum;
    vec2 far_centroid = vec2(far_sum / double(far_count));
    precise vec2 toward = far_centroid - at;
    acceleration += plan_steer(toward, velocity) * plan.cohesion_weight;
  }
  agents[i].acceleration = acceleration;
}
