#pragma once
// The trail history (docs/rendering.md, "Trails"): what both kinds of trail keep between
// frames, fed by Renderer::record_step after every simulation step. Ribbons keep each boid's
// last positions in a ring; the fade map is a world-space texture that fades each step and is
// stamped with each boid's last step (shaders/render/trail_record.comp, trail_stamp.comp).
#include <cstdint>
#include <memory>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec4.hpp>

#include "murmur/base/memory.hpp"
#include "pass.hpp"

namespace murmur::render {

struct TrailHistory {
  // Ribbons: ring_length entries of (position, velocity) per trail slot, plus each slot's
  // TrailOwner. Generation g (the g-th record since the ring was made) writes entry
  // g % ring_length of every live boid's slot. An entry is one vec4 in the plane, two in a
  // volume (MURMUR_RIBBON_ENTRY_VEC4S_2D, _3D).
  gl::Buffer ring, owners;
  std::uint32_t ring_slots = 0;
  std::uint32_t ring_length = 0;
  std::uint32_t ring_entry_vec4s = 0;
  std::uint32_t generation = 0;     // the newest record; 0: none yet
  std::uint32_t history_start = 1;  // the first generation after the last reset

  // Fade map: world-space RGBA16F, texel (0, 0) at world (0, 0). Its trails are the texels
  // times map_scale (record_trails says why): map_scale is the product of the steps' fades
  // since the map was last multiplied by it.
  gl::Texture map;
  gl::Framebuffer map_framebuffer;
  gl::Buffer stamp_sums;  // MURMUR_STAMP_SUM_WORDS uints a texel, zero between steps
  // trail_stamp.comp's StampTexelsBlock: the fold's dispatch, the list's length and capacity,
  // then the texels one step's stamps lit (a map's worth of room).
  gl::Buffer stamp_texels;
  glm::vec2 map_world{0};
  bool map_stamped = false;  // false: the map is black (composite skipped)
  float map_scale = 1.0f;

  void drop_ribbons() { history_start = generation + 1; }
  // A ribbon needs two entries: two records since the last reset.
  bool ribbons_drawable() const { return generation > history_start; }
  void clear_map();
  // Forgets every trail (after a reset or a new flock).
  void reset() {
    drop_ribbons();
    clear_map();
  }
  // The fade map as linear RGBA floats, bottom row first; empty before any stamp.
  std::vector<glm::vec4> read_fade_map(glm::ivec2* size) const;
};

// trail_record.comp, trail_stamp.comp's three passes (the adds, a variant per colour mode; the
// fold's preparation; the fold) and the fade.
struct TrailHistoryPrograms {
  struct Record {
    gl::Program program;
    gl::Uniform slot_count{program, "u_slot_count"}, ring_length{program, "u_ring_length"},
        generation{program, "u_generation"}, history_start{program, "u_history_start"};
  };
  struct StampAdd {
    explicit StampAdd(const std::string& colour_defines);
    gl::Program program;
    gl::Uniform map_size{program, "u_map_size"}, world_size{program, "u_world_size"},
        step_duration{program, "u_step_duration"}, width_texels{program, "u_width_texels"},
        fixed_one{program, "u_fixed_one"};
    ColourUniforms colour{program};
  };
  struct StampFold {
    gl::Program program;
    gl::Uniform map_size{program, "u_map_size"}, fixed_one{program, "u_fixed_one"},
        intensity{program, "u_intensity"}, map_weight{program, "u_map_weight"};
  };
  struct Fade {
    gl::Program program;
    gl::Uniform fade{program, "u_fade"};
  };
  TrailHistoryPrograms();
  Record record;
  // From the 48-byte records, two vec4s an entry: built by the first 3D record, so that a 2D
  // run compiles no 3D program.
  std::unique_ptr<Record> record_3d;
  Variants<StampAdd> stamp_add;
  gl::Program stamp_prepare;
  StampFold stamp_fold;
  Fade fade;
  // Builds every colour mode's adds; returns how many programs that is.
  std::size_t build_every_variant();
};

// The trails a world keeps: its settings' mode, except that a 3D world keeps ribbons for the
// fade map. A map of where birds were on the screen smears across the frame with every turn of
// the camera; ribbons in space stay where the birds flew (docs/rendering.md, "Three
// dimensions").
TrailMode kept_trail_mode(const TrailSettings& settings, bool three_d);

// The GPU bytes of the trails' history for `settings` in a world of `world` (the memory
// estimate, docs/reliability.md): ribbons a ring of ribbon_length positions and an owner per
// boid; the fade map its texels, their stamp sums and the list of stamped texels.
MemoryNeed trail_history_memory(const TrailSettings& settings, glm::vec2 world, bool three_d);

// Draws every segment of the ribbons' ring with `program` (trail_ribbon.vert or
// trail_ribbon_3d.vert, its uniforms set) into `hdr`: added under glow, laid over by its
// opacity under ink. Segments of slots no live boid holds collapse in the vertex shader.
void draw_ribbon_segments(const gl::Program& program, const TrailHistory& history,
                          BlendMode blend, const RenderTarget& hdr, PassGeometry& geometry);

// Adds the boids' current positions to `history`: a ring entry per boid (ribbons), or a fade
// and a stamp per boid (fade map), as kept_trail_mode says. History of a mode not shown is dropped, so switching modes
// never shows stale trails; a new boid count, world size or map resolution starts afresh.
// Writes `live_count` (load_live_count) when there is something to record.
void record_trails(TrailHistoryPrograms& programs, TrailHistory& history,
                   const RenderSettings& settings, const Scenario& scenario, BoidBufferView boids,
                   gl::Buffer& live_count, const PassGeometry& geometry);

}  // namespace murmur::render
