// The parameter tables (include/murmur/scenario/params/*.def) drive the parser, validator, writer and
// SpeciesModel: these tests walk the tables, so a key added to a table is covered without a
// new test, and a key some expansion misses fails here.
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <string>
#include <type_traits>

#include "murmur/base/errors.hpp"
#include "murmur/flock/model.hpp"
#include "murmur/scenario/scenario.hpp"

using namespace murmur;

namespace {

// Three species, each key differing from its default in at least one of them (and the two
// boids species from each other), and a full [render] table: what a writer or reader that
// skips a key would lose.
Scenario non_default_scenario() {
  Scenario scenario;
  scenario.source = "params.toml";
  scenario.world = {.width = 300.0f, .height = 200.0f, .seed = 77, .capacity = 40};
  SpeciesParams a;
  a.name = "a";
  a.count = 17;
  a.topology = Topology::Bounded;
  a.perception_radius = 9.5f;
  a.separation_radius = 3.25f;
  a.fov_degrees = 270.0f;
  a.align_weight = 0.07f;
  a.cohesion_weight = 0.0075f;
  a.separation_weight = 0.6f;
  a.separation_kernel = SeparationKernel::Linear;
  a.max_force = 0.09f;
  a.min_speed = 0.75f;
  a.max_speed = 2.5f;
  a.velocity_factor = 1.02f;
  a.speed_limit = SpeedLimit::Inverse;
  a.self_weight = 2;
  a.walls = Walls::Push;
  a.edge_margin = 12.0f;
  a.edge_gain = 0.003f;
  a.obstacle_weight = 0.45f;
  a.target_weight = 0.02f;
  a.target_pull = TargetPull::Linear;
  a.max_age = 900;
  a.eats = {"b"};
  a.grazes = true;
  a.energy_max = 120.0f;
  a.energy_initial = 60.5f;
  a.energy_per_step = 0.25f;
  a.energy_per_distance = 0.125f;
  a.energy_from_food = 3.5f;
  a.energy_from_prey = 40.0f;
  a.reproduce_energy = 100.0f;
  a.catch_radius = 2.5f;
  a.chase_weight = 0.03f;
  a.flee_weight = 1.5f;
  a.food_weight = 0.02f;
  a.max_count = 4000;
  a.flocks_with = {"a", "b"};
  a.colour = {0.25f, 1.5f, 3.0f};
  // The other rules' keys: written and read back whatever the rule (a boids species ignores
  // them).
  a.speed = 0.375f;
  a.noise = 0.5f;
  a.noise_distribution = NoiseDistribution::Gaussian;
  a.vicsek_update = VicsekUpdate::Forward;
  a.repulsion_radius = 1.5f;
  a.orientation_radius = 4.25f;
  a.max_turn_degrees = 30.0f;
  SpeciesParams b = a;
  b.name = "b";
  b.count = 5;
  b.topology = Topology::Wrap;
  b.flocks_with = {"a"};
  b.eats = {};
  // The keys of the other rules of motion and of topological neighbours, which a hunter, a
  // grazer or a prey cannot take.
  SpeciesParams c = b;
  c.name = "c";
  c.count = 3;
  c.rule = Rule::Vicsek;
  c.neighbours = Neighbours::Topological;
  c.topological_k = 5;
  c.speed = 0.8f;
  c.noise = 0.5f;
  c.noise_distribution = NoiseDistribution::Gaussian;
  c.vicsek_update = VicsekUpdate::Forward;
  c.repulsion_radius = 0.5f;
  c.orientation_radius = 2.0f;
  c.max_turn_degrees = 30.0f;
  c.grazes = false;
  c.energy_max = 0.0f;
  c.energy_initial = 0.0f;
  c.flocks_with = {"c"};
  scenario.species = {a, b, c};
  LookParams& look = scenario.look;
  look.trails = TrailMode::Ribbons;
  look.trail_length = 9;
  look.trail_fade = 0.8f;
  look.colour_by = ColourMode::Health;
  look.age_look = true;
  look.age_scale = 250.0f;
  look.food = false;
  look.food_colour = glm::vec3{0.25f, 0.5f, 0.125f};
  look.food_box_fraction = 0.375f;
  look.bloom = false;
  look.bloom_intensity = 1.25f;
  look.bloom_threshold = 0.5f;
  look.exposure = 2.0f;
  look.auto_exposure = 0.5f;
  look.background = glm::vec3{0.01f, 0.02f, 0.03f};
  look.bloom_levels = 3;
  look.bloom_radius = 2.5f;
  look.drift_phase_per_id = 0.25f;
  look.drift_phase_per_step = -0.0625f;
  look.drift_from = glm::vec3{0.5f, 0.25f, 1.0f};
  look.drift_to = glm::vec3{1.5f, 0.125f, 0.75f};
  look.trail_width = 2.0f;
  look.trail_intensity = 0.6f;
  look.circles = CircleMode::All;
  look.blend = BlendMode::Ink;
  look.paper = glm::vec3{0.9f, 0.85f, 0.75f};
  look.sky_top = glm::vec3{0.25f, 0.375f, 0.625f};
  look.sky_horizon = glm::vec3{0.875f, 0.5f, 0.3125f};
  look.fog_distance = 250.0f;
  look.circle_radius = CircleRadius{CircleRadiusKind::WorldUnits, 25.0f};
  look.target_marker = false;
  look.head_shape = HeadShape::Disc;
  look.head_size = 6.5f;
  look.head_size_units = HeadSizeUnits::Pixels;
  look.density_scale = false;
  look.local_exposure = 0.75f;
  look.plan_ink = glm::vec3{0.1f, 0.2f, 0.5f};
  look.plan_glow = glm::vec3{2.0f, 0.75f, 0.25f};
  look.plan_agents = false;
  FoodParams food;
  food.cell_size = 7.5f;
  food.max_per_cell = 12.0f;
  food.regrow_per_step = 0.0625f;
  food.bite = 0.75f;
  food.initial = FoodInitial{0.25f, false};
  food.patches = {FoodPatch{10.0f, 20.0f, 30.5f, 40.25f, 6.0f},
                  FoodPatch{150.0f, 100.0f, 12.0f, 8.0f, 0.5f}};
  scenario.food = food;
  return scenario;
}

template <class T>
bool same(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
  } else {
    return a == b;
  }
}

}  // namespace

TEST_CASE("every species key differs from its default in the test scenario", "[params]") {
  // Guards the round-trip test below: a key left at its default would prove nothing. `rule`
  // differs in species c (a, a hunter and a grazer, must follow the boids rule).
  const Scenario scenario = non_default_scenario();
  validate_scenario(scenario);
  const SpeciesParams defaults;
  for_each_species_param([&](const auto& info) {
    INFO(info.key);
    bool differs = false;
    for (const SpeciesParams& species : scenario.species) {
      differs = differs || !same(species.*info.member, defaults.*info.member);
    }
    CHECK(differs);
  });
  for_each_render_param([&](const auto& info) {
    INFO(info.key);
    CHECK((scenario.look.*info.member).has_value());
  });
  const FoodParams food_defaults;
  for_each_food_param([&](const auto& info) {
    INFO("food." << info.key);
    CHECK_FALSE(same(scenario.food.value().*info.member, food_defaults.*info.member));
  });
  const FoodPatch patch_defaults;
  for_each_food_patch_param([&](const auto& info) {
    INFO("food.patch." << info.key);
    const FoodPatch& patch = scenario.food.value().patches.at(0);
    CHECK_FALSE(same(patch.*info.member, patch_defaults.*info.member));
  });
}

TEST_CASE("every world, species and [render] key is written and read back to the same value",
          "[params]") {
  const Scenario original = non_default_scenario();
  const std::string text = scenario_to_toml(original);
  const Scenario copy = parse_scenario(text, "copy.toml");
  REQUIRE(copy.species.size() == original.species.size());
  for_each_world_param([&](const auto& info) {
    INFO("world." << info.key);
    CHECK(same(copy.world.*info.member, original.world.*info.member));
  });
  for (std::size_t s = 0; s < original.species.size(); ++s) {
    for_each_species_param([&](const auto& info) {
      INFO("species[" << s << "]." << info.key);
      CHECK(text.find("\n" + std::string(info.key) + " = ") != std::string::npos);
      CHECK(same(copy.species[s].*info.member, original.species[s].*info.member));
    });
  }
  for_each_render_param([&](const auto& info) {
    INFO("render." << info.key);
    REQUIRE((copy.look.*info.member).has_value());
    CHECK(same(*(copy.look.*info.member), *(original.look.*info.member)));
  });
  REQUIRE(copy.food.has_value());
  for_each_food_param([&](const auto& info) {
    INFO("food." << info.key);
    CHECK(same((*copy.food).*info.member, (*original.food).*info.member));
  });
  REQUIRE(copy.food->patches.size() == original.food->patches.size());
  for (std::size_t p = 0; p < original.food->patches.size(); ++p) {
    for_each_food_patch_param([&](const auto& info) {
      INFO("food.patch[" << p << "]." << info.key);
      CHECK(same(copy.food->patches[p].*info.member, original.food->patches[p].*info.member));
    });
  }
  // The "random" pattern is written as the word, not as a number.
  Scenario random_food = original;
  random_food.food->initial = FoodInitial{0.0f, true};
  CHECK(parse_scenario(scenario_to_toml(random_food), "random.toml").food->initial.random);
}

TEST_CASE("a key left out of a file takes the table's default", "[params]") {
  const Scenario scenario =
      parse_scenario("[world]\nwidth = 300\nheight = 200\n[[species]]\nname = \"a\"\n", "d.toml");
  const SpeciesParams defaults;
  for_each_species_param([&](const auto& info) {
    if (info.key == "name" || info.key == "flocks_with") return;  // they default to the name
    INFO(info.key);
    CHECK(same(scenario.species[0].*info.member, info.default_value));
    CHECK(same(defaults.*info.member, info.default_value));
  });
  CHECK(scenario.look.empty());
}

TEST_CASE("the unknown-key messages list every key of the table", "[params]") {
  const std::string world = "[world]\nwidth = 300\nheight = 200\n";
  std::string world_message;
  std::string species_message;
  std::string render_message;
  try {
    parse_scenario("[world]\nwidth = 300\nheight = 200\nvolume = 1\n[[species]]\n", "k.toml");
  } catch (const InputError& error) {
    world_message = error.what();
  }
  try {
    parse_scenario(world + "[[species]]\nflock = 1\n", "k.toml");
  } catch (const InputError& error) {
    species_message = error.what();
  }
  try {
    parse_scenario(world + "[[species]]\n[render]\nglow = 1\n", "k.toml");
  } catch (const InputError& error) {
    render_message = error.what();
  }
  for_each_world_param([&](const auto& info) {
    CHECK_THAT(world_message, Catch::Matchers::Contains(std::string(info.key)));
  });
  for_each_species_param([&](const auto& info) {
    CHECK_THAT(species_message, Catch::Matchers::Contains(std::string(info.key)));
  });
  for_each_render_param([&](const auto& info) {
    CHECK_THAT(render_message, Catch::Matchers::Contains(std::string(info.key)));
  });
  std::string food_message;
  std::string patch_message;
  try {
    parse_scenario(world + "[[species]]\n[food]\ngrass = 1\n", "k.toml");
  } catch (const InputError& error) {
    food_message = error.what();
  }
  try {
    parse_scenario(world + "[[species]]\n[food]\n[[food.patch]]\nx = 1\ny = 1\nwidth = 1\n"
                   "height = 1\nsize = 1\n", "k.toml");
  } catch (const InputError& error) {
    patch_message = error.what();
  }
  for_each_food_param([&](const auto& info) {
    CHECK_THAT(food_message, Catch::Matchers::Contains(std::string(info.key)));
  });
  CHECK_THAT(food_message, Catch::Matchers::Contains("patch"));
  for_each_food_patch_param([&](const auto& info) {
    CHECK_THAT(patch_message, Catch::Matchers::Contains(std::string(info.key)));
  });
}

TEST_CASE("SpeciesModel carries every key the table marks Copied", "[params]") {
  const Scenario scenario = non_default_scenario();
  const std::vector<SpeciesModel> models = species_models(scenario);
  REQUIRE(models.size() == scenario.species.size());
  for (std::size_t s = 0; s < models.size(); ++s) {
    const SpeciesParams& params = scenario.species[s];
    const SpeciesModel& model = models[s];
#define MURMUR_SPECIES_PARAM(key, type, default_value, accepted, unit, widget, gpu, meaning) \
  MURMUR_IF_GPU_COPIED(gpu, INFO(#key); CHECK(same(model.key, params.key));)
#include "murmur/scenario/params/species_params.def"
  }
  // The derived fields, as docs/model.md defines them.
  CHECK(models[0].radius_sq == 9.5f * 9.5f);
  CHECK(models[0].sep_radius_sq == 3.25f * 3.25f);
  CHECK(models[0].limited_fov);
  CHECK(models[0].flock_mask == 0b11u);
  CHECK(models[1].flock_mask == 0b01u);
  CHECK(models[0].rep_radius_sq == 1.5f * 1.5f);
  CHECK(models[0].ori_radius_sq == 4.25f * 4.25f);
  CHECK(models[0].cos_max_turn == static_cast<float>(std::sqrt(3.0) / 2.0));
  CHECK(models[0].sin_max_turn == 0.5f);
}
