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

// A boid's position and velocity as the steering pass fetches them (interface.h,
// MURMUR_MOTION_TEXELS): one texel (pos, vel) in 2D, two in 3D.
void store_motion(uint slot, Boid b) {
#ifdef MURMUR_3D
  sorted_motion[MURMUR_MOTION_3D_TEXELS * slot] = vec4(b.pos, b.z, b.vel.x);
  sorted_motion[MURMUR_MOTION_3D_TEXELS * slot + 1u] = vec4(b.vel.y, b.vz, 0.0, 0.0);
#else
  sorted_motion[slot] = vec4(b.pos, b.vel);
#endif
}
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
ivecD bin_position(vecD pos, vecD inverse_cell_size, ivecD last_cell) {
  precise vecD scaled = pos * inverse_cell_size;
  return clamp(ivecD(floor(scaled)), ivecD(0), last_cell);
}

// The world's sides, the grid's cells and their inverse sizes, per axis of the world.
vecD world_sides() {
#ifdef MURMUR_3D
  return vec3(params.world, params.world_depth);
#else
  return params.world;
#endif
}

ivecD grid_cells() {
#ifdef MURMUR_3D
  return ivec3(params.grid, params.grid_layers);
#else
  return params.grid;
#endif
}

vecD grid_inverse_cell_size() {
#ifdef MURMUR_3D
  return vec3(params.inverse_cell_size, params.inverse_cell_depth);
#else
  return params.inverse_cell_size;
#endif
}

ivecD cell_coords(vecD pos) {
  ivecD last_cell = grid_cells() - 1;
  if (params.fault == MURMUR_FAULT_LAST_CELL_OFF_BY_ONE) last_cell.x = params.grid.x;
  return bin_position(pos, grid_inverse_cell_size(), last_cell);
}

// (layer * rows + row) * columns + column; row * columns + column in 2D.
uint cell_index(ivecD c) {
#ifdef MURMUR_3D
  return uint((c.z * params.grid.y + c.y) * params.grid.x + c.x);
#else
  return uint(c.y * params.grid.x + c.x);
#endif
}
