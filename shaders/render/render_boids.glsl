// The boids a render pass reads: the simulation's state buffer (or any buffer of Boid
// records) and how many of its records are live. The live count stays on the GPU: the
// renderer copies it from the flock's Population record (or writes a plain view's count) into
// RenderLiveCountBlock, and from there into its indirect draw commands (docs/rendering.md).
#include "common/common.glsl"
#include "render/bindings.h"

layout(std430, binding = MURMUR_BIND_RENDER_BOIDS) readonly buffer RenderBoidsBlock {
  Boid render_boids[];
};
layout(std430, binding = MURMUR_BIND_RENDER_LIVE_COUNT) readonly buffer RenderLiveCountBlock {
  uint render_live_count;  // records 0 .. render_live_count - 1 are boids; the rest are stale
};

// A vertex here is beyond the clip volume and draws nothing: where the draws over every record
// put the vertices of records past the live count.
const vec4 kNotDrawn = vec4(2.0, 2.0, 0.0, 1.0);
