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

vecD displacement(vecD from, vecD to, uint observer_topology, vecD world) {
  if (observer_topology == MURMUR_TOPOLOGY_WRAP) {
#ifdef MURMUR_3D
    return vec3(min_image_axis(from.x, to.x, world.x), min_image_axis(from.y, to.y, world.y),
                min_image_axis(from.z, to.z, world.z));
#else
    return vec2(min_image_axis(from.x, to.x, world.x), min_image_axis(from.y, to.y, world.y));
#endif
  }
  precise vecD d = to - from;
  return d;
}

// fl(fl(a.x*b.x) + fl(a.y*b.y)), then + fl(a.z*b.z) in 3D: every sum of squares and dot
// product of the model, its products added in axis order (docs/model.md, "One step in 3D"), so
// that for z = 0 it is the plane's value plus an exact +0.
float dot_in_order(vecD a, vecD b) {
  precise float sum = a.x * b.x + a.y * b.y;
#ifdef MURMUR_3D
  sum = sum + a.z * b.z;
#endif
  return sum;
}

// |v|: the observer's part of the fov test, the same for every neighbour, and s' = |v'| as the
// energy cost reads it.
float speed_of(vecD v) {
  return sqrt(dot_in_order(v, v));
}

// in_view with the observer's speed computed once (speed_of(v_i)): the same bits. In 3D the
// field of view is a cone about the heading.
bool in_view(Species s, vecD d, vecD v_i, float speed) {
  float dist_sq = dot_in_order(d, d);
  if (!(dist_sq < s.radius_sq)) return false;
  if (s.limited_fov == 0u) return true;
  float facing = dot_in_order(d, v_i);
  precise float threshold = sqrt(dist_sq) * speed * s.cos_half_fov;
  return facing >= threshold;
}

bool in_view(Species s, vecD d, vecD v_i) {
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
  vecD velocity_sum;      // over flock neighbours
  vecD displacement_sum;  // over flock neighbours
  vecD separation_sum;    // d / |d|^2 over the separation set
  uint visible;
  uint flock;
  uint separating;
  uint attracting;        // couzin: the attraction zone's count
};

NeighbourSums empty_sums() {
  return NeighbourSums(vecD(0.0), vecD(0.0), vecD(0.0), 0u, 0u, 0u, 0u);
}

// unit(v): v / |v|, or 0 for v = 0.
vecD unit_vector(vecD v) {
  float length = speed_of(v);
  if (!(length > 0.0)) return vecD(0.0);
  precise vecD u = v / length;
  return u;
}

// A visible neighbour's terms for a vicsek or couzin observer (`flocks`: it flocks with j).
void add_rule_neighbour(inout NeighbourSums sums, Species s, vecD d, vecD v_j, bool flocks) {
  if (s.rule == MURMUR_RULE_VICSEK) {
    if (flocks) {
      sums.flock += 1u;
      sums.velocity_sum += unit_vector(v_j);
    }
    return;
  }
  float dist_sq = dot_in_order(d, d);
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
vecD separation_term(Species s, vecD d, float dist_sq) {
  if (s.separation_kernel == MURMUR_SEPARATION_KERNEL_LINEAR) {
    if (params.fault == MURMUR_FAULT_LINEAR_KERNEL_UNIT) return d / sqrt(dist_sq);
    return d;
  }
  return d / dist_sq;
}

// Adds j at displacement d if i (flying v_i at `speed`, speed_of(v_i)) sees it; returns
// whether it does.
bool add_neighbour(inout NeighbourSums sums, Species s, vecD v_i, float speed, vecD d, vecD v_j,
                   uint species_j) {
  if (!in_view(s, d, v_i, speed)) {
    if (params.fault == MURMUR_FAULT_BLIND_REPULSION && s.rule == MURMUR_RULE_COUZIN) {
      float dist_sq = dot_in_order(d, d);
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
  float dist_sq = dot_in_order(d, d);
  if (dist_sq < s.sep_radius_sq && dist_sq > 0.0) {
    sums.separating += 1u;
    sums.separation_sum += separation_term(s, d, dist_sq);
  }
  return true;
}

bool add_neighbour(inout NeighbourSums sums, Species s, vecD v_i, vecD d, vecD v_j,
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

// obs: the sum over obstacles of the push away from each (0 outside reach); spheres in 3D.
vecD obstacle_push(Species s, vecD pos) {
  vecD push = vecD(0.0);
  for (uint k = 0u; k < params.obstacle_count; ++k) {
#ifdef MURMUR_3D
    vec3 centre = obstacles[k].xyw;
#else
    vec2 centre = obstacles[k].xy;
#endif
    float radius = obstacles[k].z;
    vecD q = displacement(centre, pos, s.topology, world_sides());
    precise float dist = sqrt(dot_in_order(q, q));
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
vecD target_pull(Species s, vecD pos) {
  if (params.has_target == 0u) return vecD(0.0);
#ifdef MURMUR_3D
  vec3 target = vec3(params.target, params.target_z);
#else
  vec2 target = params.target;
#endif
  vecD q = displacement(pos, target, s.topology, world_sides());
  if (s.target_pull == MURMUR_TARGET_PULL_LINEAR) return q;
  precise float dist = sqrt(dot_in_order(q, q));
  if (!(dist > 0.0)) return vecD(0.0);
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
  child.vel = -parent_after.vel;  // the plane's velocity, as the CPU's child_of (vz kept)
  child.age = 0u;
  child.fate = MURMUR_FATE_LIVES;
  return child;
}

Boid move_and_bound(Species s, Boid self, vecD vel, vecD world) {
  precise vecD pos = position_of(self) + vel;
  for (int a = 0; a < MURMUR_AXES; ++a) {
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
  set_motion(result, pos, vel);
  result.age = aged(self.age);
  return result;
}

// The steered boid: the user's velocity limited to max_speed, then move and bounds.
Boid steered_step(Species s, Boid self, vecD velocity, vecD world) {
  precise vecD vel = velocity;
  precise float speed = sqrt(dot_in_order(vel, vel));
  if (speed > s.max_speed) vel *= s.max_speed / speed;
  return move_and_bound(s, self, vel, world);
}

// acc of step 4: the flock's and the world's steering terms, before the force limit.
vecD steering_acc(Species s, Boid self, NeighbourSums sums, vecD world) {
  vecD align = vecD(0.0);
  vecD cohesion = vecD(0.0);
  vecD own_velocity = velocity_of(self);
  vecD pos = position_of(self);
  if (sums.flock > 0u) {
    // The boid counted self_weight times, and not at all for 0 (model.cpp says why).
    uint self_weight = params.fault == MURMUR_FAULT_SELF_WEIGHT_IGNORED ? 0u : s.self_weight;
    precise float k = float(self_weight);
    precise float n = float(sums.flock) + k;
    precise vecD velocity_sum =
        self_weight > 0u ? sums.velocity_sum + k * own_velocity : sums.velocity_sum;
    align = velocity_sum / n - own_velocity;
    cohesion = sums.displacement_sum / n;
  }
  vecD separation = -sums.separation_sum;
  vecD edge = vecD(0.0);
  if (s.topology == MURMUR_TOPOLOGY_BOUNDED) {
    for (int a = 0; a < MURMUR_AXES; ++a) edge[a] = edge_axis(s, pos[a], world[a]);
  }
  vecD obstacle = obstacle_push(s, pos);
  vecD target = target_pull(s, pos);
  precise vecD acc = s.align_weight * align + s.cohesion_weight * cohesion +
                     s.separation_weight * separation + edge + s.obstacle_weight * obstacle +
                     s.target_weight * target;
  return acc;
}

// Steps 5-7: the force limit, the speed limits, move and bounds.
Boid finish_step(Species s, Boid self, vecD steering, vecD world) {
  precise vecD acc = steering;
  precise float acc_len = sqrt(dot_in_order(acc, acc));
  if (acc_len > s.max_force) acc *= s.max_force / acc_len;

  precise vecD vel = s.velocity_factor * (velocity_of(self) + acc);
  precise float speed_squared = dot_in_order(vel, vel);
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
    vel = velocity_of(self);
  }
  return move_and_bound(s, self, vel, world);
}

// The user's velocity for the steered boid.
vecD steered_velocity() {
#ifdef MURMUR_3D
  return vec3(params.steered_velocity, params.steered_velocity_z);
#else
  return params.steered_velocity;
#endif
}

bool is_steered(Boid self) {
  return params.has_steered != 0u && self.id == params.steered_id;
}

// One boid's state t+1 under the steering acceleration `acc`, or the user's velocity for the
// steered boid.
Boid next_state(Species s, Boid self, vecD acc) {
  if (is_steered(self)) return steered_step(s, self, steered_velocity(), world_sides());
  return finish_step(s, self, acc, world_sides());
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

// The heading of a velocity: unit(v), or (1, 0) ((1, 0, 0) in 3D) for v = 0.
vecD heading_of(vecD velocity) {
  float length = speed_of(velocity);
  if (!(length > 0.0)) {
    vecD east = vecD(0.0);
    east.x = 1.0;
    return east;
  }
  precise vecD h = velocity / length;
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

bool is_zero(vecD v) {
  return v == vecD(0.0);
}

vecD vicsek_direction(NeighbourSums sums, vecD velocity) {
  vecD own = params.fault == MURMUR_FAULT_VICSEK_WITHOUT_SELF ? vecD(0.0) : unit_vector(velocity);
  precise vecD total = own + sums.velocity_sum;
  if (is_zero(total)) return heading_of(velocity);
  return unit_vector(total);
}

vecD couzin_direction(NeighbourSums sums, vecD heading) {
  precise vecD desired;
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
  if (is_zero(desired)) return heading;
  return unit_vector(desired);
}

#ifdef MURMUR_3D
// Two directions that make (h, e1, e2) a right-handed orthonormal basis for a unit h: the
// branch-free basis of Duff et al. (JCGT 6(1), 2017), docs/model.md, "The rules in 3D".
struct OrthonormalBasis {
  vec3 e1;
  vec3 e2;
};

OrthonormalBasis orthonormal_basis(vec3 h) {
  float sigma = h.z >= 0.0 ? 1.0 : -1.0;
  precise float a = -1.0 / (sigma + h.z);
  precise float b = h.x * h.y * a;
  precise vec3 e1 = vec3(1.0 + sigma * (h.x * h.x) * a, sigma * b, -sigma * h.x);
  precise vec3 e2 = vec3(b, sigma + h.y * h.y * a, -h.y);
  return OrthonormalBasis(e1, e2);
}

// h turned by the angle of cosine c and sine s towards the direction phi about it:
// c h + s (cos phi e1 + sin phi e2).
vec3 tilt(vec3 h, float c, float s, float phi) {
  OrthonormalBasis basis = orthonormal_basis(h);
  vec2 around = sin_cos(phi);
  precise vec3 t = c * h + s * (around.y * basis.e1 + around.x * basis.e2);
  return t;
}

// The 3D noise's turn (docs/model.md, "The noise in 3D"): the cosine and sine of the angle
// (uniform on Vicsek's cap, or Couzin's Gaussian angle), and the direction phi about the old
// direction towards which it turns.
struct NoiseTurn {
  float cosine;
  float sine;
  float phi;
};

NoiseTurn noise_turn(Species s, uint id) {
  NoiseTurn turn = NoiseTurn(1.0, 0.0, 0.0);
  if (!(s.noise > 0.0)) return turn;
  if (s.noise_distribution == MURMUR_NOISE_DISTRIBUTION_UNIFORM) {
    // Uniform on the cap of half-angle eta/2: the cap's area is uniform in the cosine.
    float u = random_uniform01(params.seed, id, step_index, MURMUR_DRAW_NOISE_UNIFORM);
    precise float c = 1.0 - u * s.noise_cap_height;
    precise float sine = sqrt((1.0 - c) * (1.0 + c));
    turn.cosine = c;
    turn.sine = sine;
  } else {
    vec2 angle = sin_cos(abs(noise_angle(s, id)));
    turn.cosine = angle.y;
    turn.sine = angle.x;
  }
  float u = random_uniform01(params.seed, id, step_index, MURMUR_DRAW_NOISE_AXIS);
  precise float phi = MURMUR_TWO_PI * u;
  // The planted fault turns every direction the same way about it, towards e1.
  turn.phi = params.fault == MURMUR_FAULT_NOISE_AXIS_FIXED ? 0.0 : phi;
  return turn;
}

// The bounded turn in the plane of the heading and the wanted direction: the part of desired
// across heading projected twice (near desired = -heading the first difference is mostly
// rounding), any perpendicular when there is none.
vec3 bounded_turn(Species s, vec3 heading, vec3 desired) {
  float facing = dot_in_order(heading, desired);
  if (facing >= s.cos_max_turn) return desired;
  precise vec3 once = desired - facing * heading;
  float again = dot_in_order(once, heading);
  precise vec3 across = once - again * heading;
  vec3 side = is_zero(across) ? orthonormal_basis(heading).e1 : unit_vector(across);
  precise vec3 turned = s.cos_max_turn * heading + s.sin_max_turn * side;
  return unit_vector(turned);
}
#else
vec2 bounded_turn(Species s, vec2 heading, vec2 desired) {
  precise float facing = heading.x * desired.x + heading.y * desired.y;
  if (facing >= s.cos_max_turn) return desired;
  precise float side = heading.x * desired.y - heading.y * desired.x;
  float sine = side >= 0.0 ? s.sin_max_turn : -s.sin_max_turn;
  return rotated(heading, s.cos_max_turn, sine);
}
#endif

// One vicsek or couzin boid's state t+1 (or the steered boid's, limited to the rule's speed).
Boid rule_next_state(Species s, Boid self, NeighbourSums sums) {
  vecD world = world_sides();
  if (is_steered(self)) {
    precise vecD velocity = steered_velocity();
    float length = speed_of(velocity);
    if (length > s.speed) velocity *= s.speed / length;
    return move_and_bound(s, self, velocity, world);
  }
  vecD own_velocity = velocity_of(self);
  vecD heading = heading_of(own_velocity);
  vecD direction = s.rule == MURMUR_RULE_VICSEK ? vicsek_direction(sums, own_velocity)
                                                : couzin_direction(sums, heading);
#ifdef MURMUR_3D
  if (s.noise > 0.0) {
    NoiseTurn turn = noise_turn(s, self.id);
    direction = unit_vector(tilt(direction, turn.cosine, turn.sine, turn.phi));
  }
#else
  float angle = noise_angle(s, self.id);
  if (angle != 0.0) {
    vec2 turn = sin_cos(angle);
    direction = rotated(direction, turn.y, turn.x);
  }
#endif
  if (s.rule == MURMUR_RULE_COUZIN) direction = bounded_turn(s, heading, direction);
  precise vecD velocity = s.speed * direction;
  bool moves_with_old = s.rule == MURMUR_RULE_VICSEK && s.vicsek_update == MURMUR_VICSEK_UPDATE_PAPER;
  precise vecD old_velocity = s.speed * heading;
  Boid next = move_and_bound(s, self, moves_with_old ? old_velocity : velocity, world);
  set_motion(next, position_of(next), velocity);
  return next;
}
