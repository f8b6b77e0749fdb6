// Included before broken_helper.glsl so that the helper's lines are shifted in the
// preprocessed text: a location that ignored #line would not come out as line 7.
#define BROKEN_BASE 3u
#define BROKEN_SCALE 2u
