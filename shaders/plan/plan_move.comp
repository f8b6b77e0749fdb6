#version 450
// Steps 1 and 2 of a plan step (docs/model.md, "One step of the plan"), one invocation per
// agent the previous step moved (`listed`, in index order; the others are dead): the death
// check on the state the previous step left (deaths apply after `warmup`), then origin 003's
// move() and calTurns() for every agent alive at the start of the step.
// in: listed, agents, points, heads, next, control, params. out: the agent's own record, and
// mover_rank[k] = 1 when the k-th listed agent moves (the scan of the list's length then ranks
// the moves).
#include "plan/plan.glsl"
#include "plan/plan_listed.glsl"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

uniform uvec2 step_index;  // the step being made (1 = the first), low word, high word

// PlanPointIndex::near_other_path: a point of another agent within clearance, through the
// clearance index's cells around `at`. One loop over the cells and their chains together: the
// invocations a SIMD unit runs side by side then each walk their own points, and no one waits at
// every cell for the longest chain among them (the answer does not depend on the order).
bool near_other_path(vec2 at, uint agent) {
  ivec2 centre = plan_index_cell(at);
  int rings = plan.index_rings;
  int side = 2 * rings + 1;
  int cells = side * side;
  int cell = 0;
  uint p = MURMUR_PLAN_NONE;
  while (true) {
    if (p == MURMUR_PLAN_NONE) {
      if (cell == cells) return false;
      ivec2 offset = ivec2(cell % side, cell / side) - rings;
      ++cell;
      if (plan.fault == MURMUR_FAULT_DROP_CLEARANCE_CELL && offset == ivec2(1, 0)) continue;
      p = heads[plan_bucket(centre + offset, control.bucket_count)];
      if (p == MURMUR_PLAN_NONE) continue;
    }
    if (points[p].agent != agent && plan_distance(at, points[p].raw) < plan.clearance) {
      return true;
    }
    p = next_point[p];
  }
}

uint death_of(PlanAgentRecord a) {
  if (plan_magnitude(a.last_move) < plan.min_speed) return 1u;  // PlanDeath::TooSlow
  if (near_other_path(a.location, a.id)) return 2u;              // PlanDeath::TooClose
  if (a.turns > plan.max_turns) return 3u;                       // PlanDeath::TooManyTurns
  return 0u;                                                     // PlanDeath::Lives
}

void move(inout PlanAgentRecord a) {
  precise vec2 pushed = a.velocity + a.acceleration;
  a.velocity = plan_limited(pushed, plan.max_speed);
  vec2 previous_move = a.last_move;
  vec2 v = a.velocity;
  vec2 axis_move = abs(v.x) >= abs(v.y) ? vec2(v.x, 0.0) : vec2(0.0, v.y);
  precise vec2 moved_to = a.location + axis_move;
  a.location = moved_to;
  vec2 previous_drawn = a.drawn;
  // Both branches run for a zero move, as in origin 003: the second one wins.
  if (axis_move.x == 0.0) a.drawn = vec2(plan_snapped(moved_to.x, plan.snap), moved_to.y);
  if (axis_move.y == 0.0) a.drawn = vec2(moved_to.x, plan_snapped(moved_to.y, plan.snap));
  precise float along = axis_move.x * previous_move.x + axis_move.y * previous_move.y;
  if (along <= 0.0) {
    ++a.turns;
    if (axis_move.x == 0.0) a.drawn.y = previous_drawn.y;
    if (axis_move.y == 0.0) a.drawn.x = previous_drawn.x;
  }
  a.last_move = axis_move;
  a.acceleration = vec2(0.0);
  ++a.steps;
}

void main() {
  uint k = linear_invocation_index();
  if (k >= control.agent_count || control.error != MURMUR_PLAN_OK) return;
  if (k >= plan_listed_count(step_index.x - 1u)) return;
  uint i = listed[k];
  PlanAgentRecord a = agents[i];
  a.moved = a.alive;
  mover_rank[k] = a.moved;
  if (a.moved == 0u) {
    agents[i].moved = 0u;
    return;
  }
  // A child's deaths apply from born + warmup on (born = 0 for the start's agents).
  bool after_warmup = step_index.y != 0u ||
                      (step_index.x > plan.warmup && step_index.x - plan.warmup > a.born);
  if (after_warmup) {
    uint death = death_of(a);
    if (death != 0u) {
      a.death = death;
      a.died_at = step_index;
      a.alive = 0u;
    }
  }
  move(a);
  agents[i] = a;
}
