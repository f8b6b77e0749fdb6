// The flocking model of docs/model.md in float32, one boid at a time: the CPU reference, whose
// functions shaders/flock/model.glsl and ecosystem.glsl mirror under the same names.
// Sections, in order: the species' constants (species_models); displacement and visibility;
// the neighbour sums and the ecosystem's sensing; the surroundings' pulls (obstacles, target,
// prey, food); catching, grazing and energy; ageing and births; the step itself (steering_acc,
// with_ecosystem_terms, finish_step, next_state, ecosystem_next_state).
#include "murmur/flock/model.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

#include "murmur/base/random.hpp"

namespace murmur {

std::vector<SpeciesModel> species_models(const Scenario& scenario) {
  std::vector<SpeciesModel> models;
  models.reserve(scenario.species.size());
  for (std::size_t s = 0; s < scenario.species.size(); ++s) {
    const SpeciesParams& p = scenario.species[s];
    SpeciesModel m;
#define MURMUR_SPECIES_PARAM(key, type, default_value, accepted, unit, widget, gpu, meaning) \
  MURMUR_IF_GPU_COPIED(gpu, m.key = p.key;)
#include "murmur/scenario/params/species_params.def"
    // The derived fields of the table, one assignment each.
    m.radius_sq = p.perception_radius * p.perception_radius;
    m.sep_radius_sq = p.separation_radius * p.separation_radius;
    m.limited_fov = p.fov_degrees < kMaxFovDegrees;
    m.cos_half_fov = static_cast<float>(std::cos(static_cast<double>(p.fov_degrees) * 0.5 *
                                                 std::numbers::pi / 180.0));
    m.flock_mask = scenario.flock_mask(s);
    m.prey_mask = scenario.prey_mask(s);
    m.hunter_mask = scenario.hunter_mask(s);
    m.catch_radius_sq = p.catch_radius * p.catch_radius;
    m.has_energy = p.energy_max > 0.0f;
    m.child_speed = p.max_speed * kChildSpeedFraction;
    m.rep_radius_sq = p.repulsion_radius * p.repulsion_radius;
    m.ori_radius_sq = p.orientation_radius * p.orientation_radius;
    const double max_turn = static_cast<double>(p.max_turn_degrees) * std::numbers::pi / 180.0;
    m.cos_max_turn = static_cast<float>(std::cos(max_turn));
    m.sin_max_turn = static_cast<float>(std::sin(max_turn));
    // 1 - cos(eta / 2) = 2 sin^2(eta / 4), which does not cancel for a small noise.
    const double quarter_noise_sine = std::sin(0.25 * static_cast<double>(p.noise));
    m.noise_cap_height = static_cast<float>(2.0 * quarter_noise_sine * quarter_noise_sine);
    models.push_back(m);
  }
  return models;
}

namespace {
// One axis of the minimum image. Positions lie in [0, L], so |to - from| <= L and a single
// shift by L suffices; shifting the operand that is > L/2 (exact by Sterbenz) instead of the
// difference keeps a seam pair to one rounding.
float min_image_axis(float from, float to, float length) {
  const float d = to - from;
  if (d > 0.5f * length) return (to - length) - from;
  if (d < -0.5f * length) return to - (from - length);
  return d;
}
}  // namespace

glm::vec2 displacement(glm::vec2 from, glm::vec2 to, Topology observer, glm::vec2 world) {
  if (observer == Topology::Wrap) {
    return {min_image_axis(from.x, to.x, world.x), min_image_axis(from.y, to.y, world.y)};
  }
  return to - from;
}

glm::vec3 displacement(glm::vec3 from, glm::vec3 to, Topology observer, glm::vec3 world) {
  if (observer == Topology::Wrap) {
    return {min_image_axis(from.x, to.x, world.x), min_image_axis(from.y, to.y, world.y),
            min_image_axis(from.z, to.z, world.z)};
  }
  return to - from;
}

float dot_in_order(glm::vec2 a, glm::vec2 b) { return a.x * b.x + a.y * b.y; }
float dot_in_order(glm::vec3 a, glm::vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

template <ModelVector V>
float speed_of(V velocity) {
  return std::sqrt(dot_in_order(velocity, velocity));
}

template <ModelVector V>
bool in_view(const SpeciesModel& observer, V d, V v_i) {
  const float dist_sq = dot_in_order(d, d);
  if (!(dist_sq < observer.radius_sq)) return false;
  if (!observer.limited_fov) return true;
  const float facing = dot_in_order(d, v_i);
  return facing >= std::sqrt(dist_sq) * speed_of(v_i) * observer.cos_half_fov;
}

bool ranks_nearer(float dist_sq_a, std::uint32_t id_a, float dist_sq_b, std::uint32_t id_b) {
  return dist_sq_a < dist_sq_b || (dist_sq_a == dist_sq_b && id_a < id_b);
}

std::uint32_t neighbour_limit(const SpeciesModel& observer) { return observer.topological_k; }

template <ModelVector V>
V separation_term(const SpeciesModel& observer, V d, float dist_sq) {
  if (observer.separation_kernel == SeparationKernel::Linear) return d;
  return d / dist_sq;
}

template <ModelVector V>
void add_neighbour(NeighbourSumsIn<V>& sums, const SpeciesModel& observer, V v_i, V d, V v_j,
                   std::uint32_t species_j, std::uint32_t id_j) {
  if (!in_view(observer, d, v_i)) return;
  ++sums.visible;
  if (observer.rule != Rule::Boids) {
    add_rule_neighbour(sums, observer, d, v_j, ((observer.flock_mask >> species_j) & 1u) != 0);
    return;
  }
  if ((observer.flock_mask >> species_j) & 1u) {
    ++sums.flock;
    sums.velocity_sum += v_j;
    sums.displacement_sum += d;
  }
  const float dist_sq = dot_in_order(d, d);
  if (dist_sq < observer.sep_radius_sq && dist_sq > 0.0f) {
    ++sums.separating;
    sums.separation_sum += separation_term(observer, d, dist_sq);
  }
  sense_neighbour(sums, observer, d, species_j, id_j);
}

template <ModelVector V>
void add_rule_neighbour(NeighbourSumsIn<V>& sums, const SpeciesModel& observer, V d, V v_j,
                        bool flocks) {
  if (observer.rule == Rule::Vicsek) {
    if (flocks) {
      ++sums.flock;
      sums.velocity_sum += unit_vector(v_j);
    }
    return;
  }
  const float dist_sq = dot_in_order(d, d);
  if (dist_sq < observer.rep_radius_sq && dist_sq > 0.0f) {
    ++sums.separating;
    sums.separation_sum += unit_vector(d);
  } else if (flocks && dist_sq < observer.ori_radius_sq) {
    ++sums.flock;
    sums.velocity_sum += unit_vector(v_j);
  } else if (flocks) {
    ++sums.attracting;
    sums.displacement_sum += unit_vector(d);
  }
}

template <ModelVector V>
void sense_neighbour(NeighbourSumsIn<V>& sums, const SpeciesModel& observer, V d,
                     std::uint32_t species_j, std::uint32_t id_j) {
  const float dist_sq = dot_in_order(d, d);
  // The nearest prey is decided by (dist_sq, id), so it does not depend on the order in which
  // neighbours arrive (cell order on the GPU, index order here).
  if ((observer.prey_mask >> species_j) & 1u) {
    const bool nearer =
        !sums.has_prey || ranks_nearer(dist_sq, id_j, sums.prey_dist_sq, sums.prey_id);
    if (nearer) {
      sums.has_prey = true;
      sums.prey_id = id_j;
      sums.prey_dist_sq = dist_sq;
      sums.prey_displacement = d;
    }
  }
  if (((observer.hunter_mask >> species_j) & 1u) && dist_sq > 0.0f) sums.flee_sum += d / dist_sq;
}

namespace {
float edge_axis(const SpeciesModel& m, float p, float length) {
  if (m.walls == Walls::Push) {
    // Inclusive, so that with a margin of 0 a boid held on the wall is still pushed off it.
    if (p <= m.edge_margin) return m.edge_gain;
    if (p >= length - m.edge_margin) return -m.edge_gain;
    return 0.0f;
  }
  return m.edge_gain * std::max(0.0f, m.edge_margin - p) -
         m.edge_gain * std::max(0.0f, p - (length - m.edge_margin));
}
}  // namespace

Surroundings surroundings_of(const Scenario& scenario, std::span<const float> food) {
  Surroundings env;
  env.world = scenario.size();
  env.obstacles = scenario.obstacles;
  if (scenario.target) env.target = scenario.target->position;
  if (scenario.food && !food.empty()) {
    env.food = FoodView{food_grid_shape(*scenario.food, env.world), food};
  }
  return env;
}

Surroundings3 surroundings_3d(const Scenario& scenario) {
  Surroundings3 env;
  env.world = world_box(scenario);
  env.obstacles = scenario.obstacles;
  if (scenario.target) env.target = glm::vec3(scenario.target->position, scenario.target->z);
  return env;
}

template <ModelVector V>
V obstacle_push(const SpeciesModel& m, V pos, const SurroundingsIn<V>& env) {
  V push{0.0f};
  for (const Obstacle& o : env.obstacles) {
    const V q = displacement(centre_of<V>(o), pos, m.topology, env.world);
    const float dist = std::sqrt(dot_in_order(q, q));
    const float reach = o.radius + m.perception_radius;
    if (dist < reach && dist > 0.0f) {
      const float depth = (reach - dist) / m.perception_radius;
      push += q * (depth / dist);
    }
  }
  return push;
}

template <ModelVector V>
V target_pull(const SpeciesModel& m, V pos, const SurroundingsIn<V>& env) {
  if (!env.target) return V{0.0f};
  const V q = displacement(pos, *env.target, m.topology, env.world);
  if (m.target_pull == TargetPull::Linear) return q;
  const float dist = std::sqrt(dot_in_order(q, q));
  if (!(dist > 0.0f)) return V{0.0f};
  return q / dist;
}

glm::vec2 chase_pull(const NeighbourSums& sums) {
  if (!sums.has_prey || !(sums.prey_dist_sq > 0.0f)) return glm::vec2{0.0f};
  return sums.prey_displacement / std::sqrt(sums.prey_dist_sq);
}

namespace {
// One axis of a neighbouring food cell: `index + step`, wrapped for a wrap species; -1 when a
// bounded species looks past the field's edge.
int food_neighbour(int index, int step, int cells, Topology topology) {
  const int neighbour = index + step;
  if (topology == Topology::Wrap) return (neighbour + cells) % cells;
  return neighbour < 0 || neighbour >= cells ? -1 : neighbour;
}
}  // namespace

glm::vec2 food_pull(const SpeciesModel& m, glm::vec2 pos, const Surroundings& env) {
  if (!m.grazes || !env.food) return glm::vec2{0.0f};
  const GridShape& grid = env.food->grid;
  const std::span<const float> amounts = env.food->amounts;
  const std::uint32_t own = grid.cell_of(pos);
  const int column = static_cast<int>(own % static_cast<std::uint32_t>(grid.cells.x));
  const int row = static_cast<int>(own / static_cast<std::uint32_t>(grid.cells.x));
  // The first cell strictly richer than its own and than every cell before it.
  float richest = amounts[own];
  int best_column = -1;
  int best_row = -1;
  for (int dy = -1; dy <= 1; ++dy) {
    const int r = food_neighbour(row, dy, grid.cells.y, m.topology);
    if (r < 0) continue;
    for (int dx = -1; dx <= 1; ++dx) {
      const int c = food_neighbour(column, dx, grid.cells.x, m.topology);
      if (c < 0) continue;
      const float amount = amounts[static_cast<std::size_t>(r) * grid.cells.x + c];
      if (amount > richest) {
        richest = amount;
        best_column = c;
        best_row = r;
      }
    }
  }
  if (best_column < 0) return glm::vec2{0.0f};
  const float side = grid.cell_size.x;
  const glm::vec2 centre{(static_cast<float>(best_column) + 0.5f) * side,
                         (static_cast<float>(best_row) + 0.5f) * side};
  const glm::vec2 q = displacement(pos, centre, m.topology, env.world);
  const float dist = std::sqrt(q.x * q.x + q.y * q.y);
  if (!(dist > 0.0f)) return glm::vec2{0.0f};
  return q / dist;
}

bool strikes(const SpeciesModel& hunter, const NeighbourSums& sums) {
  return sums.has_prey && sums.prey_dist_sq < hunter.catch_radius_sq;
}

float grazed_amount(std::uint32_t grazers, float amount, float bite) {
  const float n = static_cast<float>(grazers);  // exact: at most 2^24 boids
  const float demand = n * bite;
  if (demand <= amount) return bite;
  return amount / n;
}

float food_after_step(std::uint32_t grazers, float amount, const FoodParams& food) {
  float left = amount;
  if (grazers > 0) {
    const float demand = static_cast<float>(grazers) * food.bite;
    left = demand <= amount ? amount - demand : 0.0f;
  }
  return std::min(food.max_per_cell, left + food.regrow_per_step);
}

float energy_after_moving(const SpeciesModel& m, float energy, glm::vec2 velocity,
                          float grazed) {
  if (!m.has_energy) return energy;
  const float e1 = energy - m.energy_per_step;
  const float e2 = e1 - m.energy_per_distance * speed_of(velocity);
  const float e3 = e2 + m.energy_from_food * grazed;
  return e3;
}

float energy_after_eating(const SpeciesModel& m, float e3, bool ate_prey, float* uncapped) {
  if (!m.has_energy) {
    if (uncapped != nullptr) *uncapped = e3;
    return e3;
  }
  const float e4 = ate_prey ? e3 + m.energy_from_prey : e3;
  if (uncapped != nullptr) *uncapped = e4;
  return std::min(e4, m.energy_max);
}

bool starves(const SpeciesModel& m, float energy_after) {
  return m.has_energy && energy_after <= 0.0f;
}

bool wants_child(const SpeciesModel& m, float energy) {
  return m.reproduce_energy > 0.0f && energy >= m.reproduce_energy;
}

float parent_share(float energy) { return energy * 0.5f; }

std::uint32_t aged(std::uint32_t age) { return age == UINT32_MAX ? age : age + 1u; }

bool dies_of_age(const SpeciesModel& observer, std::uint32_t age) {
  return observer.max_age > 0 && age >= observer.max_age;
}

std::uint32_t children_of(const BirthRules& rules, const Boid& parent, std::uint64_t step) {
  if (rules.budding_period == 0) return 0;
  // uint32 arithmetic, as on the GPU: the step index there is its low 32 bits.
  const std::uint32_t phase = parent.id + static_cast<std::uint32_t>(step);
  return phase % rules.budding_period == 0 ? 1u : 0u;
}

Boid child_of(const BirthRules&, const Boid& parent_after, std::uint32_t, std::uint32_t id) {
  Boid child = parent_after;
  child.id = id;
  child.vel = -parent_after.vel;
  child.age = 0;
  return child;
}

namespace {
// Steps 10-11: move by `vel` and apply the species' bounds (may reflect `vel`), on each axis.
template <ModelVector V>
Boid move_and_bound(const SpeciesModel& m, const Boid& self, V vel, V world) {
  V pos = position_in<V>(self) + vel;
  for (int a = 0; a < V::length(); ++a) {
    const float length = world[a];
    if (m.topology == Topology::Wrap) {
      // |vel| <= max_speed < L/2 (validated), so one shift by L lands in [0, L].
      if (pos[a] < 0.0f) pos[a] += length;
      else if (pos[a] >= length) pos[a] -= length;
      if (pos[a] >= length) pos[a] = 0.0f;  // p + L rounded up to L
    } else if (m.walls == Walls::Push) {
      // No bounce: the wall holds the position and the push (edge_axis) turns the boid.
      pos[a] = std::clamp(pos[a], 0.0f, length);
    } else {
      if (pos[a] < 0.0f) {
        pos[a] = 0.0f;
        vel[a] = std::abs(vel[a]);
      } else if (pos[a] > length) {
        pos[a] = length;
        vel[a] = -std::abs(vel[a]);
      }
    }
  }
  Boid out = self;
  if constexpr (V::length() == 2) {
    out.pos = pos;
    out.vel = vel;
  } else {
    set_motion(out, pos, vel);
  }
  out.age = aged(self.age);
  return out;
}
}  // namespace

Boid child_by_energy(const SpeciesModel& m, const Boid& parent_after, std::uint32_t id,
                     std::uint64_t seed, std::uint64_t step, glm::vec2 world) {
  const float speed = m.child_speed;
  const glm::vec2 velocity{
      random_uniform(RandomDraw{seed, parent_after.id, step, kDrawChildVelocityX}, -speed, speed),
      random_uniform(RandomDraw{seed, parent_after.id, step, kDrawChildVelocityY}, -speed, speed)};
  Boid child = move_and_bound(m, parent_after, velocity, world);
  child.id = id;
  child.age = 0;
  child.energy = parent_after.energy - parent_share(parent_after.energy);
  return child;
}

template <ModelVector V>
Boid steered_step(const SpeciesModel& m, const Boid& self, V velocity, V world) {
  V vel = velocity;
  const float speed = std::sqrt(dot_in_order(vel, vel));
  if (speed > m.max_speed) vel *= m.max_speed / speed;
  return move_and_bound(m, self, vel, world);
}

template <ModelVector V>
V steering_acc(const SpeciesModel& m, const Boid& self, const NeighbourSumsIn<V>& sums,
               const SurroundingsIn<V>& env) {
  const V world = env.world;
  const V self_pos = position_in<V>(self);
  const V self_vel = velocity_in<V>(self);
  V align{0.0f};
  V cohesion{0.0f};
  if (sums.flock > 0) {
    // The boid counted k times among its neighbours (origin 000: twice) adds k v_i to their
    // velocities and nothing to their displacements. k = 0 adds nothing at all, rather than
    // +0, which would turn a sum of -0 into +0.
    const float k = static_cast<float>(m.self_weight);
    const float n = static_cast<float>(sums.flock) + k;
    const V velocity_sum =
        m.self_weight > 0 ? sums.velocity_sum + k * self_vel : sums.velocity_sum;
    align = velocity_sum / n - self_vel;
    cohesion = sums.displacement_sum / n;
  }
  const V separation = -sums.separation_sum;
  V edge{0.0f};
  if (m.topology == Topology::Bounded) {
    for (int a = 0; a < V::length(); ++a) edge[a] = edge_axis(m, self_pos[a], world[a]);
  }
  const V obstacles = obstacle_push(m, self_pos, env);
  const V target = target_pull(m, self_pos, env);
  return m.align_weight * align + m.cohesion_weight * cohesion +
         m.separation_weight * separation + edge + m.obstacle_weight * obstacles +
         m.target_weight * target;
}

glm::vec2 with_ecosystem_terms(const SpeciesModel& m, const Boid& self, const NeighbourSums& sums,
                               glm::vec2 steering, const Surroundings& env) {
  glm::vec2 acc = steering;
  // In the written order. A zero weight leaves its term out rather than adding 0, which would
  // turn an acc component of -0 into +0 and change a plain flock.
  if (m.chase_weight != 0.0f) acc = acc + m.chase_weight * chase_pull(sums);
  if (m.flee_weight != 0.0f) acc = acc + m.flee_weight * -sums.flee_sum;
  if (m.food_weight != 0.0f) acc = acc + m.food_weight * food_pull(m, self.pos, env);
  return acc;
}

template <ModelVector V>
Boid finish_step(const SpeciesModel& m, const Boid& self, V steering, V world) {
  V acc = steering;
  const float acc_len = std::sqrt(dot_in_order(acc, acc));
  if (acc_len > m.max_force) acc *= m.max_force / acc_len;

  const V self_vel = velocity_in<V>(self);
  V vel = m.velocity_factor * (self_vel + acc);
  const float speed_squared = dot_in_order(vel, vel);
  const float speed = std::sqrt(speed_squared);
  if (speed > m.max_speed) {
    vel *= m.speed_limit == SpeedLimit::Inverse ? (m.max_speed * m.max_speed) / speed_squared
                                                : m.max_speed / speed;
  } else if (speed > 0.0f && speed < m.min_speed) {
    vel *= m.min_speed / speed;
  } else if (speed == 0.0f) {
    vel = self_vel;
  }
  return move_and_bound(m, self, vel, world);
}

bool is_steered(const std::optional<SteeredBoid>& steered, const Boid& self) {
  return steered && steered->id == self.id;
}

template <ModelVector V>
Boid next_state(const SpeciesModel& m, const Boid& self, V acc, const SurroundingsIn<V>& env,
                const std::optional<SteeredBoid>& steered) {
  if (is_steered(steered, self)) {
    return steered_step(m, self, steered_velocity<V>(*steered), env.world);
  }
  return finish_step(m, self, acc, env.world);
}

Boid ecosystem_next_state(const SpeciesModel& m, const Boid& self, const NeighbourSums& sums,
                          const Surroundings& env, const std::optional<SteeredBoid>& steered,
                          float grazed) {
  const glm::vec2 acc = with_ecosystem_terms(m, self, sums, steering_acc(m, self, sums, env), env);
  Boid next = next_state(m, self, acc, env, steered);
  next.energy = energy_after_moving(m, self.energy, next.vel, grazed);
  return next;
}

// ---- the rules of motion besides boids -----------------------------------------------

SinCos sin_cos(float angle) {
  const float k = std::floor(angle * MURMUR_TWO_OVER_PI + 0.5f);
  const float r = (angle - k * MURMUR_HALF_PI_HIGH) - k * MURMUR_HALF_PI_LOW;
  const float r2 = r * r;
  const float sin_r =
      r + r * r2 * (MURMUR_SIN_S3 + r2 * (MURMUR_SIN_S5 + r2 * (MURMUR_SIN_S7 + r2 * MURMUR_SIN_S9)));
  const float cos_r =
      1.0f + r2 * (MURMUR_COS_C2 +
                   r2 * (MURMUR_COS_C4 +
                         r2 * (MURMUR_COS_C6 + r2 * (MURMUR_COS_C8 + r2 * MURMUR_COS_C10))));
  switch (static_cast<int>(k) & 3) {
    case 0: return {sin_r, cos_r};
    case 1: return {cos_r, -sin_r};
    case 2: return {-sin_r, -cos_r};
    default: return {-cos_r, sin_r};
  }
}

float log_of(float x) {
  int exponent = 0;
  float m = std::frexp(x, &exponent);
  if (m < MURMUR_SQRT_HALF) {
    m = m * 2.0f;
    exponent -= 1;
  }
  const float s = (m - 1.0f) / (m + 1.0f);
  const float s2 = s * s;
  const float log_m =
      2.0f * s *
      (1.0f + s2 * (MURMUR_LOG_L3 + s2 * (MURMUR_LOG_L5 + s2 * (MURMUR_LOG_L7 + s2 * MURMUR_LOG_L9))));
  return static_cast<float>(exponent) * MURMUR_LN2 + log_m;
}

template <ModelVector V>
V unit_vector(V v) {
  const float length = speed_of(v);
  if (!(length > 0.0f)) return V(0.0f);
  return v / length;
}

glm::vec2 rotated(glm::vec2 h, float c, float s) {
  return {c * h.x - s * h.y, s * h.x + c * h.y};
}

template <ModelVector V>
V heading_of(V velocity) {
  const float length = speed_of(velocity);
  if (!(length > 0.0f)) {
    V east{0.0f};
    east.x = 1.0f;
    return east;
  }
  return velocity / length;
}

OrthonormalBasis orthonormal_basis(glm::vec3 h) {
  // sigma's sign keeps sigma + h.z away from 0, the basis' one singularity.
  const float sigma = h.z >= 0.0f ? 1.0f : -1.0f;
  const float a = -1.0f / (sigma + h.z);
  const float b = (h.x * h.y) * a;
  return {{1.0f + (sigma * (h.x * h.x)) * a, sigma * b, -sigma * h.x},
          {b, sigma + (h.y * h.y) * a, -h.y}};
}

glm::vec3 tilt(glm::vec3 h, float c, float s, float phi) {
  const SinCos around = sin_cos(phi);
  const OrthonormalBasis basis = orthonormal_basis(h);
  return c * h + s * (around.cos * basis.e1 + around.sin * basis.e2);
}

float noise_angle(const SpeciesModel& m, std::uint32_t id, std::uint64_t seed,
                  std::uint64_t step) {
  if (!(m.noise > 0.0f)) return 0.0f;
  if (m.noise_distribution == NoiseDistribution::Uniform) {
    const float u = random_uniform01({seed, id, step, kDrawNoiseUniform});
    return m.noise * (u - 0.5f);
  }
  const float u1 = 1.0f - random_uniform01({seed, id, step, kDrawNoiseGaussianRadius});
  const float u2 = random_uniform01({seed, id, step, kDrawNoiseGaussianAngle});
  const float radius = std::sqrt(-2.0f * log_of(u1));
  const float gaussian = radius * sin_cos(MURMUR_TWO_PI * u2).cos;
  return m.noise * gaussian;
}

namespace {
template <ModelVector V>
bool is_zero(V v) {
  return v == V(0.0f);
}
}  // namespace

template <ModelVector V>
V vicsek_direction(const NeighbourSumsIn<V>& sums, V velocity) {
  const V total = unit_vector(velocity) + sums.velocity_sum;
  if (is_zero(total)) return heading_of(velocity);
  return unit_vector(total);
}

template <ModelVector V>
V couzin_direction(const NeighbourSumsIn<V>& sums, V heading) {
  V desired;
  if (sums.separating > 0) {
    desired = -sums.separation_sum;
  } else if (sums.flock > 0 && sums.attracting > 0) {
    desired = 0.5f * (unit_vector(sums.velocity_sum) + unit_vector(sums.displacement_sum));
  } else if (sums.flock > 0) {
    desired = sums.velocity_sum;
  } else if (sums.attracting > 0) {
    desired = sums.displacement_sum;
  } else {
    return heading;
  }
  if (is_zero(desired)) return heading;
  return unit_vector(desired);
}

glm::vec2 bounded_turn(const SpeciesModel& m, glm::vec2 heading, glm::vec2 desired) {
  const float facing = heading.x * desired.x + heading.y * desired.y;
  if (facing >= m.cos_max_turn) return desired;
  const float side = heading.x * desired.y - heading.y * desired.x;
  const float sine = side >= 0.0f ? m.sin_max_turn : -m.sin_max_turn;
  return rotated(heading, m.cos_max_turn, sine);
}

glm::vec3 bounded_turn(const SpeciesModel& m, glm::vec3 heading, glm::vec3 desired) {
  const float facing = dot_in_order(heading, desired);
  if (facing >= m.cos_max_turn) return desired;
  // The part of desired across heading, projected twice: near desired = -heading the first
  // difference is mostly rounding and need not be perpendicular, the second is.
  const glm::vec3 once = desired - facing * heading;
  const glm::vec3 across = once - dot_in_order(once, heading) * heading;
  // desired = -heading leaves no plane of turning: any perpendicular will do.
  const glm::vec3 side = is_zero(across) ? orthonormal_basis(heading).e1 : unit_vector(across);
  return unit_vector(m.cos_max_turn * heading + m.sin_max_turn * side);
}

NoiseTurn noise_turn(const SpeciesModel& m, std::uint32_t id, std::uint64_t seed,
                     std::uint64_t step) {
  NoiseTurn turn;
  if (!(m.noise > 0.0f)) return turn;
  if (m.noise_distribution == NoiseDistribution::Uniform) {
    // Uniform on the cap of half-angle eta/2: the cap's area is uniform in the cosine.
    const float u = random_uniform01({seed, id, step, kDrawNoiseUniform});
    turn.cos = 1.0f - u * m.noise_cap_height;
    turn.sin = std::sqrt((1.0f - turn.cos) * (1.0f + turn.cos));
  } else {
    const SinCos angle = sin_cos(std::abs(noise_angle(m, id, seed, step)));
    turn.cos = angle.cos;
    turn.sin = angle.sin;
  }
  turn.phi = MURMUR_TWO_PI * random_uniform01({seed, id, step, kDrawNoiseAxis});
  return turn;
}

template <ModelVector V>
Boid rule_next_state(const SpeciesModel& m, const Boid& self, const NeighbourSumsIn<V>& sums,
                     const SurroundingsIn<V>& env, const std::optional<SteeredBoid>& steered,
                     std::uint64_t seed, std::uint64_t step) {
  if (is_steered(steered, self)) {
    // The user's velocity, limited to the rule's one speed.
    V velocity = steered_velocity<V>(*steered);
    const float length = speed_of(velocity);
    if (length > m.speed) velocity *= m.speed / length;
    return move_and_bound(m, self, velocity, env.world);
  }
  const V self_vel = velocity_in<V>(self);
  const V heading = heading_of(self_vel);
  V direction = m.rule == Rule::Vicsek ? vicsek_direction(sums, self_vel)
                                        : couzin_direction(sums, heading);
  if constexpr (V::length() == 2) {
    const float angle = noise_angle(m, self.id, seed, step);
    if (angle != 0.0f) {
      const SinCos turn = sin_cos(angle);
      direction = rotated(direction, turn.cos, turn.sin);
    }
  } else if (m.noise > 0.0f) {
    const NoiseTurn turn = noise_turn(m, self.id, seed, step);
    direction = unit_vector(tilt(direction, turn.cos, turn.sin, turn.phi));
  }
  if (m.rule == Rule::Couzin) direction = bounded_turn(m, heading, direction);
  const V velocity = m.speed * direction;
  const bool moves_with_old = m.rule == Rule::Vicsek && m.vicsek_update == VicsekUpdate::Paper;
  Boid next = move_and_bound(m, self, moves_with_old ? m.speed * heading : velocity, env.world);
  if constexpr (V::length() == 2) {
    next.vel = velocity;
  } else {
    next.vel = {velocity.x, velocity.y};
    next.vz = velocity.z;
  }
  return next;
}

// The rules over both dimensions: the 2D instances are the plane's model, bit for bit.
#define MURMUR_MODEL_INSTANCES(V)                                                              \
  template float speed_of<V>(V);                                                               \
  template bool in_view<V>(const SpeciesModel&, V, V);                                         \
  template V separation_term<V>(const SpeciesModel&, V, float);                                \
  template void add_neighbour<V>(NeighbourSumsIn<V>&, const SpeciesModel&, V, V, V,            \
                                 std::uint32_t, std::uint32_t);                                \
  template void add_rule_neighbour<V>(NeighbourSumsIn<V>&, const SpeciesModel&, V, V, bool);   \
  template void sense_neighbour<V>(NeighbourSumsIn<V>&, const SpeciesModel&, V, std::uint32_t, \
                                   std::uint32_t);                                             \
  template V obstacle_push<V>(const SpeciesModel&, V, const SurroundingsIn<V>&);               \
  template V target_pull<V>(const SpeciesModel&, V, const SurroundingsIn<V>&);                 \
  template V steering_acc<V>(const SpeciesModel&, const Boid&, const NeighbourSumsIn<V>&,      \
                             const SurroundingsIn<V>&);                                        \
  template Boid finish_step<V>(const SpeciesModel&, const Boid&, V, V);                        \
  template Boid steered_step<V>(const SpeciesModel&, const Boid&, V, V);                       \
  template Boid next_state<V>(const SpeciesModel&, const Boid&, V, const SurroundingsIn<V>&,   \
                              const std::optional<SteeredBoid>&);                              \
  template V unit_vector<V>(V);                                                                \
  template V heading_of<V>(V);                                                                 \
  template V vicsek_direction<V>(const NeighbourSumsIn<V>&, V);                                \
  template V couzin_direction<V>(const NeighbourSumsIn<V>&, V);                                \
  template Boid rule_next_state<V>(const SpeciesModel&, const Boid&, const NeighbourSumsIn<V>&, \
                                   const SurroundingsIn<V>&, const std::optional<SteeredBoid>&, \
                                   std::uint64_t, std::uint64_t);
MURMUR_MODEL_INSTANCES(glm::vec2)
MURMUR_MODEL_INSTANCES(glm::vec3)
#undef MURMUR_MODEL_INSTANCES

}  // namespace murmur
