// Shared by C++ (include path shaders/) and GLSL (#include "common/interface.h"): binding points,
// workgroup sizes and small constants, written once. Plain #defines only: both languages
// must read this file.
#ifndef MURMUR_INTERFACE_H
#define MURMUR_INTERFACE_H

// Workgroup sizes (local_size_x) of the compute passes.
#define MURMUR_STEP_GROUP_SIZE 128
// The scan: one workgroup scans MURMUR_SCAN_GROUP_SIZE * MURMUR_SCAN_ITEMS_PER_THREAD cells.
#define MURMUR_SCAN_GROUP_SIZE 256
#define MURMUR_SCAN_ITEMS_PER_THREAD 4
// scan_count_word when the scan's length is its element_count alone (GpuScan::run(values, n)).
#define MURMUR_SCAN_NO_COUNT 0xFFFFFFFFu

// Shader storage bindings of the simulation.
#define MURMUR_BIND_BOIDS 0          // Boid[]: state t+1 written by steer; read by binning
#define MURMUR_BIND_SORTED 1         // Boid[]: state t in cell order (read by steer)
#define MURMUR_BIND_SPECIES 2        // Species[]
#define MURMUR_BIND_CELL_COUNT 3     // uint[cells + 1]: boids per cell (the last entry is 0)
#define MURMUR_BIND_CELL_START 4     // uint[cells + 1]: exclusive prefix sum of CELL_COUNT
#define MURMUR_BIND_CELL_FILL 5      // uint[cells]: scatter cursor per cell
#define MURMUR_BIND_BOID_CELL 6      // uint[N]: cell of each boid (by slot of BOIDS)
#define MURMUR_BIND_CELL_ENTRIES 7   // uint[N]: ids of BOIDS grouped by cell, unordered in a cell
#define MURMUR_BIND_NEIGHBOURS 8     // uvec4[N]: per sorted slot (visible, flock, separating, id)
#define MURMUR_BIND_SCAN_IN 9        // uint[]: one level of the scan (in place)
#define MURMUR_BIND_SCAN_SUMS 10     // uint[]: per-workgroup totals of that level
#define MURMUR_BIND_SCAN_COUNT 28    // uint[]: a count the GPU wrote, to scan only that many
#define MURMUR_BIND_STEP_PARAMS 11   // StepParams: world, grid, counts, fault (read-only)
#define MURMUR_BIND_OBSTACLES 12     // vec4[]: obstacle centre.xy, radius, centre.z (0 in 2D)
#define MURMUR_BIND_SUMMARY_PARTIALS 13    // vec4[groups]: per-workgroup statistics sums
#define MURMUR_BIND_SUMMARY_TOTALS 14  // statistics totals: sums in double, boids per species
#define MURMUR_BIND_FOUND_BOID 15      // find_boid.comp's result: one Boid and a match count
#define MURMUR_BIND_NEAREST_BOID 16    // nearest_boid.comp's result: distance bits and id
#define MURMUR_BIND_POPULATION 17    // Population: live count, next id, dispatch arguments
#define MURMUR_BIND_CHILD_COUNT 18   // uint[capacity]: children of each boid in the step
#define MURMUR_BIND_CHILD_OFFSET 19  // uint[capacity]: exclusive prefix sum of CHILD_COUNT
#define MURMUR_BIND_SLOT_TAKEN 20    // uint[capacity]: 1 where a survivor holds the trail slot
#define MURMUR_BIND_SLOT_TAKEN_BEFORE 21  // uint[capacity]: exclusive prefix sum of SLOT_TAKEN
#define MURMUR_BIND_FREE_SLOTS 22    // uint[capacity]: the free trail slots, ascending
// The ecosystem's buffers (docs/gpu.md, "An ecosystem"), shaders/flock/eco_buffers.glsl.
#define MURMUR_BIND_FOOD 23          // float[food cells]: the food field, row by row
#define MURMUR_BIND_FOOD_GRAZERS 24  // uint[food cells]: grazers of state t per food cell
#define MURMUR_BIND_HUNT 25          // uvec4[capacity]: per sorted slot, the hunt (HuntRecord)
#define MURMUR_BIND_TALLY 26         // uvec2[species * MURMUR_TALLY_COUNTERS]: SpeciesTally
#define MURMUR_BIND_SURVIVORS 27     // uint[species]: boids of each species surviving the step
#define MURMUR_BIND_SORTED_MOTION 28  // vec4[capacity]: pos, vel of state t in cell order

// Buffer-texture views of the simulation's buffers (GpuFlock; docs/gpu.md, "Texel fetches"):
// the same bytes read by texelFetch, which llvmpipe turns into a branch-free gather where a
// storage-buffer load is a loop over the lanes with a bounds branch per lane and component.
// Texture units (below GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS' guaranteed 16):
#define MURMUR_TEX_SORTED 8       // RG32UI over BIND_SORTED: state t, MURMUR_BOID_TEXELS a boid
#define MURMUR_TEX_CANDIDATES 9   // RG32UI over BIND_BOIDS: the step's candidates, the same way
#define MURMUR_TEX_CELL_START 10  // R32UI over BIND_CELL_START (cells + 1 entries)
#define MURMUR_TEX_CELL_ENTRIES 11  // R32UI over BIND_CELL_ENTRIES
#define MURMUR_TEX_SORTED_MOTION 12  // RGBA32F over BIND_SORTED_MOTION: pos, vel of slot s
#define MURMUR_TEX_BOID_CELL 13     // R32UI over BIND_BOID_CELL
// One Boid (40 bytes) is 5 texels of 8 bytes; texel k holds words 2k and 2k + 1
// (gpu_types.hpp asserts the offsets). A 3D world's Boid (48 bytes) is 6: the same 5, then z, vz.
#define MURMUR_BOID_TEXELS 5u
#define MURMUR_BOID_3D_TEXELS 6u
#define MURMUR_BOID_TEXEL_POS 0u         // pos
#define MURMUR_BOID_TEXEL_VEL 1u         // vel
#define MURMUR_BOID_TEXEL_ID_SPECIES 2u  // id, species
#define MURMUR_BOID_TEXEL_AGE_SLOT 3u    // age, trail_slot
#define MURMUR_BOID_TEXEL_ENERGY_FATE 4u  // energy, fate
#define MURMUR_BOID_TEXEL_DEPTH 5u        // z, vz (3D only)
// The axes of a world: the plane's, and the volume's of a 3D world ([world] dimensions = 3),
// whose passes are compiled with MURMUR_3D (docs/gpu.md, "Three dimensions").
#define MURMUR_PLANE_AXES 2
#define MURMUR_VOLUME_AXES 3
// sorted_motion's RGBA32F texels a boid: (pos, vel) in 2D; (x, y, z, vx), (vy, vz, 0, 0) in 3D.
#define MURMUR_MOTION_TEXELS 1u
#define MURMUR_MOTION_3D_TEXELS 2u

// GL_MAX_COMPUTE_WORK_GROUP_COUNT's guaranteed minimum in x and y: longer passes are folded
// into y (murmur/gl/dispatch.hpp on the CPU, compute_index.glsl's folded_groups on the GPU).
#define MURMUR_MAX_GROUPS_PER_DIMENSION 65535
// boid_cell of a boid that died in the step: it takes no part in the counting sort.
#define MURMUR_NO_CELL 0xFFFFFFFFu
// Boid.fate of a step's candidate (docs/model.md, "Deaths"): it lives, or it was eaten.
#define MURMUR_FATE_LIVES 0u
#define MURMUR_FATE_EATEN 1u
#define MURMUR_FATE_STARVED 2u  // its energy fell to 0 or below
// A hunter's strike target when it strikes nothing, and a prey's eater when none ate it.
#define MURMUR_NO_STRIKE 0xFFFFFFFFu
// The per-species event counters (SpeciesTally, shaders/common/common.glsl): each a 64-bit count
// kept as (low word, high word), in this order.
#define MURMUR_TALLY_BORN 0u
#define MURMUR_TALLY_DROPPED 1u
#define MURMUR_TALLY_DIED 2u
#define MURMUR_TALLY_COUNTERS 3u
// population_update.comp's phases.
#define MURMUR_POPULATION_AFTER_BIRTHS 0  // candidates = survivors-to-be + children born
#define MURMUR_POPULATION_AFTER_SORT 1    // live = the counting sort's total
// species_cap.comp's phases (docs/model.md, "Births by energy": the species cap).
#define MURMUR_CAP_SELECT 0u  // the capped species' wishes, to be scanned in parent order
#define MURMUR_CAP_APPLY 1u   // a wish is dropped when survivors + wishes before it >= max_count

// The floor-plan generator's buffers (GpuPlan, shaders/plan/plan_buffers.glsl). Its passes never run
// with the flock's, so they reuse the flock's binding points, all but the scan's
// (MURMUR_BIND_SCAN_IN and MURMUR_BIND_SCAN_SUMS); GpuPlan binds them before each step.
#define MURMUR_BIND_PLAN_AGENTS 0        // PlanAgentRecord[agents]
#define MURMUR_BIND_PLAN_POINTS 1        // PlanPointRecord[point capacity]: the saved points
#define MURMUR_BIND_PLAN_HEADS 2         // uint[bucket capacity]: the clearance index's heads
#define MURMUR_BIND_PLAN_NEXT 3          // uint[point capacity]: its chains, newest first
#define MURMUR_BIND_PLAN_CELL_START 4    // uint[cell capacity + 1]: agents per cell, then starts
#define MURMUR_BIND_PLAN_SORTED 5        // uint[agents]: agent indices by cell, then index
#define MURMUR_BIND_PLAN_CONTROL 6       // PlanControl: counts, the grid's shape, errors
#define MURMUR_BIND_PLAN_PARAMS 7        // PlanParamsRecord (read-only)
#define MURMUR_BIND_PLAN_MOVERS 8        // uint[agents]: 1 per listed mover, then its rank
#define MURMUR_BIND_PLAN_AGENT_CELL 11   // uint[agents]: each agent's steering cell
#define MURMUR_BIND_PLAN_CELL_FILL 12    // uint[cell capacity]: the scatter's cursor per cell
#define MURMUR_BIND_PLAN_CELL_ENTRIES 13 // uint[agents]: agents by cell, unordered in a cell
#define MURMUR_BIND_PLAN_LINK_NEXT 14    // uint[point capacity]: a linked point's next, in order
#define MURMUR_BIND_PLAN_PARTIALS 15     // PlanPartial[blocks]: each block's total and bounds
#define MURMUR_BIND_PLAN_PREVIOUS 16     // uint[point capacity]: its agent's point before it
#define MURMUR_BIND_PLAN_LAST_POINT 17   // uint[agents]: each agent's newest point
#define MURMUR_BIND_PLAN_SUMMARY 18      // PlanSummaryRecord: plan_summary.comp's counts
#define MURMUR_BIND_PLAN_LISTED 19       // uint[agents]: the previous step's movers, by index
#define MURMUR_BIND_PLAN_MOVERS_OUT 20   // uint[agents]: this step's movers, by index
#define MURMUR_BIND_PLAN_COVERAGE 21     // uint[cells / 32]: the coverage cells' bits (branching)
// The plan's fixed shapes, shared by the CPU reference (src/plan/plan.cpp) and the GPU
// (docs/model.md, "The floor-plan generator (origin 003)"). The clearance index starts with
// MURMUR_PLAN_MIN_BUCKETS buckets and doubles them past MURMUR_PLAN_MAX_POINTS_PER_BUCKET
// points per bucket; the total of the locations is summed in blocks of
// MURMUR_PLAN_TOTAL_BLOCK agents; the steering grid's cells reach MURMUR_PLAN_CANDIDATE_SLACK
// (relative) plus MURMUR_PLAN_MIN_CANDIDATE_RADIUS further than the radii, and grow past
// MURMUR_PLAN_MAX_CELLS_PER_AGENT cells per agent.
#define MURMUR_PLAN_MIN_BUCKETS 1024u
#define MURMUR_PLAN_MAX_POINTS_PER_BUCKET 1u
#define MURMUR_PLAN_TOTAL_BLOCK 256u
#define MURMUR_PLAN_CANDIDATE_SLACK 0.0009765625  // 2^-10, exact in both languages
#define MURMUR_PLAN_MIN_CANDIDATE_RADIUS 0.0009765625
#define MURMUR_PLAN_MAX_CELLS_PER_AGENT 4u
// No point (an empty bucket, a chain's end): PlanPointIndex::kNone.
#define MURMUR_PLAN_NONE 0xFFFFFFFFu
// PlanControl.error: what stopped a GPU plan (GpuPlan::step reports it).
#define MURMUR_PLAN_OK 0u
#define MURMUR_PLAN_POINTS_FULL 1u  // the step's points would pass the point capacity
#define MURMUR_PLAN_CELLS_FULL 2u   // the steering grid would pass the cell capacity
// PlanSummaryRecord.died: one counter per PlanDeath after Lives (too slow, too close, too many
// turns).
#define MURMUR_PLAN_DEATH_CAUSES 3u
// Branching (docs/model.md, "Branching"): the Philox draws of an agent's branch event and of
// its child's side (the start's draws are 0-3, at step 0), and the most coverage cells a
// branching plan's canvas may hold (a bitmap of 2^28 bits, 32 MiB).
#define MURMUR_PLAN_DRAW_BRANCH 4u
#define MURMUR_PLAN_DRAW_BRANCH_SIDE 5u
#define MURMUR_PLAN_MAX_COVERAGE_CELLS 268435456u
// plan_branch.comp's phases (GpuPlan runs them in this order).
#define MURMUR_PLAN_BRANCH_FLAG 0u
#define MURMUR_PLAN_BRANCH_BIRTH 1u
#define MURMUR_PLAN_BRANCH_COUNT 2u

// Render bindings.
#define MURMUR_BIND_RENDER_BOIDS 0   // Boid[] read by the head vertex shader

// Philox4x32-10 (Salmon et al., SC'11), the counter-based generator of docs/model.md
// ("Random numbers"): its round multipliers, its Weyl key increments and its round count.
#define MURMUR_PHILOX_M0 0xD2511F53u
#define MURMUR_PHILOX_M1 0xCD9E8D57u
#define MURMUR_PHILOX_W0 0x9E3779B9u
#define MURMUR_PHILOX_W1 0xBB67AE85u
#define MURMUR_PHILOX_ROUNDS 10
// The Philox draws of a child's velocity (docs/model.md, "Births by energy"), x then y.
#define MURMUR_DRAW_CHILD_VELOCITY_X 0u
#define MURMUR_DRAW_CHILD_VELOCITY_Y 1u
// A vicsek or couzin boid's noise angle (docs/model.md, "Noise"): one uniform, or the two
// uniforms of the Box-Muller transform (its radius, then its angle).
#define MURMUR_DRAW_NOISE_UNIFORM 2u
#define MURMUR_DRAW_NOISE_GAUSSIAN_RADIUS 3u
#define MURMUR_DRAW_NOISE_GAUSSIAN_ANGLE 4u
// The direction about the old one towards which the 3D noise turns (docs/model.md, "The rules
// in 3D").
#define MURMUR_DRAW_NOISE_AXIS 5u
// The largest topological_k (docs/model.md, "Topological neighbours"): the steering pass keeps
// a topological boid's nearest candidates in per-invocation arrays of this many entries.
#define MURMUR_MAX_TOPOLOGICAL_K 64
// murmur's own sin, cos and log (docs/model.md, "Unit vectors and angles"), evaluated with the
// same float32 operations on both sides, where the libraries' would round differently.
// pi/2 in two parts (Cody and Waite): the high part has 8 significant bits, so k times it is
// exact for the |k| < 2^16 a noise angle can reach.
#define MURMUR_TWO_OVER_PI 0.636619772f
#define MURMUR_HALF_PI_HIGH 1.5703125f
#define MURMUR_HALF_PI_LOW 4.83826794897e-4f
#define MURMUR_TWO_PI 6.28318548f
// Taylor coefficients: sin r = r + r^3 (S3 + r^2 (S5 + r^2 (S7 + r^2 S9))), cos r = 1 + r^2
// (C2 + r^2 (C4 + r^2 (C6 + r^2 (C8 + r^2 C10)))), |r| <= pi/4.
#define MURMUR_SIN_S3 -0.166666667f
#define MURMUR_SIN_S5 0.00833333333f
#define MURMUR_SIN_S7 -1.98412698e-4f
#define MURMUR_SIN_S9 2.75573192e-6f
#define MURMUR_COS_C2 -0.5f
#define MURMUR_COS_C4 0.0416666667f
#define MURMUR_COS_C6 -0.00138888889f
#define MURMUR_COS_C8 2.48015873e-5f
#define MURMUR_COS_C10 -2.75573192e-7f
// log m = 2 s (1 + s^2 (L3 + s^2 (L5 + s^2 (L7 + s^2 L9)))), s = (m - 1) / (m + 1), for m in
// [sqrt(1/2), sqrt(2)); x = m 2^e adds e ln 2.
#define MURMUR_LOG_L3 0.333333333f
#define MURMUR_LOG_L5 0.2f
#define MURMUR_LOG_L7 0.142857143f
#define MURMUR_LOG_L9 0.111111111f
#define MURMUR_SQRT_HALF 0.707106769f
#define MURMUR_LN2 0.693147182f
// A uniform float is the top MURMUR_RANDOM_FLOAT_BITS bits of a word times 2^-24: float32
// holds 24 bits exactly, so the CPU and the GPU compute the same value.
#define MURMUR_RANDOM_WORD_BITS 32
#define MURMUR_RANDOM_FLOAT_BITS 24
#define MURMUR_RANDOM_FLOAT_SCALE 5.9604644775390625e-8  // 2^-24, exact in both languages
// Each Philox block gives four words: draw d is word d % 4 of block d / 4.
#define MURMUR_RANDOM_WORDS_PER_BLOCK 4u

// Milling on a torus (docs/model.md, "Flock statistics"): the flock counts as compact, and its
// circular centroid as meaningful, while every boid lies within this share of the world's
// side of it on each axis. The CPU's statistics and flock_summary.comp both read it.
#define MURMUR_MILLING_COMPACT_SHARE 0.25
// flock_summary.comp's and flock_summary_total.comp's passes (uniform summary_pass), in the
// order FlockReadback runs them: headings, positions and populations; the circular sums (only
// where a species wraps); the milling sum about the centroid the earlier passes give.
#define MURMUR_SUMMARY_HEADING_PASS 0u
#define MURMUR_SUMMARY_CIRCLE_PASS 1u
#define MURMUR_SUMMARY_MILLING_PASS 2u

// The planted faults' MURMUR_FAULT_* and the topologies' MURMUR_TOPOLOGY_* are generated
// into params.glsl from their C++ enums (src/paramgen).
// The planted fault LooseSpeedLimit scales a boid over max_speed to this much of it: 100 times
// the soak's relative slack on speeds (kSpeedLimitRelativeSlack), so its first check sees it.
#define MURMUR_LOOSE_SPEED_LIMIT_FACTOR 1.0001

#endif
