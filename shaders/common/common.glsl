// Records shared by every simulation and render pass. The C++ mirrors are in
// include/murmur/flock/gpu/gpu_types.hpp, with static_asserts on std430 size and offsets.
#include "common/interface.h"

// A world's vectors: vecD is a position or velocity, ivecD a cell's coordinates, one component
// an axis. A 3D world ([world] dimensions = 3) compiles every flock pass with MURMUR_3D; the
// model's rules are written once over vecD (docs/gpu.md, "Three dimensions").
#ifdef MURMUR_3D
#define MURMUR_AXES MURMUR_VOLUME_AXES
#define vecD vec3
#define ivecD ivec3
#else
#define MURMUR_AXES MURMUR_PLANE_AXES
#define vecD vec2
#define ivecD ivec2
#endif

// One boid, 40 bytes (std430); 48 in 3D, where z and vz follow the plane's fields so that every
// other field keeps its offset.
struct Boid {
  vec2 pos;
  vec2 vel;
  uint id;       // stable; the grid sorts boids by cell every step, ids follow them
  uint species;  // index into the Species array
  uint age;      // steps lived
  uint trail_slot;  // < capacity, unique among the live, kept for life: the renderer's ribbon
                    // of this boid. Assigned by the GPU alone (docs/gpu.md, "Trail slots"); it
                    // never feeds the model, and the CPU reference has none.
  float energy;  // docs/model.md, "An ecosystem"
  uint fate;     // MURMUR_FATE_*: how a candidate of the step ends (always LIVES in a state)
#ifdef MURMUR_3D
  float z;       // the third axis of pos
  float vz;      // the third axis of vel
#endif
};

// A boid's position and velocity as the world's vectors (state.hpp's position_of, velocity_of
// and set_motion).
vecD position_of(Boid b) {
#ifdef MURMUR_3D
  return vec3(b.pos, b.z);
#else
  return b.pos;
#endif
}

vecD velocity_of(Boid b) {
#ifdef MURMUR_3D
  return vec3(b.vel, b.vz);
#else
  return b.vel;
#endif
}

void set_motion(inout Boid b, vecD position, vecD velocity) {
  b.pos = position.xy;
  b.vel = velocity.xy;
#ifdef MURMUR_3D
  b.z = position.z;
  b.vz = velocity.z;
#endif
}

// Species (per-species constants) and the MURMUR_TOPOLOGY_* and MURMUR_FAULT_* values are
// generated from the C++ tables and enums: build/generated/shaders/params.glsl.
#include "common/params.glsl"

// Per-step constants, 152 bytes (std430): the plane's 128, then the third axis' (0, or 1
// cell, in 2D). The live boid count is not here: it stays on the
// GPU, in Population.
struct StepParams {
  vec2 world;        // Lx, Ly
  vec2 cell_size;    // >= the largest perception radius
  ivec2 grid;        // columns, rows
  uint capacity;     // C: the most boids the buffers hold
  uint cell_count;
  uint fault;        // MURMUR_FAULT_*: test-only planted faults
  uint obstacle_count;
  uint has_target;   // 1 when `target` is set
  uint has_steered;  // 1 when the boid `steered_id` flies at `steered_velocity`
  vec2 target;
  vec2 steered_velocity;
  uint steered_id;
  uint budding_period;  // the test-only birth rule's P (docs/model.md, "Births"); 0 = off
  uvec2 seed;          // [world] seed (low word, high word): keys the Philox draws
  vec2 inverse_cell_size;  // fl(1 / cell_size), computed once on the CPU: binning multiplies
  // The food field (docs/model.md, "The food field"); has_food = 0 without a [food] table.
  ivec2 food_grid;                // F_x, F_y
  vec2 food_inverse_cell_size;    // fl(1 / c_f), both axes
  float food_cell_size;           // c_f
  float food_bite;
  float food_max_per_cell;        // K_f
  float food_regrow_per_step;
  uint has_food;
  uint energy_births;  // 1 when some species has reproduce_energy > 0 (births by energy)
  float world_depth;         // Lz
  float cell_depth;          // the grid's cell_size.z
  float inverse_cell_depth;  // its inverse_cell_size.z
  int grid_layers;           // the grid's cells.z
  float target_z;
  float steered_velocity_z;
};

// The population, written by the GPU alone after upload, so that
// no step reads a count back: passes over boids are dispatched indirectly from it (64 bytes).
struct Population {
  uint live;          // boids in the current state
  uint candidates;    // records after steering and births, the dying included
  uint next_id;       // id of the next child
  uint born;          // children born in the last step
  uint steered;       // boids the last step steered (its state t): neighbour counts per slot
  uint pad0;
  uint pad1;
  uint pad2;
  uvec4 live_groups;       // glDispatchComputeIndirect arguments over `live` (x, y, z, unused)
  uvec4 candidate_groups;  // the same over `candidates`
};


// The events of one species since the flock was made (FlockState::totals), each a 64-bit count
// as (low word, high word): the low word is added to with atomicAdd and carries into the high
// one, so the totals do not depend on the order of the additions (24 bytes).
struct SpeciesTally {
  uvec2 born;     // children born
  uvec2 dropped;  // children not born: the species' max_count or the capacity
  uvec2 died;     // deaths of age, starvation or being eaten
};
