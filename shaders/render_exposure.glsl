// Automatic exposure: the factor render_exposure.comp derived from the frame's own brightness
// (1 while the frame is no brighter than RenderSettings::auto_exposure_key). The bloom's
// bright-pass and the resolve scale the HDR frame by it, so a dense flock whose additive heads
// and trails sum far past 1 keeps its contrast instead of saturating into a light sheet.
layout(std430, binding = MURMUR_BIND_EXPOSURE) buffer RenderExposureBlock {
  float render_exposure_scale;
};
