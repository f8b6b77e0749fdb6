// Derived quantities of a scenario, and origin 003's plan groups (reading a scenario lives in
// parse.cpp, its checks in check.cpp, writing it in write.cpp).
#include <algorithm>
#include <cmath>

#include "murmur/scenario/scenario.hpp"

namespace murmur {

bool is_3d(const ScenarioCommon& scenario) { return scenario.world.dimensions == 3; }

glm::vec3 world_box(const ScenarioCommon& scenario) {
  return {scenario.world.width, scenario.world.height, is_3d(scenario) ? scenario.world.depth : 0.0f};
}

float smallest_world_side(const ScenarioCommon& scenario) {
  const float plane = std::min(scenario.world.width, scenario.world.height);
  return is_3d(scenario) ? std::min(plane, scenario.world.depth) : plane;
}

std::uint32_t FlockScenario::total_count() const {
  std::uint32_t total = 0;
  for (const SpeciesParams& s : species) total += s.count;
  return total;
}

std::uint32_t FlockScenario::capacity() const { return std::max(world.capacity, total_count()); }

float FlockScenario::max_perception_radius() const {
  float r = 0.0f;
  for (const SpeciesParams& s : species) r = std::max(r, s.perception_radius);
  return r;
}

std::uint32_t FlockScenario::flock_mask(std::size_t s) const {
  const SpeciesParams& observer = species.at(s);
  if (observer.flocks_with.empty()) return 1u << s;
  std::uint32_t mask = 0;
  for (const std::string& name : observer.flocks_with) {
    for (std::size_t j = 0; j < species.size(); ++j) {
      if (species[j].name == name) mask |= 1u << j;
    }
  }
  return mask;
}

std::uint32_t FlockScenario::prey_mask(std::size_t s) const {
  std::uint32_t mask = 0;
  for (const std::string& name : species.at(s).eats) {
    for (std::size_t j = 0; j < species.size(); ++j) {
      if (species[j].name == name) mask |= 1u << j;
    }
  }
  return mask;
}

std::uint32_t FlockScenario::hunter_mask(std::size_t s) const {
  std::uint32_t mask = 0;
  for (std::size_t j = 0; j < species.size(); ++j) {
    if ((prey_mask(j) >> s) & 1u) mask |= 1u << j;
  }
  return mask;
}

std::uint32_t PlanParams::total_count() const {
  std::uint64_t total = 0;
  for (const PlanGroup& g : groups) total += g.count;
  return std::uint32_t(std::min<std::uint64_t>(total, kMaxTotalBoids + 1ull));
}

std::vector<PlanGroup> origin003_plan_groups() {
  constexpr std::uint32_t kGroupCount = 10;
  constexpr float kGroupX = 400.0f;
  constexpr float kFirstGroupY = 400.0f;
  constexpr float kSecondGroupY = 420.0f;
  PlanGroup first;
  first.count = kGroupCount;
  first.x = kGroupX;
  first.y = kFirstGroupY;
  PlanGroup second = first;
  second.y = kSecondGroupY;
  return {first, second};
}

float plan_index_cell_side(float clearance) {
  int exponent = 0;
  std::frexp(clearance, &exponent);  // clearance = m * 2^exponent, m in [0.5, 1)
  // The smallest power of two >= clearance: the 3 x 3 cells around a point hold every point
  // within clearance. Smaller cells (the largest power of two <= clearance, 5 x 5 of them) hold
  // fewer points near the query, but each cell visited walks a whole bucket's chain, most of it
  // other cells' points that share the bucket: 25 chains cost more than 9 (docs/model.md).
  const float below = std::ldexp(1.0f, exponent - 1);
  return below == clearance ? clearance : std::ldexp(1.0f, exponent);
}

double plan_canvas_cells(glm::vec2 canvas, float cell_side) {
  // A power-of-two side: the quotients are exact, so ceil counts the cells that reach the edge.
  return std::ceil(double(canvas.x) / double(cell_side)) *
         std::ceil(double(canvas.y) / double(cell_side));
}

}  // namespace murmur
