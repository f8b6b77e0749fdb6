#version 450 core
// Fade map -> frame: looks up the world point under each pixel of the world's rectangle in the
// world-space trail texture. GL_REPEAT sampling makes the torus seam seamless.
layout(binding = MURMUR_FADE_MAP_TEXTURE_UNIT) uniform sampler2D u_fade_map;
uniform vec2 u_frame_size;       // pixels
uniform vec2 u_world_centre;     // world point at the frame's centre
uniform float u_pixels_per_world_unit;
uniform vec2 u_world_size;
uniform float u_intensity;
out vec4 f_colour;

void main() {
  vec2 world = u_world_centre + (gl_FragCoord.xy - 0.5 * u_frame_size) / u_pixels_per_world_unit;
  f_colour = vec4(texture(u_fade_map, world / u_world_size).rgb * u_intensity, 1.0);
}
