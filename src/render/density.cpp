#include "murmur/render/density.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace murmur {

namespace {

constexpr float kHalf = 0.5f;
// A ribbon's brightness falls linearly from its head to nothing: half on average.
constexpr float kRibbonMeanIntensity = 0.5f;

float smallest_perception_radius(const Scenario& scenario) {
  float radius = scenario.species.empty() ? 0.0f : scenario.species.front().perception_radius;
  for (const SpeciesParams& species : scenario.species)
    radius = std::min(radius, species.perception_radius);
  return radius;
}

// The count-weighted mean of the species' middle speeds, world units per step.
float mean_speed(const Scenario& scenario) {
  double weighted = 0, count = 0;
  for (const SpeciesParams& species : scenario.species) {
    const double middle_speed = kHalf * (species.min_speed + species.max_speed);
    weighted += static_cast<double>(species.count) * middle_speed;
    count += species.count;
  }
  return count > 0 ? static_cast<float>(weighted / count) : 0.0f;
}

// Expected boids per pixel of the world in this view.
float boids_per_pixel(const Scenario& scenario, float boids, const WorldView& view) {
  const glm::vec2 world = scenario.size();
  const float pixels = world.x * world.y * view.pixels_per_world_unit * view.pixels_per_world_unit;
  return pixels > 0 ? boids / pixels : 0.0f;
}

// The pixels one head covers, `length` pixels long.
float head_area_pixels(const HeadStyle& style, float length) {
  if (style.age_look || style.shape == HeadShape::Disc)
    return std::numbers::pi_v<float> * kHalf * length * kHalf * length;
  // The dart: the triangle tip-wing-wing less the notch's triangle (shaders/render/heads.vert).
  return kHalf * length * (length * style.width_ratio) * (1.0f - style.notch_ratio);
}

}  // namespace

float expected_boids(const Scenario& scenario, BoidBufferView boids) {
  if (boids.live_count_buffer == 0) return static_cast<float>(boids.count);
  return static_cast<float>(std::min(scenario.total_count(), boids.count));
}

float mean_spacing(const Scenario& scenario, float boids) {
  const glm::vec2 world = scenario.size();
  return std::sqrt(world.x * world.y / std::max(boids, 1.0f));
}

float density_scale(float coverage, float level) {
  return coverage > level ? level / coverage : 1.0f;
}

HeadLook head_look(const RenderSettings& settings, const Scenario& scenario, float boids,
                   const WorldView& view) {
  const HeadStyle& style = settings.heads;
  const float pixels_per_unit = view.pixels_per_world_unit;
  // Neighbours this far apart do not overlap: with density_scale, the automatic head and the
  // minimum size stop there (without it, heads are as they were before the rule).
  const float spacing_limit = settings.density_scale
                                  ? kHeadSpacingFraction * mean_spacing(scenario, boids)
                                  : std::numeric_limits<float>::infinity();
  float length_pixels = 0;
  if (style.size > 0 && style.size_units == HeadSizeUnits::Pixels) {
    length_pixels = style.size;
  } else {
    const float world_length =
        style.size > 0
            ? style.size
            : std::min(kDefaultHeadLengthPerRadius * smallest_perception_radius(scenario),
                       spacing_limit);
    length_pixels = std::max(world_length * pixels_per_unit,
                             std::min(style.min_length_pixels, spacing_limit * pixels_per_unit));
  }
  HeadLook look;
  look.length = pixels_per_unit > 0 ? length_pixels / pixels_per_unit : 0.0f;
  if (!settings.density_scale) return look;
  look.points = length_pixels < kPointHeadPixels;
  const float area = look.points ? 1.0f : head_area_pixels(style, length_pixels);
  look.intensity =
      density_scale(boids_per_pixel(scenario, boids, view) * area, kHeadSkyCoverage);
  return look;
}

float world_head_length(const RenderSettings& settings, const Scenario& scenario) {
  const HeadStyle& style = settings.heads;
  if (style.size > 0 && style.size_units == HeadSizeUnits::World) return style.size;
  return kDefaultHeadLengthPerRadius * smallest_perception_radius(scenario);
}

float fade_map_density_scale(const RenderSettings& settings, const Scenario& scenario,
                             float boids, glm::ivec2 map_size) {
  const glm::vec2 world = scenario.size();
  if (!settings.density_scale || world.x <= 0 || map_size.x <= 0) return 1.0f;
  const float texels_per_unit = static_cast<float>(map_size.x) / world.x;
  // Each boid's step is a line about speed x texels_per_unit texels long and stamp_width wide,
  // spread over the map's world.x * world.y * texels_per_unit^2 texels; a texel keeps
  // 1 / (1 - fade) steps of them.
  const float stamps_per_step = boids * mean_speed(scenario) * settings.trails.stamp_width() /
                                (world.x * world.y * texels_per_unit);
  const float kept_steps = 1.0f / std::max(1.0f - settings.trails.fade_per_step,
                                           std::numeric_limits<float>::min());
  return density_scale(stamps_per_step * kept_steps, kTrailSkyCoverage);
}

float ribbon_density_scale(const RenderSettings& settings, const Scenario& scenario, float boids,
                           const WorldView& view) {
  if (!settings.density_scale) return 1.0f;
  const TrailSettings& trails = settings.trails;
  // One ribbon covers (length - 1) segments of speed x pixels_per_unit pixels by its width.
  const float ribbon_pixels =
      static_cast<float>(std::max(trails.ribbon_length - 1, 0)) * mean_speed(scenario) *
      view.pixels_per_world_unit *
      std::max(trails.ribbon_width(), trails.ribbon_min_width_pixels);
  return density_scale(
      boids_per_pixel(scenario, boids, view) * ribbon_pixels * kRibbonMeanIntensity,
      kTrailSkyCoverage);
}

}  // namespace murmur
