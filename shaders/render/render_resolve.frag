#version 450 core
#include "render/bindings.h"
// HDR (+ bloom) -> display: exponential tone map (never clips), then sRGB encoding, into the
// RGBA8 target. The map compresses the brightest channel and scales the others with it, so a
// dense blue flock stays blue instead of burning to white; u_highlight_whiteness mixes back
// some of the per-channel map, whose cores do go white, for a glow-like hot centre. MURMUR_*_TEXTURE_UNIT are defined by the
// renderer (C++). The HDR frame's light is first scaled by the local exposure's factor at the
// pixel, then the frame by the automatic exposure's; the bloom level was made from the scaled
// frame already.
// in: u_hdr, u_bloom, the exposure's factors (the local ones with MURMUR_LOCAL_EXPOSURE)
// The renderer builds one program per combination of MURMUR_INK (ink on paper: no tone map, the
// paper stays its colour), MURMUR_LOCAL_EXPOSURE (off: every local factor is 1, and none is
// read) and MURMUR_BLOOM that it shows: llvmpipe runs both sides of a branch, so options chosen
// by uniforms cost every option's texture reads and powers at each pixel.
#include "render/render_exposure.glsl"
#include "render/srgb.glsl"
layout(binding = MURMUR_HDR_TEXTURE_UNIT) uniform sampler2D u_hdr;
layout(binding = MURMUR_BLOOM_TEXTURE_UNIT) uniform sampler2D u_bloom;
uniform float u_exposure;
uniform float u_bloom_intensity;  // with MURMUR_BLOOM
uniform float u_highlight_whiteness;  // 0: hue kept exactly; 1: each channel mapped on its own
uniform uvec2 u_local_exposure_cells;  // the local exposure's cells: columns, rows
uniform vec3 u_background;       // the local exposure dims only the light above it
out vec4 f_colour;

void main() {
  // Same size as the target: one texel per pixel, no filtering.
  vec3 hdr = texelFetch(u_hdr, ivec2(gl_FragCoord.xy), 0).rgb;
#if MURMUR_BLOOM
  vec2 uv = gl_FragCoord.xy / vec2(textureSize(u_hdr, 0));
  vec4 bloom = texture(u_bloom, uv);
#endif
#if MURMUR_LOCAL_EXPOSURE
#if MURMUR_BLOOM
  // The bloom's first level carries the local factor at its texels in alpha: interpolated
  // between them it is the factor here to within a half float's rounding, for no fetch of its
  // own (docs/rendering.md, "Local exposure").
  float local_factor = bloom.a;
#else
  float local_factor = local_exposure_at(gl_FragCoord.xy, u_local_exposure_cells);
#endif
  hdr = locally_exposed(hdr, u_background, local_factor);
#endif
  hdr *= exposure_scale();
#if MURMUR_BLOOM
  hdr += u_bloom_intensity * bloom.rgb;
#endif
  vec3 exposed = u_exposure * hdr;
#if MURMUR_INK
  f_colour = vec4(encode_srgb(clamp(exposed, 0.0, 1.0)), 1.0);
#else
  vec3 per_channel = vec3(1.0) - exp(-exposed);
  float peak = max(exposed.r, max(exposed.g, exposed.b));
  // 1 - exp(-x) rises with x, so the peak channel's map is the largest of the three: the same
  // float as computing it again, for one exponential fewer a pixel.
  float peak_mapped = max(per_channel.r, max(per_channel.g, per_channel.b));
  vec3 hue_kept = peak > 0.0 ? exposed * (peak_mapped / peak) : vec3(0.0);
  vec3 mapped = mix(hue_kept, per_channel, u_highlight_whiteness);
  f_colour = vec4(encode_srgb(mapped), 1.0);
#endif
}
