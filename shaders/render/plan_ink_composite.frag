#version 450 core
#include "render/bindings.h"
// The plan's ink layer -> the HDR target, pixel for pixel (the layer has the frame's size):
// premultiplied ink laid over the paper (GL_ONE, GL_ONE_MINUS_SRC_ALPHA), or glowing lines
// added (GL_ONE, GL_ONE).
layout(binding = MURMUR_PLAN_INK_TEXTURE_UNIT) uniform sampler2D u_ink_layer;
out vec4 f_colour;

void main() {
  f_colour = texelFetch(u_ink_layer, ivec2(gl_FragCoord.xy), 0);
}
