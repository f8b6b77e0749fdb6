#pragma once
// One row of `murmur stats --steps` as named, typed cells: the one definition of the flock's
// statistics columns, their order and their values. The CSV writer prints it; anything else
// that reads a run's statistics (a summary over many runs) takes the same cells.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "murmur/flock/stats.hpp"
#include "murmur/scenario/scenario.hpp"

namespace murmur {

// A cell: empty where the statistic is not meaningful (milling and state on a torus whose flock
// is spread out, food without a [food] table), a count, a real number, or a word (state).
using StatsValue = std::variant<std::monostate, std::uint64_t, double, std::string>;

struct StatsCell {
  std::string column;  // its name in the CSV header
  StatsValue value;
};

using StatsRow = std::vector<StatsCell>;

// step, polarization, milling, state, mean_nn, clusters, then n_, births_ and deaths_ of each
// species in the scenario's order, then food. `events` are the births and deaths since the
// previous row (events_between), one entry a species, as are the population's counts.
StatsRow flock_stats_row(const Scenario& scenario, std::uint64_t step, const FlockStats& stats,
                         const PopulationStats& population,
                         const std::vector<SpeciesTotals>& events);

// The columns of flock_stats_row for this scenario, in order: the header before any row.
std::vector<std::string> flock_stats_columns(const Scenario& scenario);

}  // namespace murmur
