#pragma once
// Flock statistics of docs/model.md ("Flock statistics").
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "murmur/scenario/scenario.hpp"
#include "murmur/flock/state.hpp"

namespace murmur {

// The collective states of Tunstrøm et al. 2013 (docs/model.md, "Flock statistics"), classified
// by polarization and milling.
enum class CollectiveState { Polarized, Milling, Swarm, Transition };

// Their thresholds: an order parameter above kOrderParameterHigh is high, one below
// kOrderParameterLow low (polarized: P high and M low; milling: M high and P low; swarm: both
// low; anything else a transition).
inline constexpr double kOrderParameterHigh = 0.65;
inline constexpr double kOrderParameterLow = 0.35;

// The state of a flock with these order parameters; empty where milling is.
std::optional<CollectiveState> collective_state(double polarization,
                                                std::optional<double> milling);
// "polarized", "milling", "swarm" or "transition": the word `murmur stats` and the panel show.
std::string_view state_name(CollectiveState state);

struct FlockStats {
  std::uint32_t count = 0;
  double polarization = 0;       // |sum v/|v|| / N, in [0, 1]
  // About the centroid (on a wrap world the circular mean, while every boid is within a
  // quarter of the side of it); empty where not meaningful.
  std::optional<double> milling;
  std::optional<CollectiveState> state;  // from polarization and milling; empty with no boids
  double mean_nearest_neighbour = 0;  // mean over boids of the (minimum-image) NN distance; 0 if N < 2
  std::uint32_t clusters = 0;    // connected components of the "within perception radius" graph
};

// Distances use each boid's own species topology; cluster edges use the observer's
// perception radius (an edge when either boid is within the other's radius). In a 3D world
// (is_3d) every vector has its z (docs/model.md, "Statistics in 3D").
FlockStats compute_stats(const Scenario& scenario, const FlockState& state);
// The host bytes compute_stats holds besides the state (the memory estimate,
// docs/reliability.md): the positions, their k-d tree, each boid's species' radius and
// topology, and the clusters' disjoint sets.
MemoryNeed stats_memory(const Scenario& scenario);

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

// ---- rows along a run ------------------------------------------------------------------
// What `murmur stats --steps` writes at each sample of a run, and what `murmur sweep`
// summarises (docs/sweep.md, "The columns"): the columns are one list, flock_stats_columns, so
// that a column added there reaches both.

// The statistics of one sample of a run.
struct StatsSample {
  FlockStats flock;
  PopulationStats population;
  // Per species, the events since the run's previous sample; none at its first.
  std::vector<SpeciesTotals> events;
};

// The sample of `state`, its events counted from `previous_totals` (the previous sample's
// population totals), or none when there is no previous sample.
StatsSample stats_sample(const Scenario& scenario, const FlockState& state,
                         const std::optional<std::vector<SpeciesTotals>>& previous_totals);

// One cell of a row: its CSV text, empty where the statistic is not meaningful (milling and
// state of a spread-out flock on a torus, food without a [food] table), and the number it
// shows in a numeric column.
struct StatsValue {
  std::string text;
  std::optional<double> number;
};

// One column of the rows: its header, whether it holds numbers or words (a summary takes the
// mean of one and the most frequent of the other), and its cell for a sample.
struct StatsColumn {
  enum class Kind { Number, Word };
  std::string name;
  Kind kind = Kind::Number;
  std::function<StatsValue(const StatsSample&)> value;
};

// The columns after `step` of `murmur stats --steps` for `scenario`, in order:
// polarization, milling, state (a word), mean_nn, clusters, then n_, births_ and deaths_ of
// each species in file order, then food (docs/model.md, "Flock statistics").
std::vector<StatsColumn> flock_stats_columns(const Scenario& scenario);

// A statistic as the rows write it: enough digits (%.9g) that two runs differing in the last
// bits of the state still print apart.
std::string stats_number_text(double value);

}  // namespace murmur
