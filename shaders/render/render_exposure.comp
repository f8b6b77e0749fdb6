#version 450 core
#include "render/bindings.h"
// Automatic and local exposure (docs/rendering.md), in stages, each its own build of this file
// (MURMUR_EXPOSURE_STAGE, one of the MURMUR_EXPOSURE_STAGE_* the renderer defines), over the
// lit pixels (brighter than u_lit_luminance) inside the world's rectangle. The empty
// sky and the letterbox are left out: a small dense flock on a large dark sky must be exposed
// for the flock, or its bloom lights the sky.
//   cells:   one invocation per cell sums Y (luminance), the pixels, Y^2 and Y times the boid
//            light piled on the pixel (the HDR alpha channel: marks in multiples of their
//            boid's colour), pixel by pixel in a fixed order;
//   tiles:   one invocation per tile adds its cells' sums in a fixed order; for the local
//            exposure it keeps, instead of the marks, its densest cell's density;
// and for the local exposure:
//   factors: one invocation per tile: the lowest of min(1, k / Y_T) over the tiles within
//            MURMUR_LOCAL_EXPOSURE_TILE_REACH of it, Y_T = sum Y^2 / sum Y being the luminance
//            where a tile's light is, and the densest cell of the 3x3 tiles around it;
//   field:   one invocation per cell: the local factor 1 + m (l - 1), m the dense mask reaching
//            out from the cells where more than MURMUR_LOCAL_EXPOSURE_SPARSE_MARKS marks pile
//            up, l the tiles' factors interpolated at the cell; eased by u_adaptation;
// and for the automatic exposure:
//   factor:  one workgroup adds the tiles' sums in a fixed tree (each tile's luminance after
//            the local exposure, when on) and turns the lit pixels' mean into the factor,
//            eased from the previous frame's by u_adaptation.
// The last stage, the only one that shares memory and waits at barriers, is a program of its
// own (compiled with MURMUR_EXPOSURE_FACTOR_STAGE): llvmpipe runs every invocation of a
// program with a barrier as a coroutine, which made the other stages' loops several times
// slower (BENCHMARKS.md, "Viewer frame time, 2026-12-02"). The others are a program each, and
// MURMUR_LOCAL_EXPOSURE says whether the local exposure is on: llvmpipe runs both sides of a
// branch under a mask (a return included), so one program choosing its stage by a uniform ran
// every stage's loops and texel fetches in every dispatch. Every sum runs in a fixed order, so
// the same frame always gives the same bits (a recording is reproducible).
// Each stage writes storage buffers and the stages after it read them through buffer-texture
// views (render_exposure.glsl says why), so a stage's own writes never feed its reads.
// in:  u_hdr (cells); views: cell sums (tiles, factor), cell densities (field), tile sums
//      (factors, factor), tile factors (field), local factors (factor); the previous frame's
//      local factors and exposure (field, factor: each invocation its own)
// out: RenderExposureCellsBlock and RenderExposureDensityBlock (cells),
//      RenderExposurePartialsBlock (tiles), RenderExposureTilesBlock (factors),
//      RenderLocalExposureBlock and u_local_exposure_image (field), RenderExposureBlock (factor)
#include "render/render_exposure.glsl"

layout(local_size_x = MURMUR_EXPOSURE_TILE, local_size_y = MURMUR_EXPOSURE_TILE) in;
#include "common/compute_index.glsl"

layout(binding = MURMUR_HDR_TEXTURE_UNIT) uniform sampler2D u_hdr;
layout(std430, binding = MURMUR_BIND_EXPOSURE_PARTIALS)
    writeonly buffer RenderExposurePartialsBlock {
  // per tile, row by row: (sum Y, lit pixels, sum Y^2, its densest cell's density)
  vec4 exposure_partial_sums[];
};
layout(std430, binding = MURMUR_BIND_EXPOSURE_CELLS) writeonly buffer RenderExposureCellsBlock {
  vec4 exposure_cell_sums[];  // per cell, row by row: (sum Y, lit pixels, sum Y^2, sum Y marks)
};
layout(std430, binding = MURMUR_BIND_EXPOSURE_DENSITY) writeonly buffer RenderExposureDensityBlock {
  float exposure_cell_density[];  // per cell: density(its sums), for the field's window
};
layout(std430, binding = MURMUR_BIND_EXPOSURE_TILES) writeonly buffer RenderExposureTilesBlock {
  // per tile: the lowest tile factor around it, and the densest cell of its 3x3 tiles
  vec2 exposure_tile_factors[];
};
#if MURMUR_EXPOSURE_STAGE == MURMUR_EXPOSURE_STAGE_FIELD
// The local factors again, as the texture their per-pixel readers gather from.
layout(binding = MURMUR_LOCAL_EXPOSURE_IMAGE_UNIT, r32f) writeonly uniform image2D
    u_local_exposure_image;
#endif
layout(std430, binding = MURMUR_BIND_EXPOSURE) buffer RenderExposureBlock {
  float render_exposure_scale;
};
layout(std430, binding = MURMUR_BIND_LOCAL_EXPOSURE) buffer RenderLocalExposureBlock {
  float render_local_exposure[];
};
layout(binding = MURMUR_EXPOSURE_CELLS_TEXTURE_UNIT) uniform samplerBuffer u_cell_sum_texels;
layout(binding = MURMUR_EXPOSURE_DENSITY_TEXTURE_UNIT) uniform samplerBuffer u_cell_density_texels;
layout(binding = MURMUR_EXPOSURE_PARTIALS_TEXTURE_UNIT) uniform samplerBuffer u_tile_sum_texels;
layout(binding = MURMUR_EXPOSURE_TILES_TEXTURE_UNIT) uniform samplerBuffer u_tile_factor_texels;

vec4 cell_sums(int cell) { return texelFetch(u_cell_sum_texels, cell); }
float cell_density(int cell) { return texelFetch(u_cell_density_texels, cell).x; }
vec4 tile_sums(int tile) { return texelFetch(u_tile_sum_texels, tile); }
vec2 tile_factors(int tile) { return texelFetch(u_tile_factor_texels, tile).xy; }

uniform ivec2 u_world_pixel_origin;  // the world's rectangle in the frame (GL window pixels)
uniform ivec2 u_world_pixel_size;
uniform uvec2 u_tiles;               // tiles of the frame: columns, rows
uniform uvec2 u_cells;               // cells of the frame: columns, rows
uniform float u_lit_luminance;       // a pixel brighter than this shows something
uniform float u_key;                 // the brightest mean lit luminance kept as it is; 0: off
uniform float u_local_key;           // the mean luminance a dense tile's light is brought to
uniform float u_adaptation;          // fraction of the way to the new factor taken per frame

// Rec. 709 luminance of linear RGB.
const vec3 kLuminanceWeights = vec3(0.2126, 0.7152, 0.0722);
const uint kGroupInvocations = MURMUR_EXPOSURE_TILE * MURMUR_EXPOSURE_TILE;
const int kCell = MURMUR_LOCAL_EXPOSURE_CELL;
const int kCellsPerTile = MURMUR_EXPOSURE_TILE / MURMUR_LOCAL_EXPOSURE_CELL;
// The dense mask: 1 up to MURMUR_LOCAL_EXPOSURE_FULL_REACH cells from a dense cell's centre,
// falling smoothly to 0 at MURMUR_LOCAL_EXPOSURE_REACH cells; the window holds that reach,
// which stays within the tiles next to the cell's own.
const float kFullReach = MURMUR_LOCAL_EXPOSURE_FULL_REACH;
const float kReach = MURMUR_LOCAL_EXPOSURE_REACH;
const int kWindow = int(ceil(kReach)) - 1;

#ifdef MURMUR_EXPOSURE_FACTOR_STAGE
shared vec4 partial[kGroupInvocations];

// Sums partial[] into partial[0] in a fixed order.
void reduce_group() {
  for (uint stride = kGroupInvocations / 2u; stride > 0u; stride /= 2u) {
    barrier();
    if (gl_LocalInvocationIndex < stride)
      partial[gl_LocalInvocationIndex] += partial[gl_LocalInvocationIndex + stride];
  }
  barrier();
}
#endif

// From previous towards wanted by u_adaptation; exactly wanted at 1 (the recorder: each frame
// for itself) and exactly previous when they agree.
float eased(float previous, float wanted) {
  return u_adaptation >= 1.0 ? wanted : previous + (wanted - previous) * u_adaptation;
}

bool inside(ivec2 at, ivec2 size) {
  return all(greaterThanEqual(at, ivec2(0))) && all(lessThan(at, size));
}

// How dense a cell is from its sums: 0 (at most the sparse marks per lit pixel, weighted by
// light) to 1.
float density(vec4 sums) {
  float marks = sums.x > 0.0 ? sums.w / sums.x : 0.0;
  return smoothstep(MURMUR_LOCAL_EXPOSURE_SPARSE_MARKS, MURMUR_LOCAL_EXPOSURE_DENSE_MARKS, marks);
}

// A tile's own factor: brings the luminance where its light is down to the key.
float tile_factor(vec4 sums) {
  if (sums.x <= 0.0) return 1.0;
  return min(1.0, u_local_key / (sums.z / sums.x));
}

// The tiles' factors interpolated bilinearly between tile centres at a frame point.
float tile_factor_at(vec2 pixel) {
  vec2 at = pixel / float(MURMUR_EXPOSURE_TILE) - 0.5;
  vec2 low = floor(at);
  vec2 t = at - low;
  ivec2 last = ivec2(u_tiles) - 1;
  ivec2 first_tile = clamp(ivec2(low), ivec2(0), last);
  ivec2 second_tile = clamp(ivec2(low) + 1, ivec2(0), last);
  int columns = int(u_tiles.x);
  float a = tile_factors(first_tile.y * columns + first_tile.x).x;
  float b = tile_factors(first_tile.y * columns + second_tile.x).x;
  float c = tile_factors(second_tile.y * columns + first_tile.x).x;
  float d = tile_factors(second_tile.y * columns + second_tile.x).x;
  float bottom = a + (b - a) * t.x;
  float top = c + (d - c) * t.x;
  return bottom + (top - bottom) * t.y;
}

// The cells of a tile, clipped to the frame's cells.
ivec2 first_cell_of(uint tile) {
  return ivec2(tile % u_tiles.x, tile / u_tiles.x) * kCellsPerTile;
}
ivec2 end_cell_of(uint tile) {
  return min(first_cell_of(tile) + kCellsPerTile, ivec2(u_cells));
}

// A tile's lit luminance after the local exposure: its own sum where every cell's factor is
// exactly 1 (the same bits as without it), else the cells' sums times their factors.
float exposed_tile_luminance(uint tile, float sum) {
  ivec2 first = first_cell_of(tile), end = end_cell_of(tile);
  bool dimmed = false;
  float exposed = 0.0;
  for (int y = first.y; y < end.y; ++y)
    for (int x = first.x; x < end.x; ++x) {
      int cell = y * int(u_cells.x) + x;
      float factor = local_exposure_factor(cell);
      dimmed = dimmed || factor != 1.0;
      exposed += factor * cell_sums(cell).x;
    }
  return dimmed ? exposed : sum;
}

void main() {
  uint local = gl_LocalInvocationIndex;
#ifdef MURMUR_EXPOSURE_FACTOR_STAGE
  {
    vec4 sum = vec4(0.0);
    uint tile_count = u_tiles.x * u_tiles.y;
    for (uint tile = local; tile < tile_count; tile += kGroupInvocations) {
      vec4 sums = tile_sums(int(tile));
#if MURMUR_LOCAL_EXPOSURE
      sums.x = exposed_tile_luminance(tile, sums.x);
#endif
      sum += sums;
    }
    partial[local] = sum;
    reduce_group();
    if (local != 0u) return;
    float mean = partial[0].x / max(partial[0].y, 1.0);
    float wanted = (u_key > 0.0 && mean > u_key) ? u_key / mean : 1.0;
    render_exposure_scale = mix(render_exposure_scale, wanted, u_adaptation);
    return;
  }
#else
  // Every other stage: one invocation per item (cell or tile), dispatched folded.
  uint item = linear_group_index() * kGroupInvocations + local;
#if MURMUR_EXPOSURE_STAGE == MURMUR_EXPOSURE_STAGE_CELLS
  {
    if (item >= u_cells.x * u_cells.y) return;
    ivec2 origin = ivec2(item % u_cells.x, item / u_cells.x) * kCell;
    vec4 sums = vec4(0.0);
    for (int y = 0; y < kCell; ++y)
      for (int x = 0; x < kCell; ++x) {
        ivec2 pixel = origin + ivec2(x, y);
        vec4 hdr = inside(pixel - u_world_pixel_origin, u_world_pixel_size)
                       ? texelFetch(u_hdr, pixel, 0)
                       : vec4(0.0);
        float luminance = dot(hdr.rgb, kLuminanceWeights);
        if (luminance > u_lit_luminance)
          sums += vec4(luminance, 1.0, luminance * luminance, luminance * hdr.a);
      }
    exposure_cell_sums[item] = sums;
#if MURMUR_LOCAL_EXPOSURE
    exposure_cell_density[item] = density(sums);
#endif
  }
#elif MURMUR_EXPOSURE_STAGE == MURMUR_EXPOSURE_STAGE_TILES
  {
    if (item >= u_tiles.x * u_tiles.y) return;
    ivec2 first = first_cell_of(item), end = end_cell_of(item);
    vec4 sums = vec4(0.0);
    float densest = 0.0;
    for (int y = first.y; y < end.y; ++y)
      for (int x = first.x; x < end.x; ++x) {
        int cell = y * int(u_cells.x) + x;
        sums += cell_sums(cell);
#if MURMUR_LOCAL_EXPOSURE
        densest = max(densest, cell_density(cell));
#endif
      }
    exposure_partial_sums[item] = vec4(sums.xyz, densest);
  }
#elif MURMUR_EXPOSURE_STAGE == MURMUR_EXPOSURE_STAGE_FACTORS
  {
    if (item >= u_tiles.x * u_tiles.y) return;
    ivec2 at = ivec2(item % u_tiles.x, item / u_tiles.x);
    // The lowest around: every point within a tile interpolates tile centres whose factors are
    // at most its own, so no part of a dense tile is dimmed less than it needs; and a flock's
    // trail within the reach is dimmed as its flock is, so it stays the dimmer of the two.
    float lowest = 1.0, densest = 0.0;
    const int reach = MURMUR_LOCAL_EXPOSURE_TILE_REACH;
    for (int dy = -reach; dy <= reach; ++dy)
      for (int dx = -reach; dx <= reach; ++dx) {
        ivec2 near = at + ivec2(dx, dy);
        if (!inside(near, ivec2(u_tiles))) continue;
        vec4 sums = tile_sums(near.y * int(u_tiles.x) + near.x);
        lowest = min(lowest, tile_factor(sums));
        if (max(abs(dx), abs(dy)) <= 1) densest = max(densest, sums.w);
      }
    exposure_tile_factors[item] = vec2(lowest, densest);
  }
#elif MURMUR_EXPOSURE_STAGE == MURMUR_EXPOSURE_STAGE_FIELD
  if (item >= u_cells.x * u_cells.y) return;
  ivec2 at = ivec2(item % u_cells.x, item / u_cells.x);
  // No dense cell in the tiles around this cell's own: nothing within reach to dim for.
  ivec2 tile = at / kCellsPerTile;
  float mask = 0.0;
  if (tile_factors(tile.y * int(u_tiles.x) + tile.x).y > 0.0)
    for (int dy = -kWindow; dy <= kWindow; ++dy)
      for (int dx = -kWindow; dx <= kWindow; ++dx) {
        ivec2 near = at + ivec2(dx, dy);
        if (!inside(near, ivec2(u_cells))) continue;
        float reach = 1.0 - smoothstep(kFullReach, kReach, length(vec2(dx, dy)));
        mask = max(mask, reach * cell_density(near.y * int(u_cells.x) + near.x));
      }
  float wanted = 1.0;
  if (mask > 0.0) wanted = 1.0 + mask * (tile_factor_at((vec2(at) + 0.5) * float(kCell)) - 1.0);
  float factor = eased(render_local_exposure[item], wanted);
  render_local_exposure[item] = factor;
  imageStore(u_local_exposure_image, at, vec4(factor));
#else
#error "MURMUR_EXPOSURE_STAGE names no stage"
#endif
#endif
}
