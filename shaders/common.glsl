// Records shared by every simulation and render pass. The C++ mirrors are in
// include/murmur/gpu/gpu_types.hpp, with static_asserts on std430 size and offsets.
#include "interface.h"

// One boid, 32 bytes (std430).
struct Boid {
  vec2 pos;
  vec2 vel;
  uint id;       // stable; the grid sorts boids by cell every step, ids follow them
  uint species;  // index into the Species array
  uint pad0;
  uint pad1;
};

// Species (per-species constants) and the MURMUR_TOPOLOGY_* and MURMUR_FAULT_* values are
// generated from the C++ tables and enums: build/generated/shaders/params.glsl.
#include "params.glsl"

// Per-step constants, 80 bytes (std430).
struct StepParams {
  vec2 world;        // Lx, Ly
  vec2 cell_size;    // >= the largest perception radius
  ivec2 grid;        // columns, rows
  uint boid_count;
  uint cell_count;
  uint fault;        // MURMUR_FAULT_*: test-only planted faults
  uint obstacle_count;
  uint has_target;   // 1 when `target` is set
  uint has_steered;  // 1 when the boid `steered_id` flies at `steered_velocity`
  vec2 target;
  vec2 steered_velocity;
  uint steered_id;
  uint pad0;
  uint pad1;
  uint pad2;
};

