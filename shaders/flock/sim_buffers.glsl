// Storage blocks of the simulation passes, declared once. A pass that does not touch a block
// leaves it inactive (the linker drops it), so GpuFlock binds only what each pass reads.
#include "common/common.glsl"

layout(std430, binding = MURMUR_BIND_STEP_PARAMS) readonly buffer StepParamsBlock {
  StepParams params;
};

layout(std430, binding = MURMUR_BIND_SPECIES) readonly buffer SpeciesBlock {
  Species species[];
};

layout(std430, binding = MURMUR_BIND_OBSTACLES) readonly buffer ObstaclesBlock {
  vec4 obstacles[];  // centre.xy, radius, unused
};

layout(std430, binding = MURMUR_BIND_BOIDS) buffer BoidsBlock {
  Boid boids[];
};

layout(std430, binding = MURMUR_BIND_SORTED) buffer SortedBlock {
  Boid sorted_boids[];
};

layout(std430, binding = MURMUR_BIND_CELL_COUNT) buffer CellCountBlock {
  uint cell_count[];
};

layout(std430, binding = MURMUR_BIND_CELL_START) buffer CellStartBlock {
  uint cell_start[];
};

// The grid build's working buffers. Mesa counts every declared storage block against the
// limit of 16 per compute shader, so only the passes of the build (which define
// MURMUR_USES_GRID_BUILD first) declare them; the ecosystem's passes need the room
// (eco_buffers.glsl).
#ifdef MURMUR_USES_GRID_BUILD
layout(std430, binding = MURMUR_BIND_CELL_FILL) buffer CellFillBlock {
  uint cell_fill[];
};

layout(std430, binding = MURMUR_BIND_BOID_CELL) buffer BoidCellBlock {
  uint boid_cell[];
};

layout(std430, binding = MURMUR_BIND_CELL_ENTRIES) buffer CellEntriesBlock {
  uint cell_entries[];
};
#endif
#ifdef MURMUR_USES_SORTED_MOTION
layout(std430, binding = MURMUR_BIND_SORTED_MOTION) writeonly buffer SortedMotionBlock {
  vec4 sorted_motion[];
};
#endif

layout(std430, binding = MURMUR_BIND_POPULATION) buffer PopulationBlock {
  Population population;
};

layout(std430, binding = MURMUR_BIND_CHILD_COUNT) buffer ChildCountBlock {
  uint child_count[];
};

layout(std430, binding = MURMUR_BIND_CHILD_OFFSET) buffer ChildOffsetBlock {
  uint child_offset[];
};

layout(std430, binding = MURMUR_BIND_NEIGHBOURS) writeonly buffer NeighboursBlock {
  uvec4 neighbour_counts[];  // per sorted slot: visible, flock, separating, id
};

// Cell coordinates of a position on a grid (murmur::GridShape::cell_of). Wrapped boids lie
// in [0, L) and walled ones in [0, L], and p * (1 / cell_size) may round up to the grid size,
// so the coordinates are clamped to the last cell. A product, unlike a quotient, is correctly
// rounded on every GPU, so the CPU bins alike (the model's parent order depends on it).
ivec2 bin_position(vec2 pos, vec2 inverse_cell_size, ivec2 last_cell) {
  precise vec2 scaled = pos * inverse_cell_size;
  ivec2 c = ivec2(floor(scaled));
  return ivec2(clamp(c.x, 0, last_cell.x), clamp(c.y, 0, last_cell.y));
}

ivec2 cell_coords(vec2 pos) {
  int last_column = params.fault == MURMUR_FAULT_LAST_CELL_OFF_BY_ONE ? params.grid.x
                                                                      : params.grid.x - 1;
  return bin_position(pos, params.inverse_cell_size, ivec2(last_column, params.grid.y - 1));
}

uint cell_index(ivec2 c) {
  return uint(c.y * params.grid.x + c.x);
}
