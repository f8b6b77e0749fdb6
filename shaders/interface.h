// Shared by C++ (include path shaders/) and GLSL (#include "interface.h"): binding points,
// workgroup sizes and small constants, written once. Plain #defines only: both languages
// must read this file.
#ifndef MURMUR_INTERFACE_H
#define MURMUR_INTERFACE_H

// Workgroup sizes (local_size_x) of the compute passes.
#define MURMUR_STEP_GROUP_SIZE 128
// The scan: one workgroup scans MURMUR_SCAN_GROUP_SIZE * MURMUR_SCAN_ITEMS_PER_THREAD cells.
#define MURMUR_SCAN_GROUP_SIZE 256
#define MURMUR_SCAN_ITEMS_PER_THREAD 4

// Shader storage bindings of the simulation.
#define MURMUR_BIND_BOIDS 0          // Boid[]: state t+1 written by steer; read by binning
#define MURMUR_BIND_SORTED 1         // Boid[]: state t in cell order (read by steer)
#define MURMUR_BIND_SPECIES 2        // Species[]
#define MURMUR_BIND_CELL_COUNT 3     // uint[cells]: boids per cell
#define MURMUR_BIND_CELL_START 4     // uint[cells]: exclusive prefix sum of CELL_COUNT
#define MURMUR_BIND_CELL_FILL 5      // uint[cells]: scatter cursor per cell
#define MURMUR_BIND_BOID_CELL 6      // uint[N]: cell of each boid (by slot of BOIDS)
#define MURMUR_BIND_CELL_ENTRIES 7   // uint[N]: BOIDS slots grouped by cell, unordered in a cell
#define MURMUR_BIND_NEIGHBOURS 8     // uvec4[N]: per sorted slot (visible, flock, separating, id)
#define MURMUR_BIND_SCAN_IN 9        // uint[]: one level of the scan (in place)
#define MURMUR_BIND_SCAN_SUMS 10     // uint[]: per-workgroup totals of that level
#define MURMUR_BIND_STEP_PARAMS 11   // StepParams: world, grid, counts, fault (read-only)
#define MURMUR_BIND_OBSTACLES 12     // vec4[]: obstacle centre.xy, radius, unused (read-only)
#define MURMUR_BIND_SUMMARY_PARTIALS 13    // vec4[groups]: per-workgroup statistics sums
#define MURMUR_BIND_SPECIES_POPULATION 14  // uint[species]: boids per species

// Render bindings.
#define MURMUR_BIND_RENDER_BOIDS 0   // Boid[] read by the head vertex shader

// The planted faults' MURMUR_FAULT_* and the topologies' MURMUR_TOPOLOGY_* are generated
// into params.glsl from their C++ enums (src/paramgen).

#endif
