// The steering grid's buffers (step 4), declared apart from plan_buffers.glsl's so that the
// other passes stay within llvmpipe's 16 storage blocks a compute shader. After plan.glsl.
layout(std430, binding = MURMUR_BIND_PLAN_CELL_START) buffer PlanCellStart { uint cell_start[]; };
layout(std430, binding = MURMUR_BIND_PLAN_SORTED) buffer PlanSorted { uint sorted_agents[]; };
layout(std430, binding = MURMUR_BIND_PLAN_AGENT_CELL) buffer PlanAgentCell { uint agent_cell[]; };
layout(std430, binding = MURMUR_BIND_PLAN_CELL_FILL) buffer PlanCellFill { uint cell_fill[]; };
layout(std430, binding = MURMUR_BIND_PLAN_CELL_ENTRIES) buffer PlanCellEntries {
  uint cell_entries[];
};

// One block of MURMUR_PLAN_TOTAL_BLOCK agents: its locations' total and bounding box.
struct PlanPartial {
  dvec2 total;
  vec2 low;
  vec2 high;
};
layout(std430, binding = MURMUR_BIND_PLAN_PARTIALS) buffer PlanPartials { PlanPartial partials[]; };
