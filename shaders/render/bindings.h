// Shared by C++ (include path shaders/) and GLSL (#include "render/bindings.h"): the render
// passes' binding points, texture and image units and the constants their shaders and their C++
// agree on, written once, as shaders/common/interface.h is for the simulation. Plain #defines
// only: both languages must read this file. The settings' own constants (kMaxColourComponent,
// the local exposure's marks, the circle radii's kinds) reach the shaders from their C++
// definitions (src/render/passes/pass.cpp, render_constants).
#ifndef MURMUR_RENDER_BINDINGS_H
#define MURMUR_RENDER_BINDINGS_H

// Invocations per workgroup of the renderer's compute passes over boids.
#define MURMUR_RENDER_GROUP_SIZE 128

// Shader storage bindings. They sit above the simulation's (shaders/common/interface.h), which
// the simulation rebinds every step anyway.
#define MURMUR_BIND_TRAIL_RING 16            // vec4[slots * ring length * entry]: ribbons
#define MURMUR_BIND_TRAIL_OWNERS 17          // TrailOwner[slots]
#define MURMUR_BIND_OVERLAY_SHAPES 18        // OverlayShape[]: circles, then segments
#define MURMUR_BIND_RENDER_LIVE_COUNT 19     // uint: the boids of the view being drawn
#define MURMUR_BIND_RENDER_FOOD 20           // float[food cells]: the food field drawn
#define MURMUR_BIND_EXPOSURE 21              // float: the automatic exposure's factor
#define MURMUR_BIND_EXPOSURE_PARTIALS 22     // vec4[tiles]
#define MURMUR_BIND_RENDER_PLAN_AGENTS 23    // the plan's agents
#define MURMUR_BIND_RENDER_PLAN_POINTS 24    // the plan's points
#define MURMUR_BIND_RENDER_PLAN_PREVIOUS 25  // each point's previous point
#define MURMUR_BIND_RENDER_PLAN_INK 26       // RenderPlanInk: the ink layer's draw and range
#define MURMUR_BIND_LOCAL_EXPOSURE 27        // float[cells]: the local exposure's factors
#define MURMUR_BIND_EXPOSURE_CELLS 28        // vec4[cells]: the exposures' sums
#define MURMUR_BIND_EXPOSURE_TILES 29        // vec2[tiles]: the tile factors
#define MURMUR_BIND_EXPOSURE_DENSITY 30      // float[cells]: each cell's density
#define MURMUR_BIND_STAMP_SUMS 31            // uint[map texels * MURMUR_STAMP_SUM_WORDS]
// Below the render's range, in one of the simulation's slots (which it rebinds every step):
// the stamps' passes bind nothing else there.
#define MURMUR_BIND_STAMP_TEXELS 1           // StampTexelsBlock: the texels a step lit
// The automatic exposure's factor as a uniform block, for the per-pixel readers.
#define MURMUR_BIND_EXPOSURE_UNIFORM 0

// Texture units. 8 to 13 are the simulation's views (shaders/common/interface.h).
#define MURMUR_HDR_TEXTURE_UNIT 0
#define MURMUR_BLOOM_TEXTURE_UNIT 1
#define MURMUR_FADE_MAP_TEXTURE_UNIT 2
#define MURMUR_BLOOM_SOURCE_TEXTURE_UNIT 3
#define MURMUR_PLAN_INK_TEXTURE_UNIT 4
// The exposure's buffers as buffer textures (shaders/render/render_exposure.glsl): the factors
// the bloom and the resolve read, then the stages' own.
#define MURMUR_LOCAL_EXPOSURE_TEXTURE_UNIT 6
// The local factors as a texture: gathered by the resolve and the bloom, written by the field
// stage through an image unit.
#define MURMUR_LOCAL_EXPOSURE_MAP_TEXTURE_UNIT 7
#define MURMUR_EXPOSURE_CELLS_TEXTURE_UNIT 16
#define MURMUR_EXPOSURE_DENSITY_TEXTURE_UNIT 17
#define MURMUR_EXPOSURE_PARTIALS_TEXTURE_UNIT 18
#define MURMUR_EXPOSURE_TILES_TEXTURE_UNIT 19

// Image units.
#define MURMUR_LOCAL_EXPOSURE_IMAGE_UNIT 0
#define MURMUR_FADE_MAP_IMAGE_UNIT 0

// Heads (heads.vert): what a head is drawn as (MURMUR_HEAD_SHAPE), and its vertices. A dart is
// one triangle; a square 4 corners that the quads' index buffer makes two triangles of.
#define MURMUR_HEAD_SHAPE_PIXEL 0
#define MURMUR_HEAD_SHAPE_DART 1
#define MURMUR_HEAD_SHAPE_SQUARE 2
#define MURMUR_HEAD_DART_VERTICES 3
#define MURMUR_HEAD_SQUARE_VERTICES 4

// A ribbon's entry in its ring (render_trails.glsl): (position, velocity) in one vec4 in the
// plane; (position, 0) then (velocity, 0) in a volume.
#define MURMUR_RIBBON_ENTRY_VEC4S_2D 1
#define MURMUR_RIBBON_ENTRY_VEC4S_3D 2

// A 3D world's heads (heads_3d.vert): none is drawn narrower than this many pixels (a
// triangle a pixel wide can miss every pixel centre); a bird smaller on screen is drawn this
// wide with its light (or ink) scaled by the share of that area it covers, so that far birds
// dim instead of vanishing and flickering as they cross pixel centres.
#define MURMUR_HEAD_3D_MIN_PIXELS 2.0
// A 3D world's disc is a soft sprite: full from its centre out to this share of its radius,
// falling smoothly to nothing at its rim.
#define MURMUR_DISC_SOFT_CORE 0.5

// A plan segment is a rectangle of two triangles (plan_segments.vert).
#define MURMUR_PLAN_SEGMENT_VERTICES 6

// Overlays: line segments a circle (smooth at the few hundred pixels circles get), and circles
// per trail slot (the first slots get a perception and a separation circle, `circles = "all"`
// one per boid).
#define MURMUR_OVERLAY_CIRCLE_SEGMENTS 48
#define MURMUR_MAX_CIRCLES_PER_SLOT 2

// trail_stamp.comp's sums a map texel: the stamps, then the colour's three channels in fixed
// point.
#define MURMUR_STAMP_SUM_WORDS 4

// The exposure (render_exposure.comp). Side of the square pixel tile whose sums it keeps; its
// workgroups are a tile's size too (16 x 16 = 256 invocations, within every GL 4.5
// implementation's minimum of 1024), the last stage's reduction one invocation per pixel of a
// tile.
#define MURMUR_EXPOSURE_TILE 16
// Its stages (MURMUR_EXPOSURE_STAGE, a program each), in the order they run.
#define MURMUR_EXPOSURE_STAGE_CELLS 0
#define MURMUR_EXPOSURE_STAGE_TILES 1
#define MURMUR_EXPOSURE_STAGE_FACTORS 2
#define MURMUR_EXPOSURE_STAGE_FIELD 3
// The local exposure (docs/rendering.md, "Local exposure"): the side of its cells in pixels (a
// tile holds 4 x 4), and the dense mask's reach from a dense cell, in cells: full up to the
// first, none from the second (the window of the field stage).
#define MURMUR_LOCAL_EXPOSURE_CELL 4
#define MURMUR_LOCAL_EXPOSURE_FULL_REACH 2.0
#define MURMUR_LOCAL_EXPOSURE_REACH 4.0
// The tiles whose light sets a tile's factor: those within this many tiles of it (5 x 5), so
// that a flock and the trail behind it, some 3 tiles long, keep their contrast.
#define MURMUR_LOCAL_EXPOSURE_TILE_REACH 2

#endif
