#version 450
// Step 5 of a plan step, branching (docs/model.md, "Branching"), in three phases over this
// step's movers (movers_out, in index order; those that died in the step are on the list but
// do not branch). Flag: mover_rank[k] = 1 when the k-th mover is alive, the step is past the
// warm-up, the coverage the step started from is below the target, and its draw is below
// branch_chance. (The scan of the flags over the list's length then ranks them in index
// order.) Birth: each flagged mover of rank r writes its child at index agent_count + r while
// that is below the capacity (max_agents), and lists it after the step's movers, so the next
// step moves it. Count (one invocation): the agent count, the list's length and the dropped
// branches move on. No atomic decides an index.
// in: movers_out, agents, mover_rank, control, params. out: mover_rank (flag), agents,
// last_point, movers_out (birth), control (count).
#include "plan/plan.glsl"
#include "plan/plan_listed.glsl"
#include "common/random.glsl"
layout(std430, binding = MURMUR_BIND_PLAN_LAST_POINT) buffer PlanLastPoint { uint last_point[]; };
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

uniform uint step_number;   // the step being made (GpuPlan keeps it within uint32)
uniform uint branch_phase;  // MURMUR_PLAN_BRANCH_FLAG, _BIRTH or _COUNT

uvec2 plan_seed() { return uvec2(plan.seed_low, plan.seed_high); }

bool branches(uint i) {
  if (agents[i].alive == 0u) return false;
  if (step_number <= plan.warmup || control.covered_before >= plan.coverage_target) return false;
  float u = random_uniform01(plan_seed(), agents[i].id, uvec2(step_number, 0u),
                             MURMUR_PLAN_DRAW_BRANCH);
  return u < plan.branch_chance;
}

// The child of `parent` (plan.cpp's child_of): at its location, at a right angle to its last
// move (a negation and a swap, exact), its line from the grid point nearest it.
PlanAgentRecord child_of(PlanAgentRecord parent, uint index) {
  float u = random_uniform01(plan_seed(), parent.id, uvec2(step_number, 0u),
                             MURMUR_PLAN_DRAW_BRANCH_SIDE);
  float side = u < 0.5 ? 1.0 : -1.0;
  vec2 m = parent.last_move;
  vec2 v = side * vec2(-m.y, m.x);
  vec2 q = vec2(plan_snapped(parent.location.x, plan.snap),
                plan_snapped(parent.location.y, plan.snap));
  if (plan.fault == MURMUR_FAULT_BRANCH_AT_PARENT_DRAWN) q = parent.drawn;
  PlanAgentRecord child;
  child.location = parent.location;
  child.velocity = v;
  child.acceleration = vec2(0.0);
  child.last_move = v;
  child.drawn = q;
  child.id = index;
  child.turns = 0u;
  child.steps = 0u;
  child.death = 0u;
  child.died_at = uvec2(0u);
  child.alive = 1u;
  child.moved = 0u;
  child.origin = q;
  child.parent = parent.id;
  child.born = step_number;
  return child;
}

void main() {
  uint listed_count = plan_listed_count(step_number);
  if (control.error != MURMUR_PLAN_OK) return;
  if (branch_phase == MURMUR_PLAN_BRANCH_COUNT) {
    // One workgroup is dispatched: its first invocation alone adds the counts up.
    if (linear_invocation_index() != 0u || listed_count == 0u) return;
    uint last = listed_count - 1u;
    uint flagged = mover_rank[last] + (branches(movers_out[last]) ? 1u : 0u);
    uint room = plan.agent_capacity - control.agent_count;
    uint born = min(flagged, room);
    uint dropped = flagged - born;
    uint low = control.births_dropped_low + dropped;
    control.births_dropped_low = low;
    if (low < dropped) ++control.births_dropped_high;
    control.agent_count += born;
    control.listed[step_number & 1u] = listed_count + born;
    return;
  }
  uint k = linear_invocation_index();
  if (k >= listed_count) return;
  uint i = movers_out[k];
  if (branch_phase == MURMUR_PLAN_BRANCH_FLAG) {
    mover_rank[k] = branches(i) ? 1u : 0u;
    return;
  }
  // Birth: the flags are recomputed (the scan overwrote them with the ranks).
  if (!branches(i)) return;
  uint index = control.agent_count + mover_rank[k];
  if (index >= plan.agent_capacity) return;
  agents[index] = child_of(agents[i], index);
  last_point[index] = MURMUR_PLAN_NONE;
  movers_out[listed_count + mover_rank[k]] = index;
}
