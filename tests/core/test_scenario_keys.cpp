// A scenario's keys by their names on a command line (set_scenario_key, scenario_key_text):
// each value read as the same key of a file would be, and every refusal one line naming the
// origin, the key and what it accepts.
#include <string>

#include <catch2/catch.hpp>

#include "murmur/base/errors.hpp"
#include "murmur/scenario/scenario.hpp"

namespace {

using Catch::Matchers::Equals;
using murmur::FlockScenario;

constexpr const char* kOrigin = "--vary";

FlockScenario two_species() {
  return murmur::parse_scenario(R"(
[world]
width = 100
height = 80
seed = 5

[[species]]
name = "a"
count = 10

[[species]]
name = "b.c"
count = 20
topology = "bounded"
)",
                                "two.toml");
}

// The message of set_scenario_key's refusal, or "" when it takes the value.
std::string refusal(FlockScenario& scenario, const std::string& key, const std::string& value) {
  try {
    murmur::set_scenario_key(scenario, key, value, kOrigin);
  } catch (const murmur::InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a key set by name: the world's and a species' of each type", "[scenario][keys]") {
  FlockScenario scenario = two_species();
  murmur::set_scenario_key(scenario, "world.width", "200", kOrigin);
  CHECK(scenario.world.width == 200.0f);
  murmur::set_scenario_key(scenario, "species.a.align_weight", "0.30000000000000004", kOrigin);
  CHECK(scenario.species[0].align_weight == 0.3f);
  CHECK(murmur::scenario_key_text(scenario, "species.a.align_weight") == "0.3");
  // A choice as TOML or as a bare word; a species name holding a dot.
  murmur::set_scenario_key(scenario, "species.b.c.topology", "wrap", kOrigin);
  CHECK(scenario.species[1].topology == murmur::Topology::Wrap);
  murmur::set_scenario_key(scenario, "species.a.separation_kernel", "\"linear\"", kOrigin);
  CHECK(murmur::scenario_key_text(scenario, "species.a.separation_kernel") == "linear");
  murmur::set_scenario_key(scenario, "species.a.count", "12", kOrigin);
  CHECK(murmur::scenario_key_text(scenario, "species.a.count") == "12");
  murmur::set_scenario_key(scenario, "species.a.flocks_with", "[\"a\", \"b.c\"]", kOrigin);
  CHECK(murmur::scenario_key_text(scenario, "species.a.flocks_with") == "[\"a\", \"b.c\"]");
  // The other species and keys are untouched.
  CHECK(scenario.species[1].align_weight == two_species().species[1].align_weight);
  CHECK(scenario.world.height == 80.0f);
}

TEST_CASE("a key set by name: the refusals name the origin and the key", "[scenario][keys]") {
  FlockScenario scenario = two_species();
  CHECK_THAT(refusal(scenario, "world.widht", "3"),
             Equals("--vary: world.widht: unknown key: did you mean \"width\"? (every key: "
                    "docs/scenarios.md)"));
  CHECK_THAT(refusal(scenario, "species.a.count", "1.5"),
             Equals("--vary: species[0] (a).count = 1.5: must be an integer, found a float"));
  CHECK_THAT(refusal(scenario, "species.a.align_weight", "fast"),
             Equals("--vary: species[0] (a).align_weight = \"fast\": must be a number, found a "
                    "string"));
  CHECK_THAT(refusal(scenario, "species.d.count", "3"),
             Equals("--vary: \"species.d.count\": no species named \"d\" (the scenario's: \"a\", "
                    "\"b.c\")"));
  for (const char* malformed : {"count", "flock.a.count", "species.a", "species..count",
                                "world.", "species.a."}) {
    CAPTURE(malformed);
    CHECK_THAT(refusal(scenario, malformed, "3"),
               Equals("--vary: \"" + std::string(malformed) +
                      "\": must be world.<key> or species.<name>.<key>"));
  }
  // A range is the checks' (it may name another key): set, then refused by validate_scenario.
  CHECK(refusal(scenario, "species.a.perception_radius", "45").empty());
  scenario.source = kOrigin;
  CHECK_THROWS_WITH(murmur::validate_scenario(scenario),
                    "--vary: species[0] (a).perception_radius = 45: must be > 0 and < 40 (half "
                    "the smaller world side)");
}
