#version 450
// The steering pass over the grid: every boid reads state t of the boids in its own and the
// 8 surrounding cells (26 in 3D, compiled with MURMUR_3D; wrapped across the seams for torus
// observers) and writes state t+1.
// Compiled with MURMUR_ECOSYSTEM for a scenario with the ecosystem's keys: it then also senses
// prey and hunters, steers by them and by the food field, and spends and gains energy.
// in: sorted_texels and sorted_motion_texels (state t, cell order), cell_start_texels, species,
// params, population;
// ecosystem: food, food_grazers.
// out: boids (state t+1 candidates, same slots, ages advanced), neighbour_counts, child_count
// (budding rule on); ecosystem: hunt (strike target, not fed, not eaten).
// The candidates' positions and velocities come from sorted_motion_texels, one 16-byte texel
// a boid (grid_rank.comp writes it beside the state), their species from sorted_texels;
// compiled with MURMUR_ONE_SPECIES for a flock of one species, whose candidates need no species.
// Compiled with MURMUR_TOPOLOGICAL for a scenario with a topological species: such a boid
// first ranks the candidates it sees, its own cell first, and keeps the k nearest
// (flock/nearest.glsl), then adds those (docs/gpu.md, "Topological neighbours").
#include "flock/sim_buffers.glsl"
#include "flock/model.glsl"
#ifdef MURMUR_ECOSYSTEM
#define MURMUR_USES_FOOD
#define MURMUR_USES_FOOD_GRAZERS
#define MURMUR_USES_HUNT
#include "flock/eco_buffers.glsl"
#include "flock/ecosystem.glsl"
#endif
#ifdef MURMUR_TOPOLOGICAL
#include "flock/nearest.glsl"
#endif
#include "flock/grid_search.glsl"
#include "flock/boid_texels.glsl"
layout(binding = MURMUR_TEX_CELL_START) uniform usamplerBuffer cell_start_texels;
layout(binding = MURMUR_TEX_SORTED_MOTION) uniform samplerBuffer sorted_motion_texels;
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
#include "common/compute_index.glsl"

// A candidate's position and velocity from sorted_motion_texels (sim_buffers.glsl's
// store_motion): one texel in 2D, two in 3D.
vecD motion_position(uint k) {
#ifdef MURMUR_3D
  return texelFetch(sorted_motion_texels, int(MURMUR_MOTION_3D_TEXELS * k)).xyz;
#else
  return texelFetch(sorted_motion_texels, int(k)).xy;
#endif
}

void fetch_motion(uint k, out vecD position, out vecD velocity) {
#ifdef MURMUR_3D
  vec4 first = texelFetch(sorted_motion_texels, int(MURMUR_MOTION_3D_TEXELS * k));
  vec4 second = texelFetch(sorted_motion_texels, int(MURMUR_MOTION_3D_TEXELS * k + 1u));
  position = first.xyz;
  velocity = vec3(first.w, second.xy);
#else
  vec4 motion = texelFetch(sorted_motion_texels, int(k));
  position = motion.xy;
  velocity = motion.zw;
#endif
}

// The first cell of row `y` of layer `z` (both wrapped into the grid): rows of a layer, and
// layers, are consecutive in the cells' order (sim_buffers.glsl's cell_index).
uint row_start_of(int y, int z, ivecD grid) {
#ifdef MURMUR_3D
  return uint((wrapped_cell(z, grid.z) * grid.y + wrapped_cell(y, grid.y)) * grid.x);
#else
  return uint(wrapped_cell(y, grid.y) * grid.x);
#endif
}

// The slots [first, end) of the cells row_start + column .. + count - 1: one row's run of
// consecutive cells is one range of the sorted state, ending where the next cell starts (the
// starts have one entry more than the cells, the total).
uvec2 run_slots(uint row_start, int column, int count) {
  int a = int(row_start) + column;
  return uvec2(texelFetch(cell_start_texels, a).x, texelFetch(cell_start_texels, a + count).x);
}

#ifdef MURMUR_TOPOLOGICAL
// Offers the candidate at sorted slot k to a topological observer's list, if the observer sees
// it; its id is fetched only when it could be kept.
void offer_candidate(Species s, vecD pos, vecD vel, float speed, vecD world, uint k,
                     uint limit) {
  vecD d = displacement(pos, motion_position(k), s.topology, world);
  if (!in_view(s, d, vel, speed)) return;
  float dist_sq = dot_in_order(d, d);
  if (!could_be_kept(limit, dist_sq)) return;
  keep_nearest(limit, dist_sq, boid_texel(sorted_texels, k, MURMUR_BOID_TEXEL_ID_SPECIES).x, k);
}
#endif

void main() {
  uint slot = linear_invocation_index();
  if (slot >= population.live) return;
  Boid self = boid_at(sorted_texels, slot);
#ifdef MURMUR_ONE_SPECIES
  Species s = species[0];  // the same index in every lane: one load for all of them
#else
  Species s = species[self.species];
#endif
  vecD pos = position_of(self);
  vecD vel = velocity_of(self);
  float speed = speed_of(vel);
  // Read once: the loops below would otherwise load them again for every candidate.
  vecD world = world_sides();
  ivecD grid = grid_cells();
  bool wrap = s.topology == MURMUR_TOPOLOGY_WRAP && params.fault != MURMUR_FAULT_BROKEN_WRAP;
  ivecD own = cell_coords(pos);

  int first_x, columns, first_y, rows;
  neighbour_span(own.x, grid.x, wrap, first_x, columns);
  neighbour_span(own.y, grid.y, wrap, first_y, rows);
  if (params.fault == MURMUR_FAULT_DROP_NEIGHBOUR_ROW && rows == 3) rows = 2;
#ifdef MURMUR_3D
  int first_z, layers;
  neighbour_span(own.z, grid.z, wrap && params.fault != MURMUR_FAULT_BROKEN_WRAP_Z, first_z, layers);
  if (params.fault == MURMUR_FAULT_DROP_NEIGHBOUR_LAYER && layers == 3) layers = 2;
#else
  const int first_z = 0, layers = 1;  // the plane: one layer, whose row starts ignore it
#endif
  int run_first, run_count, wrapped_count;
  column_runs(first_x, columns, grid.x, run_first, run_count, wrapped_count);

  NeighbourSums sums = empty_sums();
#ifdef MURMUR_ECOSYSTEM
  Sensing sensed = no_sensing();
#endif
#ifdef MURMUR_TOPOLOGICAL
  if (s.neighbours == MURMUR_NEIGHBOURS_TOPOLOGICAL) {
    uint limit = neighbour_limit(s);
    nearest_count = 0u;
    // The own cell first: its boids are the likeliest nearest, and once the list holds k a
    // farther candidate costs one comparison. Then the rest of the block, in the metric order.
#ifdef MURMUR_3D
    uvec2 own_slots = run_slots(row_start_of(own.y, own.z, grid), own.x, 1);
#else
    uvec2 own_slots = run_slots(uint(own.y * grid.x), own.x, 1);
#endif
    for (uint k = own_slots.x; k < own_slots.y; ++k) {
      if (k != slot) offer_candidate(s, pos, vel, speed, world, k, limit);
    }
    for (int layer = 0; layer < layers; ++layer)
    for (int row = 0; row < rows; ++row) {
      uint row_start = row_start_of(first_y + row, first_z + layer, grid);
      for (int run = 0; run < 2; ++run) {
        uvec2 range = run == 0 ? run_slots(row_start, run_first, run_count)
                               : run_slots(row_start, 0, wrapped_count);
        for (uint k = range.x; k < range.y; ++k) {
          if (k >= own_slots.x && k < own_slots.y) continue;
          offer_candidate(s, pos, vel, speed, world, k, limit);
        }
      }
    }
    // The k nearest, nearest first: the same terms as a metric neighbour's.
    for (uint n = 0u; n < nearest_count; ++n) {
      uint k = nearest_slot[n];
      vecD other_pos, other_vel;
      fetch_motion(k, other_pos, other_vel);
      uvec2 other_id_species = boid_texel(sorted_texels, k, MURMUR_BOID_TEXEL_ID_SPECIES);
      vecD d = displacement(pos, other_pos, s.topology, world);
      bool seen = add_neighbour(sums, s, vel, speed, d, other_vel, other_id_species.y);
#ifdef MURMUR_ECOSYSTEM
      if (seen) sense_neighbour(sensed, s, d, other_id_species.y, other_id_species.x, k);
#endif
    }
  } else  // a metric observer: the loop below, the pass without MURMUR_TOPOLOGICAL
#endif
  for (int layer = 0; layer < layers; ++layer)
  for (int row = 0; row < rows; ++row) {
    uint row_start = row_start_of(first_y + row, first_z + layer, grid);
    for (int run = 0; run < 2; ++run) {
      uvec2 range = run == 0 ? run_slots(row_start, run_first, run_count)
                             : run_slots(row_start, 0, wrapped_count);
      for (uint k = range.x; k < range.y; ++k) {
        if (k == slot) continue;
        vecD other_pos, other_vel;
        fetch_motion(k, other_pos, other_vel);
#if defined(MURMUR_ONE_SPECIES) && !defined(MURMUR_ECOSYSTEM)
        uint other_species = 0u;  // the only species: no fetch
#else
        uvec2 other_id_species = boid_texel(sorted_texels, k, MURMUR_BOID_TEXEL_ID_SPECIES);
        uint other_species = other_id_species.y;
#endif
        vecD d = displacement(pos, other_pos, s.topology, world);
        bool seen = add_neighbour(sums, s, vel, speed, d, other_vel, other_species);
#ifdef MURMUR_ECOSYSTEM
        if (seen) sense_neighbour(sensed, s, d, other_species, other_id_species.x, k);
#endif
      }
    }
  }
  if (s.rule != MURMUR_RULE_BOIDS) {
#ifdef MURMUR_ECOSYSTEM
    record_no_strike(slot);
#endif
    boids[slot] = rule_next_state(s, self, sums);
  } else {
#ifdef MURMUR_ECOSYSTEM
    boids[slot] = ecosystem_next_state(s, self, sums, sensed, slot);
#else
    boids[slot] = next_state(s, self, steering_acc(s, self, sums, world));
#endif
  }
  if (params.budding_period != 0u) child_count[slot] = children_of(self);
  neighbour_counts[slot] = uvec4(sums.visible, sums.flock, sums.separating, self.id);
}
