// What a 3D world's marks share (heads_3d.vert, trail_ribbon_3d.vert): the colour a velocity
// in a volume gives, and the depth fog.

// Below this a vector has no direction worth taking (a bird at rest, or heading at the eye).
const float kTinyLength = 1e-6;

// A hue by the heading's azimuth about +y (the horizon's compass), at the bird's full speed:
// what render_colour.glsl's 2D heading and speed modes read from a velocity.
vec2 compass_velocity(vec3 velocity) {
  float speed = length(velocity);
  float horizontal = length(velocity.xz);
  return horizontal > kTinyLength ? velocity.xz * (speed / horizontal) : vec2(speed, 0.0);
}

// The share of a mark's light (or ink) that reaches the eye through the fog: all of it up to
// view depth `fog_start`, then exp(-(depth - fog_start) / fog distance).
float fog_share(float depth, float fog_start, float inverse_fog) {
  return exp(-max(depth - fog_start, 0.0) * inverse_fog);
}
