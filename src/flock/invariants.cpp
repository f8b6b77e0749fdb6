#include "murmur/flock/invariants.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <unordered_set>

#include "murmur/flock/grid.hpp"

namespace murmur {
namespace {

std::string boid_line(const Boid& boid, const std::string& invariant) {
  std::ostringstream line;
  line.precision(9);
  line << "boid " << boid.id << " (species " << boid.species << ", pos " << boid.pos.x << ","
       << boid.pos.y << ", vel " << boid.vel.x << "," << boid.vel.y << ", age " << boid.age
       << ", energy " << boid.energy << "): " << invariant;
  return line.str();
}

bool inside_axis(float coordinate, float extent, Topology topology) {
  if (coordinate < 0.0f) return false;
  return topology == Topology::Bounded ? coordinate <= extent : coordinate < extent;
}

std::optional<std::string> broken_boid_invariant(const Scenario& scenario, const Boid& boid) {
  if (boid.species >= scenario.species.size())
    return boid_line(boid, "species index out of range [0, " +
                               std::to_string(scenario.species.size()) + ")");
  const SpeciesParams& species = scenario.species[boid.species];
  if (!std::isfinite(boid.pos.x) || !std::isfinite(boid.pos.y) || !std::isfinite(boid.vel.x) ||
      !std::isfinite(boid.vel.y))
    return boid_line(boid, "position or velocity not finite");
  const glm::vec2 size = scenario.size();
  if (!inside_axis(boid.pos.x, size.x, species.topology) ||
      !inside_axis(boid.pos.y, size.y, species.topology)) {
    const char* bounds = species.topology == Topology::Bounded ? "[0, L]" : "[0, L)";
    std::ostringstream why;
    why.precision(9);
    why << "position outside the world " << bounds << " (L = " << size.x << " x " << size.y
        << ")";
    return boid_line(boid, why.str());
  }
  // The speed in double, so that the check adds no rounding of its own to the model's.
  const double speed = std::hypot(double(boid.vel.x), double(boid.vel.y));
  const double slack = double(kSpeedLimitRelativeSlack);
  // A boid of age 0 may be a child born in the last step, whose velocity was drawn beside its
  // parent's (docs/model.md, "Births by energy"), not steered: it has no minimum speed yet.
  const bool newborn = boid.age == 0;
  if (speed > double(species.max_speed) * (1.0 + slack) ||
      (!newborn && speed < double(species.min_speed) * (1.0 - slack))) {
    std::ostringstream why;
    why.precision(9);
    why << "speed " << speed << " outside [min_speed, max_speed] = [" << species.min_speed
        << ", " << species.max_speed << "] (relative slack " << kSpeedLimitRelativeSlack << ")";
    return boid_line(boid, why.str());
  }
  if (species.max_age > 0 && boid.age >= species.max_age)
    return boid_line(boid, "alive at age >= max_age " + std::to_string(species.max_age));
  // A living boid of a species with energy has e > 0 (it starves at e <= 0) and at most
  // energy_max (the cap); a species without energy keeps 0.
  const bool has_energy = species.energy_max > 0.0f;
  const bool energy_ok = has_energy ? boid.energy > 0.0f && boid.energy <= species.energy_max
                                    : boid.energy == 0.0f;
  if (!energy_ok) {
    std::ostringstream why;
    why.precision(9);
    if (has_energy) {
      why << "energy outside (0, energy_max] = (0, " << species.energy_max << "]";
    } else {
      why << "energy not 0 in a species without energy (energy_max 0)";
    }
    return boid_line(boid, why.str());
  }
  return std::nullopt;
}

// Whether boids of species s can die: of age, of hunger, or eaten.
bool mortal(const Scenario& scenario, std::size_t s) {
  const SpeciesParams& species = scenario.species[s];
  return species.max_age > 0 || species.energy_max > 0.0f || scenario.hunter_mask(s) != 0;
}

std::optional<std::string> broken_food_invariant(const Scenario& scenario,
                                                 const FlockState& state) {
  if (!scenario.food || state.food.empty()) return std::nullopt;
  const std::uint32_t cells = food_grid_shape(*scenario.food, scenario.size()).cell_count();
  if (state.food.size() != cells) {
    return "food field of " + std::to_string(state.food.size()) + " cells, the scenario's has " +
           std::to_string(cells);
  }
  const float most = scenario.food->max_per_cell;
  for (std::size_t c = 0; c < state.food.size(); ++c) {
    if (!(state.food[c] >= 0.0f && state.food[c] <= most)) {
      std::ostringstream why;
      why.precision(9);
      why << "food cell " << c << " holds " << state.food[c] << ", outside [0, max_per_cell] = [0, "
          << most << "]";
      return why.str();
    }
  }
  return std::nullopt;
}

}  // namespace

InvariantBaseline invariant_baseline(const Scenario& scenario, const FlockState& start) {
  InvariantBaseline baseline;
  baseline.species_counts.assign(scenario.species.size(), 0);
  for (const Boid& boid : start.boids)
    if (boid.species < scenario.species.size()) ++baseline.species_counts[boid.species];
  return baseline;
}

std::optional<std::string> first_broken_invariant(const Scenario& scenario,
                                                  const InvariantBaseline& baseline,
                                                  const FlockState& state,
                                                  std::uint32_t live_count) {
  std::vector<std::uint32_t> species_counts(scenario.species.size(), 0);
  std::unordered_set<std::uint32_t> ids;
  ids.reserve(state.boids.size());
  for (const Boid& boid : state.boids) {
    if (auto broken = broken_boid_invariant(scenario, boid)) return broken;
    if (!ids.insert(boid.id).second) return boid_line(boid, "id held by another boid");
    ++species_counts[boid.species];
  }
  if (live_count > scenario.capacity())
    return "live count " + std::to_string(live_count) + " above the capacity " +
           std::to_string(scenario.capacity());
  std::uint64_t counted = 0;
  for (std::uint32_t count : species_counts) counted += count;
  if (counted != live_count)
    return "live count " + std::to_string(live_count) + " differs from the " +
           std::to_string(counted) + " boids of the per-species counts";
  for (std::size_t s = 0; s < scenario.species.size(); ++s) {
    const std::uint32_t started =
        s < baseline.species_counts.size() ? baseline.species_counts[s] : 0;
    const std::string label = "species " + std::to_string(s) + " ('" + scenario.species[s].name;
    if (!mortal(scenario, s) && species_counts[s] < started)
      return label + "', max_age 0, no energy, no hunters) has " +
             std::to_string(species_counts[s]) + " boids, fewer than the " +
             std::to_string(started) + " it started with";
    // Births stop at max_count; a species that started above it only shrinks towards it.
    const std::uint32_t cap = scenario.species[s].max_count;
    if (cap > 0 && species_counts[s] > std::max(cap, started))
      return label + "') has " + std::to_string(species_counts[s]) + " boids, more than its " +
             "max_count " + std::to_string(cap) +
             (started > cap ? " and its start " + std::to_string(started) : std::string());
  }
  return broken_food_invariant(scenario, state);
}

}  // namespace murmur
