#pragma once
// How a scenario asks to be drawn: the `[render]` table (docs/scenarios.md). Core code: the
// renderer (include/murmur/render/renderer.hpp) turns it into its settings.
#include <cstdint>
#include <optional>

#include <glm/vec3.hpp>

namespace murmur {

// What colour a boid (its head and its trail) gets.
enum class ColourMode : std::uint32_t {
  Species = 0,  // the scenario's species colour, brightness varied a little per boid
  Heading = 1,  // a hue wheel by flight direction (east red, north yellow-green, ...)
  Speed = 2,    // a ramp from slow to fast
};

enum class TrailMode : std::uint32_t {
  None = 0,
  Ribbons = 1,  // the last ribbon_length positions of each boid, as fading segments
  FadeMap = 2,  // a world-space texture faded every step and stamped by every boid
};

// Ribbon lengths the renderer accepts (positions kept per boid).
inline constexpr int kMinRibbonLength = 2;  // one segment needs two positions
inline constexpr int kMaxRibbonLength = 64;

// Every key is optional: an absent one keeps the renderer's default (docs/rendering.md).
struct LookParams {
  std::optional<TrailMode> trails;          // key `trails`: "none", "ribbons" or "fade"
  std::optional<int> trail_length;          // ribbons: positions per boid
  std::optional<float> trail_fade;          // fade map: fraction kept per step, (0, 1)
  std::optional<ColourMode> colour_by;      // key `colour_by`: "species", "heading", "speed"
  std::optional<bool> bloom;                // glow on or off
  std::optional<float> bloom_intensity;     // >= 0
  std::optional<float> bloom_threshold;     // >= 0, HDR brightness where glow starts
  std::optional<float> exposure;            // > 0
  std::optional<glm::vec3> background;      // linear RGB of the empty world, each 0 .. 16
  bool empty() const {
    return !trails && !trail_length && !trail_fade && !colour_by && !bloom && !bloom_intensity &&
           !bloom_threshold && !exposure && !background;
  }
};

}  // namespace murmur
