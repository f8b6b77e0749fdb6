// The flocking model (docs/model.md) for one boid: the GPU twin of src/flock/model.cpp, with
// the same order of operations. `precise` forbids fusing a*b+c into one rounding, which the
// CPU reference (built with -ffp-contract=off) does not do either.
// Sections, in order: displacement and visibility; the ranking of topological neighbours
// (ranks_nearer, neighbour_limit); the neighbour sums (boids', and the other rules'
// add_rule_neighbour); the surroundings' pushes and pulls; ageing and births; move and bounds;
// the boids step (steering_acc, finish_step, next_state); the rules of motion besides boids
// (sin_cos, log_of, noise_angle, vicsek_direction, couzin_direction, bounded_turn,
// rule_next_state).
#include "flock/sim_buffers.glsl"
#include "common/random.glsl"

// One axis of the minimum image; shifting the operand that is > L/2 (exact) rather than the
// difference keeps a pair across the seam to one rounding.
float min_image_axis(float from, float to, float len) {
  precise float d = to - from;
  if (d > 0.5 * len) return (to - len) - from;
  if (d < -0.5 * len) return to - (from - len);
  return d;
}

vec2 displacement(vec2 from, vec2 to, uint observer_topology, vec2 world) {
  if (observer_topology == MURMUR_TOPOLOGY_WRAP) {
    return vec2(min_image_axis(from.x, to.x, world.x), min_image_axis(from.y, to.y, world.y));
  }
  precise vec2 d = to - from;
  return d;
}

// |v|: the observer's part of the fov test, the same for every neighbour, and s' = |v'| as the
// energy cost reads it.
float speed_of(vec2 v) {
  precise float speed_sq = v.x * v.x + v.y * v.y;
  return sqrt(speed_sq);
}

// in_view with the observer's speed computed once (speed_of(v_i)): the same bits.
bool in_view(Species s, vec2 d, vec2 v_i, float speed) {
  precise float dist_sq = d.x * d.x + d.y * d.y;
  if (!(dist_sq < s.radius_sq)) return false;
  if (s.limited_fov == 0u) return true;
  precise float facing = d.x * v_i.x + d.y * v_i.y;
  precise float threshold = sqrt(dist_sq) * speed * s.cos_half_fov;
  return facing >= threshold;
}

bool in_view(Species s, vec2 d, vec2 v_i) {
  return in_view(s, d, v_i, speed_of(v_i));
}

// Whether a candidate at squared distance dist_sq_a with id id_a ranks before one at dist_sq_b
// with id_b: nearer, or as near with the smaller id (a topological boid's neighbours, a hunter's
// prey).
bool ranks_nearer(float dist_sq_a, uint id_a, float dist_sq_b, uint id_b) {
  return dist_sq_a < dist_sq_b || (dist_sq_a == dist_sq_b && id_a < id_b);
}

// How many neighbours a topological observer takes: its topological_k (one more under the
// planted fault, within the list's size).
uint neighbour_limit(Species s) {
  if (params.fault == MURMUR_FAULT_TOPOLOGICAL_K_PLUS_ONE) {
    return min(s.topological_k + 1u, uint(MURMUR_MAX_TOPOLOGICAL_K));
  }
  return s.topological_k;
}

// Each rule's sums share these fields (model.hpp's NeighbourSums says which is which), so the
// pass holds no registers a rule does not use.
struct NeighbourSums {
  vec2 velocity_sum;      // over flock neighbours
  vec2 displacement_sum;  // over flock neighbours
  vec2 separation_sum;    // d / |d|^2 over the separation set
  uint visible;
  uint flock;
  uint separating;
  uint attracting;        // couzin: the attraction zone's count
};

NeighbourSums empty_sums() {
  return NeighbourSums(vec2(0.0), vec2(0.0), vec2(0.0), 0u, 0u, 0u, 0u);
}

// unit(v): v / |v|, or (0, 0) for v = 0.
vec2 unit_vector(vec2 v) {
  float length = speed_of(v);
  if (!(length > 0.0)) return vec2(0.0);
  precise vec2 u = vec2(v.x / length, v.y / length);
  return u;
}

// A visible neighbour's terms for a vicsek or couzin observer (`flocks`: it flocks with j).
void add_rule_neighbour(inout NeighbourSums sums, Species s, vec2 d, vec2 v_j, bool flocks) {
  if (s.rule == MURMUR_RULE_VICSEK) {
    if (flocks) {
      sums.flock += 1u;
      sums.velocity_sum += unit_vector(v_j);
    }
    return;
  }
  precise float dist_sq = d.x * d.x + d.y * d.y;
  if (dist_sq < s.rep_radius_sq && dist_sq > 0.0) {
    sums.separating += 1u;
    sums.separation_sum += unit_vector(d);
  } else if (flocks && dist_sq < s.ori_radius_sq) {
    sums.flock += 1u;
    sums.velocity_sum += unit_vector(v_j);
  } else if (flocks) {
    sums.attracting += 1u;
    sums.displacement_sum += unit_vector(d);
  }
}

// A separating neighbour's term: d / dist_sq, or d for the linear kernel.
vec2 separation_term(Species s, vec2 d, float dist_sq) {
  if (s.separation_kernel == MURMUR_SEPARATION_KERNEL_LINEAR) {
    if (params.fault == MURMUR_FAULT_LINEAR_KERNEL_UNIT) return d / sqrt(dist_sq);
    return d;
  }
  return d / dist_sq;
}

// Adds j at displacement d if i (flying v_i at `speed`, speed_of(v_i)) sees it; returns
// whether it does.
bool add_neighbour(inout NeighbourSums sums, Species s, vec2 v_i, float speed, vec2 d, vec2 v_j,
                   uint species_j) {
  if (!in_view(s, d, v_i, speed)) {
    if (params.fault == MURMUR_FAULT_BLIND_REPULSION && s.rule == MURMUR_RULE_COUZIN) {
      precise float dist_sq = d.x * d.x + d.y * d.y;
      if (dist_sq < s.rep_radius_sq && dist_sq > 0.0) {
        sums.separating += 1u;
        sums.separation_sum += unit_vector(d);
      }
    }
    return false;
  }
  sums.visible += 1u;
  if (s.rule != MURMUR_RULE_BOIDS) {
    add_rule_neighbour(sums, s, d, v_j, ((s.flock_mask >> species_j) & 1u) != 0u);
    return true;
  }
  if (((s.flock_mask >> species_j) & 1u) != 0u) {
    sums.flock += 1u;
    sums.velocity_sum += v_j;
    sums.displacement_sum += d;
  }
  precise float dist_sq = d.x * d.x + d.y * d.y;
  if (dist_sq < s.sep_radius_sq && dist_sq > 0.0) {
    sums.separating += 1u;
    sums.separation_sum += separation_term(s, d, dist_sq);
  }
  return true;
}

bool add_neighbour(inout NeighbourSums sums, Species s, vec2 v_i, vec2 d, vec2 v_j,
                   uint species_j) {
  return add_neighbour(sums, s, v_i, speed_of(v_i), d, v_j, species_j);
}

float edge_axis(Species s, float p, float len) {
  if (s.walls == MURMUR_WALLS_PUSH) {
    // Inclusive, so that with a margin of 0 a boid held on the wall is still pushed off it.
    precise float far_side = len - s.edge_margin;
    if (p <= s.edge_margin) return s.edge_gain;
    if (p >= far_side) return -s.edge_gain;
    return 0.0;
  }
  precise float e = s.edge_gain * max(0.0, s.edge_margin - p) -
                    s.edge_gain * max(0.0, p - (len - s.edge_margin));
  return e;
}

// obs: the sum over obstacles of the push away from each (0 outside reach).
vec2 obstacle_push(Species s, vec2 pos) {
  vec2 push = vec2(0.0);
  for (uint k = 0u; k < params.obstacle_count; ++k) {
    vec2 centre = obstacles[k].xy;
    float radius = obstacles[k].z;
    vec2 q = displacement(centre, pos, s.topology, params.world);
    precise float dist = sqrt(q.x * q.x + q.y * q.y);
    precise float reach = radius + s.perception_radius;
    if (dist < reach && dist > 0.0) {
      precise float depth = (reach - dist) / s.perception_radius;
      push += q * (depth / dist);
    }
  }
  return push;
}

// tgt: the unit vector towards the target (0 without a target or on it), or for
// target_pull = linear the displacement to it.
vec2 target_pull(Species s, vec2 pos) {
  if (params.has_target == 0u) return vec2(0.0);
  vec2 q = displacement(pos, params.target, s.topology, params.world);
  if (s.target_pull == MURMUR_TARGET_PULL_LINEAR) return q;
  precise float dist = sqrt(q.x * q.x + q.y * q.y);
  if (!(dist > 0.0)) return vec2(0.0);
  return q / dist;
}

// Steps 10-11: move by `vel` and apply the species' bounds (may reflect `vel`).
// Ageing (docs/model.md, "Ageing and death by age"): one step older, saturating.
uint aged(uint age) {
  return age == 0xFFFFFFFFu ? age : age + 1u;
}

// Whether a boid whose age after the step is `age` dies of it.
bool dies_of_age(Species s, uint age) {
  return s.max_age > 0u && age >= s.max_age;
}

// Whether a candidate of the step is absent from state t+1: dead of age, or eaten or starved
// (its fate, set by catch.comp and settle.comp; always LIVES without the ecosystem).
bool dies_in_step(Species s, Boid candidate) {
  return candidate.fate != MURMUR_FATE_LIVES || dies_of_age(s, candidate.age);
}

// The birth rules (docs/model.md, "Births"): the test-only budding rule, one child when
// (id + step) mod P == 0, in uint32 arithmetic. `parent` is its state t.
uniform uvec2 step_index;  // the index of the step being taken (low word, high word)
uint children_of(Boid parent) {
  if (params.budding_period == 0u) return 0u;
  return (parent.id + step_index.x) % params.budding_period == 0u ? 1u : 0u;
}

// Child `k` of a parent whose state t+1 is `parent_after`, by the budding rule.
Boid child_of(Boid parent_after, uint k, uint id) {
  Boid child = parent_after;
  child.id = id;
  child.vel = -parent_after.vel;
  child.age = 0u;
  child.fate = MURMUR_FATE_LIVES;
  return child;
}

Boid move_and_bound(Species s, Boid self, vec2 vel, vec2 world) {
  precise vec2 pos = self.pos + vel;
  for (int a = 0; a < 2; ++a) {
    float len = world[a];
    if (s.topology == MURMUR_TOPOLOGY_WRAP) {
      // |vel| <= max_speed < L/2 (validated), so one shift by L lands in [0, L].
      if (pos[a] < 0.0) pos[a] += len;
      else if (pos[a] >= len) pos[a] -= len;
      if (pos[a] >= len) pos[a] = 0.0;  // p + L rounded up to L
    } else if (s.walls == MURMUR_WALLS_PUSH) {
      // No bounce: the wall holds the position and the push (edge_axis) turns the boid.
      pos[a] = clamp(pos[a], 0.0, len);
    } else {
      if (pos[a] < 0.0) {
        pos[a] = 0.0;
        vel[a] = abs(vel[a]);
      } else if (pos[a] > len) {
        pos[a] = len;
        vel[a] = -abs(vel[a]);
      }
    }
  }
  Boid result = self;
  result.pos = pos;
  result.vel = vel;
  result.age = aged(self.age);
  return result;
}

// The steered boid: the user's velocity limited to max_speed, then move and bounds.
Boid steered_step(Species s, Boid self, vec2 velocity, vec2 world) {
  precise vec2 vel = velocity;
  precise float speed = sqrt(vel.x * vel.x + vel.y * vel.y);
  if (speed > s.max_speed) vel *= s.max_speed / speed;
  return move_and_bound(s, self, vel, world);
}

// acc of step 4: the flock's and the world's steering terms, before the force limit.
vec2 steering_acc(Species s, Boid self, NeighbourSums sums, vec2 world) {
  vec2 align = vec2(0.0);
  vec2 cohesion = vec2(0.0);
  if (sums.flock > 0u) {
    // The boid counted self_weight times, and not at all for 0 (model.cpp says why).
    uint self_weight = params.fault == MURMUR_FAULT_SELF_WEIGHT_IGNORED ? 0u : s.self_weight;
    precise float k = float(self_weight);
    precise float n = float(sums.flock) + k;
    precise vec2 velocity_sum =
        self_weight > 0u ? sums.velocity_sum + k * self.vel : sums.velocity_sum;
    align = velocity_sum / n - self.vel;
    cohesion = sums.displacement_sum / n;
  }
  vec2 separation = -sums.separation_sum;
  vec2 edge = vec2(0.0);
  if (s.topology == MURMUR_TOPOLOGY_BOUNDED) {
    edge = vec2(edge_axis(s, self.pos.x, world.x), edge_axis(s, self.pos.y, world.y));
  }
  vec2 obstacle = obstacle_push(s, self.pos);
  vec2 target = target_pull(s, self.pos);
  precise vec2 acc = s.align_weight * align + s.cohesion_weight * cohesion +
                     s.separation_weight * separation + edge + s.obstacle_weight * obstacle +
                     s.target_weight * target;
  return acc;
}

// Steps 5-7: the force limit, the speed limits, move and bounds.
Boid finish_step(Species s, Boid self, vec2 steering, vec2 world) {
  precise vec2 acc = steering;
  precise float acc_len = sqrt(acc.x * acc.x + acc.y * acc.y);
  if (acc_len > s.max_force) acc *= s.max_force / acc_len;

  precise vec2 vel = s.velocity_factor * (self.vel + acc);
  precise float speed_squared = vel.x * vel.x + vel.y * vel.y;
  precise float speed = sqrt(speed_squared);
  if (speed > s.max_speed) {
    precise float scale = s.speed_limit == MURMUR_SPEED_LIMIT_INVERSE
                              ? (s.max_speed * s.max_speed) / speed_squared
                              : s.max_speed / speed;
    if (params.fault == MURMUR_FAULT_LOOSE_SPEED_LIMIT) scale *= MURMUR_LOOSE_SPEED_LIMIT_FACTOR;
    vel *= scale;
  } else if (speed > 0.0 && speed < s.min_speed) {
    vel *= s.min_speed / speed;
  } else if (speed == 0.0) {
    vel = self.vel;
  }
  return move_and_bound(s, self, vel, world);
}

bool is_steered(Boid self) {
  return params.has_steered != 0u && self.id == params.steered_id;
}

// One boid's state t+1 under the steering acceleration `acc`, or the user's velocity for the
// steered boid.
Boid next_state(Species s, Boid self, vec2 acc) {
  if (is_steered(self)) return steered_step(s, self, params.steered_velocity, params.world);
  return finish_step(s, self, acc, params.world);
}

// ---- the rules of motion besides boids (docs/model.md, "Rules of motion") ---------------

// sin and cos of `angle` by murmur's own polynomials, as model.cpp's sin_cos: x is the sine.
vec2 sin_cos(float angle) {
  precise float k = floor(angle * MURMUR_TWO_OVER_PI + 0.5);
  precise float r = (angle - k * MURMUR_HALF_PI_HIGH) - k * MURMUR_HALF_PI_LOW;
  precise float r2 = r * r;
  precise float sin_r =
      r + r * r2 * (MURMUR_SIN_S3 + r2 * (MURMUR_SIN_S5 + r2 * (MURMUR_SIN_S7 + r2 * MURMUR_SIN_S9)));
  precise float cos_r =
      1.0 + r2 * (MURMUR_COS_C2 +
                  r2 * (MURMUR_COS_C4 +
                        r2 * (MURMUR_COS_C6 + r2 * (MURMUR_COS_C8 + r2 * MURMUR_COS_C10))));
  int quadrant = int(k) & 3;
  if (quadrant == 0) return vec2(sin_r, cos_r);
  if (quadrant == 1) return vec2(cos_r, -sin_r);
  if (quadrant == 2) return vec2(-sin_r, -cos_r);
  return vec2(-cos_r, sin_r);
}

// The natural logarithm of x > 0 by murmur's own series, as model.cpp's log_of.
float log_of(float x) {
  int exponent;
  precise float m = frexp(x, exponent);
  if (m < MURMUR_SQRT_HALF) {
    m = m * 2.0;
    exponent -= 1;
  }
  precise float s = (m - 1.0) / (m + 1.0);
  precise float s2 = s * s;
  precise float log_m =
      2.0 * s *
      (1.0 + s2 * (MURMUR_LOG_L3 + s2 * (MURMUR_LOG_L5 + s2 * (MURMUR_LOG_L7 + s2 * MURMUR_LOG_L9))));
  precise float result = float(exponent) * MURMUR_LN2 + log_m;
  return result;
}

vec2 rotated(vec2 h, float c, float s) {
  precise vec2 r = vec2(c * h.x - s * h.y, s * h.x + c * h.y);
  return r;
}

// The heading of a velocity: unit(v), or (1, 0) for v = 0.
vec2 heading_of(vec2 velocity) {
  float length = speed_of(velocity);
  if (!(length > 0.0)) return vec2(1.0, 0.0);
  precise vec2 h = vec2(velocity.x / length, velocity.y / length);
  return h;
}

float noise_angle(Species s, uint id) {
  if (!(s.noise > 0.0)) return 0.0;
  if (s.noise_distribution == MURMUR_NOISE_DISTRIBUTION_UNIFORM) {
    precise float u = random_uniform01(params.seed, id, step_index, MURMUR_DRAW_NOISE_UNIFORM);
    precise float angle = s.noise * (u - 0.5);
    // The planted fault widens the window to [-eta, eta].
    if (params.fault == MURMUR_FAULT_NOISE_WINDOW_DOUBLED) angle *= 2.0;
    return angle;
  }
  precise float u1 =
      1.0 - random_uniform01(params.seed, id, step_index, MURMUR_DRAW_NOISE_GAUSSIAN_RADIUS);
  float u2 = random_uniform01(params.seed, id, step_index, MURMUR_DRAW_NOISE_GAUSSIAN_ANGLE);
  precise float radius = sqrt(-2.0 * log_of(u1));
  precise float gaussian = radius * sin_cos(MURMUR_TWO_PI * u2).y;
  precise float angle = s.noise * gaussian;
  return angle;
}

vec2 vicsek_direction(NeighbourSums sums, vec2 velocity) {
  vec2 own = params.fault == MURMUR_FAULT_VICSEK_WITHOUT_SELF ? vec2(0.0) : unit_vector(velocity);
  precise vec2 total = own + sums.velocity_sum;
  if (total.x == 0.0 && total.y == 0.0) return heading_of(velocity);
  return unit_vector(total);
}

vec2 couzin_direction(NeighbourSums sums, vec2 heading) {
  precise vec2 desired;
  if (sums.separating > 0u) {
    desired = -sums.separation_sum;
  } else if (sums.flock > 0u && sums.attracting > 0u) {
    desired = 0.5 * (unit_vector(sums.velocity_sum) + unit_vector(sums.displacement_sum));
  } else if (sums.flock > 0u) {
    desired = sums.velocity_sum;
  } else if (sums.attracting > 0u) {
    desired = sums.displacement_sum;
  } else {
    return heading;
  }
  if (desired.x == 0.0 && desired.y == 0.0) return heading;
  return unit_vector(desired);
}

vec2 bounded_turn(Species s, vec2 heading, vec2 desired) {
  precise float facing = heading.x * desired.x + heading.y * desired.y;
  if (facing >= s.cos_max_turn) return desired;
  precise float side = heading.x * desired.y - heading.y * desired.x;
  float sine = side >= 0.0 ? s.sin_max_turn : -s.sin_max_turn;
  return rotated(heading, s.cos_max_turn, sine);
}

// One vicsek or couzin boid's state t+1 (or the steered boid's, limited to the rule's speed).
Boid rule_next_state(Species s, Boid self, NeighbourSums sums) {
  if (is_steered(self)) {
    precise vec2 velocity = params.steered_velocity;
    float length = speed_of(velocity);
    if (length > s.speed) velocity *= s.speed / length;
    return move_and_bound(s, self, velocity, params.world);
  }
  vec2 heading = heading_of(self.vel);
  vec2 direction = s.rule == MURMUR_RULE_VICSEK ? vicsek_direction(sums, self.vel)
                                                : couzin_direction(sums, heading);
  float angle = noise_angle(s, self.id);
  if (angle != 0.0) {
    vec2 turn = sin_cos(angle);
    direction = rotated(direction, turn.y, turn.x);
  }
  if (s.rule == MURMUR_RULE_COUZIN) direction = bounded_turn(s, heading, direction);
  precise vec2 velocity = s.speed * direction;
  bool moves_with_old = s.rule == MURMUR_RULE_VICSEK && s.vicsek_update == MURMUR_VICSEK_UPDATE_PAPER;
  precise vec2 old_velocity = s.speed * heading;
  Boid next = move_and_bound(s, self, moves_with_old ? old_velocity : velocity, params.world);
  next.vel = velocity;
  return next;
}
