#version 450
// Deliberately broken, for tests/gpu/test_gl_infra.cpp: the compile error sits in an included
// file, so the location the error names proves that #line maps lines back to their file.
#include "broken_constants.glsl"
#include "broken_helper.glsl"

layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Values { uint values[]; };

void main() { values[0] = helper_value(); }
