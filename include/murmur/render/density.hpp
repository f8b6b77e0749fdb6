#pragma once
// Heads' size and the dense-flock rule (docs/rendering.md, "Heads" and "Dense flocks"): how
// long a head is, whether it is a one-pixel point, and how much heads and trails are dimmed so
// that a world covered evenly by boids keeps a dark sky. Everything here is known on the CPU
// from the settings, the scenario, the boid count and the view: no readback.
#include <glm/vec2.hpp>

#include "murmur/render/renderer.hpp"
#include "murmur/scenario/scenario.hpp"

namespace murmur {

// Heads shorter than this on screen are drawn as one-pixel points (with density_scale).
inline constexpr float kPointHeadPixels = 1.0f;
// The share of one head's colour that heads may add to an average pixel of the world before
// they are dimmed: the sparse shipped scenarios stay under it (starlings.toml about 0.13).
inline constexpr float kHeadSkyCoverage = 0.25f;
// The stamps an average fade-map texel (or the ribbon length an average pixel) may hold before
// trails are dimmed: starlings.toml holds about 0.7.
inline constexpr float kTrailSkyCoverage = 1.0f;

// How heads look in one frame.
struct HeadLook {
  float length = 0;     // world units, tip to tail (a disc's diameter)
  bool points = false;  // shorter than kPointHeadPixels on screen: one pixel per boid
  float intensity = 1;  // of the boid's colour
};

// The boids a frame expects to draw: a plain view draws exactly its count; a flock's view holds
// its capacity and keeps its live count on the GPU, so the scenario's start count (at most the
// capacity) stands for it.
float expected_boids(const Scenario& scenario, BoidBufferView boids);

// sqrt(world area / boids): the distance between neighbours were the boids spread evenly.
float mean_spacing(const Scenario& scenario, float boids);

// The factor that brings `coverage` down to `level`: level / coverage above it, else 1.
float density_scale(float coverage, float level);

HeadLook head_look(const RenderSettings& settings, const Scenario& scenario, float boids,
                   const WorldView& view);

// A 3D world's head length in world units (docs/rendering.md, "Three dimensions"): `head_size`
// in world units, or the automatic kDefaultHeadLengthPerRadius of the smallest perception
// radius; perspective alone shrinks it with depth.
float world_head_length(const RenderSettings& settings, const Scenario& scenario);

// The fade map's dimming, given its size in texels (1 without density_scale).
float fade_map_density_scale(const RenderSettings& settings, const Scenario& scenario,
                             float boids, glm::ivec2 map_size);

// The ribbons' dimming in this view (1 without density_scale).
float ribbon_density_scale(const RenderSettings& settings, const Scenario& scenario, float boids,
                           const WorldView& view);

}  // namespace murmur
