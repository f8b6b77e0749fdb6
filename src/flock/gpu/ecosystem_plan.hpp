#pragma once
// GpuFlock's reading of a scenario's ecosystem (src/flock/gpu/gpu_flock.cpp).
#include <cstdint>
#include <vector>

#include "murmur/scenario/scenario.hpp"

namespace murmur {

// What the ecosystem's rules ask of a step (docs/gpu.md, "An ecosystem"). A scenario without
// its keys has none of it, and its steps run the same passes as before.
struct EcosystemPlan {
  bool on = false;             // some species hunts, grazes a field or has energy
  bool food = false;           // a [food] table: the field is stepped
  bool grazing = false;        // food, and some species grazes
  bool hunting = false;        // some species eats another
  bool energy_births = false;  // some species splits at reproduce_energy
  std::vector<std::uint32_t> capped;  // species with a max_count whose boids can split

  explicit EcosystemPlan(const Scenario& scenario) {
    food = scenario.food.has_value();
    for (std::size_t s = 0; s < scenario.species.size(); ++s) {
      const SpeciesParams& species = scenario.species[s];
      grazing = grazing || (food && species.grazes);
      hunting = hunting || scenario.prey_mask(s) != 0;
      const bool splits = species.energy_max > 0 && species.reproduce_energy > 0;
      energy_births = energy_births || splits;
      if (splits && species.max_count > 0) capped.push_back(static_cast<std::uint32_t>(s));
      on = on || species.energy_max > 0;
    }
    on = on || grazing || hunting || food;
  }
};

}  // namespace murmur
