// Obstacles, the target and the steered boid: scenario keys, and the model's known answers on
// the CPU reference (the GPU is held to it in tests/gpu/test_gpu_flock.cpp).
#include <cmath>

#include <catch2/catch.hpp>
#include <glm/geometric.hpp>

#include "murmur/flock/cpu_flock.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/flock/model.hpp"
#include "murmur/scenario/scenario.hpp"
#include "test_scenarios.hpp"

using namespace murmur;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;

namespace {

constexpr const char* kBase = R"(
[world]
width = 200
height = 100

[[species]]
name = "a"
count = 10
)";

Scenario parse(const std::string& extra) { return parse_scenario(std::string(kBase) + extra, "s.toml"); }

void require_rejected(const std::string& extra, const std::string& expected) {
  INFO(extra);
  REQUIRE_THROWS_MATCHES(parse(extra), InputError, Catch::Matchers::Message(expected));
}

// One boid heading +x, nothing else in the world but what the test adds.
Scenario lone(Topology topology, float perception_radius = 10.0f) {
  SpeciesParams s = test::make_species("a", topology, perception_radius, 2.0f, {}, {}, 1);
  s.obstacle_weight = 0.5f;
  s.target_weight = 0.01f;
  return test::world_of(200.0f, 100.0f, {s});
}

FlockState one_boid(glm::vec2 pos, glm::vec2 vel) {
  FlockState state;
  state.boids.push_back(Boid{pos, vel, 0, 0});
  return state;
}

}  // namespace

TEST_CASE("Obstacles and a target are read from the scenario and written back") {
  const Scenario s = parse(R"(
[[obstacle]]
x = 50
y = 40.5
radius = 8

[[obstacle]]
x = 200
y = 0
radius = 0.25

[target]
x = 120
y = 60
)");
  REQUIRE(s.obstacles.size() == 2);
  REQUIRE(s.obstacles[0].centre == glm::vec2(50.0f, 40.5f));
  REQUIRE(s.obstacles[0].radius == 8.0f);
  REQUIRE(s.obstacles[1].centre == glm::vec2(200.0f, 0.0f));
  REQUIRE(s.target.has_value());
  REQUIRE(s.target->position == glm::vec2(120.0f, 60.0f));
  REQUIRE(s.species[0].obstacle_weight == 0.5f);  // documented defaults
  REQUIRE(s.species[0].target_weight == 0.01f);

  const Scenario again = parse_scenario(scenario_to_toml(s), "again.toml");
  REQUIRE(again.obstacles.size() == 2);
  REQUIRE(again.obstacles[1].radius == 0.25f);
  REQUIRE(again.target->position == s.target->position);
  REQUIRE(parse("").obstacles.empty());
  REQUIRE_FALSE(parse("").target.has_value());
}

TEST_CASE("Bad obstacles and targets name the file, line, key and range") {
  require_rejected("\n[[obstacle]]\nx = 250\ny = 10\nradius = 3\n",
                   "s.toml:11: obstacle[0] (x, y) = (250, 10): must lie in [0, 200] x [0, 100] (the world)");
  require_rejected("\n[[obstacle]]\nx = 25\ny = 10\nradius = 0\n",
                   "s.toml:13: obstacle[0].radius = 0: must be > 0 and finite");
  require_rejected("\n[[obstacle]]\nx = 25\ny = 10\n",
                   "s.toml:10: obstacle[0].radius is missing: it has no default (a number)");
  require_rejected("\n[[obstacle]]\nx = 25\ny = 10\nradius = 1\nshape = \"disc\"\n",
                   "s.toml:14: obstacle[0].shape: unknown key (accepted: x, y, radius)");
  require_rejected("\n[[obstacle]]\nx = \"left\"\ny = 10\nradius = 1\n",
                   "s.toml:11: obstacle[0].x = \"left\": must be a number, found a string");
  require_rejected("\n[target]\nx = 10\ny = -1\n",
                   "s.toml:11: target (x, y) = (10, -1): must lie in [0, 200] x [0, 100] (the world)");
  require_rejected("\n[target]\nx = 10\n", "s.toml:10: target.y is missing: it has no default (a number)");
  require_rejected("\n[[species]]\nname = \"b\"\nobstacle_weight = -1\n",
                   "s.toml:12: species[1] (b).obstacle_weight = -1: must be >= 0");
  std::string many;
  for (std::size_t i = 0; i <= kMaxObstacles; ++i) many += "\n[[obstacle]]\nx = 1\ny = 1\nradius = 1\n";
  REQUIRE_THROWS_WITH(parse(many), Contains("too many obstacles (65): at most 64"));
}

TEST_CASE("A boid heading for an obstacle is pushed away from it but one out of reach is not") {
  Scenario s = lone(Topology::Bounded);
  s.obstacles.push_back(Obstacle{{100.0f, 50.0f}, 5.0f});
  // 3 units above the centre line, 12 before the centre: inside reach (5 + 10).
  const FlockState near = cpu_step(s, one_boid({88.0f, 53.0f}, {1.0f, 0.0f}));
  REQUIRE(near.boids[0].vel.x < 1.0f);  // slowed towards the obstacle...
  REQUIRE(near.boids[0].vel.y > 0.0f);  // ...and deflected to its own side
  // The push is capped by the force limit like every other term.
  REQUIRE(glm::length(near.boids[0].vel - glm::vec2(1.0f, 0.0f)) <=
          s.species[0].max_force * (1.0f + 1e-6f));
  const FlockState far = cpu_step(s, one_boid({80.0f, 50.0f}, {1.0f, 0.0f}));  // 20 > 15
  REQUIRE(far.boids[0].vel == glm::vec2(1.0f, 0.0f));
}

TEST_CASE("The obstacle push has the documented size") {
  Scenario s = lone(Topology::Bounded);
  s.obstacles.push_back(Obstacle{{100.0f, 50.0f}, 5.0f});
  const SpeciesModel m = species_models(s)[0];
  const Surroundings env = surroundings_of(s);
  // 9 from the centre, reach 15: depth (15 - 9) / 10 = 0.6, pointing from the centre outwards.
  const glm::vec2 push = obstacle_push(m, {100.0f, 59.0f}, env);
  REQUIRE_THAT(push.x, WithinAbs(0.0, 1e-7));
  REQUIRE_THAT(push.y, WithinAbs(0.6, 1e-6));
  // Torus: an obstacle near the right edge pushes a boid just across the seam.
  Scenario t = lone(Topology::Wrap);
  t.obstacles.push_back(Obstacle{{198.0f, 50.0f}, 3.0f});
  const glm::vec2 across = obstacle_push(species_models(t)[0], {2.0f, 50.0f}, surroundings_of(t));
  REQUIRE(across.x > 0.0f);  // away from the obstacle, i.e. further right of the seam
  REQUIRE_THAT(across.x, WithinAbs((13.0 - 4.0) / 10.0, 1e-6));
}

TEST_CASE("The target pulls with a unit vector, across the seam on a torus") {
  Scenario s = lone(Topology::Wrap);
  s.target = Target{{190.0f, 50.0f}};
  const SpeciesModel m = species_models(s)[0];
  const glm::vec2 pull = target_pull(m, {10.0f, 50.0f}, surroundings_of(s));
  REQUIRE_THAT(pull.x, WithinAbs(-1.0, 1e-7));  // 20 to the left through the seam, not 180 right
  REQUIRE_THAT(pull.y, WithinAbs(0.0, 1e-7));
  Scenario b = lone(Topology::Bounded);
  b.target = Target{{190.0f, 50.0f}};
  REQUIRE_THAT(target_pull(species_models(b)[0], {10.0f, 50.0f}, surroundings_of(b)).x, WithinAbs(1.0, 1e-7));
  REQUIRE(target_pull(m, {190.0f, 50.0f}, surroundings_of(s)) == glm::vec2(0.0f));  // on it
  b.target.reset();
  REQUIRE(target_pull(m, {10.0f, 50.0f}, surroundings_of(b)) == glm::vec2(0.0f));
}

TEST_CASE("A flock with a target drifts towards it") {
  Scenario s = lone(Topology::Bounded);
  s.species[0].target_weight = 0.05f;
  s.target = Target{{150.0f, 50.0f}};
  FlockState state = one_boid({50.0f, 20.0f}, {0.0f, 1.0f});
  const float before = glm::length(state.boids[0].pos - s.target->position);
  for (int k = 0; k < 40; ++k) state = cpu_step(s, state);
  REQUIRE(glm::length(state.boids[0].pos - s.target->position) < before - 20.0f);
}

TEST_CASE("The steered boid flies at the user's velocity, limited to max_speed, and others react") {
  SpeciesParams sp = test::make_species("a", Topology::Wrap, 10.0f, 4.0f, {0.0f, 0.0f, 1.0f}, {}, 2);
  Scenario s = test::world_of(200.0f, 100.0f, {sp});
  FlockState state;
  state.boids.push_back(Boid{{100.0f, 50.0f}, {1.0f, 0.0f}, 0, 0});
  state.boids.push_back(Boid{{102.0f, 50.0f}, {1.0f, 0.0f}, 1, 0});
  const SteeredBoid steer{0, {0.0f, -1.5f}};
  const FlockState next = cpu_step(s, state, nullptr, steer);
  REQUIRE(next.boids[0].vel == glm::vec2(0.0f, -1.5f));            // the user's velocity, exactly
  REQUIRE(next.boids[0].pos == glm::vec2(100.0f, 48.5f));
  REQUIRE(next.boids[1].vel.x > 1.0f);  // the other is pushed away from the steered boid
  // Too fast: limited to max_speed along the same direction; no minimum speed applies.
  const FlockState fast = cpu_step(s, state, nullptr, SteeredBoid{0, {30.0f, 40.0f}});
  REQUIRE_THAT(fast.boids[0].vel.x, WithinAbs(2.0 * 0.6, 1e-6));
  REQUIRE_THAT(fast.boids[0].vel.y, WithinAbs(2.0 * 0.8, 1e-6));
  const FlockState hover = cpu_step(s, state, nullptr, SteeredBoid{0, {0.0f, 0.0f}});
  REQUIRE(hover.boids[0].pos == glm::vec2(100.0f, 50.0f));
  // A steered id that no boid has changes nothing.
  const FlockState none = cpu_step(s, state, nullptr, SteeredBoid{7, {0.0f, 0.0f}});
  REQUIRE(none.boids[0].vel == cpu_step(s, state).boids[0].vel);
}

TEST_CASE("The [render] table is read, validated and written back") {
  const Scenario s = parse(R"(
[render]
trails = "ribbons"
trail_length = 24
trail_fade = 0.9
colour_by = "heading"
bloom = false
bloom_intensity = 0.8
bloom_threshold = 0.3
exposure = 1.5
background = [0, 0.01, 0.02]
)");
  const LookParams& look = s.look;
  REQUIRE(look.trails == TrailMode::Ribbons);
  REQUIRE(look.trail_length == 24);
  REQUIRE(look.trail_fade == 0.9f);
  REQUIRE(look.colour_by == ColourMode::Heading);
  REQUIRE(look.bloom == false);
  REQUIRE(look.bloom_intensity == 0.8f);
  REQUIRE(look.bloom_threshold == 0.3f);
  REQUIRE(look.exposure == 1.5f);
  REQUIRE(look.background == glm::vec3(0.0f, 0.01f, 0.02f));
  const Scenario again = parse_scenario(scenario_to_toml(s), "again.toml");
  REQUIRE(again.look.trails == TrailMode::Ribbons);
  REQUIRE(again.look.colour_by == ColourMode::Heading);
  REQUIRE(again.look.bloom == false);
  REQUIRE(again.look.trail_fade == 0.9f);
  REQUIRE(again.look.background == look.background);
  // circle_radius is a word or a number, and reads back as either.
  for (const char* radius : {"\"separation\"", "12.5"}) {
    const Scenario circles =
        parse(std::string("\n[render]\ncircles = \"all\"\ncircle_radius = ") + radius + "\n");
    const Scenario back = parse_scenario(scenario_to_toml(circles), "again.toml");
    REQUIRE(back.look.circles == CircleMode::All);
    REQUIRE(back.look.circle_radius == circles.look.circle_radius);
  }
  REQUIRE(parse("\n[render]\ncircle_radius = 12.5\n").look.circle_radius ==
          CircleRadius{CircleRadiusKind::WorldUnits, 12.5f});
  // target_marker turns the target's ring and cross off, and reads back so.
  const Scenario unmarked = parse("\n[render]\ntarget_marker = false\n");
  REQUIRE(unmarked.look.target_marker == false);
  REQUIRE(parse_scenario(scenario_to_toml(unmarked), "again.toml").look.target_marker == false);
  // Absent keys stay absent: the renderer keeps its defaults for them.
  const Scenario partial = parse("\n[render]\ntrails = \"none\"\n");
  REQUIRE(partial.look.trails == TrailMode::None);
  REQUIRE_FALSE(partial.look.bloom.has_value());
  REQUIRE(parse("").look.empty());
  REQUIRE(scenario_to_toml(parse("")).find("[render]") == std::string::npos);
}

TEST_CASE("Bad [render] values name the file, line, key and accepted values") {
  require_rejected("\n[render]\ntrails = \"smoke\"\n",
                   "s.toml:11: render.trails = \"smoke\": must be one of \"none\", \"ribbons\", \"fade\"");
  require_rejected("\n[render]\ntrail_length = 100\n",
                   "s.toml:11: render.trail_length = 100: must be >= 2 and <= 64");
  require_rejected("\n[render]\ntrail_fade = 1\n",
                   "s.toml:11: render.trail_fade = 1: must be > 0 and < 1 (the fraction kept per step)");
  require_rejected("\n[render]\nexposure = 0\n", "s.toml:11: render.exposure = 0: must be > 0 and finite");
  require_rejected("\n[render]\nage_scale = -5\n",
                   "s.toml:11: render.age_scale = -5: must be > 0 and finite");
  require_rejected("\n[render]\ncolour_by = \"energy\"\n",
                   "s.toml:11: render.colour_by = \"energy\": must be one of \"species\", \"heading\", "
                   "\"speed\", \"health\", \"drift\"");
  require_rejected("\n[render]\nbloom = \"yes\"\n",
                   "s.toml:11: render.bloom = \"yes\": must be true or false, found a string");
  require_rejected("\n[render]\nglow = 1\n",
                   "s.toml:11: render.glow: unknown key (accepted: trails, trail_length, trail_fade, "
                   "colour_by, age_look, age_scale, food, food_colour, food_box_fraction, bloom, "
                   "bloom_intensity, bloom_threshold, "
                   "exposure, auto_exposure, background, bloom_levels, bloom_radius, "
                   "drift_phase_per_id, drift_phase_per_step, drift_from, drift_to, trail_width, "
                   "trail_intensity, circles, circle_radius, target_marker, blend, paper, sky_top, "
                   "sky_horizon, "
                   "fog_distance, head_shape, head_size, "
                   "head_size_units, density_scale, local_exposure, plan_ink, plan_glow, plan_agents)");
  require_rejected("\n[render]\nauto_exposure = -0.5\n",
                   "s.toml:11: render.auto_exposure = -0.5: must be >= 0 and finite "
                   "(0 turns it off)");
  require_rejected("\n[render]\nlocal_exposure = -1\n",
                   "s.toml:11: render.local_exposure = -1: must be >= 0 and finite "
                   "(0 turns it off)");
  require_rejected("\n[render]\nbloom_levels = 9\n",
                   "s.toml:11: render.bloom_levels = 9: must be >= 1 and <= 8");
  require_rejected("\n[render]\nbloom_radius = 0\n",
                   "s.toml:11: render.bloom_radius = 0: must be > 0 and <= 8");
  require_rejected("\n[render]\ndrift_phase_per_step = 7\n",
                   "s.toml:11: render.drift_phase_per_step = 7: must be >= -6.5 and <= 6.5 "
                   "(radians)");
  require_rejected("\n[render]\ndrift_to = [0.5, -1, 0.5]\n",
                   "s.toml:11: render.drift_to = [0.5, -1, 0.5]: each component must be "
                   ">= 0 and <= 16");
  require_rejected("\n[render]\ntrail_width = 0\n",
                   "s.toml:11: render.trail_width = 0: must be > 0 and <= 32");
  require_rejected("\n[render]\ntrail_intensity = -0.1\n",
                   "s.toml:11: render.trail_intensity = -0.1: must be >= 0 and <= 16");
  require_rejected("\n[render]\nblend = \"paint\"\n",
                   "s.toml:11: render.blend = \"paint\": must be \"glow\" or \"ink\"");
  require_rejected("\n[render]\npaper = [1, 1, 2]\n",
                   "s.toml:11: render.paper = [1, 1, 2]: each component must be >= 0 and <= 1");
  require_rejected("\n[render]\ncircles = \"every\"\n",
                   "s.toml:11: render.circles = \"every\": must be one of \"none\", \"selected\", "
                   "\"all\"");
  require_rejected("\n[render]\ncircle_radius = \"epsilon\"\n",
                   "s.toml:11: render.circle_radius = \"epsilon\": must be \"sight\", "
                   "\"separation\" or a number > 0 and finite");
  require_rejected("\n[render]\ncircle_radius = 0\n",
                   "s.toml:11: render.circle_radius = 0: must be \"sight\", \"separation\" or "
                   "a number > 0 and finite");
  require_rejected("\n[render]\ncircle_radius = true\n",
                   "s.toml:11: render.circle_radius = true: must be \"sight\", \"separation\" or "
                   "a number > 0 and finite, found a boolean");
  require_rejected("\n[render]\nhead_shape = \"square\"\n",
                   "s.toml:11: render.head_shape = \"square\": must be \"dart\" or \"disc\"");
  require_rejected("\n[render]\nhead_size = -2\n",
                   "s.toml:11: render.head_size = -2: must be >= 0 and <= 1000 "
                   "(0: automatic)");
  require_rejected("\n[render]\nhead_size = 5000\n",
                   "s.toml:11: render.head_size = 5000: must be >= 0 and <= 1000 "
                   "(0: automatic)");
  require_rejected("\n[render]\nhead_size_units = \"cm\"\n",
                   "s.toml:11: render.head_size_units = \"cm\": must be \"world\" or "
                   "\"pixels\"");
  require_rejected("\n[render]\ndensity_scale = 1\n",
                   "s.toml:11: render.density_scale = 1: must be true or false, found an integer");
}
