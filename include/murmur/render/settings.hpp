#pragma once
// What the renderer draws and how, as plain values with no GL: the heads' style, the colours,
// the trails, bloom, overlays, food, a plan's look, the camera and the exposure, gathered in
// RenderSettings, and the scenario's `[render]` table read into them (apply_look) and back
// (look_of). murmur_paramgen reads RenderSettings{} for the docs' defaults and links no GL.
// docs/rendering.md describes what each setting does.
#include <cmath>
#include <cstdint>
#include <optional>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "murmur/render/orbit_camera.hpp"
#include "murmur/scenario/look.hpp"
#include "murmur/scenario/scenario.hpp"

namespace murmur {

// How boid heads look. A dart's tip points along the velocity and its wide, notched end
// trails; a disc is centred on the boid. Either way the boid's position is the head's centre.
// docs/rendering.md, "Heads", gives the size rule.
struct HeadStyle {
  HeadShape shape = HeadShape::Dart;
  float size = 0;               // length (a disc's diameter) in size_units; 0: automatic,
                                // kDefaultHeadLengthPerRadius times the smallest perception
                                // radius (with density_scale at most kHeadSpacingFraction of
                                // the mean spacing between boids)
  HeadSizeUnits size_units = HeadSizeUnits::World;
  float width_ratio = 0.5f;     // dart: wing span / length
  float notch_ratio = 0.3f;     // dart: depth of the tail notch / length, in [0, 1)
  float min_length_pixels = 4;  // world-sized heads never shrink below this on screen (with
                                // density_scale, nor below kHeadSpacingFraction of the mean
                                // spacing), so a large world in a small frame shows every boid
  // Origin 001's look: "the bigger and fuller a unit's circle, the older it is". A boid is a
  // ring of diameter (the head's length) x size whose hole closes as it ages: at age 0 its
  // size is age_min_size and its ring's width age_min_fill of the radius; at the age scale
  // (the species' max_age, or age_scale for a species without one) and after, a full disc.
  bool age_look = false;
  float age_scale = 1000;       // steps
  float age_min_size = 0.45f;   // of the full diameter, at age 0
  float age_min_fill = 0.3f;    // of the radius, at age 0
  // Darts and discs up to a few pixels across are each one point sprite that the fragment
  // shader cuts to the head's shape: the same pixels as triangles (docs/rendering.md, "Heads
  // as sprites"), set up for far less on llvmpipe. Off: always triangles.
  bool sprites = true;
};

inline constexpr float kDefaultHeadLengthPerRadius = 0.5f;
// The longest automatic head, and the smallest minimum size, as a fraction of the mean spacing
// between boids (sqrt(world area / boids)): neighbours at that spacing do not overlap.
inline constexpr float kHeadSpacingFraction = 0.9f;

// The sRGB transfer function's inverse (IEC 61966-2-1), per channel: what a colour picked in
// an sRGB program (0..1) is in the renderer's linear space. shaders/render/srgb.glsl has both ways.
inline glm::vec3 srgb_to_linear(glm::vec3 srgb) {
  constexpr float kEncodedLimit = 0.04045f, kSlope = 12.92f, kScale = 1.055f, kOffset = 0.055f,
                  kGamma = 2.4f;
  glm::vec3 linear;
  for (int c = 0; c < 3; ++c)
    linear[c] = srgb[c] <= kEncodedLimit ? srgb[c] / kSlope
                                         : std::pow((srgb[c] + kOffset) / kScale, kGamma);
  return linear;
}

// Origin 002's drifting palette: colour = (79 + 70 b, 177 + 58 (1 - b), 248) / 255 in sRGB, with
// b = (sin(0.17 i + 0.07 t) + 1) / 2, i the bird's index and t its clock in seconds, which
// runs 1/30 s per step (origin 002 steps once per 30 Hz frame): 0.07 / 30 radians per step.
inline constexpr float kOrigin002DriftPhasePerId = 0.17f;
inline constexpr float kOrigin002DriftPhasePerStep = 0.07f / 30.0f;
inline constexpr float kSrgbLevels = 255.0f;
inline constexpr glm::vec3 kOrigin002DriftFromSrgb{79.0f, 235.0f, 248.0f};  // b = 0: cyan
inline constexpr glm::vec3 kOrigin002DriftToSrgb{149.0f, 177.0f, 248.0f};   // b = 1: lavender

struct ColourSettings {
  ColourMode mode = ColourMode::Species;
  // Species mode: each boid's brightness is scaled by 1 - variation .. 1 by its id, so a dense
  // flock shimmers instead of being one flat colour (origin 002's glowing birds do the same).
  float per_boid_variation = 0.25f;
  // Heading mode: saturation and value of the hue wheel (value is linear HDR brightness).
  float heading_saturation = 0.7f;
  float heading_value = 1.2f;
  // Speed mode: the ramp's ends, linear HDR RGB (cyan when slow, violet when fast), and the
  // speeds they map to; min >= max means "the scenario's slowest min_speed .. fastest
  // max_speed".
  glm::vec3 speed_ramp_slow{0.25f, 0.95f, 1.4f};
  glm::vec3 speed_ramp_fast{0.85f, 0.35f, 1.5f};
  float speed_ramp_min = 0;
  float speed_ramp_max = 0;
  // Health mode: linear HDR RGB at energy_max and at no energy (origin 001: green is healthy,
  // red is weak), mixed by energy / energy_max.
  glm::vec3 health_full{0.15f, 1.1f, 0.2f};
  glm::vec3 health_empty{1.2f, 0.08f, 0.05f};
  // Drift mode: b = (sin(drift_phase_per_id * id + drift_phase_per_step * step) + 1) / 2 and
  // the colour goes from drift_from (b = 0) to drift_to (b = 1), linear HDR RGB, mixed in
  // sRGB as origin 002 mixes its 8-bit values (so origin 002's ends give exactly its formula).
  float drift_phase_per_id = kOrigin002DriftPhasePerId;
  float drift_phase_per_step = kOrigin002DriftPhasePerStep;
  glm::vec3 drift_from = srgb_to_linear(kOrigin002DriftFromSrgb / kSrgbLevels);
  glm::vec3 drift_to = srgb_to_linear(kOrigin002DriftToSrgb / kSrgbLevels);
};

// The food field (docs/model.md, "The food field") as boxes centred on their cells: a box's
// area is its cell's share of max_per_cell, so more food is a bigger box and an empty cell
// draws nothing (origin 001: "blue boxes, the bigger the box, the more food").
struct FoodSettings {
  bool enabled = true;                    // drawn only when the scenario has a [food] table
  glm::vec3 colour{0.02f, 0.07f, 0.3f};   // linear HDR RGB (`food_colour`)
  float full_box_fraction = 0.8f;         // a full cell's box side / the cell's side
};

struct TrailSettings {
  // The fade map costs the same at any boid count (one fade of a fixed-size texture and one
  // short line per boid per step); ribbons cost boids x ribbon_length segments per frame.
  TrailMode mode = TrailMode::FadeMap;

  // Ribbons.
  int ribbon_length = 16;              // positions kept per boid (>= 2), newest first
  float ribbon_width_pixels = 1.5f;    // on screen, at the head; narrows linearly with age
  float ribbon_min_width_pixels = 1;   // never thinner (thinner lines flicker on and off)
  float ribbon_intensity = 0.6f;       // of the boid's colour, at the head; falls with age

  // Fade map.
  float fade_per_step = 0.93f;         // the trail keeps this fraction of itself each step
  float map_pixels_per_world_unit = 1; // texture resolution in world space ...
  int map_max_side = 2048;             // ... capped on each side (the cap wins)
  float stamp_intensity = 0.35f;       // of the boid's colour, added per step it is stamped
  float stamp_width_texels = 1;        // of the map: a line across the map's minor axis
  float map_intensity = 1.0f;          // scale of the map when composited under the heads

  // The `trail_width` and `trail_intensity` keys: one width (pixels: of the frame for ribbons,
  // of the map for stamps) and one brightness (of the boid's colour) for whichever mode is
  // shown. Unset, each mode keeps its own above (ribbon 1.5 px at 0.6, stamp 1 texel at 0.35).
  std::optional<float> width_pixels;
  std::optional<float> intensity;
  float ribbon_width() const { return width_pixels.value_or(ribbon_width_pixels); }
  float ribbon_brightness() const { return intensity.value_or(ribbon_intensity); }
  float stamp_width() const { return width_pixels.value_or(stamp_width_texels); }
  float stamp_brightness() const { return intensity.value_or(stamp_intensity); }
};

// Glow: everything brighter than `threshold` (HDR, before exposure) bleeds into its
// surroundings. A downsample chain of up to `levels` halvings (it stops at 1x1) kept from the
// second halving on (a quarter of the frame's side: docs/rendering.md, "Passes of one frame"),
// a tent blur of `radius` source texels on the way back up, accumulated level by level, then
// added with `intensity`.
struct BloomSettings {
  bool enabled = true;
  float intensity = 0.6f;
  float threshold = 0.25f;
  float soft_knee = 0.5f;  // fraction of threshold over which the bright-pass fades in
  int levels = 5;
  float radius = 1.0f;     // tent blur half-width, in texels of the level being upsampled
};

// Thin lines drawn on the final image after bloom (they do not glow), alpha-blended.
struct OverlaySettings {
  // Which boids get circles (the `circles` key). Selected: the selected boid's three and the
  // perception and separation circles of the live boids in trail slots 0..N-1 (the first N
  // boids of the uploaded state, and children that later take their freed slots; docs/gpu.md).
  // All: one circle of `circle_radius` in `circle_colour` around every live boid, and the
  // selected boid's three. None: no boid circles.
  CircleMode circles = CircleMode::Selected;
  CircleRadius circle_radius;
  glm::vec4 circle_colour{0.55f, 0.8f, 1.0f, 0.35f};  // sRGB + alpha
  glm::vec4 ink_circle_colour{0.0f, 0.0f, 0.0f, 0.8f};  // the same, with blend = ink
  int circles_for_first_trail_slots = 0;
  bool grid = false;              // the simulation's neighbour grid (GpuFlock::grid())
  bool obstacles = true;          // outlines of the scenario's obstacle discs
  bool target = true;             // a ring and cross at the scenario's target
  glm::vec4 perception_colour{0.55f, 0.8f, 1.0f, 0.55f};  // sRGB + alpha
  glm::vec4 separation_colour{1.0f, 0.55f, 0.35f, 0.65f};
  glm::vec4 grid_colour{0.5f, 0.6f, 0.8f, 0.18f};
  glm::vec4 obstacle_colour{1.0f, 0.85f, 0.4f, 0.85f};
  glm::vec4 target_colour{0.5f, 1.0f, 0.6f, 0.9f};
  // With blend = ink the outlines are drawn on paper, where light colours vanish: origin 000's
  // black obstacle and red target, and a faint dark grid.
  glm::vec4 ink_grid_colour{0.0f, 0.0f, 0.0f, 0.18f};
  glm::vec4 ink_obstacle_colour{0.0f, 0.0f, 0.0f, 0.85f};
  glm::vec4 ink_target_colour{0.8f, 0.0f, 0.0f, 0.9f};
  float target_marker_pixels = 9;  // radius of the target's ring on screen
  // One boid, by id, ringed as in origin 001: its sight (perception radius, blue), its minimum
  // distance (separation radius, red) and itself (white, the full-grown head's size). Found
  // on the GPU every frame, wherever the grid sorted it; a dead boid's id draws nothing.
  std::optional<std::uint32_t> selected_id;
  glm::vec4 selected_sight_colour{0.3f, 0.55f, 1.0f, 0.9f};
  glm::vec4 selected_distance_colour{1.0f, 0.25f, 0.2f, 0.9f};
  glm::vec4 selected_body_colour{1.0f, 1.0f, 1.0f, 0.95f};
};

// How a floor plan looks (docs/rendering.md, "Floor plans"): its lines in `ink` laid over the
// paper (blend = ink, a plan scenario's default: origin 003's black on white) or glowing in
// `glow` (blend = glow), each segment the stroked rectangle the PNG export inks; its living
// agents as discs at the ends of their lines.
struct PlanStyle {
  glm::vec3 ink{0.0f};                  // linear RGB
  glm::vec3 glow{0.3f, 0.75f, 1.4f};    // linear HDR RGB: above 1 blooms
  bool agents = true;
  glm::vec3 agent_ink{0.8f, 0.0f, 0.0f};     // linear RGB: origin 000's red on paper
  glm::vec3 agent_glow{1.6f, 0.55f, 0.2f};   // linear HDR RGB: warm against the cool lines
  float agent_marker_pixels = 5;        // the discs' diameter at any zoom
  float min_line_pixels = 1;            // thinner lines miss pixel centres and vanish
};

// Frame pixels along each edge that a fitted world keeps clear of: the viewer's panel covers
// those at its side (docs/viewer.md, "Fitting beside the panel"). The recorder's are all 0.
struct FrameMargins {
  float left = 0;
  float right = 0;
  float top = 0;
  float bottom = 0;
  bool operator==(const FrameMargins&) const = default;
};

// Which part of the world the frame shows. zoom 1 fits the whole world in the frame less
// `fit_margins` (aspect kept, bars on the sides left over); zoom > 1 magnifies around `centre`,
// which lands in the middle of what the margins leave.
struct Camera {
  std::optional<glm::vec2> centre;  // world units; nullopt: the world's centre
  float zoom = 1;
  FrameMargins fit_margins;
  glm::vec2 centre_in(glm::vec2 world_size) const { return centre.value_or(world_size * 0.5f); }
};
inline constexpr float kMinCameraZoom = 0.05f;
inline constexpr float kMaxCameraZoom = 1000.0f;

// The mean linear luminance a frame may have before automatic exposure darkens it: a little
// above the sparse flocks of the shipped scenarios, which therefore look as before.
inline constexpr float kDefaultAutoExposureKey = 1.0f;
// Local exposure (docs/rendering.md, "Local exposure"): the mean linear luminance a dense
// tile's light is brought to, about half the automatic exposure's key, so the brighter half
// of a packed flock's pixels stays below the tone map's burn (a peak channel of about 3).
inline constexpr float kDefaultLocalExposureKey = 0.5f;
// The boids' light piled on a pixel, in multiples of their own colour (a full head adds 1, a
// dimmed one its intensity, a stamp its share), where the local exposure starts and from
// where it applies in full: where few marks overlap, as in sparse flocks, it changes nothing.
inline constexpr float kLocalExposureSparseMarks = 4.0f;
inline constexpr float kLocalExposureDenseMarks = 8.0f;

struct RenderSettings {
  HeadStyle heads;
  ColourSettings colour;
  TrailSettings trails;
  BloomSettings bloom;
  OverlaySettings overlays;
  FoodSettings food;
  PlanStyle plan;
  Camera camera;
  // A 3D world's camera (include/murmur/render/orbit_camera.hpp); nullopt: the scenario's
  // starting camera for the frame's aspect (starting_camera).
  std::optional<OrbitCamera> orbit_camera;
  glm::vec3 background{0.004f, 0.008f, 0.018f};  // linear RGB of the empty world (night blue)
  // Ink (docs/rendering.md, "Ink"): marks are laid over `paper` instead of added onto the
  // background; bloom, automatic exposure and the tone map are off.
  BlendMode blend = BlendMode::Glow;
  glm::vec3 paper{1.0f, 1.0f, 1.0f};  // linear RGB of the empty world in ink
  // A 3D world's sky (docs/rendering.md, "Three dimensions"): linear RGB at and below the
  // horizon and overhead. nullopt: the empty world's flat colour, `background` under glow and
  // `paper` under ink, whichever of them is set now (sky_colours).
  std::optional<glm::vec3> sky_top, sky_horizon;
  // World units over which a 3D world's birds fade into the sky: a bird at depth d past the
  // world's nearest reach keeps exp(-d / fog) of its light (or ink). 0: the box's diagonal.
  float fog_distance = 0;
  glm::vec3 letterbox{0.0f, 0.0f, 0.0f};         // linear RGB of the bars beside the world
  float exposure = 1.0f;  // tone map: out = 1 - exp(-exposure * hdr), then sRGB encoding
  // Automatic exposure (docs/rendering.md): a frame whose mean luminance over the world's
  // rectangle (linear HDR: trails and heads, before bloom) is above this key is scaled down
  // to it, so additive heads and trails that pile up in a dense flock keep their contrast
  // instead of washing the frame out. A darker frame is never brightened; 0 turns it off.
  float auto_exposure_key = kDefaultAutoExposureKey;
  // Dims heads and trails by the expected boids per pixel and keeps heads within the mean
  // spacing between boids, one-pixel points below a pixel (docs/rendering.md, "Dense
  // flocks"), so a world covered evenly by boids keeps a dark sky; sparse flocks are left as
  // they are. false: heads and trails as they were before the rule.
  bool density_scale = true;
  // Local exposure (docs/rendering.md): where more than kLocalExposureSparseMarks marks pile
  // up, the light is scaled down towards this mean luminance tile by tile, so a flock many
  // times denser than the world keeps its structure; 0 turns it off. Eased by
  // exposure_adaptation like the automatic exposure.
  float local_exposure_key = kDefaultLocalExposureKey;
  // Fraction of the way from the previous frame's factor to this frame's taken per frame: 1
  // (the recorder) follows each frame exactly; the viewer eases it so the brightness does
  // not flicker as flocks merge and split. Either way the same frames give the same factors.
  float exposure_adaptation = 1.0f;
  // 0 keeps each pixel's hue through the tone map (bright flocks stay coloured); 1 maps each
  // channel alone (bright cores turn white). docs/rendering.md shows both.
  float highlight_whiteness = 0.35f;
};

// A 3D world's sky at and below the horizon and overhead, each its key's colour or the flat
// empty world's (RenderSettings::sky_top).
struct SkyColours {
  glm::vec3 horizon{0}, top{0};
};
inline SkyColours sky_colours(const RenderSettings& settings) {
  const glm::vec3 flat = settings.blend == BlendMode::Ink ? settings.paper : settings.background;
  return {settings.sky_horizon.value_or(flat), settings.sky_top.value_or(flat)};
}

// The look a scenario starts from before its `[render]` keys: RenderSettings{}, but ink on
// paper for a plan scenario (origin 003's black lines on white).
inline RenderSettings default_render_settings(const FlockScenario&) { return {}; }
inline RenderSettings default_render_settings(const PlanScenario&) {
  RenderSettings settings;
  settings.blend = BlendMode::Ink;
  return settings;
}

// Sets the fields a scenario's `[render]` table names; the others keep their values. Each key
// sets the setting its line of include/murmur/scenario/params/render_params.def names.
inline void apply_look(RenderSettings& settings, const LookParams& look) {
#define MURMUR_RENDER_PARAM(key, type, setting, ...) \
  if (look.key) settings.setting = *look.key;
#include "murmur/scenario/params/render_params.def"
}

// Every field of `[render]` as `settings` has it (what the viewer saves; of RenderSettings{},
// the defaults the docs table shows).
inline LookParams look_of(const RenderSettings& settings) {
  LookParams look;
#define MURMUR_RENDER_PARAM(key, type, setting, ...) look.key = settings.setting;
#include "murmur/scenario/params/render_params.def"
  return look;
}

}  // namespace murmur
