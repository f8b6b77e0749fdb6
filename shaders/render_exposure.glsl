// Automatic exposure: the factor render_exposure.comp derived from the frame's own brightness
// (1 while the frame is no brighter than RenderSettings::auto_exposure_key). The bloom's
// bright-pass and the resolve scale the HDR frame by it, so a dense flock whose additive heads
// and trails sum far past 1 keeps its contrast instead of saturating into a light sheet.
layout(std430, binding = MURMUR_BIND_EXPOSURE) buffer RenderExposureBlock {
  float render_exposure_scale;
};

// Local exposure (docs/rendering.md, "Local exposure"): one factor per MURMUR_LOCAL_EXPOSURE_CELL
// square cell of the frame, row by row from the bottom, exactly 1 where no dense flock is near.
// render_exposure.comp writes them; the resolve and the bloom's bright-pass read them.
layout(std430, binding = MURMUR_BIND_LOCAL_EXPOSURE) buffer RenderLocalExposureBlock {
  float render_local_exposure[];
};

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
  float a = render_local_exposure[first_cell.y * columns + first_cell.x];
  float b = render_local_exposure[first_cell.y * columns + second_cell.x];
  float c = render_local_exposure[second_cell.y * columns + first_cell.x];
  float d = render_local_exposure[second_cell.y * columns + second_cell.x];
  float bottom = a + (b - a) * t.x;
  float top = c + (d - c) * t.x;
  return bottom + (top - bottom) * t.y;
}

// Dims only the light above the background by the local factor, so the sky around a dimmed
// flock keeps its colour; a factor of exactly 1 returns the pixel unchanged.
vec3 locally_exposed(vec3 hdr, vec3 background, float factor) {
  return hdr - (1.0 - factor) * max(hdr - background, vec3(0.0));
}
