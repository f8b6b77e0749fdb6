// The floor-plan generator's records and buffers (GpuPlan; C++ mirrors in src/plan/gpu/gpu_plan.cpp,
// whose static_asserts keep the layouts together).
#include "common/interface.h"
#include "common/params.glsl"

#include "plan/plan_records.glsl"

layout(std430, binding = MURMUR_BIND_PLAN_AGENTS) buffer PlanAgents { PlanAgentRecord agents[]; };
layout(std430, binding = MURMUR_BIND_PLAN_POINTS) buffer PlanPoints { PlanPointRecord points[]; };
layout(std430, binding = MURMUR_BIND_PLAN_HEADS) buffer PlanHeads { uint heads[]; };
layout(std430, binding = MURMUR_BIND_PLAN_NEXT) buffer PlanNext { uint next_point[]; };

layout(std430, binding = MURMUR_BIND_PLAN_MOVERS) buffer PlanMovers { uint mover_rank[]; };
layout(std430, binding = MURMUR_BIND_PLAN_LINK_NEXT) buffer PlanLinkNext { uint link_next[]; };

// What the passes hand on within the GPU: the point count, the index's buckets and the points
// its link passes take, the steering grid's shape and the total of the locations, the first
// error, and the link passes' indirect dispatch arguments.
layout(std430, binding = MURMUR_BIND_PLAN_CONTROL) buffer PlanControl {
  dvec2 location_total;  // in blocks of MURMUR_PLAN_TOTAL_BLOCK agents, as the CPU sums
  vec2 grid_origin;
  ivec2 grid_cells;
  float grid_cell;
  uint point_count;
  uint bucket_count;
  uint error;         // MURMUR_PLAN_OK or what stopped the plan
  uint error_step;    // the step that stopped it
  uint error_need;    // the points or cells it needed
  uint append_first;  // the first point of this step's moves
  uint link_first;    // the link passes take points [link_first, link_end): the step's new
  uint link_end;      // ones, or every point when the buckets doubled
  uint link_groups[3];   // workgroups of the link passes
  uint clear_groups[3];  // workgroups clearing the heads (none unless the buckets doubled)
  // The agents that moved in a step, listed by index (plan_listed.glsl), by the step's parity:
  // listed[s & 1] of step s.
  uint listed[2];
  uint grid_entries;  // the steering grid's cells + 1: the length of its scan of cell_start
  uint agent_count;     // the agents so far: the start's, then its children (branching)
  uint covered;         // coverage cells holding a point (counted only when branching)
  uint covered_before;  // ... before this step's points: what its branches read
  uint births_dropped_low;   // branches past max_agents (two words, as the seed's)
  uint births_dropped_high;
} control;

// The [plan] keys the passes use, and the sizes GpuPlan chose.
layout(std430, binding = MURMUR_BIND_PLAN_PARAMS) readonly buffer PlanParamsBlock {
  float max_speed;
  float max_force;
  float snap;
  float separation_radius;
  float separation_weight;
  float cohesion_min_distance;
  float cohesion_weight;
  float min_speed;
  float clearance;
  float index_cell_side;  // a power of two (PlanPointIndex::cell_side)
  float reach;            // the larger of separation_radius and cohesion_min_distance
  int index_rings;        // PlanPointIndex::rings
  uint warmup;
  uint max_turns;
  uint agent_capacity;  // the agents' buffers: the start's, or max_agents when branching
  uint point_capacity;
  uint cell_capacity;
  uint bucket_capacity;
  uint fault;  // a GpuFault (MURMUR_FAULT_*), for the tests' planted faults
  float branch_chance;   // 0: no branching, the branch passes do not run
  uint coverage_target;  // ceil(branch_coverage * cells): branching while covered is below it
  uint coverage_columns;
  uint coverage_cells;
  float canvas_width;
  float canvas_height;
  float coverage_inverse_side;  // 1 / the clearance index's side, a power of two: exact
  uint seed_low;                // the start's seed (two words: no uvec2's 8-byte alignment,
  uint seed_high;               // which the C++ mirror would have to pad)
} plan;
