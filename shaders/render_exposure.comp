#version 450 core
// Automatic exposure, in two stages of one program (u_stage):
//   sum:    one workgroup per tile of the frame sums the luminance of its lit pixels (brighter
//           than u_lit_luminance) inside the world's rectangle, and counts them. The empty sky
//           and the letterbox are left out: a small dense flock on a large dark sky must be
//           exposed for the flock, or its bloom lights the whole sky;
//   factor: one workgroup adds the tiles' sums in a fixed order and turns the lit pixels' mean
//           into the exposure factor, eased from the previous frame's by u_adaptation.
// Both stages reduce in shared memory in a fixed tree, so the same frame always gives the same
// bits (a recording is reproducible).
// in:  u_hdr (the HDR frame: trails and heads), RenderExposurePartialsBlock (factor stage)
// out: RenderExposurePartialsBlock (sum stage), RenderExposureBlock (factor stage)
#include "render_exposure.glsl"

layout(local_size_x = MURMUR_EXPOSURE_TILE, local_size_y = MURMUR_EXPOSURE_TILE) in;
#include "compute_index.glsl"

layout(binding = MURMUR_HDR_TEXTURE_UNIT) uniform sampler2D u_hdr;
layout(std430, binding = MURMUR_BIND_EXPOSURE_PARTIALS) buffer RenderExposurePartialsBlock {
  vec2 exposure_partial_sums[];  // per tile, row by row: (luminance sum, lit pixels)
};

const uint kStageSum = 0u;
const uint kStageFactor = 1u;
uniform uint u_stage;
uniform ivec2 u_world_pixel_origin;  // the world's rectangle in the frame (GL window pixels)
uniform ivec2 u_world_pixel_size;
uniform uint u_tile_count;           // tiles of the frame, row by row ...
uniform uint u_tile_columns;         // ... this many to a row
uniform float u_lit_luminance;       // a pixel brighter than this shows something
uniform float u_key;                 // the brightest mean lit luminance kept as it is; 0: off
uniform float u_adaptation;          // fraction of the way to the new factor taken per frame

// Rec. 709 luminance of linear RGB.
const vec3 kLuminanceWeights = vec3(0.2126, 0.7152, 0.0722);
const uint kGroupInvocations = MURMUR_EXPOSURE_TILE * MURMUR_EXPOSURE_TILE;

shared vec2 partial[kGroupInvocations];

// Sums partial[] into partial[0] in a fixed order.
void reduce_group() {
  for (uint stride = kGroupInvocations / 2u; stride > 0u; stride /= 2u) {
    barrier();
    if (gl_LocalInvocationIndex < stride)
      partial[gl_LocalInvocationIndex] += partial[gl_LocalInvocationIndex + stride];
  }
  barrier();
}

void main() {
  uint local = gl_LocalInvocationIndex;
  if (u_stage == kStageSum) {
    // One workgroup per tile, dispatched folded like every pass over many items.
    uint tile = linear_group_index();
    if (tile >= u_tile_count) return;  // a spare group of the fold: the whole group leaves
    ivec2 tile_origin = ivec2(tile % u_tile_columns, tile / u_tile_columns) * MURMUR_EXPOSURE_TILE;
    ivec2 pixel = tile_origin + ivec2(gl_LocalInvocationID.xy);
    ivec2 in_world = pixel - u_world_pixel_origin;
    bool inside = all(greaterThanEqual(in_world, ivec2(0))) &&
                  all(lessThan(in_world, u_world_pixel_size));
    float luminance = inside ? dot(texelFetch(u_hdr, pixel, 0).rgb, kLuminanceWeights) : 0.0;
    partial[local] = luminance > u_lit_luminance ? vec2(luminance, 1.0) : vec2(0.0);
    reduce_group();
    if (local == 0u) exposure_partial_sums[tile] = partial[0];
    return;
  }
  vec2 sum = vec2(0.0);
  for (uint tile = local; tile < u_tile_count; tile += kGroupInvocations)
    sum += exposure_partial_sums[tile];
  partial[local] = sum;
  reduce_group();
  if (local != 0u) return;
  float mean = partial[0].x / max(partial[0].y, 1.0);
  float wanted = (u_key > 0.0 && mean > u_key) ? u_key / mean : 1.0;
  render_exposure_scale = mix(render_exposure_scale, wanted, u_adaptation);
}
