#version 450 core
#include "render/bindings.h"
// Fade map -> frame: looks up the world point under each pixel of the world's rectangle in the
// world-space trail texture. GL_REPEAT sampling makes the torus seam seamless. Built for glow
// and for ink (MURMUR_INK), each with one tap a pixel and, for a map seen smaller than its
// texels (a small frame, or zoomed out; MURMUR_MINIFIED_MAP), with u_taps_per_side^2 bilinear
// taps averaged over each pixel's square: one tap a pixel would skip the texels between taps
// more than two texels apart, and a one-texel trail would break into dots or vanish
// (docs/rendering.md, "A map smaller than its texels"). Two builds, not a loop of one tap:
// llvmpipe ran the loop's one tap at twice the cost of the plain one.
layout(binding = MURMUR_FADE_MAP_TEXTURE_UNIT) uniform sampler2D u_fade_map;
uniform vec2 u_frame_size;       // pixels
uniform vec2 u_world_centre;     // world point at the frame's centre
uniform float u_pixels_per_world_unit;
uniform vec2 u_world_size;
uniform float u_intensity;
uniform float u_stamp_intensity;  // the share of its boid's colour one stamp adds
#if MURMUR_MINIFIED_MAP
uniform uint u_taps_per_side;      // >= 2
#endif
// What the world's rectangle holds before the trails: the background and no marks (glow) or
// the paper. No clear comes first; this pass adds the trails to it, or lays them over it, in
// the shader, as blending over a cleared target did (llvmpipe's clear and blend cost 2 ms of a
// 1280x720 frame; the sums round alike but for one level in some pixels).
uniform vec4 u_sky;
out vec4 f_colour;

const float kTiny = 1e-6;  // an unstamped texel has no colour to average

void main() {
  vec2 world = u_world_centre + (gl_FragCoord.xy - 0.5 * u_frame_size) / u_pixels_per_world_unit;
  vec2 centre = world / u_world_size;
#if !MURMUR_MINIFIED_MAP
  vec4 map = texture(u_fade_map, centre);
#else
  // The taps sit at the centres of an n x n split of the pixel's square.
  float taps = float(u_taps_per_side);
  vec2 tap_step = 1.0 / (u_pixels_per_world_unit * taps * u_world_size);
  vec4 map = vec4(0.0);
  for (uint row = 0u; row < u_taps_per_side; ++row) {
    for (uint column = 0u; column < u_taps_per_side; ++column) {
      vec2 offset = vec2(column, row) + 0.5 - 0.5 * taps;
      map += texture(u_fade_map, centre + offset * tap_step);
    }
  }
  map /= taps * taps;
#endif
#if !MURMUR_INK
  // Glow: alpha is the light added in multiples of the boids' colour (the faded stamps
  // times what each added), which the local exposure counts.
  f_colour = u_sky + vec4(map.rgb * u_intensity, map.a * u_stamp_intensity * u_intensity);
#else
  // Ink: the map's alpha sums the faded stamps and its colour their colours times the stamp
  // intensity, so their mean colour is laid over the paper with an opacity that grows with
  // the stamps.
  float stamps = map.a;
  vec3 mean_colour = map.rgb / max(stamps * u_stamp_intensity, kTiny);
  float opacity = clamp(stamps * u_stamp_intensity * u_intensity, 0.0, 1.0);
  f_colour = vec4(mean_colour * opacity, opacity) + u_sky * (1.0 - opacity);
#endif
}
