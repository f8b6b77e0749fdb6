#pragma once
// How a scenario asks to be drawn: the `[render]` table (docs/scenarios.md). Core code: the
// renderer (include/murmur/render/renderer.hpp) turns it into its settings.
#include <cstdint>
#include <optional>
#include <string_view>

#include <glm/vec3.hpp>

#include "murmur/scenario/params/param_info.hpp"

namespace murmur {

// What colour a boid (its head and its trail) gets.
enum class ColourMode : std::uint32_t {
  Species = 0,  // the scenario's species colour, brightness varied a little per boid
  Heading = 1,  // a hue wheel by flight direction (east red, north yellow-green, ...)
  Speed = 2,    // a ramp from slow to fast
  Health = 3,   // energy / energy_max, green (full) to red (empty); species without energy
                // keep their species colour
  Drift = 4,    // origin 002's palette: each boid between two colours by a sine of its id and
                // the step, so colours flow slowly through the flock
};

enum class TrailMode : std::uint32_t {
  None = 0,
  Ribbons = 1,  // the last ribbon_length positions of each boid, as fading segments
  FadeMap = 2,  // a world-space texture faded every step and stamped by every boid
};

// How marks meet the frame: glow adds light on a dark sky (origin 002); ink lays opaque marks
// on a light paper (origin 000's white page, issue 8's floor plans).
enum class BlendMode : std::uint32_t { Glow = 0, Ink = 1 };

// Which boids get circles (origin 000 draws one around every boid; origin 001 around the one it
// steers).
enum class CircleMode : std::uint32_t {
  None = 0,      // no boid has circles
  Selected = 1,  // the viewer's selected boid, and the boids of the first trail slots it asks for
  All = 2,       // one circle of `circle_radius` around every live boid (and the selected's)
};

// `circle_radius`: a species' perception or separation radius, or a number of world units.
enum class CircleRadiusKind : std::uint32_t { Sight = 0, Separation = 1, WorldUnits = 2 };
struct CircleRadius {
  CircleRadiusKind kind = CircleRadiusKind::Sight;
  float world_units = 0;  // CircleRadiusKind::WorldUnits only, > 0
  bool operator==(const CircleRadius&) const = default;
};
// The TOML words of the named radii, in CircleRadiusKind's order.
inline constexpr std::string_view kCircleRadiusNames[] = {"sight", "separation"};
// What a boid's head is drawn as (docs/rendering.md, "Heads").
enum class HeadShape : std::uint32_t {
  Dart = 0,  // a notched arrow along the velocity (origin 002)
  Disc = 1,  // a filled circle centred on the boid (origin 000)
};

// What `head_size` is measured in: world units scale with zoom, pixels keep their size.
enum class HeadSizeUnits : std::uint32_t {
  World = 0,
  Pixels = 1,
};

// Ribbon lengths the renderer accepts (positions kept per boid).
inline constexpr int kMinRibbonLength = 2;  // one segment needs two positions
inline constexpr int kMaxRibbonLength = 64;

// Bloom chains the renderer accepts: halvings of the frame (8 takes 1280x720 to 5x2), and the
// widest tent blur, in texels of the level being upsampled (wider leaves gaps between taps).
inline constexpr int kMinBloomLevels = 1;
inline constexpr int kMaxBloomLevels = 8;
inline constexpr float kMaxBloomRadius = 8.0f;

// Colours are linear HDR values for the additive, bloomed renderer: above 1 glows, and 16
// is already far past what the tone map can still tell apart.
inline constexpr float kMaxColourComponent = 16.0f;

// The widest trail the renderer accepts, in pixels (a stamp or ribbon wider than this is a
// smear, not a trail).
inline constexpr float kMaxTrailWidth = 32.0f;

// The drift palette's phases, radians per id and per step: past a turn a step only repeats
// the pattern (and a phase per id past a turn aliases neighbours onto each other).
inline constexpr float kMaxDriftPhase = 6.5f;

// Heads longer than this (world units or pixels) would hide the flock they belong to.
inline constexpr float kMaxHeadSize = 1000.0f;

// The TOML names of the enums' values, in the enums' order.
inline constexpr std::string_view kTrailModeNames[] = {"none", "ribbons", "fade"};
inline constexpr std::string_view kColourModeNames[] = {"species", "heading", "speed", "health",
                                                        "drift"};
inline constexpr std::string_view kHeadShapeNames[] = {"dart", "disc"};
inline constexpr std::string_view kHeadSizeUnitsNames[] = {"world", "pixels"};
constexpr const auto& names_of(TrailMode) { return kTrailModeNames; }
constexpr const auto& names_of(ColourMode) { return kColourModeNames; }
constexpr const auto& names_of(HeadShape) { return kHeadShapeNames; }
constexpr const auto& names_of(HeadSizeUnits) { return kHeadSizeUnitsNames; }
inline constexpr std::string_view kCircleModeNames[] = {"none", "selected", "all"};
inline constexpr std::string_view kBlendModeNames[] = {"glow", "ink"};
constexpr const auto& names_of(BlendMode) { return kBlendModeNames; }
constexpr const auto& names_of(CircleMode) { return kCircleModeNames; }

// The [render] table. Its keys are the lines of include/murmur/scenario/params/render_params.def; every
// one is optional, and an absent one keeps the renderer's default (docs/rendering.md).
struct LookParams {
#define MURMUR_RENDER_PARAM(key, type, ...) std::optional<type> key;
#include "murmur/scenario/params/render_params.def"
  bool empty() const {
    bool any = false;
#define MURMUR_RENDER_PARAM(key, ...) any = any || key.has_value();
#include "murmur/scenario/params/render_params.def"
    return !any;
  }
};

namespace params::render {
// One OptionalParamInfo per [render] key, named after it.
#define MURMUR_RENDER_PARAM(key_, type, setting, accepted, meaning) \
  inline constexpr OptionalParamInfo<LookParams, type> key_{#key_, accepted, meaning, &LookParams::key_};
#include "murmur/scenario/params/render_params.def"
}  // namespace params::render

// Calls visit(info) for each [render] key's OptionalParamInfo, in table order.
template <class Visitor>
void for_each_render_param(Visitor&& visit) {
#define MURMUR_RENDER_PARAM(key, ...) visit(params::render::key);
#include "murmur/scenario/params/render_params.def"
}


// The widest vertical field of view a camera takes (at 180 degrees the frame would be infinitely
// wide), and the fastest it orbits by itself: a turn a second already blurs every bird.
inline constexpr float kMaxCameraFovDegrees = 180.0f;
inline constexpr float kMaxOrbitDegreesPerSecond = 360.0f;

// The [camera] table of a 3D world: where its camera starts. Its keys are the lines of
// include/murmur/scenario/params/camera_params.def; every one is optional (camera_defaults).
struct CameraParams {
#define MURMUR_CAMERA_PARAM(key, type, ...) std::optional<type> key;
#include "murmur/scenario/params/camera_params.def"
  bool empty() const {
    bool any = false;
#define MURMUR_CAMERA_PARAM(key, ...) any = any || key.has_value();
#include "murmur/scenario/params/camera_params.def"
    return !any;
  }
};

// The value an absent [camera] key takes where it does not depend on the world (`position`
// and `target` do: the renderer fits them to the world's box, docs/rendering.md).
inline CameraParams camera_defaults() {
  CameraParams defaults;
  defaults.fov = 50.0f;         // a normal lens: the flock neither bulges nor flattens
  defaults.orbit_speed = 0.0f;  // still until asked
  return defaults;
}

namespace params::camera {
// One OptionalParamInfo per [camera] key, named after it.
#define MURMUR_CAMERA_PARAM(key_, type, accepted, meaning) \
  inline constexpr OptionalParamInfo<CameraParams, type> key_{#key_, accepted, meaning, &CameraParams::key_};
#include "murmur/scenario/params/camera_params.def"
}  // namespace params::camera

// Calls visit(info) for each [camera] key's OptionalParamInfo, in table order.
template <class Visitor>
void for_each_camera_param(Visitor&& visit) {
#define MURMUR_CAMERA_PARAM(key, ...) visit(params::camera::key);
#include "murmur/scenario/params/camera_params.def"
}

}  // namespace murmur
