#version 450 core
// Fade map: one line per live boid (2 vertices per instance of an indirect draw over the live
// count) over the path it flew in its last
// step, drawn into the world-space trail texture (texture = world rectangle). A line that
// leaves the texture over a wrapped edge is clipped there; its other half was flown on the
// far side, where the boid now is.
#include "render_boids.glsl"
#include "render_colour.glsl"

uniform vec2 u_world_size;
uniform float u_step_duration;  // time units per step: the boid flew velocity * this
uniform float u_intensity;

out vec3 v_colour;

void main() {
  Boid boid = render_boids[gl_InstanceID];
  vec2 world = gl_VertexID == 0 ? boid.pos : boid.pos - boid.vel * u_step_duration;
  gl_Position = vec4(world / u_world_size * 2.0 - 1.0, 0.0, 1.0);
  v_colour = boid_colour(boid.id, boid.species, boid.vel, boid.energy) * u_intensity;
}
