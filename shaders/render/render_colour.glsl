// A boid's colour (heads, ribbons and fade-map stamps share it, so a trail matches its head).
// The renderer (C++) defines MURMUR_MAX_SPECIES and the MURMUR_COLOUR_MODE_* values, builds
// each program that includes this once per colour mode it shows, with MURMUR_COLOUR_MODE set
// to that mode (a compile-time choice: llvmpipe runs both sides of every branch, so a mode
// chosen by a uniform cost every mode's arithmetic, the drift's nine powers among it, for each
// vertex), and sets these uniforms from RenderSettings::colour (those of other modes are
// compiled out).
#ifndef MURMUR_COLOUR_MODE
#error "the program's colour mode (MURMUR_COLOUR_MODE) is not defined"
#endif
uniform vec3 u_species_colour[MURMUR_MAX_SPECIES];  // linear RGB
uniform float u_per_boid_variation;
uniform float u_heading_saturation;
uniform float u_heading_value;
uniform vec3 u_speed_ramp_slow;
uniform vec3 u_speed_ramp_fast;
uniform float u_speed_ramp_min;
uniform float u_speed_ramp_max;
uniform float u_energy_max[MURMUR_MAX_SPECIES];  // 0: the species has no energy
uniform vec3 u_health_full;
uniform vec3 u_health_empty;
uniform float u_drift_phase_per_id;
uniform float u_drift_phase_now;  // phase per step x the step, reduced to [0, 2 pi) on the CPU
uniform vec3 u_drift_from;        // linear, at b = 0
uniform vec3 u_drift_to;          // linear, at b = 1

#include "render/srgb.glsl"

const float kTau = 6.28318530718;
// Successive ids land far apart in [0, 1) (the golden ratio's fractional part), so neighbours
// in id get visibly different brightness.
const float kGoldenRatioFraction = 0.61803398875;
// The usual HSV -> RGB: each channel is a trapezoid over the six sectors of the hue wheel,
// red centred on sector 0, green on 2, blue on 4.
const float kHueSectors = 6.0;
const vec3 kChannelSectorOffset = vec3(0.0, 4.0, 2.0);
const float kHalfWheel = 3.0;
const float kTiny = 1e-6;  // keeps an empty speed range from dividing by zero

vec3 hue_wheel(float hue01, float saturation, float value) {
  vec3 distance_from_peak = abs(mod(hue01 * kHueSectors + kChannelSectorOffset, kHueSectors) -
                                kHalfWheel);
  vec3 pure = clamp(distance_from_peak - 1.0, 0.0, 1.0);
  return value * mix(vec3(1.0), pure, saturation);
}

vec3 boid_colour(uint id, uint species, vec2 velocity, float energy) {
  uint species_index = min(species, uint(MURMUR_MAX_SPECIES - 1));
#if MURMUR_COLOUR_MODE == MURMUR_COLOUR_MODE_HEADING
  float angle = atan(velocity.y, velocity.x);  // atan(0, 0) is 0 on every GL we met
  return hue_wheel(fract(angle / kTau), u_heading_saturation, u_heading_value);
#elif MURMUR_COLOUR_MODE == MURMUR_COLOUR_MODE_SPEED
  float span = max(u_speed_ramp_max - u_speed_ramp_min, kTiny);
  float t = clamp((length(velocity) - u_speed_ramp_min) / span, 0.0, 1.0);
  return mix(u_speed_ramp_slow, u_speed_ramp_fast, t);
#elif MURMUR_COLOUR_MODE == MURMUR_COLOUR_MODE_DRIFT
  // Origin 002 mixes its 8-bit sRGB values; mixing the encoded ends does the same. Beyond 1
  // (HDR ends) the encoding is not defined, so those components are mixed as they are.
  float b = (sin(u_drift_phase_per_id * float(id) + u_drift_phase_now) + 1.0) * 0.5;
  vec3 from = clamp(u_drift_from, 0.0, 1.0), to = clamp(u_drift_to, 0.0, 1.0);
  vec3 beyond = mix(u_drift_from - from, u_drift_to - to, b);
  return decode_srgb(mix(encode_srgb(from), encode_srgb(to), b)) + beyond;
#else
#if MURMUR_COLOUR_MODE == MURMUR_COLOUR_MODE_HEALTH
  // A species without energy keeps its species colour.
  float energy_max = u_energy_max[species_index];
  if (energy_max > 0.0) {
    return mix(u_health_empty, u_health_full, clamp(energy / energy_max, 0.0, 1.0));
  }
#endif
  float shimmer = fract(float(id) * kGoldenRatioFraction);
  return u_species_colour[species_index] *
         (1.0 - u_per_boid_variation * shimmer);
#endif
}
