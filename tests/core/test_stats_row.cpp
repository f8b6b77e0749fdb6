// One row of `murmur stats --steps` from its column list (flock_stats_columns,
// include/murmur/flock/stats.hpp): the columns in the order docs/commands.md's "`murmur stats`" gives,
// each holding the value it names, numbers as numbers and the state as a word.
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "murmur/flock/stats.hpp"
#include "test_scenarios.hpp"

namespace {

using murmur::StatsColumn;
using murmur::StatsValue;

murmur::Scenario two_species() {
  return murmur::test::world_of(
      50.0f, 50.0f,
      {murmur::test::make_species("grass eaters", murmur::Topology::Bounded, 4.0f, 1.0f),
       murmur::test::make_species("wolves", murmur::Topology::Wrap, 6.0f, 2.0f)});
}

std::vector<std::string> names_of(const std::vector<StatsColumn>& columns) {
  std::vector<std::string> names;
  for (const StatsColumn& column : columns) names.push_back(column.name);
  return names;
}

const StatsColumn& column_of(const std::vector<StatsColumn>& columns, const std::string& name) {
  for (const StatsColumn& column : columns) {
    if (column.name == name) return column;
  }
  FAIL("no column " << name);
  throw;  // not reached: FAIL throws
}

}  // namespace

TEST_CASE("stats row: the columns of the CSV, in order", "[stats]") {
  const std::vector<std::string> expected{
      "polarization",          "milling",         "state",
      "mean_nn", "clusters",              "n_grass eaters",  "births_grass eaters",
      "deaths_grass eaters",  "n_wolves", "births_wolves",   "deaths_wolves",
      "food"};
  REQUIRE(names_of(murmur::flock_stats_columns(two_species())) == expected);
}

TEST_CASE("stats row: each cell holds its statistic, numbers and the state's word", "[stats]") {
  const murmur::Scenario scenario = two_species();
  murmur::StatsSample sample;
  sample.flock.count = 9;
  sample.flock.polarization = 0.25;
  sample.flock.milling = 0.875;
  sample.flock.state = murmur::CollectiveState::Milling;
  sample.flock.mean_nearest_neighbour = 1.5;
  sample.flock.clusters = 3;
  sample.population.counts = {7, 2};
  sample.population.food = 12.5;
  sample.events = {{4, 0, 1}, {0, 3, 2}};
  const std::vector<StatsColumn> columns = murmur::flock_stats_columns(scenario);
  const auto number = [&](const std::string& name) {
    const StatsValue value = column_of(columns, name).value(sample);
    INFO(name);
    REQUIRE(value.number.has_value());
    return *value.number;
  };
  CHECK(number("polarization") == 0.25);
  CHECK(number("milling") == 0.875);
  const StatsValue state = column_of(columns, "state").value(sample);
  CHECK(column_of(columns, "state").kind == StatsColumn::Kind::Word);
  CHECK(state.text == "milling");
  CHECK_FALSE(state.number.has_value());
  CHECK(number("mean_nn") == 1.5);
  CHECK(number("clusters") == 3);
  CHECK(number("n_grass eaters") == 7);
  CHECK(number("births_grass eaters") == 4);
  CHECK(number("deaths_grass eaters") == 1);
  CHECK(number("n_wolves") == 2);
  // births_ and deaths_ are born and died; the dropped children are not a column.
  CHECK(number("births_wolves") == 0);
  CHECK(number("deaths_wolves") == 2);
  CHECK(number("food") == 12.5);

  SECTION("what is not meaningful is an empty cell") {
    sample.flock.milling.reset();
    sample.flock.state.reset();
    sample.population.food.reset();
    for (const char* name : {"milling", "state", "food"}) {
      INFO(name);
      const StatsValue value = column_of(columns, name).value(sample);
      CHECK(value.text.empty());
      CHECK_FALSE(value.number.has_value());
    }
  }
}
