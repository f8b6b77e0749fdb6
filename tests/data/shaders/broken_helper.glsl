// The planted error is on line 7: `undeclared_identifier` is never declared.
#include "broken_constants.glsl"

uint helper_value() {
  uint base = BROKEN_BASE * BROKEN_SCALE;
  // The next line is line 7.
  return base + undeclared_identifier;
}
