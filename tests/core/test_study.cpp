// The parameter study without GL (include/murmur/study/): a run's summary held to its
// definitions (mean, std over n, the Binder cumulant, the most frequent word), the summary's
// columns following the statistics' own, the values each --vary gives, the seeds, the runs in
// their order, the window and the scenario of a run with its refusals.
//
// Sections: the summary; --vary and --seeds; the runs and the window; a run's scenario.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "murmur/base/errors.hpp"
#include "murmur/flock/stats.hpp"
#include "murmur/scenario/scenario.hpp"
#include "murmur/study/summary.hpp"
#include "murmur/study/sweep.hpp"

namespace {

using Catch::Matchers::Contains;
using Catch::Matchers::Equals;
using Catch::Matchers::WithinRel;
using murmur::StatsColumn;
using murmur::StatsSample;
using murmur::StatsValue;
namespace study = murmur::study;

template <typename Action>
std::string refusal(Action&& action) {
  try {
    action();
  } catch (const murmur::InputError& error) {
    return error.what();
  }
  return "";
}

murmur::FlockScenario small_scenario() {
  return murmur::parse_scenario(R"(
[world]
width = 100
height = 80
seed = 7

[[species]]
name = "a"
count = 10
max_speed = 2.5
)",
                                "small.toml");
}

// Columns that read a sample's fields the test sets: polarization, a milling that is empty
// when negative, and a column of words kept in the sample's first population count.
std::vector<StatsColumn> test_columns() {
  using Kind = StatsColumn::Kind;
  const auto number = [](std::optional<double> value) {
    return value ? StatsValue{std::to_string(*value), value} : StatsValue{};
  };
  return {
      {"polarization", Kind::Number,
       [=](const StatsSample& s) { return number(s.flock.polarization); }},
      {"milling", Kind::Number,
       [=](const StatsSample& s) { return number(s.flock.milling); }},
      {"state", Kind::Word,
       [](const StatsSample& s) {
         const char* words[] = {"", "polarized", "milling", "swarm"};
         return StatsValue{words[s.population.counts[0]], std::nullopt};
       }},
  };
}

StatsSample sample(double polarization, std::optional<double> milling, std::uint32_t word) {
  StatsSample s;
  s.flock.polarization = polarization;
  s.flock.milling = milling;
  s.population.counts = {word};
  return s;
}

}  // namespace

// ---- the summary ----------------------------------------------------------------------------

TEST_CASE("mean and std over n, none of nothing", "[study]") {
  const std::vector<double> values{1, 2, 3, 4};
  const auto moments = study::mean_and_std(values);
  REQUIRE(moments);
  CHECK(moments->mean == 2.5);
  CHECK_THAT(moments->std, WithinRel(std::sqrt(1.25), 1e-15));
  const std::vector<double> one{7};
  CHECK(study::mean_and_std(one)->std == 0.0);
  CHECK_FALSE(study::mean_and_std({}));
}

TEST_CASE("the Binder cumulant: 2/3 for a constant series, 1/3 for 0 and 1 equally",
          "[study]") {
  const std::vector<double> constant(9, 0.73);
  CHECK_THAT(*study::binder_cumulant(constant), WithinRel(2.0 / 3.0, 1e-14));
  // <x^2> = 1/2 and <x^4> = 1/2: 1 - (1/2) / (3/4).
  const std::vector<double> zero_one{0, 1, 0, 1};
  CHECK_THAT(*study::binder_cumulant(zero_one), WithinRel(1.0 / 3.0, 1e-14));
  // A symmetric two-valued series is a constant one in x^2.
  const std::vector<double> plus_minus{0.5, -0.5, -0.5, 0.5};
  CHECK_THAT(*study::binder_cumulant(plus_minus), WithinRel(2.0 / 3.0, 1e-14));
  const std::vector<double> zeros(3, 0.0);
  CHECK_FALSE(study::binder_cumulant(zeros));
  CHECK_FALSE(study::binder_cumulant({}));
}

TEST_CASE("the most frequent word: empty ones left out, a tie to the latest", "[study]") {
  using Words = std::vector<std::string>;
  CHECK(study::most_frequent(Words{"swarm", "milling", "swarm"}) == "swarm");
  // Two each: "swarm" occurs last.
  CHECK(study::most_frequent(Words{"milling", "swarm", "milling", "swarm"}) == "swarm");
  CHECK(study::most_frequent(Words{"swarm", "milling", "milling", "swarm"}) == "swarm");
  CHECK(study::most_frequent(Words{"swarm", "milling", "swarm", "milling"}) == "milling");
  CHECK(study::most_frequent(Words{"", "", "polarized", ""}) == "polarized");
  CHECK_FALSE(study::most_frequent(Words{"", ""}));
  CHECK_FALSE(study::most_frequent(Words{}));
}

TEST_CASE("a window's summary: its columns follow the statistics' and their kinds", "[study]") {
  study::WindowSummary summary(test_columns());
  CHECK_THAT(summary.header(),
             Equals(std::vector<std::string>{"polarization_mean", "polarization_std",
                                             "polarization_binder", "milling_mean",
                                             "milling_std", "state"}));
  // Nothing sampled: every cell empty.
  CHECK_THAT(summary.cells(), Equals(std::vector<std::string>(6)));
  summary.add(sample(0.5, std::nullopt, 2));
  summary.add(sample(0.5, 0.25, 1));
  summary.add(sample(0.5, std::nullopt, 2));
  CHECK(summary.samples() == 3);
  const std::vector<std::string> cells = summary.cells();
  // The empty milling cells are left out of its mean: one value, 0.25.
  CHECK_THAT(cells, Equals(std::vector<std::string>{"0.5", "0", murmur::stats_number_text(
                                                                    1.0 - 1.0 / 3.0),
                                                    "0.25", "0", "milling"}));
}

TEST_CASE("a sweep's header: the varied keys, the seed, then every statistics column's summary",
          "[study]") {
  const murmur::FlockScenario scenario = small_scenario();
  const study::VaryAxis axis = study::parse_vary("species.a.align_weight=0.1,0.2");
  const std::vector<std::string> header = study::sweep_header(scenario, {&axis, 1});
  std::vector<std::string> expected{"species.a.align_weight", "seed"};
  for (const StatsColumn& column : murmur::flock_stats_columns(scenario)) {
    if (column.kind == StatsColumn::Kind::Word) {
      expected.push_back(column.name);  // its most frequent value
      continue;
    }
    expected.push_back(column.name + "_mean");
    expected.push_back(column.name + "_std");
    if (column.name == "polarization") expected.push_back("polarization_binder");
  }
  CHECK_THAT(header, Equals(expected));
  CHECK(study::csv_line(std::vector<std::string>{"a,b", "c\"d", "e"}) == "\"a,b\",\"c\"\"d\",e");
}

// ---- --vary and --seeds ---------------------------------------------------------------------

TEST_CASE("the values of --vary: a range of evenly spaced numbers, or a list in its own order", "[study]") {
  using Values = std::vector<std::string>;
  const study::VaryAxis range = study::parse_vary("species.a.align_weight=0:1:5");
  CHECK(range.key == "species.a.align_weight");
  CHECK_THAT(range.values, Equals(Values{"0", "0.25", "0.5", "0.75", "1"}));
  CHECK(range.given == "species.a.align_weight=0:1:5");
  CHECK_THAT(study::parse_vary("world.width=300:100:3").values, Equals(Values{"300", "200", "100"}));
  CHECK_THAT(study::parse_vary("k=-1.5:1.5:2").values, Equals(Values{"-1.5", "1.5"}));
  CHECK_THAT(study::parse_vary("k=3,1,2").values, Equals(Values{"3", "1", "2"}));
  CHECK_THAT(study::parse_vary("k=0.5").values, Equals(Values{"0.5"}));
  CHECK_THAT(study::parse_vary("k=wrap,bounded").values, Equals(Values{"wrap", "bounded"}));
  CHECK_THAT(study::parse_vary("k=[\"a\", \"b\"],[\"a\"],\"x,y\"").values,
             Equals(Values{"[\"a\", \"b\"]", "[\"a\"]", "\"x,y\""}));
  for (const char* malformed : {"k", "=1", "k=", "k=1:2", "k=1:2:1", "k=1:2:x", "k=a:2:3",
                                "k=1:2:3:4", "k=1,,2", "k=[1,2", "k=\"a", "k=1:2:100001"}) {
    CAPTURE(malformed);
    CHECK_THAT(refusal([&] { study::parse_vary(malformed); }),
               Equals("--vary must be KEY=FROM:TO:COUNT (COUNT in [2, 100000]) or "
                      "KEY=V1,V2,..., got '" + std::string(malformed) + "'"));
  }
}

TEST_CASE("the seeds of --seeds: a count from the scenario's seed, or a list", "[study]") {
  using Seeds = std::vector<std::uint64_t>;
  const study::SeedChoice three = study::parse_seeds("3");
  CHECK(study::seeds_of(three, 7) == Seeds{7, 8, 9});
  CHECK(study::seeds_text(three) == "3");
  const study::SeedChoice list = study::parse_seeds("11,3,7");
  CHECK(study::seeds_of(list, 7) == Seeds{11, 3, 7});
  CHECK(study::seeds_text(list) == "11,3,7");
  CHECK(study::seeds_of(three, murmur::kMaxSeed - 2).back() == murmur::kMaxSeed);
  CHECK_THAT(refusal([&] { study::seeds_of(three, murmur::kMaxSeed - 1); }),
             Equals("--seeds 3: the seeds from the scenario's 9223372036854775806 would pass "
                    "the largest, 9223372036854775807"));
  for (const char* malformed : {"0", "x", "1000001", "3,3", "1,,2", "1,-2", "9223372036854775808,1"}) {
    CAPTURE(malformed);
    CHECK_THAT(refusal([&] { study::parse_seeds(malformed); }),
               Equals("--seeds must be a count N in [1, 1000000] or a list S1,S2,... of "
                      "distinct seeds in [0, 9223372036854775807], got '" +
                      std::string(malformed) + "'"));
  }
}

// ---- the runs and the window ----------------------------------------------------------------

TEST_CASE("the runs: the first --vary outermost, the seeds innermost", "[study]") {
  const std::vector<study::VaryAxis> axes{study::parse_vary("x=1,2"),
                                          study::parse_vary("y=a,b,c")};
  const std::vector<std::uint64_t> seeds{5, 9};
  const std::vector<study::SweepRun> runs = study::sweep_runs(axes, seeds);
  REQUIRE(runs.size() == 12);
  CHECK(study::run_count(axes, seeds.size()) == 12);
  std::vector<std::string> order;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    CHECK(runs[i].index == i);
    order.push_back(runs[i].overrides[0].value + runs[i].overrides[1].value +
                    std::to_string(runs[i].seed));
  }
  CHECK_THAT(order, Equals(std::vector<std::string>{"1a5", "1a9", "1b5", "1b9", "1c5", "1c9",
                                                    "2a5", "2a9", "2b5", "2b9", "2c5",
                                                    "2c9"}));
  CHECK(study::describe_run(runs[3]) == "x=1, y=b, seed 9");
  const std::vector<study::VaryAxis> huge{study::parse_vary("x=0:1:100000"),
                                          study::parse_vary("y=0:1:100000")};
  CHECK_THAT(refusal([&] { study::run_count(huge, 1); }),
             Equals("--vary and --seeds make more than 1000000 runs, the most a sweep makes"));
}

TEST_CASE("a --vary-with key moves in step with the --vary before it, adding no combinations",
          "[study]") {
  const std::vector<study::VaryAxis> vary{study::parse_vary("x=1,2"),
                                          study::parse_vary("y=a,b,c")};
  const std::vector<study::VaryAxis> with{study::parse_vary_with("z=A,B,C")};
  const std::vector<study::VaryAxis> axes = study::sweep_axes(vary, with);
  REQUIRE(axes.size() == 3);
  CHECK(axes[2].in_step);
  const std::vector<std::uint64_t> seeds{5};
  const std::vector<study::SweepRun> runs = study::sweep_runs(axes, seeds);
  REQUIRE(runs.size() == 6);
  CHECK(study::run_count(axes, seeds.size()) == 6);
  std::vector<std::string> order;
  for (const study::SweepRun& run : runs) {
    order.push_back(run.overrides[0].value + run.overrides[1].value + run.overrides[2].value);
  }
  // z's k-th value goes with y's k-th, in every x.
  CHECK_THAT(order, Equals(std::vector<std::string>{"1aA", "1bB", "1cC", "2aA", "2bB", "2cC"}));
}

TEST_CASE("the window: the samples from --measure-from to --steps, one at least", "[study]") {
  CHECK(study::SampleWindow{100, 10, 95}.first_sample() == 100);
  CHECK(study::SampleWindow{100, 10, 90}.first_sample() == 90);
  CHECK(study::SampleWindow{100, 7, 0}.first_sample() == 0);
  CHECK(refusal([] { study::check_window({100, 10, 95}); }).empty());
  CHECK_THAT(refusal([] { study::check_window({99, 10, 95}); }),
             Equals("--measure-from 95: no sample in the window from there to --steps 99 (the "
                    "samples are at step 0 and every 10 steps)"));
  // The first sample's step is counted in 64 bits: past the largest --steps, not wrapped.
  CHECK(refusal([] { study::check_window({4294967295u, 4294967295u, 1}); }).empty());
  CHECK_THAT(refusal([] { study::check_window({4294967294u, 4294967295u, 1}); }),
             Contains("no sample in the window"));
}

// ---- a run's scenario -----------------------------------------------------------------------

TEST_CASE("a run's scenario: its values set and the whole checked, refusals naming --vary",
          "[study]") {
  const murmur::FlockScenario base = small_scenario();
  const std::vector<study::Override> overrides{{"species.a.align_weight", "0.25"},
                                               {"world.width", "120"}};
  const murmur::FlockScenario run = study::scenario_with(base, overrides);
  CHECK(run.species[0].align_weight == 0.25f);
  CHECK(run.world.width == 120.0f);
  CHECK(run.source == base.source);
  CHECK_THAT(refusal([&] { study::scenario_with(base, {{{"species.a.perception_radius", "45"}}}); }),
             Equals("--vary species.a.perception_radius=45: species[0] (a).perception_radius = "
                    "45: must be > 0 and < 40 (half the smaller world side)"));
  // A range naming another key is judged on the run's values together.
  const std::vector<study::Override> speeds{{"species.a.min_speed", "3"},
                                            {"species.a.max_speed", "2.8"}};
  CHECK_THAT(refusal([&] { study::scenario_with(base, speeds); }),
             Equals("--vary species.a.min_speed=3, species.a.max_speed=2.8: species[0] "
                    "(a).min_speed = 3: must be >= 0 and <= max_speed (2.8)"));
  CHECK_THAT(refusal([&] { study::scenario_with(base, {{{"species.a.count", "2.5"}}}); }),
             Equals("--vary species.a.count=2.5: species[0] (a).count = 2.5: must be an integer, "
                    "found a float"));
}

TEST_CASE("the axes are checked against the scenario before any run", "[study]") {
  const murmur::FlockScenario base = small_scenario();
  const auto axes_refusal = [&](std::vector<std::string> words) {
    std::vector<study::VaryAxis> axes;
    for (const std::string& word : words) axes.push_back(study::parse_vary(word));
    return refusal([&] { study::check_axes(base, axes); });
  };
  CHECK(axes_refusal({"species.a.align_weight=0:1:3", "world.height=80,90"}).empty());
  CHECK_THAT(axes_refusal({"species.a.max_speed=2,50"}),
             Equals("--vary species.a.max_speed=50: species[0] (a).max_speed = 50: must be > 0 "
                    "and < 40 (half the smaller world side)"));
  CHECK_THAT(axes_refusal({"world.seed=1,2"}),
             Equals("--vary world.seed=1,2: a run's seed is --seeds' (world.seed is where a "
                    "count starts)"));
  CHECK_THAT(axes_refusal({"species.a.name=b"}),
             Equals("--vary species.a.name=b: a species keeps its name: the statistics' columns "
                    "are named by it"));
  CHECK_THAT(axes_refusal({"world.width=100", "world.width=120"}),
             Equals("--vary world.width=120: world.width is varied twice: give its values once"));
  CHECK_THAT(axes_refusal({"species.b.count=3"}),
             Equals("--vary species.b.count=3: \"species.b.count\": no species named \"b\" (the "
                    "scenario's: \"a\")"));
}
