#version 450 core
// Bloom: halves a level. Four bilinear taps at the corners of the target texel's 2x2 source
// block average a 4x4 texel neighbourhood, which keeps small bright heads from flickering as
// they cross texel boundaries. The first level also applies the automatic exposure's factor
// (shaders/render_exposure.glsl) and the bright-pass, so a dense flock glows no more than a
// sparse one would at the exposure that shows it.
#include "render_exposure.glsl"
layout(binding = MURMUR_BLOOM_SOURCE_TEXTURE_UNIT) uniform sampler2D u_source;
uniform vec2 u_source_texel;   // 1 / source size
uniform vec2 u_target_size;    // pixels
uniform bool u_bright_pass;
uniform float u_threshold;
uniform float u_knee;          // width of the soft start above the threshold (HDR units)
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
  f_colour = vec4(u_bright_pass ? bright_pass(render_exposure_scale * colour) : colour, 1.0);
}
