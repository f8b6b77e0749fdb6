#version 450 core
#include "render/bindings.h"
// Bloom: halves a level, or makes the first (a quarter of the frame's side) from the frame.
// Four bilinear taps a source texel from the target texel's centre: halving, they average the
// 4x4 source texels around its 2x2 block, which keeps small bright heads from flickering as they
// cross texel boundaries; quartering, they fall at the centres of its 4x4 block's quarters and
// average exactly the 16 frame pixels it covers. The first level also applies the automatic exposure's factor
// (shaders/render/render_exposure.glsl) and the bright-pass, so a dense flock glows no more than a
// sparse one would at the exposure that shows it; the local exposure's factor, read at the
// texel's centre in frame pixels, dims a dense flock's light there first, as in the resolve.
// in: u_source, the exposure's factors (first level; the local ones with MURMUR_LOCAL_EXPOSURE)
// The renderer builds it with MURMUR_BRIGHT_PASS 1 for the first level and 0 for the others,
// and with MURMUR_LOCAL_EXPOSURE as the frame needs (llvmpipe runs both sides of a branch: a
// uniform choice would read the exposure's factors at every texel of every level).
#include "render/render_exposure.glsl"
layout(binding = MURMUR_BLOOM_SOURCE_TEXTURE_UNIT) uniform sampler2D u_source;
uniform vec2 u_source_texel;   // 1 / source size
uniform vec2 u_target_size;    // pixels
uniform float u_threshold;
uniform float u_knee;          // width of the soft start above the threshold (HDR units)
uniform uvec2 u_local_exposure_cells;  // the local exposure's cells: columns, rows
uniform vec3 u_background;        // the local exposure dims only the light above it
out vec4 f_colour;

const float kQuarter = 0.25;
const float kTiny = 1e-5;  // keeps divisions by a black texel's brightness finite

// Scales the colour so that brightness below threshold - knee is dropped, above threshold +
// knee is kept minus the threshold, with a quadratic blend between (no hard edge).
vec3 bright_pass(vec3 colour) {
  float brightness = max(colour.r, max(colour.g, colour.b));
  float soft = clamp(brightness - u_threshold + u_knee, 0.0, 2.0 * u_knee);
  soft = soft * soft / (4.0 * u_knee + kTiny);
  float kept = max(soft, brightness - u_threshold);
  return colour * (kept / max(brightness, kTiny));
}

void main() {
  vec2 uv = gl_FragCoord.xy / u_target_size;
  vec2 d = u_source_texel;
  vec3 sum = texture(u_source, uv + vec2(-d.x, -d.y)).rgb + texture(u_source, uv + vec2(d.x, -d.y)).rgb +
             texture(u_source, uv + vec2(-d.x, d.y)).rgb + texture(u_source, uv + vec2(d.x, d.y)).rgb;
  vec3 colour = sum * kQuarter;
#if !MURMUR_BRIGHT_PASS
  f_colour = vec4(colour, 1.0);
#else
  // The first level's alpha keeps the local factor at its texel for the resolve, which reads
  // it with the bloom in one bilinear fetch (the upsampling leaves alpha alone).
#if MURMUR_LOCAL_EXPOSURE
  vec2 frame_pixel = uv * vec2(textureSize(u_source, 0));
  float local_factor = local_exposure_at(frame_pixel, u_local_exposure_cells);
  colour = locally_exposed(colour, u_background, local_factor);
#else
  float local_factor = 1.0;
#endif
  f_colour = vec4(bright_pass(exposure_scale() * colour), local_factor);
#endif
}
