// Records shared by every simulation and render pass. The C++ mirrors are in
// src/gpu/gpu_types.hpp, with static_asserts on std430 size and offsets.
#include "interface.h"

// One boid, 32 bytes (std430).
struct Boid {
  vec2 pos;
  vec2 vel;
  uint id;       // stable; the grid sorts boids by cell every step, ids follow them
  uint species;  // index into the Species array
  uint age;      // steps lived
  uint pad0;
};

// Per-species constants, 72 bytes (std430); built by murmur::species_models on the CPU.
struct Species {
  float radius_sq;
  float sep_radius_sq;
  float cos_half_fov;
  uint limited_fov;     // 1 when fov < 360
  float align_weight;
  float cohesion_weight;
  float separation_weight;
  float max_force;
  float min_speed;
  float max_speed;
  float edge_margin;
  float edge_gain;
  uint topology;        // MURMUR_TOPOLOGY_*
  uint flock_mask;      // bit j: flocks with species j
  float obstacle_weight;
  float target_weight;
  float perception_radius;
  uint max_age;         // a boid dies when its age reaches it; 0 = never
};

#define MURMUR_TOPOLOGY_WRAP 0u
#define MURMUR_TOPOLOGY_BOUNDED 1u

// Per-step constants, 88 bytes (std430). The live boid count is not here: it stays on the
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
  uint pad0;
  uint pad1;
  vec2 inverse_cell_size;  // fl(1 / cell_size), computed once on the CPU: binning multiplies
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

