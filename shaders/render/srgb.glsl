// The sRGB transfer function (IEC 61966-2-1) both ways, per channel, for linear values in
// [0, 1] (the renderer's C++ srgb_to_linear is the same decode).
const float kSrgbLinearLimit = 0.0031308;  // linear side of the straight segment's end
const float kSrgbEncodedLimit = 0.04045;   // its encoded side
const float kSrgbLinearSlope = 12.92;
const float kSrgbScale = 1.055;
const float kSrgbOffset = 0.055;
const float kSrgbGamma = 2.4;

vec3 encode_srgb(vec3 linear) {
  vec3 curve = kSrgbScale * pow(linear, vec3(1.0 / kSrgbGamma)) - kSrgbOffset;
  return mix(curve, linear * kSrgbLinearSlope, lessThanEqual(linear, vec3(kSrgbLinearLimit)));
}

vec3 decode_srgb(vec3 encoded) {
  vec3 curve = pow((encoded + kSrgbOffset) / kSrgbScale, vec3(kSrgbGamma));
  return mix(curve, encoded / kSrgbLinearSlope, lessThanEqual(encoded, vec3(kSrgbEncodedLimit)));
}
