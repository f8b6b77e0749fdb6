#version 450 core
// Fade map: one stamp per live boid (u_stamp_vertices vertices per boid record, in one draw
// over every record; those past the live count draw nothing) over the path it flew in its
// last step, drawn into the world-space trail texture (texture = world rectangle). A wide
// stamp (6 vertices, two triangles) is the parallelogram GL draws for a wide aliased line:
// u_width_texels across the path's minor axis. A thin one is a GL line: its two vertices are
// the first two corners with u_width_texels = 0, the boid now and a step ago. A
// stamp that leaves the texture over a wrapped edge is clipped there; its other part was
// flown on the far side, where the boid now is.
#include "render_boids.glsl"
#include "render_colour.glsl"

uniform vec2 u_world_size;
uniform vec2 u_map_size;        // texels
uniform float u_step_duration;  // time units per step: the boid flew velocity * this
uniform float u_intensity;
uniform float u_width_texels;
// 1 / the map's scale (Renderer::record_step): the texels times the scale are the trails, so a
// stamp's colour and its count in alpha are both stored divided by it.
uniform float u_map_weight;
uniform uint u_stamp_vertices;  // per boid record: 2 (a line) or 6 (two triangles)

out vec4 v_colour;  // alpha 1 a stamp: the map's alpha sums the faded stamps

// Corners: (0 = the boid now, 1 = a step ago) x (side -1, +1), two triangles.
const vec2 kCorner[6] = vec2[6](vec2(0, -1), vec2(1, -1), vec2(1, 1),
                                vec2(0, -1), vec2(1, 1), vec2(0, 1));
const float kHalf = 0.5;  // each side of the path gets half the width

void main() {
  uint record = uint(gl_VertexID) / u_stamp_vertices;
  if (record >= render_live_count) {
    gl_Position = kNotDrawn;
    v_colour = vec4(0.0);
    return;
  }
  Boid boid = render_boids[record];
  vec2 texels_per_unit = u_map_size / u_world_size;
  vec2 now = boid.pos * texels_per_unit;
  vec2 before = (boid.pos - boid.vel * u_step_duration) * texels_per_unit;
  vec2 along = now - before;
  vec2 minor_axis = abs(along.x) >= abs(along.y) ? vec2(0.0, 1.0) : vec2(1.0, 0.0);
  vec2 corner = kCorner[uint(gl_VertexID) % u_stamp_vertices];
  vec2 texel = mix(now, before, corner.x) + minor_axis * (corner.y * kHalf * u_width_texels);
  gl_Position = vec4(texel / u_map_size * 2.0 - 1.0, 0.0, 1.0);
  v_colour = vec4(boid_colour(boid.id, boid.species, boid.vel, boid.energy) * u_intensity, 1.0) *
             u_map_weight;
}
