#pragma once
// The one place GL's declarations come from (glad, GL 4.5 core).
#include <glad/gl.h>
