// The exposure's factors as its readers see them (the bloom's bright-pass, the resolve and the
// automatic exposure's last stage). On llvmpipe each texture read of a full-frame pass costs
// about as much as the rest of its pixel's work, so the per-pixel readers take the automatic
// factor from a uniform block (a plain load, the same for every pixel) and the four local
// factors around a pixel in one textureGather; the last stage reads buffer-texture views (a
// texel fetch gathers all lanes at once, where a storage-buffer load loops over them).
#include "render/bindings.h"

// Automatic exposure: the factor render_exposure.comp derived from the frame's own brightness
// (1 while the frame is no brighter than RenderSettings::auto_exposure_key). The bloom's
// bright-pass and the resolve scale the HDR frame by it, so a dense flock whose additive heads
// and trails sum far past 1 keeps its contrast instead of saturating into a light sheet.
// The block is render_exposure.comp's RenderExposureBlock, bound as a uniform buffer.
layout(std140, binding = MURMUR_BIND_EXPOSURE_UNIFORM) uniform RenderExposureUniformBlock {
  float render_exposure_factor;
};

float exposure_scale() { return render_exposure_factor; }

// Local exposure (docs/rendering.md, "Local exposure"): one factor per MURMUR_LOCAL_EXPOSURE_CELL
// square cell of the frame, row by row from the bottom, exactly 1 where no dense flock is near.
layout(binding = MURMUR_LOCAL_EXPOSURE_TEXTURE_UNIT) uniform samplerBuffer u_local_exposure_texels;

float local_exposure_factor(int cell) {
  return texelFetch(u_local_exposure_texels, cell).x;
}

// The same factors as a cells.x x cells.y texture (the field stage writes both), clamped to
// its edges.
layout(binding = MURMUR_LOCAL_EXPOSURE_MAP_TEXTURE_UNIT) uniform sampler2D u_local_exposure_map;

// The local factor at a frame pixel (GL window coordinates): the cells' factors interpolated
// bilinearly between cell centres, clamped at the frame's edges. Written as a + (b - a) t so
// that four cells at exactly 1 give exactly 1 (a sparse frame keeps its bytes).
float local_exposure_at(vec2 pixel, uvec2 cells) {
  vec2 at = pixel / float(MURMUR_LOCAL_EXPOSURE_CELL) - 0.5;
  vec2 low = floor(at);
  vec2 t = at - low;
  // The four cells low .. low + 1 (clamped by the sampler as the cells are to the frame): a
  // gather at their shared corner, half a cell from either's centre, so rounding cannot move
  // it to other cells. Its order is (low.x, low.y + 1), (+1, +1), (+1, low.y), (low.x, low.y).
  vec4 around = textureGather(u_local_exposure_map, (low + 1.0) / vec2(cells));
  float a = around.w, b = around.z, c = around.x, d = around.y;
  float bottom = a + (b - a) * t.x;
  float top = c + (d - c) * t.x;
  return bottom + (top - bottom) * t.y;
}

// Dims only the light above the background by the local factor, so the sky around a dimmed
// flock keeps its colour; a factor of exactly 1 returns the pixel unchanged.
vec3 locally_exposed(vec3 hdr, vec3 background, float factor) {
  return hdr - (1.0 - factor) * max(hdr - background, vec3(0.0));
}
