#version 450 core
// A 3D world's sky, over the whole frame (render_fullscreen.vert): each pixel's colour by its
// view ray's elevation, from u_sky_horizon at and below the horizon to u_sky_top straight up
// (mixed by the sine of the elevation), so the horizon stays where it is as the camera orbits
// and pitches.
uniform mat4 u_clip_to_world;
uniform vec3 u_eye;
uniform vec2 u_frame_size;  // pixels
uniform vec3 u_sky_horizon;  // linear RGB
uniform vec3 u_sky_top;
uniform float u_sky_alpha;   // glow: no marks yet; ink: opaque
out vec4 f_colour;

void main() {
  vec2 ndc = gl_FragCoord.xy / u_frame_size * 2.0 - 1.0;
  // The far plane's point under the pixel: the ray from the eye through it.
  vec4 far_point = u_clip_to_world * vec4(ndc, 1.0, 1.0);
  vec3 ray = normalize(far_point.xyz / far_point.w - u_eye);
  f_colour = vec4(mix(u_sky_horizon, u_sky_top, max(ray.y, 0.0)), u_sky_alpha);
}
