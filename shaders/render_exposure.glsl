// The exposure's factors as its readers see them (the bloom's bright-pass, the resolve and the
// automatic exposure's last stage), through buffer-texture views of the buffers
// render_exposure.comp writes: on llvmpipe a texel fetch gathers all lanes at once, where a
// storage-buffer load loops over them with a branch per lane, once per pixel here.

// Automatic exposure: the factor render_exposure.comp derived from the frame's own brightness
// (1 while the frame is no brighter than RenderSettings::auto_exposure_key). The bloom's
// bright-pass and the resolve scale the HDR frame by it, so a dense flock whose additive heads
// and trails sum far past 1 keeps its contrast instead of saturating into a light sheet.
layout(binding = MURMUR_EXPOSURE_SCALE_TEXTURE_UNIT) uniform samplerBuffer u_exposure_scale_texel;

float exposure_scale() {
  return texelFetch(u_exposure_scale_texel, 0).x;
}

// Local exposure (docs/rendering.md, "Local exposure"): one factor per MURMUR_LOCAL_EXPOSURE_CELL
// square cell of the frame, row by row from the bottom, exactly 1 where no dense flock is near.
layout(binding = MURMUR_LOCAL_EXPOSURE_TEXTURE_UNIT) uniform samplerBuffer u_local_exposure_texels;

float local_exposure_factor(int cell) {
  return texelFetch(u_local_exposure_texels, cell).x;
}

// The local factor at a frame pixel (GL window coordinates): the cells' factors interpolated
// bilinearly between cell centres, clamped at the frame's edges. Written as a + (b - a) t so
// that four cells at exactly 1 give exactly 1 (a sparse frame keeps its bytes).
float local_exposure_at(vec2 pixel, uvec2 cells) {
  vec2 at = pixel / float(MURMUR_LOCAL_EXPOSURE_CELL) - 0.5;
  vec2 low = floor(at);
  vec2 t = at - low;
  ivec2 last = ivec2(cells) - 1;
  ivec2 first_cell = clamp(ivec2(low), ivec2(0), last);
  ivec2 second_cell = clamp(ivec2(low) + 1, ivec2(0), last);
  int columns = int(cells.x);
  float a = local_exposure_factor(first_cell.y * columns + first_cell.x);
  float b = local_exposure_factor(first_cell.y * columns + second_cell.x);
  float c = local_exposure_factor(second_cell.y * columns + first_cell.x);
  float d = local_exposure_factor(second_cell.y * columns + second_cell.x);
  float bottom = a + (b - a) * t.x;
  float top = c + (d - c) * t.x;
  return bottom + (top - bottom) * t.y;
}

// Dims only the light above the background by the local factor, so the sky around a dimmed
// flock keeps its colour; a factor of exactly 1 returns the pixel unchanged.
vec3 locally_exposed(vec3 hdr, vec3 background, float factor) {
  return hdr - (1.0 - factor) * max(hdr - background, vec3(0.0));
}
