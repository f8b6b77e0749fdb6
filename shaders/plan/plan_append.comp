#version 450
// Step 3, second part: each moving agent saves its point at append_first + its rank among the
// step's moves (the exclusive scan of mover_rank over the listed agents, which are in index
// order), so the points come in agent order as on the CPU, with no atomic deciding it; lists
// itself at that rank among the step's movers; and links its point to the agent's point before
// it, for the drawing (the steps never read the links).
// When branching, it also sets its point's coverage cell (docs/model.md, "Branching"): the set
// of cells and the count of newly set bits do not depend on the atomics' order.
// in: listed, agents, mover_rank, control, params, last_point, coverage. out: points,
// movers_out, previous_point, last_point, coverage, control.covered.
#include "plan/plan.glsl"
#include "plan/plan_listed.glsl"
// The drawing's links, which the steps never read, declared here alone: a shader may declare
// at most 16 storage blocks (llvmpipe's GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS).
layout(std430, binding = MURMUR_BIND_PLAN_PREVIOUS) buffer PlanPrevious { uint previous_point[]; };
layout(std430, binding = MURMUR_BIND_PLAN_LAST_POINT) buffer PlanLastPoint { uint last_point[]; };
layout(std430, binding = MURMUR_BIND_PLAN_COVERAGE) buffer PlanCoverage { uint coverage[]; };
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

uniform uint step_number;

void main() {
  uint k = linear_invocation_index();
  if (k >= plan_listed_count(step_number - 1u) || control.error != MURMUR_PLAN_OK) return;
  uint i = listed[k];
  PlanAgentRecord a = agents[i];
  if (a.moved == 0u) return;
  uint rank = mover_rank[k];
  movers_out[rank] = i;
  uint p = control.append_first + rank;
  points[p] = PlanPointRecord(a.location, a.drawn, a.last_move, a.id, step_number);
  previous_point[p] = last_point[i];
  last_point[i] = p;
  if (plan.branch_chance > 0.0) {
    // PlanCoverage::cell_of: inside the canvas, the products by a power of two are exact.
    vec2 r = a.location;
    if (r.x >= 0.0 && r.x < plan.canvas_width && r.y >= 0.0 && r.y < plan.canvas_height) {
      uint cell = uint(floor(r.y * plan.coverage_inverse_side)) * plan.coverage_columns +
                  uint(floor(r.x * plan.coverage_inverse_side));
      uint bit = 1u << (cell & 31u);
      if ((atomicOr(coverage[cell >> 5u], bit) & bit) == 0u) atomicAdd(control.covered, 1u);
    }
  }
}
