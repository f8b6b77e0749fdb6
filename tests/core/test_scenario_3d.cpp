// The scenario's keys of a 3D world ([world] dimensions = 3, docs/model.md, "Three
// dimensions"): the z of obstacles and the target, the ball and box spawns with their cone,
// and the 2D models a volume refuses. Each refusal is one line naming the file, line, key and
// what is accepted; a 2D file keeps every byte the writer wrote before.
//
// Sections: helpers; [[obstacle]] and [target]; [[spawn]]; the ecosystem and the floor plan;
// [camera]; the writer; the shipped 3D scenario.
#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <tuple>

#include "murmur/base/errors.hpp"
#include "murmur/scenario/scenario.hpp"
#include "input_error.hpp"

using namespace murmur;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

// --- helpers -----------------------------------------------------------------------------------
namespace {

const std::filesystem::path kSourceDir = MURMUR_SOURCE_DIR;

using test::input_error;

std::string parse_error(const std::string& text) {
  return input_error([&] { parse_any_scenario(text, "test.toml"); });
}

// A 100 x 80 x 60 volume with one species "a"; what a test appends starts on line 10.
const std::string kWorld3d =
    "[world]\n"          // 1
    "dimensions = 3\n"   // 2
    "width = 100\n"      // 3
    "height = 80\n"      // 4
    "depth = 60\n"       // 5
    "seed = 3\n"         // 6
    "[[species]]\n"      // 7
    "name = \"a\"\n"     // 8
    "count = 10\n";      // 9
// The same plane in 2D; appended text starts on line 8.
const std::string kWorld2d =
    "[world]\n"          // 1
    "width = 100\n"      // 2
    "height = 80\n"      // 3
    "seed = 3\n"         // 4
    "[[species]]\n"      // 5
    "name = \"a\"\n"     // 6
    "count = 10\n";      // 7

std::string in_3d(const std::string& tables) { return kWorld3d + tables; }
std::string in_2d(const std::string& tables) { return kWorld2d + tables; }

}  // namespace

// --- [[obstacle]] and [target] -----------------------------------------------------------------

TEST_CASE("3D: an obstacle's and the target's z is read, required and kept inside the depth",
          "[scenario][3d]") {
  const Scenario s = parse_scenario(
      in_3d("[[obstacle]]\nx = 10\ny = 20\nz = 30\nradius = 5\n[target]\nx = 1\ny = 2\nz = 60\n"),
      "test.toml");
  REQUIRE(s.obstacles.size() == 1);
  CHECK(s.obstacles[0].centre == glm::vec2(10.0f, 20.0f));
  CHECK(s.obstacles[0].z == 30.0f);
  CHECK(s.obstacles[0].radius == 5.0f);
  REQUIRE(s.target);
  CHECK(s.target->z == 60.0f);  // on the far wall: the world's points include its walls

  CHECK_THAT(parse_error(in_3d("[[obstacle]]\nx = 10\ny = 20\nradius = 5\n")),
             Equals("test.toml:10: obstacle[0].z is missing: a 3D world (world.dimensions = 3) "
                    "places an obstacle's centre in z too (a number >= 0 and <= 60, the world's "
                    "depth)"));
  CHECK_THAT(parse_error(in_3d("[target]\nx = 1\ny = 2\n")),
             Equals("test.toml:10: target.z is missing: a 3D world (world.dimensions = 3) places "
                    "the target in z too (a number >= 0 and <= 60, the world's depth)"));
  CHECK_THAT(parse_error(in_3d("[[obstacle]]\nx = 10\ny = 20\nz = 60.5\nradius = 5\n")),
             Equals("test.toml:11: obstacle[0] (x, y, z) = (10, 20, 60.5): must lie in [0, 100] x "
                    "[0, 80] x [0, 60] (the world)"));
  CHECK_THAT(parse_error(in_3d("[target]\nx = 1\ny = 2\nz = -1\n")),
             Equals("test.toml:11: target (x, y, z) = (1, 2, -1): must lie in [0, 100] x [0, 80] "
                    "x [0, 60] (the world)"));
}

TEST_CASE("2D: an obstacle or a target with a z is refused, naming world.dimensions",
          "[scenario][3d]") {
  CHECK_THAT(parse_error(in_2d("[[obstacle]]\nx = 10\ny = 20\nz = 5\nradius = 5\n")),
             Equals("test.toml:11: obstacle[0].z = 5: only a 3D world has z "
                    "(world.dimensions = 3; this one is 2D)"));
  CHECK_THAT(parse_error(in_2d("[target]\nx = 1\ny = 2\nz = 0\n")),
             Equals("test.toml:11: target.z = 0: only a 3D world has z (world.dimensions = 3; "
                    "this one is 2D)"));
  // In memory (the panel's scenarios) the value is what is refused.
  Scenario s = parse_scenario(in_2d("[[obstacle]]\nx = 10\ny = 20\nradius = 5\n"), "mem");
  s.obstacles[0].z = 2.0f;
  CHECK_THAT(input_error([&] { validate_scenario(s); }),
             Equals("mem: obstacle[0].z = 2: only a 3D world has z (world.dimensions = 3; this "
                    "one is 2D)"));
}

// --- [[spawn]] ---------------------------------------------------------------------------------

TEST_CASE("3D spawns: ball and box are read with their cone, the 2D layouts and headings are "
          "refused", "[scenario][3d][spawn]") {
  const Scenario s = parse_scenario(
      in_3d("[[spawn]]\nspecies = \"a\"\ncount = 4\nlayout = \"ball\"\nx = 50\ny = 40\nz = 30\n"
            "radius = 10\ndirection = [0, 0, -2]\nspread_degrees = 30\n"
            "[[spawn]]\nspecies = \"a\"\ncount = 6\nlayout = \"box\"\nx = 0\ny = 0\nz = 10\n"
            "width = 100\nheight = 80\ndepth = 50\n"),
      "test.toml");
  REQUIRE(s.spawns.size() == 2);
  CHECK(s.spawns[0].layout == SpawnLayout::Ball);
  CHECK(s.spawns[0].z == 30.0f);
  CHECK(s.spawns[0].direction == glm::vec3(0.0f, 0.0f, -2.0f));
  CHECK(s.spawns[0].spread_degrees == 30.0f);
  CHECK(s.spawns[1].layout == SpawnLayout::Box);
  CHECK(s.spawns[1].depth == 50.0f);
  CHECK(s.spawns[1].direction == glm::vec3(0.0f));  // none: uniform on the sphere

  const std::string head = "[[spawn]]\nspecies = \"a\"\ncount = 1\n";  // lines 10-12
  CHECK_THAT(parse_error(in_3d(head + "x = 1\ny = 1\nwidth = 5\nheight = 5\n")),
             Equals("test.toml:10: spawn[0].layout = \"rectangle\" (the default): a 2D layout, "
                    "refused in a 3D world (world.dimensions = 3): must be \"ball\" or \"box\""));
  for (const char* layout : {"disc", "clusters", "rectangle"}) {
    CHECK_THAT(parse_error(in_3d(head + "layout = \"" + layout + "\"\nx = 1\ny = 1\n")),
               Equals("test.toml:13: spawn[0].layout = \"" + std::string(layout) +
                      "\": a 2D layout, refused in a 3D world (world.dimensions = 3): must be "
                      "\"ball\" or \"box\""));
  }
  const std::string ball = head + "layout = \"ball\"\nx = 50\ny = 40\nz = 30\nradius = 10\n";
  for (const char* key : {"heading_min", "heading_max"}) {
    CHECK_THAT(parse_error(in_3d(ball + key + " = 10\n")),
               Equals("test.toml:18: spawn[0]." + std::string(key) +
                      " = 10: a 2D key, refused in a 3D world (world.dimensions = 3): give "
                      "direction = [dx, dy, dz] and spread_degrees (>= 0 and <= 360) instead"));
  }
}

TEST_CASE("2D spawns: the ball, the box and the 3D keys are refused, naming world.dimensions",
          "[scenario][3d][spawn]") {
  const std::string head = "[[spawn]]\nspecies = \"a\"\ncount = 1\n";  // lines 8-10
  for (const char* layout : {"ball", "box"}) {
    CHECK_THAT(parse_error(in_2d(head + "layout = \"" + layout + "\"\nx = 1\ny = 1\n")),
               Equals("test.toml:11: spawn[0].layout = \"" + std::string(layout) +
                      "\": a 3D layout, refused in a 2D world (world.dimensions = 2): must be "
                      "\"rectangle\", \"disc\" or \"clusters\""));
  }
  const std::string disc = head + "layout = \"disc\"\nx = 50\ny = 40\nradius = 10\n";
  // Messages show an array as [...].
  for (const auto& [key, value, shown] :
       {std::tuple{"z", "5", "5"}, std::tuple{"depth", "5", "5"},
        std::tuple{"direction", "[1, 0, 0]", "[...]"}, std::tuple{"spread_degrees", "10", "10"}}) {
    CHECK_THAT(parse_error(in_2d(disc + key + " = " + value + "\n")),
               Equals("test.toml:15: spawn[0]." + std::string(key) + " = " + shown +
                      ": a 3D key, refused in a 2D world (world.dimensions = 2; set "
                      "world.dimensions = 3 for a volume)"));
  }
}

TEST_CASE("3D spawns: regions inside the world on every axis, a cone needs its axis",
          "[scenario][3d][spawn]") {
  const std::string head = "[[spawn]]\nspecies = \"a\"\ncount = 1\n";  // lines 10-12
  const std::string ball = head + "layout = \"ball\"\nx = 50\ny = 40\nradius = 10\n";  // 13-16
  CHECK_THAT(parse_error(in_3d(ball)),
             Equals("test.toml:10: spawn[0].z is missing: the ball needs it"));
  CHECK_THAT(parse_error(in_3d(ball + "z = 55\n")),
             Equals("test.toml:17: spawn[0].z = 55: the ball must lie in the world: radius (10) "
                    "<= z <= 60 - radius"));
  CHECK_THAT(parse_error(in_3d(ball + "z = 30\nspread_degrees = 20\n")),
             Equals("test.toml:18: spawn[0].spread_degrees = 20: a cone needs its axis: give "
                    "direction = [dx, dy, dz] (not [0, 0, 0]), or leave spread_degrees at 0"));
  CHECK_THAT(parse_error(in_3d(ball + "z = 30\ndirection = [1, 0, 0]\nspread_degrees = 361\n")),
             Contains("test.toml:19: spawn[0].spread_degrees = 361: must be >= 0 and <= 360"));
  CHECK_THAT(parse_error(in_3d(ball + "z = 30\ndirection = [1, 0]\n")),
             Equals("test.toml:18: spawn[0].direction = [...]: must be an array of 3 numbers "
                    "[dx, dy, dz], found an array"));

  const std::string box = head + "layout = \"box\"\nx = 0\ny = 0\nwidth = 10\nheight = 10\n";
  CHECK_THAT(parse_error(in_3d(box + "z = 0\n")),
             Equals("test.toml:10: spawn[0].depth is missing: the box needs it"));
  CHECK_THAT(parse_error(in_3d(box + "z = 20\ndepth = 41\n")),
             Equals("test.toml:18: spawn[0].z = 20: the region must lie in the world: z >= 0 and "
                    "z + depth (41) <= 60 (the world's depth)"));
  CHECK_THAT(parse_error(in_3d(box + "z = 20\ndepth = 0\n")),
             Equals("test.toml:19: spawn[0].depth = 0: must be > 0 (a box's depth)"));
  // A key of the other 3D layout is the layout's own error, as in 2D.
  CHECK_THAT(parse_error(in_3d(box + "z = 0\ndepth = 5\nradius = 3\n")),
             Contains("spawn[0].radius: not a key of layout = \"box\""));
}

// --- the ecosystem and the floor plan ----------------------------------------------------------

TEST_CASE("3D: the ecosystem's keys, [food] and [plan] are refused, naming world.dimensions",
          "[scenario][3d]") {
  // Species "a" with `line` on line 8, then its prey "b".
  const std::string prey = "[[species]]\nname = \"b\"\ncount = 5\n";
  const auto species_a_with = [&](const std::string& line) {
    return "[world]\ndimensions = 3\nwidth = 100\nheight = 80\ndepth = 60\n"
           "[[species]]\nname = \"a\"\n" + line + "\n" + prey;
  };
  const std::string why =
      ": the ecosystem is a 2D model, refused in a 3D world (world.dimensions = 3): must be ";
  CHECK_THAT(parse_error(species_a_with("eats = [\"b\"]")),
             Equals("test.toml:8: species[0] (a).eats = [\"b\"]" + why + "[] (the default)"));
  CHECK_THAT(parse_error(species_a_with("grazes = true")),
             Equals("test.toml:8: species[0] (a).grazes = true" + why + "false (the default)"));
  CHECK_THAT(parse_error(species_a_with("energy_max = 10")),
             Equals("test.toml:8: species[0] (a).energy_max = 10" + why + "0 (the default)"));
  CHECK_THAT(parse_error(species_a_with("food_weight = 0.5")),
             Equals("test.toml:8: species[0] (a).food_weight = 0.5" + why + "0 (the default)"));
  // A key at its default is no ecosystem, and max_count is any population's cap.
  CHECK_NOTHROW(parse_scenario(species_a_with("eats = []\nmax_count = 7"), "test.toml"));

  CHECK_THAT(parse_error(in_3d("[food]\ncell_size = 10\n")),
             Equals("test.toml:10: [food]: the ecosystem's food field is a 2D model, refused in "
                    "a 3D world (world.dimensions = 3): leave the [food] table out"));
  CHECK_THAT(parse_error("[world]\ndimensions = 3\nwidth = 100\nheight = 80\ndepth = 60\n"
                         "[plan]\nclearance = 4\n"),
             Equals("test.toml:6: [plan]: the floor plan is a 2D model, refused in a 3D world "
                    "(world.dimensions = 3): must be 2 for a plan"));
}

// --- [camera] ----------------------------------------------------------------------------------

TEST_CASE("3D: [camera] is read, written back and held to its ranges, and a 2D world refuses it",
          "[scenario][3d]") {
  const Scenario s = parse_scenario(
      in_3d("[camera]\nposition = [50, 40, 200]\ntarget = [50, 40, 30]\nfov = 35\n"
            "orbit_speed = -12.5\n"),
      "test.toml");
  REQUIRE(s.camera.position);
  CHECK(*s.camera.position == glm::vec3(50, 40, 200));
  CHECK(*s.camera.target == glm::vec3(50, 40, 30));
  CHECK(*s.camera.fov == 35.0f);
  CHECK(*s.camera.orbit_speed == -12.5f);
  const std::string text = scenario_to_toml(s);
  CHECK_THAT(text, Contains("\n[camera]\nposition = [50.0, 40.0, 200.0]\n"));
  CHECK(scenario_to_toml(parse_scenario(text, "again.toml")) == text);
  // Without the table nothing is written, and a 2D file keeps its bytes.
  CHECK_THAT(scenario_to_toml(parse_scenario(in_3d(""), "bare.toml")), !Contains("camera"));

  CHECK_THAT(parse_error(in_2d("[camera]\nfov = 40\n")),
             Equals("test.toml:8: [camera]: only a 3D world has a camera to place "
                    "(world.dimensions = 3; this one is 2D): leave the [camera] table out"));
  CHECK_THAT(parse_error(in_3d("[camera]\nfov = 180\n")),
             Equals("test.toml:11: camera.fov = 180: must be > 0 and < 180 (degrees)"));
  CHECK_THAT(parse_error(in_3d("[camera]\norbit_speed = 400\n")),
             Contains("test.toml:11: camera.orbit_speed = 400: must be >= -360 and <= 360"));
  // The default target is the box's centre (50, 40, 30): a position there has no direction.
  CHECK_THAT(parse_error(in_3d("[camera]\nposition = [50, 40, 30]\n")),
             Contains("test.toml:11: camera.position = [50, 40, 30]: must differ from "
                      "camera.target"));
  CHECK_THAT(parse_error(in_3d("[camera]\ntarget = [1, nan, 2]\n")),
             Contains("test.toml:11: camera.target[1] = nan: must be a finite number"));
  CHECK_THAT(parse_error(in_3d("[camera]\nfovv = 40\n")), Contains("camera.fovv: unknown key: did you mean \"fov\"?"));
}

// --- the writer --------------------------------------------------------------------------------

TEST_CASE("3D scenarios write z and the 3D spawn keys and read back the same, 2D files have "
          "none", "[scenario][3d]") {
  const Scenario s = parse_scenario(
      in_3d("[[obstacle]]\nx = 10\ny = 20\nz = 30.25\nradius = 5\n[target]\nx = 1\ny = 2\nz = 3\n"
            "[[spawn]]\nspecies = \"a\"\ncount = 4\nlayout = \"ball\"\nx = 50\ny = 40\nz = 30\n"
            "radius = 10\ndirection = [0.5, 0, -2]\nspread_degrees = 30\n"
            "[[spawn]]\nspecies = \"a\"\ncount = 6\nlayout = \"box\"\nx = 0\ny = 0\nz = 10\n"
            "width = 100\nheight = 80\ndepth = 50\n"),
      "test.toml");
  const std::string text = scenario_to_toml(s);
  CHECK_THAT(text, Contains("z = 30.25\n"));
  CHECK_THAT(text, Contains("direction = [0.5, 0.0, -2.0]\n"));
  CHECK_THAT(text, Contains("spread_degrees = 30.0\n"));
  CHECK_THAT(text, !Contains("heading_min"));
  const Scenario again = parse_scenario(text, "again.toml");
  CHECK(scenario_to_toml(again) == text);
  CHECK(again.obstacles[0].z == 30.25f);
  CHECK(again.target->z == 3.0f);
  CHECK(again.spawns[0].direction == s.spawns[0].direction);
  CHECK(again.spawns[1].depth == 50.0f);

  const Scenario flat = parse_scenario(
      in_2d("[[obstacle]]\nx = 10\ny = 20\nradius = 5\n[target]\nx = 1\ny = 2\n"
            "[[spawn]]\nspecies = \"a\"\ncount = 4\nlayout = \"disc\"\nx = 50\ny = 40\n"
            "radius = 10\n"),
      "flat.toml");
  const std::string flat_text = scenario_to_toml(flat);
  for (const char* key : {"\nz = ", "depth", "direction", "spread_degrees", "dimensions"}) {
    CHECK_THAT(flat_text, !Contains(key));
  }
}

// --- the shipped 3D scenario -------------------------------------------------------------------

TEST_CASE("scenarios/flock-3d.toml loads: a 3D boids flock on a 3-torus", "[scenario][3d]") {
  const Scenario s = load_scenario(kSourceDir / "scenarios/flock-3d.toml");
  CHECK(is_3d(s));
  CHECK(world_box(s) == glm::vec3(200.0f, 200.0f, 200.0f));
  REQUIRE(s.species.size() == 1);
  CHECK(s.species[0].rule == Rule::Boids);
  CHECK(s.species[0].topology == Topology::Wrap);
  CHECK(s.total_count() == 2000);
}
