#version 450 core
// HDR (+ bloom) -> display: exponential tone map (never clips, keeps hue ordering of sums),
// then sRGB encoding, into the RGBA8 target. MURMUR_*_TEXTURE_UNIT are defined by the
// renderer (C++).
layout(binding = MURMUR_HDR_TEXTURE_UNIT) uniform sampler2D u_hdr;
layout(binding = MURMUR_BLOOM_TEXTURE_UNIT) uniform sampler2D u_bloom;
uniform float u_exposure;
uniform float u_bloom_intensity;  // 0 when bloom is off
out vec4 f_colour;

// The sRGB transfer function (IEC 61966-2-1).
const float kSrgbLinearLimit = 0.0031308;
const float kSrgbLinearSlope = 12.92;
const float kSrgbScale = 1.055;
const float kSrgbOffset = 0.055;
const float kSrgbGamma = 2.4;

vec3 encode_srgb(vec3 linear) {
  vec3 curve = kSrgbScale * pow(linear, vec3(1.0 / kSrgbGamma)) - kSrgbOffset;
  return mix(curve, linear * kSrgbLinearSlope, lessThanEqual(linear, vec3(kSrgbLinearLimit)));
}

void main() {
  // Same size as the target: one texel per pixel, no filtering.
  vec3 hdr = texelFetch(u_hdr, ivec2(gl_FragCoord.xy), 0).rgb;
  if (u_bloom_intensity > 0.0) {
    vec2 uv = gl_FragCoord.xy / vec2(textureSize(u_hdr, 0));
    hdr += u_bloom_intensity * texture(u_bloom, uv).rgb;
  }
  vec3 mapped = vec3(1.0) - exp(-u_exposure * hdr);
  f_colour = vec4(encode_srgb(mapped), 1.0);
}
