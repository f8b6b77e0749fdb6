#version 450 core
#include "render/bindings.h"
// Fade map: stamps each live boid's last step into the world-space trail texture (texture =
// world rectangle), by compute rather than as GL primitives: llvmpipe set up and binned
// 20,000 short lines in about 11 ms, where this walks their few texels each.
//
// A stamp is the parallelogram GL draws for a wide aliased line (docs/rendering.md, "Stamps"):
// from the boid a step ago to the boid now, u_width_texels across the path's minor axis (at
// least one texel, so a thin stamp lights one texel per column, as a GL line). It lights the
// texels whose centres lie inside it: the major coordinate in [lo, hi) of the path's ends,
// the minor in [centre - w/2, centre + w/2). A stamp that leaves the texture is cut at its
// edge; the part it cuts was flown on the far side of a wrapped edge, where the boid now is.
//
// Three passes, so that the map's texels do not depend on the order the GPU runs them in (the
// trails are part of the reproducible frames):
//  - MURMUR_STAMP_ADD, one invocation per record: each stamp adds 1 and its colour, in fixed
//    point (u_fixed_one units to 1), to its texels' sums with integer atomics; integer sums do
//    not depend on the order of the adds. The renderer picks u_fixed_one so that no sum can
//    wrap (stamp_fixed_one). The stamp that finds a texel's count at 0 (exactly one: the count
//    is an atomic add) lists the texel, in whatever order the stamps run.
//  - MURMUR_STAMP_PREPARE, one invocation: takes the list's length for the fold, sets the list
//    empty for the next step's adds, and writes the fold's dispatch arguments.
//  - MURMUR_STAMP_FOLD, one invocation per listed texel: adds the texel's sums to the map and
//    clears them. Each texel is listed once, so the order of the list does not matter.
// The fold walked every stamp again once, each texel going to the first stamp that reached it
// (an atomic exchange of its count): llvmpipe runs every branch under a mask, so each of a
// texel's visits paid the fold's loads and stores, 4.5 of the stamps' 8 ms at 20,000 boids.
#include "render/render_boids.glsl"
#ifdef MURMUR_STAMP_ADD
#include "render/render_colour.glsl"
#endif

layout(local_size_x = MURMUR_RENDER_GROUP_SIZE) in;
#include "common/compute_index.glsl"

// Per map texel, row by row, MURMUR_STAMP_SUM_WORDS words: the stamps, then the sum of their
// colours' r, g and b in fixed point. Zero between steps.
layout(std430, binding = MURMUR_BIND_STAMP_SUMS) buffer StampSumsBlock {
  uint stamp_sums[];
};
const uint kCountWord = 0u;
const uint kColourWords = 1u;

// The texels this step's stamps lit, each once, and what the fold needs to walk them. Its
// capacity is the map's texels, so the list cannot overflow.
layout(std430, binding = MURMUR_BIND_STAMP_TEXELS) buffer StampTexelsBlock {
  uvec4 stamp_fold_groups;  // glDispatchComputeIndirect arguments over the listed texels
  uint stamp_listing;       // texels listed so far by this step's adds
  uint stamp_listed;        // texels the fold takes
  uint stamp_texel_capacity;
  uint stamp_texels_unused;
  uint stamp_texels[];
};

#ifndef MURMUR_STAMP_PREPARE
uniform ivec2 u_map_size;       // texels
uniform float u_fixed_one;      // a colour of 1 in the sums
#endif
#ifdef MURMUR_STAMP_ADD
uniform vec2 u_world_size;
uniform float u_step_duration;  // time units per step: the boid flew velocity * this
uniform float u_width_texels;   // at least 1
#endif
#ifdef MURMUR_STAMP_FOLD
layout(binding = MURMUR_FADE_MAP_IMAGE_UNIT, rgba16f) uniform restrict image2D u_map;
uniform float u_intensity;
// 1 / the map's scale (Renderer::record_step): the texels times the scale are the trails, so a
// stamp's colour and its count in alpha are both stored divided by it.
uniform float u_map_weight;
#endif

#ifdef MURMUR_STAMP_ADD
uvec3 g_fixed_colour;  // this invocation's stamp colour, in the sums' fixed point

void visit(uint texel) {
  uint word = texel * MURMUR_STAMP_SUM_WORDS;
  if (atomicAdd(stamp_sums[word + kCountWord], 1u) == 0u) {
    uint slot = atomicAdd(stamp_listing, 1u);
    if (slot < stamp_texel_capacity) stamp_texels[slot] = texel;
  }
  for (uint channel = 0u; channel < 3u; ++channel) {
    if (g_fixed_colour[channel] != 0u)
      atomicAdd(stamp_sums[word + kColourWords + channel], g_fixed_colour[channel]);
  }
}

// Visits the texels of the stamp from `before` to `now` (texel coordinates).
void walk_stamp(vec2 before, vec2 now) {
  vec2 along = now - before;
  bool x_major = abs(along.x) >= abs(along.y);
  // (major, minor) coordinates
  vec2 from = x_major ? before : before.yx;
  vec2 to = x_major ? now : now.yx;
  ivec2 size = x_major ? u_map_size : u_map_size.yx;
  float lo = min(from.x, to.x);
  float hi = max(from.x, to.x);
  int major_first = max(int(ceil(lo - 0.5)), 0);
  int major_end = min(int(ceil(hi - 0.5)), size.x);
  if (major_first >= major_end) return;  // no column centre in [lo, hi) (also from.x == to.x)
  float slope = (to.y - from.y) / (to.x - from.x);  // |slope| <= 1
  float half_width = 0.5 * u_width_texels;
  for (int major = major_first; major < major_end; ++major) {
    float centre = from.y + (float(major) + 0.5 - from.x) * slope;
    int minor_first = max(int(ceil(centre - half_width - 0.5)), 0);
    int minor_end = min(int(ceil(centre + half_width - 0.5)), size.y);
    for (int minor = minor_first; minor < minor_end; ++minor) {
      ivec2 texel = x_major ? ivec2(major, minor) : ivec2(minor, major);
      visit(uint(texel.y) * uint(u_map_size.x) + uint(texel.x));
    }
  }
}

void main() {
  uint record = linear_invocation_index();  // dispatched folded, like the simulation
  if (record >= render_live_count) return;
  Boid boid = render_boids[record];
  vec2 texels_per_unit = vec2(u_map_size) / u_world_size;
  vec3 colour = boid_colour(boid.id, boid.species, boid.vel, boid.energy);
  g_fixed_colour = uvec3(round(clamp(colour, 0.0, MURMUR_MAX_COLOUR_COMPONENT) * u_fixed_one));
  walk_stamp((boid.pos - boid.vel * u_step_duration) * texels_per_unit, boid.pos * texels_per_unit);
}
#endif

#ifdef MURMUR_STAMP_PREPARE
void main() {
  // Dispatched as one workgroup, of which one invocation does it all.
  if (gl_LocalInvocationIndex != 0u) return;
  uint listed = min(stamp_listing, stamp_texel_capacity);
  stamp_listed = listed;
  stamp_listing = 0u;
  stamp_fold_groups = uvec4(folded_groups((listed + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x),
                            0u);
}
#endif

#ifdef MURMUR_STAMP_FOLD
void main() {
  uint index = linear_invocation_index();
  if (index >= stamp_listed) return;
  uint texel = stamp_texels[index];
  uint word = texel * MURMUR_STAMP_SUM_WORDS;
  float stamps = float(stamp_sums[word + kCountWord]);
  stamp_sums[word + kCountWord] = 0u;
  vec3 colour = vec3(0.0);
  for (uint channel = 0u; channel < 3u; ++channel) {
    colour[channel] = float(stamp_sums[word + kColourWords + channel]) / u_fixed_one;
    stamp_sums[word + kColourWords + channel] = 0u;
  }
  ivec2 at = ivec2(int(texel % uint(u_map_size.x)), int(texel / uint(u_map_size.x)));
  vec4 light = vec4(colour * u_intensity, stamps) * u_map_weight;
  imageStore(u_map, at, imageLoad(u_map, at) + light);
}
#endif
