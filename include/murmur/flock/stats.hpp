#pragma once
// Flock statistics of docs/model.md ("Flock statistics").
#include <cstdint>
#include <optional>
#include <vector>

#include "murmur/scenario/scenario.hpp"
#include "murmur/flock/state.hpp"

namespace murmur {

struct FlockStats {
  std::uint32_t count = 0;
  double polarization = 0;       // |sum v/|v|| / N, in [0, 1]
  std::optional<double> milling; // about the centroid; empty where not meaningful (any wrap species)
  double mean_nearest_neighbour = 0;  // mean over boids of the (minimum-image) NN distance; 0 if N < 2
  std::uint32_t clusters = 0;    // connected components of the "within perception radius" graph
};

// Distances use each boid's own species topology; cluster edges use the observer's
// perception radius (an edge when either boid is within the other's radius).
FlockStats compute_stats(const Scenario& scenario, const FlockState& state);

// The population of an ecosystem (docs/model.md, "An ecosystem"): what `murmur stats` reports
// per species beside the flock statistics.
struct PopulationStats {
  std::vector<std::uint32_t> counts;       // living boids, per species index
  std::vector<SpeciesTotals> totals;       // events since the flock was made, per species index
  std::optional<double> food;              // the food field's total; empty without [food]
};

// Counts and totals have one entry per species of the scenario (a state whose totals were
// never counted gives zeros); food is summed in double over the field's float32 cells.
PopulationStats compute_population(const Scenario& scenario, const FlockState& state);

// Per species, the events of `later` not already in `earlier` (each counter's difference).
std::vector<SpeciesTotals> events_between(const std::vector<SpeciesTotals>& earlier,
                                          const std::vector<SpeciesTotals>& later);

}  // namespace murmur
