#include "murmur/model.hpp"

#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

namespace murmur {

std::vector<SpeciesModel> species_models(const Scenario& scenario) {
  std::vector<SpeciesModel> models;
  models.reserve(scenario.species.size());
  for (std::size_t s = 0; s < scenario.species.size(); ++s) {
    const SpeciesParams& p = scenario.species[s];
    SpeciesModel m;
#define MURMUR_SPECIES_PARAM(key, type, default_value, accepted, unit, widget, gpu, meaning) \
  MURMUR_IF_GPU_COPIED(gpu, m.key = p.key;)
#include "murmur/params/species_params.def"
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

bool in_view(const SpeciesModel& observer, glm::vec2 d, glm::vec2 v_i) {
  const float dist_sq = d.x * d.x + d.y * d.y;
  if (!(dist_sq < observer.radius_sq)) return false;
  if (!observer.limited_fov) return true;
  const float speed_sq = v_i.x * v_i.x + v_i.y * v_i.y;
  const float facing = d.x * v_i.x + d.y * v_i.y;
  return facing >= std::sqrt(dist_sq) * std::sqrt(speed_sq) * observer.cos_half_fov;
}

void add_neighbour(NeighbourSums& sums, const SpeciesModel& observer, glm::vec2 v_i, glm::vec2 d,
                   glm::vec2 v_j, std::uint32_t species_j) {
  if (!in_view(observer, d, v_i)) return;
  ++sums.visible;
  if ((observer.flock_mask >> species_j) & 1u) {
    ++sums.flock;
    sums.velocity_sum += v_j;
    sums.displacement_sum += d;
  }
  const float dist_sq = d.x * d.x + d.y * d.y;
  if (dist_sq < observer.sep_radius_sq && dist_sq > 0.0f) {
    ++sums.separating;
    sums.separation_sum += d / dist_sq;
  }
}

namespace {
float edge_axis(const SpeciesModel& m, float p, float length) {
  return m.edge_gain * std::max(0.0f, m.edge_margin - p) -
         m.edge_gain * std::max(0.0f, p - (length - m.edge_margin));
}
}  // namespace

Surroundings surroundings_of(const Scenario& scenario) {
  Surroundings env;
  env.world = scenario.size();
  env.obstacles = scenario.obstacles;
  if (scenario.target) env.target = scenario.target->position;
  return env;
}

glm::vec2 obstacle_push(const SpeciesModel& m, glm::vec2 pos, const Surroundings& env) {
  glm::vec2 push{0.0f};
  for (const Obstacle& o : env.obstacles) {
    const glm::vec2 q = displacement(o.centre, pos, m.topology, env.world);
    const float dist = std::sqrt(q.x * q.x + q.y * q.y);
    const float reach = o.radius + m.perception_radius;
    if (dist < reach && dist > 0.0f) {
      const float depth = (reach - dist) / m.perception_radius;
      push += q * (depth / dist);
    }
  }
  return push;
}

glm::vec2 target_pull(const SpeciesModel& m, glm::vec2 pos, const Surroundings& env) {
  if (!env.target) return glm::vec2{0.0f};
  const glm::vec2 q = displacement(pos, *env.target, m.topology, env.world);
  const float dist = std::sqrt(q.x * q.x + q.y * q.y);
  if (!(dist > 0.0f)) return glm::vec2{0.0f};
  return q / dist;
}

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
// Steps 10-11: move by `vel` and apply the species' bounds (may reflect `vel`).
Boid move_and_bound(const SpeciesModel& m, const Boid& self, glm::vec2 vel, glm::vec2 world) {
  glm::vec2 pos = self.pos + vel;
  for (int a = 0; a < 2; ++a) {
    const float length = world[a];
    if (m.topology == Topology::Wrap) {
      // |vel| <= max_speed < L/2 (validated), so one shift by L lands in [0, L].
      if (pos[a] < 0.0f) pos[a] += length;
      else if (pos[a] >= length) pos[a] -= length;
      if (pos[a] >= length) pos[a] = 0.0f;  // p + L rounded up to L
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
  out.pos = pos;
  out.vel = vel;
  out.age = aged(self.age);
  return out;
}
}  // namespace

Boid steered_step(const SpeciesModel& m, const Boid& self, glm::vec2 velocity, glm::vec2 world) {
  glm::vec2 vel = velocity;
  const float speed = std::sqrt(vel.x * vel.x + vel.y * vel.y);
  if (speed > m.max_speed) vel *= m.max_speed / speed;
  return move_and_bound(m, self, vel, world);
}

Boid finish_step(const SpeciesModel& m, const Boid& self, const NeighbourSums& sums,
                 const Surroundings& env) {
  const glm::vec2 world = env.world;
  glm::vec2 align{0.0f};
  glm::vec2 cohesion{0.0f};
  if (sums.flock > 0) {
    const float n = static_cast<float>(sums.flock);
    align = sums.velocity_sum / n - self.vel;
    cohesion = sums.displacement_sum / n;
  }
  const glm::vec2 separation = -sums.separation_sum;
  glm::vec2 edge{0.0f};
  if (m.topology == Topology::Bounded) {
    edge = {edge_axis(m, self.pos.x, world.x), edge_axis(m, self.pos.y, world.y)};
  }
  const glm::vec2 obstacles = obstacle_push(m, self.pos, env);
  const glm::vec2 target = target_pull(m, self.pos, env);
  glm::vec2 acc = m.align_weight * align + m.cohesion_weight * cohesion +
                  m.separation_weight * separation + edge + m.obstacle_weight * obstacles +
                  m.target_weight * target;
  const float acc_len = std::sqrt(acc.x * acc.x + acc.y * acc.y);
  if (acc_len > m.max_force) acc *= m.max_force / acc_len;

  glm::vec2 vel = self.vel + acc;
  const float speed = std::sqrt(vel.x * vel.x + vel.y * vel.y);
  if (speed > m.max_speed) {
    vel *= m.max_speed / speed;
  } else if (speed > 0.0f && speed < m.min_speed) {
    vel *= m.min_speed / speed;
  } else if (speed == 0.0f) {
    vel = self.vel;
  }
  return move_and_bound(m, self, vel, world);
}

}  // namespace murmur
