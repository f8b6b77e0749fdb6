#pragma once
// Flock statistics of docs/model.md ("Flock statistics").
#include <cstdint>
#include <optional>

#include "murmur/scenario.hpp"
#include "murmur/state.hpp"

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

}  // namespace murmur
