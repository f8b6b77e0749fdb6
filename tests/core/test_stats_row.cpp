// One row of `murmur stats --steps` as typed cells (include/murmur/flock/stats_row.hpp): the
// columns in the order README's "murmur stats" gives, each holding the value it names.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include <catch2/catch.hpp>

#include "murmur/flock/stats_row.hpp"
#include "test_scenarios.hpp"

namespace {

using murmur::StatsRow;
using murmur::StatsValue;

murmur::Scenario two_species() {
  return murmur::test::world_of(
      50.0f, 50.0f,
      {murmur::test::make_species("grass eaters", murmur::Topology::Bounded, 4.0f, 1.0f),
       murmur::test::make_species("wolves", murmur::Topology::Wrap, 6.0f, 2.0f)});
}

std::vector<std::string> names_of(const StatsRow& row) {
  std::vector<std::string> names;
  for (const murmur::StatsCell& cell : row) names.push_back(cell.column);
  return names;
}

const StatsValue& value_of(const StatsRow& row, const std::string& column) {
  for (const murmur::StatsCell& cell : row) {
    if (cell.column == column) return cell.value;
  }
  FAIL("no column " << column);
  throw;  // not reached: FAIL throws
}

}  // namespace

TEST_CASE("stats row: the columns of the CSV, in order", "[stats]") {
  const std::vector<std::string> expected{
      "step",    "polarization",          "milling",         "state",
      "mean_nn", "clusters",              "n_grass eaters",  "births_grass eaters",
      "deaths_grass eaters",  "n_wolves", "births_wolves",   "deaths_wolves",
      "food"};
  REQUIRE(murmur::flock_stats_columns(two_species()) == expected);
}

TEST_CASE("stats row: each cell holds its statistic, typed", "[stats]") {
  const murmur::Scenario scenario = two_species();
  murmur::FlockStats stats;
  stats.count = 9;
  stats.polarization = 0.25;
  stats.milling = 0.875;
  stats.state = murmur::CollectiveState::Milling;
  stats.mean_nearest_neighbour = 1.5;
  stats.clusters = 3;
  murmur::PopulationStats population;
  population.counts = {7, 2};
  population.food = 12.5;
  const std::vector<murmur::SpeciesTotals> events{{4, 0, 1}, {0, 3, 2}};

  const StatsRow row = murmur::flock_stats_row(scenario, 40, stats, population, events);
  REQUIRE(names_of(row) == murmur::flock_stats_columns(scenario));
  CHECK(value_of(row, "step") == StatsValue(std::uint64_t{40}));
  CHECK(value_of(row, "polarization") == StatsValue(0.25));
  CHECK(value_of(row, "milling") == StatsValue(0.875));
  CHECK(value_of(row, "state") == StatsValue(std::string("milling")));
  CHECK(value_of(row, "mean_nn") == StatsValue(1.5));
  CHECK(value_of(row, "clusters") == StatsValue(std::uint64_t{3}));
  CHECK(value_of(row, "n_grass eaters") == StatsValue(std::uint64_t{7}));
  CHECK(value_of(row, "births_grass eaters") == StatsValue(std::uint64_t{4}));
  CHECK(value_of(row, "deaths_grass eaters") == StatsValue(std::uint64_t{1}));
  CHECK(value_of(row, "n_wolves") == StatsValue(std::uint64_t{2}));
  // births_ and deaths_ are born and died; the dropped children are not a column.
  CHECK(value_of(row, "births_wolves") == StatsValue(std::uint64_t{0}));
  CHECK(value_of(row, "deaths_wolves") == StatsValue(std::uint64_t{2}));
  CHECK(value_of(row, "food") == StatsValue(12.5));

  SECTION("what is not meaningful is an empty cell") {
    stats.milling.reset();
    stats.state.reset();
    population.food.reset();
    const StatsRow empty = murmur::flock_stats_row(scenario, 40, stats, population, events);
    for (const char* column : {"milling", "state", "food"}) {
      INFO(column);
      CHECK(std::holds_alternative<std::monostate>(value_of(empty, column)));
    }
  }
}
