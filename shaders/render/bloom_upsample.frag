#version 450 core
#include "render/bindings.h"
// Bloom: a 3x3 tent blur of the smaller level, added (by blending) onto the next larger one,
// so each level carries the blur of every level below it.
layout(binding = MURMUR_BLOOM_SOURCE_TEXTURE_UNIT) uniform sampler2D u_source;
uniform vec2 u_source_texel;   // 1 / source size
uniform vec2 u_target_size;
uniform float u_radius;        // tent half-width in source texels
out vec4 f_colour;

// Tent weights 1-2-1 in each direction, normalised by their total of 16.
const float kCornerWeight = 1.0 / 16.0;
const float kEdgeWeight = 2.0 / 16.0;
const float kCentreWeight = 4.0 / 16.0;

void main() {
  vec2 uv = gl_FragCoord.xy / u_target_size;
  vec2 d = u_source_texel * u_radius;
  vec3 corners = texture(u_source, uv + vec2(-d.x, -d.y)).rgb + texture(u_source, uv + vec2(d.x, -d.y)).rgb +
                 texture(u_source, uv + vec2(-d.x, d.y)).rgb + texture(u_source, uv + vec2(d.x, d.y)).rgb;
  vec3 edges = texture(u_source, uv + vec2(-d.x, 0.0)).rgb + texture(u_source, uv + vec2(d.x, 0.0)).rgb +
               texture(u_source, uv + vec2(0.0, -d.y)).rgb + texture(u_source, uv + vec2(0.0, d.y)).rgb;
  vec3 centre = texture(u_source, uv).rgb;
  f_colour = vec4(corners * kCornerWeight + edges * kEdgeWeight + centre * kCentreWeight, 1.0);
}
