// The 3D world's camera (include/murmur/render/orbit_camera.hpp), from first principles: the
// fitted camera frames the whole box, a camera placed by [camera] has its eye there, points land
// where similar triangles put them, and the viewer's moves (orbit, dolly, pan, pick) do what the
// hand expects. Pure arithmetic: no GL context.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include "murmur/render/orbit_camera.hpp"
#include "murmur/scenario/scenario.hpp"

using namespace murmur;

namespace {

constexpr int kWidth = 1280, kHeight = 720;
constexpr float kAspect = static_cast<float>(kWidth) / kHeight;

FlockScenario volume(const std::string& camera_table = "") {
  return parse_scenario("[world]\ndimensions = 3\nwidth = 300\nheight = 200\ndepth = 120\n"
                        "[[species]]\nname = \"a\"\ncount = 10\n" + camera_table,
                        "volume.toml");
}

std::array<glm::vec3, 8> corners(glm::vec3 box) {
  std::array<glm::vec3, 8> out;
  for (int i = 0; i < 8; ++i)
    out[i] = {(i & 1) ? box.x : 0.0f, (i & 2) ? box.y : 0.0f, (i & 4) ? box.z : 0.0f};
  return out;
}

}  // namespace

TEST_CASE("the fitted camera looks along -z at the box's centre and shows all of it, filling "
          "the binding side", "[camera]") {
  const FlockScenario scenario = volume();
  const glm::vec3 box = world_box(scenario);
  const OrbitCamera camera = starting_camera(scenario, kAspect);
  CHECK(camera.target == 0.5f * box);
  CHECK(camera.fov_degrees == *camera_defaults().fov);
  const glm::vec3 eye = camera.eye();
  CHECK(eye.x == Approx(150.0f));
  CHECK(eye.y == Approx(100.0f));
  CHECK(eye.z > box.z);
  const PerspectiveView view = perspective_view(camera, box, kWidth, kHeight);
  float top = kHeight, bottom = 0;
  for (const glm::vec3& corner : corners(box)) {
    const auto drawn = world_to_screen(view, corner);
    REQUIRE(drawn);
    CHECK(drawn->pixel.x >= 0.0f);
    CHECK(drawn->pixel.x <= kWidth);
    CHECK(drawn->pixel.y >= 0.0f);
    CHECK(drawn->pixel.y <= kHeight);
    top = std::min(top, drawn->pixel.y);
    bottom = std::max(bottom, drawn->pixel.y);
    // Between the near and far planes: clip depth inside [-1, 1].
    const glm::vec4 clip = view.world_to_clip * glm::vec4(corner, 1.0f);
    CHECK(std::abs(clip.z / clip.w) <= 1.0f);
  }
  // 300 x 200 in 16:9 binds on the height: the front face spans the frame's height but the
  // margin, kFittedCameraMargin of it.
  CHECK(bottom - top == Approx(kHeight / kFittedCameraMargin).epsilon(1e-4));
}

TEST_CASE("a camera placed by [camera] has its eye at position, looks at target and keeps the "
          "table's field of view and orbit speed", "[camera]") {
  const FlockScenario scenario =
      volume("[camera]\nposition = [20, 180, 300]\ntarget = [150, 60, 40]\nfov = 30\n"
             "orbit_speed = 6\n");
  const OrbitCamera camera = starting_camera(scenario, kAspect);
  const glm::vec3 eye = camera.eye();
  CHECK(eye.x == Approx(20.0f).margin(1e-3));
  CHECK(eye.y == Approx(180.0f).margin(1e-3));
  CHECK(eye.z == Approx(300.0f).margin(1e-3));
  CHECK(camera.fov_degrees == 30.0f);
  CHECK(camera.orbit_speed == 6.0f);
  const PerspectiveView view = perspective_view(camera, world_box(scenario), kWidth, kHeight);
  const auto target = world_to_screen(view, {150, 60, 40});
  REQUIRE(target);
  CHECK(target->pixel.x == Approx(kWidth / 2.0f).margin(1e-2));
  CHECK(target->pixel.y == Approx(kHeight / 2.0f).margin(1e-2));
  CHECK(target->depth == Approx(glm::length(glm::vec3(130, -120, -260))).epsilon(1e-5));
  // Straight above the target the pitch stops short of the pole, so "up" stays defined.
  const OrbitCamera above = camera_looking({150, 500, 40}, {150, 60, 40}, 50, 0);
  CHECK(above.pitch_degrees == kMaxCameraPitchDegrees);
}

TEST_CASE("a point lands where similar triangles put it, and behind the eye it is not drawn",
          "[camera]") {
  OrbitCamera camera;
  camera.target = {0, 0, 0};
  camera.distance = 10;
  camera.fov_degrees = 90;  // tan(45) = 1: half the frame's height is the depth
  const PerspectiveView view = perspective_view(camera, glm::vec3(4), kWidth, kHeight);
  // Depth 10 - 2 = 8; one unit right and two up: (1/8, 2/8) of the half-height in pixels.
  const auto drawn = world_to_screen(view, {1, 2, 2});
  REQUIRE(drawn);
  CHECK(drawn->depth == Approx(8.0f));
  CHECK(drawn->pixel.x == Approx(kWidth / 2.0f + (kHeight / 2.0f) / 8.0f));
  CHECK(drawn->pixel.y == Approx(kHeight / 2.0f - 2.0f * (kHeight / 2.0f) / 8.0f));
  CHECK(view.pixels_per_unit_at_unit_depth == Approx(kHeight / 2.0f));
  CHECK_FALSE(world_to_screen(view, {0, 0, 11}));
}

TEST_CASE("orbiting turns the eye anticlockwise seen from above, keeps its distance, and the "
          "pitch stops at the poles; dolly and pan move it as the hand does", "[camera]") {
  const FlockScenario scenario = volume();
  const glm::vec3 box = world_box(scenario);
  const OrbitCamera start = starting_camera(scenario, kAspect);
  // From +z of the target a quarter turn puts the eye on +x (seen from +y: z down, x right).
  const OrbitCamera turned = orbited(start, 90.0f, 0.0f);
  const glm::vec3 offset = turned.eye() - turned.target;
  CHECK(offset.x == Approx(start.distance).epsilon(1e-5));
  CHECK(offset.z == Approx(0.0f).margin(1e-3));
  CHECK(orbited(start, 0.0f, 120.0f).pitch_degrees == kMaxCameraPitchDegrees);
  CHECK(orbited(start, 0.0f, -120.0f).pitch_degrees == -kMaxCameraPitchDegrees);
  // A full turn comes back, however many times it is made.
  OrbitCamera round = start;
  for (int i = 0; i < 3600; ++i) round = orbited(round, 0.7f, 0.0f);  // 7 turns
  // Each step rounds the yaw once (a float near 180 keeps 1.5e-5 degrees): 0.1 of 470 units.
  CHECK(round.eye().x == Approx(start.eye().x).margin(0.1));
  CHECK(std::abs(round.yaw_degrees) <= 180.0f);

  CHECK(dollied(start, box, 2.0f).distance == Approx(start.distance / 2));
  const float radius = 0.5f * glm::length(box);
  CHECK(dollied(start, box, 1e9f).distance == Approx(kMinCameraDistanceRadii * radius));
  CHECK(dollied(start, box, 1e-9f).distance == Approx(kMaxCameraDistanceRadii * radius));

  // After a pan the old target sits where the drag left it: 40 right and 25 down.
  const OrbitCamera moved = panned(orbited(start, 30.0f, 20.0f), kHeight, {40.0f, 25.0f});
  const PerspectiveView after = perspective_view(moved, box, kWidth, kHeight);
  const auto old_target = world_to_screen(after, start.target);
  REQUIRE(old_target);
  CHECK(old_target->pixel.x == Approx(kWidth / 2.0f + 40.0f).margin(1e-2));
  CHECK(old_target->pixel.y == Approx(kHeight / 2.0f + 25.0f).margin(1e-2));
  CHECK(moved.distance == start.distance);
}

TEST_CASE("a click picks the boid drawn nearest to it, the nearer to the eye on a tie, and "
          "none beyond the reach", "[camera]") {
  OrbitCamera camera;
  camera.distance = 10;
  camera.fov_degrees = 90;
  const PerspectiveView view = perspective_view(camera, glm::vec3(4), kWidth, kHeight);
  const glm::vec2 centre{kWidth / 2.0f, kHeight / 2.0f};
  // Two boids on the line of sight through the centre, one nearer; one off to the side; one
  // behind the eye, exactly behind the centre.
  const std::vector<glm::vec3> boids{{0, 0, -3}, {0, 0, 2}, {1, 0, 0}, {0, 0, 20}};
  CHECK(nearest_on_screen(view, boids, centre, 5.0f) == 1u);
  const float side_pixels = kHeight / 2.0f / 10.0f;  // (1, 0, 0) at depth 10
  CHECK(nearest_on_screen(view, boids, centre + glm::vec2(side_pixels - 2, 0), 5.0f) == 2u);
  CHECK_FALSE(nearest_on_screen(view, boids, centre + glm::vec2(0, 100), 5.0f));
}
