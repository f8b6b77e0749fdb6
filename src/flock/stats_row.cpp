#include "murmur/flock/stats_row.hpp"

#include <optional>
#include <utility>

namespace murmur {
namespace {

StatsValue optional_number(const std::optional<double>& value) {
  if (!value) return std::monostate{};
  return *value;
}

}  // namespace

StatsRow flock_stats_row(const Scenario& scenario, std::uint64_t step, const FlockStats& stats,
                         const PopulationStats& population,
                         const std::vector<SpeciesTotals>& events) {
  StatsRow row{
      {"step", step},
      {"polarization", stats.polarization},
      {"milling", optional_number(stats.milling)},
      {"state", stats.state ? StatsValue(std::string(state_name(*stats.state)))
                            : StatsValue(std::monostate{})},
      {"mean_nn", stats.mean_nearest_neighbour},
      {"clusters", std::uint64_t{stats.clusters}},
  };
  for (std::size_t s = 0; s < scenario.species.size(); ++s) {
    const std::string& name = scenario.species[s].name;
    row.push_back({"n_" + name, std::uint64_t{population.counts.at(s)}});
    row.push_back({"births_" + name, events.at(s).born});
    row.push_back({"deaths_" + name, events.at(s).died});
  }
  row.push_back({"food", optional_number(population.food)});
  return row;
}

std::vector<std::string> flock_stats_columns(const Scenario& scenario) {
  // The names come from the row itself, so header and rows cannot disagree.
  PopulationStats population;
  population.counts.assign(scenario.species.size(), 0);
  const std::vector<SpeciesTotals> events(scenario.species.size());
  std::vector<std::string> columns;
  for (StatsCell& cell : flock_stats_row(scenario, 0, FlockStats{}, population, events)) {
    columns.push_back(std::move(cell.column));
  }
  return columns;
}

}  // namespace murmur
