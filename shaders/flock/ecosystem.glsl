// The ecosystem (docs/model.md, "An ecosystem (origin 001)") for one boid: the GPU twin of the
// CPU reference's ecosystem step, in the same order of operations, `precise` where the CPU
// forbids contraction. Included after model.glsl (and after eco_buffers.glsl by the passes that
// read the food field or the hunt records).
#include "common/random.glsl"

// --- Sensing (step 1): the nearest visible prey and the push away from visible hunters ------

struct Sensing {
  uint prey_slot;      // sorted slot of P_i, or MURMUR_NO_STRIKE when no prey is visible
  uint prey_id;
  float prey_dist_sq;
  vec2 prey_d;         // displacement to P_i
  vec2 flee_sum;       // sum of d / dist_sq over visible hunters with dist_sq > 0
};

Sensing no_sensing() {
  return Sensing(MURMUR_NO_STRIKE, 0u, 0.0, vec2(0.0), vec2(0.0));
}

// j (species_j, id_j, at sorted slot slot_j) is visible to the observer at displacement d.
void sense_neighbour(inout Sensing sensed, Species s, vec2 d, uint species_j, uint id_j,
                     uint slot_j) {
  uint bit = 1u << species_j;
  if ((s.prey_mask & bit) == 0u && (s.hunter_mask & bit) == 0u) return;
  precise float dist_sq = d.x * d.x + d.y * d.y;
  if ((s.prey_mask & bit) != 0u) {
    bool nearer = sensed.prey_slot == MURMUR_NO_STRIKE ||
                  ranks_nearer(dist_sq, id_j, sensed.prey_dist_sq, sensed.prey_id);
    if (nearer) {
      sensed.prey_slot = slot_j;
      sensed.prey_id = id_j;
      sensed.prey_dist_sq = dist_sq;
      sensed.prey_d = d;
    }
  }
  if ((s.hunter_mask & bit) != 0u && dist_sq > 0.0) sensed.flee_sum += d / dist_sq;
}

// --- The food field ------------------------------------------------------------------------

ivec2 food_cell_coords(vec2 pos) {
  return bin_position(pos, params.food_inverse_cell_size, params.food_grid - ivec2(1));
}

uint food_cell_index(ivec2 c) {
  return uint(c.y * params.food_grid.x + c.x);
}

// Step 4: what each of the n grazers of a cell holding f eats; they share it equally.
float grazed_amount(uint grazers, float f) {
  precise float demand = float(grazers) * params.food_bite;
  if (demand <= f) return params.food_bite;
  precise float share = f / float(grazers);
  return share;
}

// Step 4: the cell's amount after its n grazers ate, then regrowth.
float food_after_step(uint grazers, float f) {
  precise float left = f;
  if (grazers > 0u) {
    precise float demand = float(grazers) * params.food_bite;
    left = demand <= f ? f - demand : 0.0;
  }
  precise float regrown = left + params.food_regrow_per_step;
  return min(params.food_max_per_cell, regrown);
}

#ifdef MURMUR_USES_FOOD
// The unit vector towards the richest food cell of the 3 x 3 around the grazer's own: the
// first (dy outer, dx inner) strictly richer than every cell before it and than its own.
vec2 food_pull(Species s, vec2 pos) {
  if (s.grazes == 0u || params.has_food == 0u) return vec2(0.0);
  ivec2 own = food_cell_coords(pos);
  float richest = food[food_cell_index(own)];
  bool found = false;
  ivec2 best = own;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      ivec2 c = own + ivec2(dx, dy);
      if (s.topology == MURMUR_TOPOLOGY_WRAP) {
        c = (c + params.food_grid) % params.food_grid;
      } else if (any(lessThan(c, ivec2(0))) || any(greaterThanEqual(c, params.food_grid))) {
        continue;
      }
      float f = food[food_cell_index(c)];
      if (f > richest) {
        richest = f;
        best = c;
        found = true;
      }
    }
  }
  if (!found) return vec2(0.0);
  precise vec2 centre = (vec2(best) + 0.5) * params.food_cell_size;
  vec2 q = displacement(pos, centre, s.topology, params.world);
  precise float dist = sqrt(q.x * q.x + q.y * q.y);
  if (!(dist > 0.0)) return vec2(0.0);
  return q / dist;
}
#endif

// --- Steering (step 2) ---------------------------------------------------------------------

// The unit vector towards the nearest visible prey (0 without one, or on it).
vec2 chase_pull(Sensing sensed) {
  if (sensed.prey_slot == MURMUR_NO_STRIKE || !(sensed.prey_dist_sq > 0.0)) return vec2(0.0);
  return sensed.prey_d / sqrt(sensed.prey_dist_sq);
}

#ifdef MURMUR_USES_FOOD
// acc plus the chase, flee and food terms, in that order. A weight of 0 leaves its term out
// (adding 0 would turn an acc component of -0 into +0 and change a plain flock's bits).
vec2 with_ecosystem_terms(Species s, Boid self, Sensing sensed, vec2 acc_in) {
  precise vec2 acc = acc_in;
  if (s.chase_weight != 0.0) acc = acc + s.chase_weight * chase_pull(sensed);
  if (s.flee_weight != 0.0) acc = acc + s.flee_weight * -sensed.flee_sum;
  if (s.food_weight != 0.0) acc = acc + s.food_weight * food_pull(s, self.pos);
  return acc;
}
#endif

// --- Energy (step 5) -----------------------------------------------------------------------

// e3: the energy after the costs of living and moving (at the stored speed of v') and the
// food eaten (`grazed`, g_i, 0 for a non-grazer). A species without energy keeps its own.
float energy_after_moving(Species s, float energy, vec2 vel_after, float grazed) {
  if (s.has_energy == 0u) return energy;
  precise float e1 = energy - s.energy_per_step;
  precise float e2 = e1 - s.energy_per_distance * speed_of(vel_after);
  precise float e3 = e2 + s.energy_from_food * grazed;
  return e3;
}

// e': e3 plus the prey eaten, capped at E_max.
float energy_after_eating(Species s, float e3, bool fed) {
  if (s.has_energy == 0u) return e3;
  precise float e4 = fed ? e3 + s.energy_from_prey : e3;
  return min(e4, s.energy_max);
}

bool starves(Species s, float energy_after) {
  return s.has_energy != 0u && energy_after <= 0.0;
}

// Step 7: a survivor with energy e' wants one child.
bool wants_child(Species s, float energy_after) {
  return s.reproduce_energy > 0.0 && energy_after >= s.reproduce_energy;
}

// --- Births by energy (step 7) -------------------------------------------------------------

// The energy a parent keeps when its child is born; the child takes the rest (both exact).
float parent_share(float energy) {
  precise float kept = energy * 0.5;
  return kept;
}

// The child of `parent_after` (its state t+1), born with id `id` in the step `step` (low word,
// high word): half the energy, a velocity uniform in +-child_speed per axis (Philox draws
// keyed by the seed, the parent's id and the step), beside the parent through move and bounds.
Boid child_by_energy(Species s, Boid parent_after, uint id, uvec2 step) {
  float speed = s.child_speed;
  vec2 u = vec2(random_uniform(params.seed, parent_after.id, step, MURMUR_DRAW_CHILD_VELOCITY_X,
                               -speed, speed),
                random_uniform(params.seed, parent_after.id, step, MURMUR_DRAW_CHILD_VELOCITY_Y,
                               -speed, speed));
  Boid child = move_and_bound(s, parent_after, u, params.world);
  child.id = id;
  child.age = 0u;
  child.fate = MURMUR_FATE_LIVES;
  precise float rest = parent_after.energy - parent_share(parent_after.energy);
  child.energy = rest;
  return child;
}

// --- The steering passes' ecosystem step ---------------------------------------------------

#if defined(MURMUR_USES_FOOD) && defined(MURMUR_USES_FOOD_GRAZERS) && defined(MURMUR_USES_HUNT)
// g_i: what the grazer `self` eats from its food cell (0 for a non-grazer or without food).
float grazed_by(Species s, Boid self) {
  if (s.grazes == 0u || params.has_food == 0u) return 0.0;
  uint cell = food_cell_index(food_cell_coords(self.pos));
  return grazed_amount(food_grazers[cell], food[cell]);
}

// State t+1 of the boid at sorted slot `slot` with the ecosystem's steering and energy e3,
// and its hunt record: the prey it strikes (catch_radius, strict), not yet fed, not eaten.
Boid ecosystem_next_state(Species s, Boid self, NeighbourSums sums, Sensing sensed, uint slot) {
  vec2 acc = with_ecosystem_terms(s, self, sensed, steering_acc(s, self, sums, params.world));
  Boid next = next_state(s, self, acc);
  next.energy = energy_after_moving(s, self.energy, next.vel, grazed_by(s, self));
  uvec4 record = uvec4(MURMUR_NO_STRIKE, 0u, 0u, MURMUR_NO_STRIKE);
  if (sensed.prey_slot != MURMUR_NO_STRIKE && sensed.prey_dist_sq < s.catch_radius_sq) {
    record.xy = uvec2(sensed.prey_slot, floatBitsToUint(sensed.prey_dist_sq));
  }
  hunt[slot] = record;
  return next;
}

// The hunt record of a boid that strikes nothing: a vicsek or couzin boid, which takes no part
// in the ecosystem (docs/model.md, "Rules of motion").
void record_no_strike(uint slot) {
  hunt[slot] = uvec4(MURMUR_NO_STRIKE, 0u, 0u, MURMUR_NO_STRIKE);
}
#endif
