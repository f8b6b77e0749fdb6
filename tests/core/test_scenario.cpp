// Scenario files: the shipped ones load, defaults are the documented ones, every bad value is
// rejected with one line naming file, line, key and range, and scenario_to_toml round-trips.
//
// Sections: helpers; shipped files and defaults; bad values and their messages; in-memory checks
// and the writer; [food] and energy; [[spawn]].
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include "murmur/base/errors.hpp"
#include "murmur/scenario/scenario.hpp"
#include "input_error.hpp"

using namespace murmur;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;
using Catch::Matchers::StartsWith;

// --- helpers -----------------------------------------------------------------------------------
namespace {

const std::filesystem::path kSourceDir = MURMUR_SOURCE_DIR;

using test::input_error;

std::string parse_error(const std::string& text) {
  return input_error([&] { parse_scenario(text, "test.toml"); });
}

// 100 x 80 world: half the smaller side is 40. The species table ends on line 8, so a key
// appended by species_with() sits on line 9.
const std::string kWorld =
    "[world]\n"     // 1
    "width = 100\n"  // 2
    "height = 80\n"  // 3
    "seed = 3\n"     // 4
    "\n";            // 5
const std::string kSpecies =
    "[[species]]\n"    // 6
    "name = \"a\"\n"   // 7
    "# appended:\n";  // 8
constexpr int kAppendedLine = 9;
// A key the table leaves out is reported on the table's own line.
constexpr int kSpeciesTableLine = 6;

std::string species_with(const std::string& line) { return kWorld + kSpecies + line + "\n"; }

std::string at_line(int line) { return "test.toml:" + std::to_string(line) + ": "; }

bool same_bits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }

}  // namespace

// --- shipped files and defaults ----------------------------------------------------------------
TEST_CASE("shipped scenarios load and are what their comments say", "[scenario]") {
  const Scenario starlings = load_scenario(kSourceDir / "scenarios/starlings.toml");
  REQUIRE(starlings.species.size() == 1);
  CHECK(starlings.species[0].topology == Topology::Wrap);
  CHECK(starlings.total_count() >= 10000);
  CHECK(starlings.source == (kSourceDir / "scenarios/starlings.toml").string());

  const Scenario two = load_scenario(kSourceDir / "scenarios/two-flocks.toml");
  REQUIRE(two.species.size() == 2);
  CHECK(two.species[0].topology == Topology::Wrap);
  CHECK(two.species[1].topology == Topology::Bounded);
  CHECK(two.species[1].edge_margin > 0.0f);
  CHECK(two.species[1].edge_gain > 0.0f);
  // Each flocks only with its own kind.
  CHECK(two.flock_mask(0) == 0b01u);
  CHECK(two.flock_mask(1) == 0b10u);
  CHECK(two.species[0].colour != two.species[1].colour);
}

TEST_CASE("keys left out take the documented defaults", "[scenario]") {
  const Scenario s = parse_scenario("[world]\nwidth = 200\nheight = 100\n[[species]]\n[[species]]\nname = \"b\"\n",
                                    "defaults.toml");
  CHECK(s.world.seed == 1);
  REQUIRE(s.species.size() == 2);
  const SpeciesParams& first = s.species[0];
  CHECK(first.name == "species0");
  CHECK(first.count == 1000);
  CHECK(first.topology == Topology::Wrap);
  CHECK(first.perception_radius == 12.0f);
  CHECK(first.separation_radius == 5.0f);
  CHECK(first.fov_degrees == 360.0f);
  CHECK(first.align_weight == 0.05f);
  CHECK(first.cohesion_weight == 0.005f);
  CHECK(first.separation_weight == 0.5f);
  CHECK(first.max_force == 0.05f);
  CHECK(first.min_speed == 1.5f);
  CHECK(first.max_speed == 3.0f);
  CHECK(first.edge_margin == 0.0f);
  CHECK(first.edge_gain == 0.0f);
  CHECK(first.flocks_with == std::vector<std::string>{"species0"});
  CHECK(first.colour == glm::vec3(1.0f));
  CHECK(s.species[1].flocks_with == std::vector<std::string>{"b"});
  CHECK(s.flock_mask(1) == 0b10u);
}

TEST_CASE("integers are accepted where floats are expected", "[scenario]") {
  const Scenario s = parse_scenario(species_with("perception_radius = 7"), "test.toml");
  CHECK(s.species[0].perception_radius == 7.0f);
}

// --- bad values and their messages -------------------------------------------------------------
TEST_CASE("a bad species value is rejected naming file, line, key and range", "[scenario]") {
  struct Case {
    std::string line;      // appended to species[0]
    std::string expected;  // after "test.toml:9: species[0] (a)."
  };
  const Case cases[] = {
      {"count = -1", "count = -1: must be >= 0 and <= 16777216"},
      {"count = 16777217", "count = 16777217: must be >= 0 and <= 16777216"},
      {"perception_radius = -3", "perception_radius = -3: must be > 0 and < 40 (half the smaller world side)"},
      {"perception_radius = 0", "perception_radius = 0: must be > 0 and < 40"},
      {"perception_radius = 40", "perception_radius = 40: must be > 0 and < 40"},
      {"separation_radius = -1", "separation_radius = -1: must be >= 0 and <= perception_radius (12)"},
      {"separation_radius = 12.5", "separation_radius = 12.5: must be >= 0 and <= perception_radius (12)"},
      {"fov_degrees = 0", "fov_degrees = 0: must be > 0 and <= 360"},
      {"fov_degrees = 360.5", "fov_degrees = 360.5: must be > 0 and <= 360"},
      {"align_weight = -0.1", "align_weight = -0.1: must be >= 0"},
      {"cohesion_weight = -1", "cohesion_weight = -1: must be >= 0"},
      {"separation_weight = -2", "separation_weight = -2: must be >= 0"},
      {"max_force = 0", "max_force = 0: must be > 0"},
      {"min_speed = -0.5", "min_speed = -0.5: must be >= 0 and <= max_speed (3)"},
      {"min_speed = 3.5", "min_speed = 3.5: must be >= 0 and <= max_speed (3)"},
      {"max_speed = 0", "max_speed = 0: must be > 0 and < 40 (half the smaller world side)"},
      {"max_speed = 40", "max_speed = 40: must be > 0 and < 40"},
      {"edge_margin = -1", "edge_margin = -1: must be >= 0 and < 40"},
      {"edge_margin = 40", "edge_margin = 40: must be >= 0 and < 40"},
      {"edge_gain = -0.5", "edge_gain = -0.5: must be >= 0"},
      {"flocks_with = [\"a\", \"crows\"]", "flocks_with = \"crows\": no species has this name (species: \"a\")"},
      {"colour = [0.5, 0.5, 17]", "colour = [0.5, 0.5, 17]: each component must be >= 0 and <= 16"},
      {"colour = [0.5, -0.1, 1]", "colour = [0.5, -0.1, 1]: each component must be >= 0 and <= 16"},
      {"colour = [1, 1]", "colour = [...]: must be an array of 3 numbers [r, g, b], found an array"},
      {"max_speed = nan", "max_speed = nan: must be a finite number"},
      {"perception_radius = inf", "perception_radius = inf: must be a finite number"},
      {"max_force = -inf", "max_force = -inf: must be a finite number"},
      {"max_force = 1e39", "max_force = 1e+39: must be a finite number"},
      {"count = 2.5", "count = 2.5: must be an integer, found a float"},
      {"perception_radius = \"ten\"", "perception_radius = \"ten\": must be a number, found a string"},
      {"max_speed = true", "max_speed = true: must be a number, found a boolean"},
      {"topology = \"torus\"", "topology = \"torus\": must be \"wrap\" or \"bounded\""},
      {"topology = 1", "topology = 1: must be a string, found an integer"},
      {"flocks_with = \"a\"", "flocks_with = \"a\": must be an array of species names, found a string"},
      {"flocks_with = [1]", "flocks_with[0] = 1: must be a string, found an integer"},
      {"colr = [1, 1, 1]", "colr: unknown key: did you mean \"colour\"? (every key: docs/scenarios.md)"},
  };
  for (const Case& c : cases) {
    INFO(c.line);
    const std::string message = parse_error(species_with(c.line));
    CHECK_THAT(message, StartsWith(at_line(kAppendedLine) + "species[0] (a)." + c.expected));
  }
}

TEST_CASE("a defaulted value that breaks a constraint points at its species table", "[scenario]") {
  // The default perception radius (12) does not fit a 20 x 20 world (half side 10).
  const std::string message = parse_error("[world]\nwidth = 20\nheight = 20\n\n[[species]]\nname = \"a\"\n");
  CHECK_THAT(message, StartsWith("test.toml:5: species[0] (a).perception_radius = 12: must be > 0 and < 10"));
}

TEST_CASE("bad world values and top-level keys are rejected with their line", "[scenario]") {
  CHECK_THAT(parse_error("[world]\nwidth = 0\nheight = 80\n" + kSpecies),
             StartsWith("test.toml:2: world.width = 0: must be > 0"));
  CHECK_THAT(parse_error("[world]\nwidth = 100\nheight = -5\n" + kSpecies),
             StartsWith("test.toml:3: world.height = -5: must be > 0"));
  CHECK_THAT(parse_error("[world]\nwidth = 100\nheight = nan\n" + kSpecies),
             StartsWith("test.toml:3: world.height = nan: must be a finite number"));
  CHECK_THAT(parse_error("[world]\nwidth = 100\nheight = 80\nseed = -1\n" + kSpecies),
             StartsWith("test.toml:4: world.seed = -1: must be >= 0"));
  CHECK_THAT(parse_error("[world]\nwidth = 100\nheight = 80\nseed = 1.5\n" + kSpecies),
             StartsWith("test.toml:4: world.seed = 1.5: must be an integer, found a float"));
  CHECK_THAT(parse_error("[world]\nwidth = 100\nheight = 80\ndepth = 3\n" + kSpecies),
             Equals("test.toml:4: world.depth = 3: only a 3D world has a depth (set "
                    "world.dimensions = 3, or leave depth out)"));
  CHECK_THAT(parse_error("[world]\nheight = 80\n" + kSpecies),
             StartsWith("test.toml:1: world.width is missing"));
  CHECK_THAT(parse_error(kSpecies), StartsWith("test.toml: no [world] table"));
  CHECK_THAT(parse_error("world = 5\n" + kSpecies),
             StartsWith("test.toml:1: world = 5: must be a table, found an integer"));
  CHECK_THAT(parse_error(kWorld + kSpecies + "\n[wrld]\nx = 1\n"),
             Equals("test.toml:10: \"wrld\": unknown table or key: did you mean \"world\"? "
                    "(every key: docs/scenarios.md)"));
  // Far from every name: the list, since no single name is a guess worth making.
  CHECK_THAT(parse_error(kWorld + kSpecies + "\n[elephants]\nx = 1\n"),
             Equals("test.toml:10: \"elephants\": unknown table or key (accepted: world, "
                    "species, obstacle, target, food, render, camera, spawn, plan)"));
  CHECK_THAT(parse_error("species = 3\n" + kWorld),
             StartsWith("test.toml:1: species = 3: must be an array of tables"));
}

TEST_CASE("species lists that cannot make a flock are rejected", "[scenario]") {
  CHECK_THAT(parse_error(kWorld), StartsWith("test.toml: no [[species]] table"));
  CHECK_THAT(parse_error(kWorld + kSpecies + kSpecies),
             StartsWith("test.toml:10: species[1].name = \"a\": must be unique, species[0] has the same name"));
  CHECK_THAT(parse_error(kWorld + "[[species]]\nname = \"a\"\ncount = 0\n"),
             StartsWith("test.toml:8: species[0] (a).count = 0: the total over all species is 0"));
  CHECK_THAT(parse_error(kWorld + "[[species]]\ncount = 16000000\n[[species]]\ncount = 1000000\n"),
             StartsWith("test.toml:9: species[1] (species1).count = 1000000: the total over all species (17000000) must be <= 16777216"));
  CHECK_THAT(parse_error(kWorld + "[[species]]\nname = \"\"\n"),
             StartsWith("test.toml:7: species[0].name = \"\": must not be empty"));
  CHECK_THAT(parse_error(kWorld + "[[species]]\nname = 5\n"),
             StartsWith("test.toml:7: species[0].name = 5: must be a string, found an integer"));

  std::string many = kWorld;
  for (std::size_t i = 0; i <= kMaxSpecies; ++i) many += "[[species]]\ncount = 1\n";
  // species[32] starts on line 6 + 2 * 32.
  CHECK_THAT(parse_error(many),
             StartsWith("test.toml:70: species[32] (species32): too many species (33): at most 32 share a world"));
}

TEST_CASE("TOML syntax errors and missing files are reported with their position", "[scenario]") {
  CHECK_THAT(parse_error("[world]\nwidth = = 3\n"), StartsWith("test.toml:2:"));
  CHECK_THAT(parse_error("[world]\nwidth = = 3\n"), Contains(": TOML syntax error: "));
  const std::string missing = (std::filesystem::temp_directory_path() / "murmur-no-such-scenario.toml").string();
  CHECK(input_error([&] { load_scenario(missing); }) ==
        missing + ": cannot read scenario file (No such file or directory)");
  // A folder opens as a stream and reads as nothing: it must not read as an empty scenario.
  const std::string folder = std::filesystem::temp_directory_path().string();
  CHECK(input_error([&] { load_scenario(folder); }) ==
        folder + ": is a directory, not a scenario file");
}

// --- in-memory checks and the writer -----------------------------------------------------------
TEST_CASE("validate_scenario checks in-memory scenarios without line numbers", "[scenario]") {
  Scenario s = parse_scenario(species_with(""), "panel");
  REQUIRE_NOTHROW(validate_scenario(s));

  Scenario bad = s;
  bad.species[0].perception_radius = -3.0f;
  CHECK(input_error([&] { validate_scenario(bad); }) ==
        "panel: species[0] (a).perception_radius = -3: must be > 0 and < 40 (half the smaller world side)");

  bad = s;
  bad.species[0].max_speed = std::numeric_limits<float>::quiet_NaN();
  CHECK_THAT(input_error([&] { validate_scenario(bad); }),
             StartsWith("panel: species[0] (a).max_speed = nan: must be finite"));

  bad = s;
  bad.species[0].min_speed = 4.0f;
  CHECK_THAT(input_error([&] { validate_scenario(bad); }),
             StartsWith("panel: species[0] (a).min_speed = 4: must be >= 0 and <= max_speed (3)"));

  bad = s;
  bad.species[0].flocks_with = {"ghost"};
  CHECK_THAT(input_error([&] { validate_scenario(bad); }),
             StartsWith("panel: species[0] (a).flocks_with = \"ghost\": no species has this name"));

  bad = s;
  bad.world.width = std::numeric_limits<float>::infinity();
  CHECK_THAT(input_error([&] { validate_scenario(bad); }), StartsWith("panel: world.width = inf: must be > 0 and finite"));

  bad = s;
  bad.world.seed = std::uint64_t{1} << 63;
  CHECK_THAT(input_error([&] { validate_scenario(bad); }), StartsWith("panel: world.seed = 9223372036854775808: must be"));

  bad = s;
  bad.species.clear();
  CHECK_THAT(input_error([&] { validate_scenario(bad); }), StartsWith("panel: no [[species]] table"));

  bad = s;
  bad.source.clear();
  bad.species[0].fov_degrees = 0.0f;
  CHECK_THAT(input_error([&] { validate_scenario(bad); }), StartsWith("<scenario>: species[0] (a).fov_degrees = 0"));
}

TEST_CASE("scenario_to_toml reads back to identical values", "[scenario]") {
  Scenario original = parse_scenario(species_with("") +
                                         "\n[[species]]\nname = \"b\"\ncount = 5\ntopology = \"bounded\"\n",
                                     "original.toml");
  original.world.width = 123.456789f;
  original.world.height = 0.1f * 1000.0f;
  original.world.seed = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  SpeciesParams& a = original.species[0];
  a.name = "a \"quoted\" \\ name";
  a.perception_radius = 11.1f;
  a.separation_radius = 1e-7f;
  a.fov_degrees = std::nextafter(360.0f, 0.0f);
  a.align_weight = 1e-40f;  // denormal
  a.cohesion_weight = 3.4e38f;
  a.separation_weight = 0.1f;
  a.edge_gain = -0.0f;  // passes ">= 0"; its sign must survive too
  a.flocks_with = {a.name, "b"};
  a.colour = {0.1f, 15.999999f, 0.0f};
  SpeciesParams& b = original.species[1];
  b.flocks_with.clear();  // "itself"
  b.edge_margin = 2.5f;
  b.edge_gain = 0.003f;
  REQUIRE_NOTHROW(validate_scenario(original));

  const std::string text = scenario_to_toml(original);
  INFO(text);
  const Scenario copy = parse_scenario(text, "copy.toml");
  CHECK(same_bits(copy.world.width, original.world.width));
  CHECK(same_bits(copy.world.height, original.world.height));
  CHECK(copy.world.seed == original.world.seed);
  REQUIRE(copy.species.size() == original.species.size());
  for (std::size_t i = 0; i < copy.species.size(); ++i) {
    const SpeciesParams& x = original.species[i];
    const SpeciesParams& y = copy.species[i];
    CHECK(y.name == x.name);
    CHECK(y.count == x.count);
    CHECK(y.topology == x.topology);
    CHECK(same_bits(y.perception_radius, x.perception_radius));
    CHECK(same_bits(y.separation_radius, x.separation_radius));
    CHECK(same_bits(y.fov_degrees, x.fov_degrees));
    CHECK(same_bits(y.align_weight, x.align_weight));
    CHECK(same_bits(y.cohesion_weight, x.cohesion_weight));
    CHECK(same_bits(y.separation_weight, x.separation_weight));
    CHECK(same_bits(y.max_force, x.max_force));
    CHECK(same_bits(y.min_speed, x.min_speed));
    CHECK(same_bits(y.max_speed, x.max_speed));
    CHECK(same_bits(y.edge_margin, x.edge_margin));
    CHECK(same_bits(y.edge_gain, x.edge_gain));
    CHECK(y.flocks_with == x.flocks_with);
    for (int c = 0; c < 3; ++c) CHECK(same_bits(y.colour[c], x.colour[c]));
  }
  CHECK(copy.flock_mask(1) == original.flock_mask(1));

  for (const char* shipped : {"scenarios/starlings.toml", "scenarios/two-flocks.toml"}) {
    const Scenario file = load_scenario(kSourceDir / shipped);
    const Scenario again = parse_scenario(scenario_to_toml(file), "again.toml");
    CHECK(scenario_to_toml(again) == scenario_to_toml(file));
  }
}

// --- [food] and energy -------------------------------------------------------------------------
TEST_CASE("bad [food] values are rejected naming file, line, key and range", "[scenario][food]") {
  // kWorld + kSpecies end on line 8; the food table starts on line 9.
  const auto food_with = [](const std::string& lines) {
    return kWorld + kSpecies + "[food]\n" + lines + "\n";
  };
  CHECK(parse_error(food_with("cell_size = 0")) ==
        at_line(10) + "food.cell_size = 0: must be > 0 and finite");
  CHECK(parse_error(food_with("max_per_cell = -1")) ==
        at_line(10) + "food.max_per_cell = -1: must be > 0 and finite");
  CHECK(parse_error(food_with("regrow_per_step = 2")) ==
        at_line(10) + "food.regrow_per_step = 2: must be >= 0 and <= max_per_cell (1)");
  CHECK(parse_error(food_with("bite = 0")) ==
        at_line(10) + "food.bite = 0: must be > 0 and finite");
  CHECK(parse_error(food_with("initial = 1.5")) ==
        at_line(10) + "food.initial = 1.5: must be a number >= 0 and <= 1, or \"random\"");
  CHECK(parse_error(food_with("initial = \"stripes\"")) ==
        at_line(10) + "food.initial = \"stripes\": must be a number >= 0 and <= 1, or \"random\"");
  CHECK_THAT(parse_error(food_with("initial = true")),
             StartsWith(at_line(10) + "food.initial = true: must be a number or \"random\""));
  // 100 x 80 world: cells of 0.01 would make 8e7 > 2^24 of them.
  CHECK_THAT(parse_error(food_with("cell_size = 0.01")),
             StartsWith(at_line(10) + "food.cell_size = 0.01: must be large enough for at most "
                                      "16777216 food cells"));
  CHECK(parse_error("food = 3\n" + kWorld + kSpecies) ==
        at_line(1) + "food = 3: must be a table ([food]), found an integer");

  const std::string patch = "[[food.patch]]\nx = 10\ny = 10\nwidth = 5\nheight = 5\n";
  // The patch table starts on line 10, its keys on 11-14, an appended key on 15.
  CHECK(parse_error(food_with(patch + "amount = 2")) ==
        at_line(15) + "food.patch[0].amount = 2: must be >= 0 and <= max_per_cell (1)");
  CHECK(parse_error(food_with("[[food.patch]]\nx = 101\ny = 10\nwidth = 5\nheight = 5")) ==
        at_line(11) + "food.patch[0].x = 101: must be >= 0 and <= 100 (the world's width)");
  CHECK(parse_error(food_with("[[food.patch]]\nx = 1\ny = -1\nwidth = 5\nheight = 5")) ==
        at_line(12) + "food.patch[0].y = -1: must be >= 0 and <= 80 (the world's height)");
  CHECK(parse_error(food_with("[[food.patch]]\nx = 1\ny = 1\nwidth = 0\nheight = 5")) ==
        at_line(13) + "food.patch[0].width = 0: must be > 0 and finite");
  CHECK(parse_error(food_with("[[food.patch]]\nx = 1\ny = 1\nwidth = 5")) ==
        at_line(10) + "food.patch[0].height is missing: it has no default");

  // A patch without an amount fills its cells: max_per_cell.
  const Scenario filled = parse_scenario(food_with("max_per_cell = 4\n" + patch), "f.toml");
  REQUIRE(filled.food->patches.size() == 1);
  CHECK(filled.food->patches[0].amount == 4.0f);
  CHECK(parse_scenario(food_with("initial = \"random\""), "r.toml").food->initial.random);
}

TEST_CASE("eats names species of the scenario, and a grazer needs a [food] table",
          "[scenario][food]") {
  CHECK(parse_error(species_with("eats = [\"wolves\"]")) ==
        at_line(kAppendedLine) +
            "species[0] (a).eats = \"wolves\": no species has this name (species: \"a\")");
  CHECK(parse_error(species_with("grazes = true")) ==
        at_line(kAppendedLine) +
            "species[0] (a).grazes = true: a grazer needs a [food] table (docs/model.md, \"The "
            "food field\")");
  const Scenario hunter = parse_scenario(
      species_with("eats = [\"b\"]\n[[species]]\nname = \"b\"\ngrazes = true\n[food]\n"),
      "h.toml");
  CHECK(hunter.prey_mask(0) == 0b10u);
  CHECK(hunter.hunter_mask(1) == 0b01u);
  CHECK(hunter.species[1].grazes);
}

TEST_CASE("a species with energy starts with some", "[scenario][energy]") {
  CHECK(parse_error(species_with("energy_max = 10")) ==
        at_line(kSpeciesTableLine) +
            "species[0] (a).energy_initial = 0: must be > 0 for a species with energy "
            "(energy_max > 0)");
  CHECK(parse_scenario(species_with("energy_max = 10\nenergy_initial = 0.5"), "e.toml")
            .species[0].energy_initial == 0.5f);
}

// --- [[spawn]] ---------------------------------------------------------------------------------
TEST_CASE("bad [[spawn]] values are rejected naming file, line, key and range",
          "[scenario][spawn]") {
  // kWorld + kSpecies end on line 8 (species "a", count 1000, in a 100 x 80 world); the spawn
  // table starts on line 9, its first key on line 10.
  const auto spawn_with = [](const std::string& lines) {
    return kWorld + kSpecies + "[[spawn]]\n" + lines + "\n";
  };
  const std::string box = "species = \"a\"\ncount = 10\n";  // lines 10, 11
  const std::string region = "x = 1\ny = 1\nwidth = 5\nheight = 5";
  CHECK(parse_error(spawn_with("species = \"b\"\ncount = 10\n" + region)) ==
        at_line(10) + "spawn[0].species = \"b\": no species has this name (species: \"a\")");
  CHECK(parse_error(spawn_with(box + "x = 1\ny = 1\nwidth = 5")) ==
        at_line(9) + "spawn[0].height is missing: the rectangle needs it");
  CHECK(parse_error(spawn_with("species = \"a\"\nx = 1\ny = 1\nwidth = 5\nheight = 5")) ==
        at_line(9) + "spawn[0].count is missing: it has no default");
  CHECK(parse_error(spawn_with("species = \"a\"\ncount = 0\n" + region)) ==
        at_line(11) + "spawn[0].count = 0: must be >= 1");
  // The region lies in the world: 96 + 5 > 100.
  CHECK(parse_error(spawn_with(box + "x = 96\ny = 1\nwidth = 5\nheight = 5")) ==
        at_line(12) + "spawn[0].x = 96: the region must lie in the world: x >= 0 and x + width "
                      "(5) <= 100 (the world's width)");
  CHECK(parse_error(spawn_with(box + "x = 1\ny = -1\nwidth = 5\nheight = 5")) ==
        at_line(13) + "spawn[0].y = -1: the region must lie in the world: y >= 0 and y + height "
                      "(5) <= 80 (the world's height)");
  CHECK(parse_error(spawn_with(box + "x = 1\ny = 1\nwidth = 0\nheight = 5")) ==
        at_line(14) + "spawn[0].width = 0: must be > 0 (a rectangle's width)");
  CHECK(parse_error(spawn_with(box + "layout = \"disc\"\nx = 50\ny = 75\nradius = 10")) ==
        at_line(14) + "spawn[0].y = 75: the disc must lie in the world: radius (10) <= y <= 80 "
                      "- radius");
  CHECK(parse_error(spawn_with(box + "layout = \"disc\"\nx = 50\ny = 40\nradius = 0")) ==
        at_line(15) + "spawn[0].radius = 0: must be > 0 (a disc's radius)");
  CHECK(parse_error(spawn_with(box + "layout = \"clusters\"\nx = 150\ny = 40")) ==
        at_line(13) + "spawn[0].x = 150: the origin (x, y) = (150, 40) must lie in [0, 100] x "
                      "[0, 80] (the world)");
  CHECK(parse_error(spawn_with(box + "layout = \"hexagon\"")) ==
        at_line(12) + "spawn[0].layout = \"hexagon\": must be one of \"rectangle\", \"disc\", "
                      "\"clusters\", \"ball\", \"box\"");
  // A key the layout would ignore is an error, not silently dropped.
  CHECK(parse_error(spawn_with(box + "layout = \"disc\"\nx = 50\ny = 40\nradius = 5\nwidth = 3")) ==
        at_line(16) + "spawn[0].width: not a key of layout = \"disc\" (its keys: species, count, "
                      "layout, x, y, radius, min_speed, max_speed, heading_min, heading_max)");
  CHECK(parse_error(spawn_with(box + "layout = \"clusters\"\nx = 5\ny = 5\nmax_speed = 2")) ==
        at_line(15) + "spawn[0].max_speed: not a key of layout = \"clusters\" (its keys: "
                      "species, count, layout, x, y, first_index, spread)");
  CHECK_THAT(parse_error(spawn_with(box + "x = 1\ny = 1\nwidth = 5\nheight = 5\nangle = 3")),
             StartsWith(at_line(16) + "spawn[0].angle: unknown key (accepted: species, count, "
                                      "layout, x, y, z, width, height, depth, radius,"));
  // Velocity ranges: in order, and a heading range of at most a turn.
  const std::string rectangle = box + "x = 1\ny = 1\nwidth = 5\nheight = 5\n";  // to line 15
  CHECK(parse_error(spawn_with(rectangle + "min_speed = -1")) ==
        at_line(16) + "spawn[0].min_speed = -1: must be >= 0");
  CHECK(parse_error(spawn_with(rectangle + "min_speed = 2\nmax_speed = 1")) ==
        at_line(17) + "spawn[0].max_speed = 1: must be >= min_speed (2)");
  CHECK(parse_error(spawn_with(rectangle + "heading_min = 10\nheading_max = 5")) ==
        at_line(17) + "spawn[0].heading_max = 5: must be >= heading_min (10) and <= "
                      "heading_min + 360");
  CHECK(parse_error(spawn_with(rectangle + "heading_min = -90\nheading_max = 300")) ==
        at_line(17) + "spawn[0].heading_max = 300: must be >= heading_min (-90) and <= "
                      "heading_min + 360");
  CHECK(parse_error(spawn_with(rectangle + "heading_min = -400")) ==
        at_line(16) + "spawn[0].heading_min = -400: must be >= -360 and <= 360");
  // Counts add up: two spawns of "a" placing 600 + 500 > its 1000 boids.
  const std::string two = kWorld + kSpecies +
                          "[[spawn]]\nspecies = \"a\"\ncount = 600\nx = 1\ny = 1\nwidth = 5\n"
                          "height = 5\n"  // lines 9-15
                          "[[spawn]]\nspecies = \"a\"\ncount = 500\nx = 1\ny = 1\nwidth = 5\n"
                          "height = 5\n";  // lines 16-22
  CHECK(parse_error(two) ==
        at_line(18) + "spawn[1].count = 500: the spawns of species \"a\" place 1100 boids so "
                      "far: at most its count (1000)");
  CHECK(parse_error("spawn = 1\n" + kWorld + kSpecies) ==
        at_line(1) + "spawn = 1: must be an array of tables ([[spawn]]), found an integer");
}

TEST_CASE("[[spawn]] speeds default to the species' own and round-trip through TOML",
          "[scenario][spawn]") {
  const std::string text = kWorld + kSpecies + "min_speed = 0.5\nmax_speed = 2\n" +
                           "[[spawn]]\nspecies = \"a\"\ncount = 10\nlayout = \"disc\"\n"
                           "x = 50\ny = 40\nradius = 30\nheading_min = -45\nheading_max = 45\n"
                           "[[spawn]]\nspecies = \"a\"\ncount = 20\nlayout = \"clusters\"\n"
                           "x = 8\ny = 8\nfirst_index = 151\nspread = 0.5\n";
  const Scenario s = parse_scenario(text, "s.toml");
  REQUIRE(s.spawns.size() == 2);
  CHECK(s.spawns[0].min_speed == 0.5f);
  CHECK(s.spawns[0].max_speed == 2.0f);
  CHECK(s.spawns[0].layout == SpawnLayout::Disc);
  CHECK(s.spawns[1].first_index == 151);
  const Scenario again = parse_scenario(scenario_to_toml(s), "again.toml");
  REQUIRE(again.spawns.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    for_each_spawn_param([&](const auto& info) {
      CHECK(again.spawns[i].*info.member == s.spawns[i].*info.member);
    });
  }
}
