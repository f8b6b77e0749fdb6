#pragma once
// Flock state on the CPU side: one record per boid, and its file formats.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "murmur/base/memory.hpp"
#include "murmur/scenario/scenario.hpp"

namespace murmur {

struct Boid {
  glm::vec2 pos{0.0f};
  glm::vec2 vel{0.0f};
  std::uint32_t id = 0;       // stable, never reused while the boid lives
  std::uint32_t species = 0;  // index into Scenario::species
  std::uint32_t age = 0;      // steps lived (docs/model.md, "A living population")
  float energy = 0.0f;        // docs/model.md, "An ecosystem"; 0 for a species without energy
  // The third axis of a 3D world ([world] dimensions = 3, docs/model.md, "Three dimensions"):
  // position and velocity along z, 0 in 2D. Kept beside pos and vel rather than in them so
  // that the 2D model, its GPU record and its files stay as they are.
  float z = 0.0f;
  float vz = 0.0f;
};
// A Boid is its fields without padding, so that boids compare bit for bit with memcmp (as the
// tests compare runs).
static_assert(sizeof(Boid) ==
                  2 * sizeof(glm::vec2) + 3 * sizeof(std::uint32_t) + 3 * sizeof(float),
              "Boid has padding: memcmp would compare garbage");

// A boid's position and velocity as 3-vectors (z = 0 in 2D), and the boid moved to them.
inline glm::vec3 position_of(const Boid& boid) { return {boid.pos, boid.z}; }
inline glm::vec3 velocity_of(const Boid& boid) { return {boid.vel, boid.vz}; }
inline void set_motion(Boid& boid, glm::vec3 position, glm::vec3 velocity) {
  boid.pos = {position.x, position.y};
  boid.z = position.z;
  boid.vel = {velocity.x, velocity.y};
  boid.vz = velocity.z;
}

// Events of one species counted since the flock was made (docs/model.md, "An ecosystem"):
// what `murmur stats` and the panel report. Counters, not state: files do not carry them.
struct SpeciesTotals {
  std::uint64_t born = 0;     // children born
  std::uint64_t dropped = 0;  // children not born: the species' max_count or the capacity
  std::uint64_t died = 0;     // boids that died, of age, starvation or being eaten
  bool operator==(const SpeciesTotals&) const = default;
};

struct FlockState {
  std::vector<Boid> boids;  // any order; sort_by_id() gives the canonical one
  // The id of the next child, at most kLastNextId. Empty: the largest id + 1, see
  // resolved_next_id().
  std::optional<std::uint32_t> next_id;
  std::uint64_t step = 0;   // steps taken since the flock began (keys the birth rules)
  // The food field (docs/model.md, "The food field"): F_x * F_y amounts, row by row; empty
  // without a [food] table.
  std::vector<float> food;
  // Per species, the events since the flock was made (empty: none counted yet).
  std::vector<SpeciesTotals> totals;
  void sort_by_id();
  // next_id, or the largest id + 1; kLastNextId for a flock that holds kLastNextId itself,
  // which can then bear no child (docs/model.md, "Ids that stay unique").
  std::uint32_t resolved_next_id() const;
};

// The most next_id may be. Births that would take it further stop the run rather than wrap
// onto ids that may be alive, so the largest uint32 is never a child's id and next_id always
// fits its 32 bits (docs/model.md, "Ids that stay unique").
inline constexpr std::uint32_t kLastNextId = 0xFFFFFFFFu;

// The rule both backends apply to the births of step `step` (the step that makes state
// `step`): `born` children numbered from `next_id` must leave next_id at most kLastNextId.
// Otherwise an InputError naming the step, the births and the id space.
void require_ids_for_births(std::uint64_t step, std::uint32_t next_id, std::uint64_t born);

// The scenario's seeded start: counter-based hashing of (seed, id), so the same seed gives
// the same bits on every machine. Positions uniform in the world, headings uniform (in 3D
// directions uniform on the sphere), speeds uniform in [min_speed, max_speed], except where
// [[spawn]] tables place boids (docs/model.md, "The seeded start", "The start in 3D"). Ids
// 0..N-1 in species order. Energies energy_initial, the initial food field, zeroed totals (one
// per species).
FlockState seeded_start(const Scenario& scenario);

// The host bytes of one FlockState of the scenario (the memory estimate, docs/reliability.md):
// a record per boid, the food field and the species' totals.
MemoryNeed flock_state_memory(const Scenario& scenario);

// The food field a flock starts from (docs/model.md, "The food field"): food.initial (a
// fraction, or Philox uniforms of (seed, cell, 0, 0) for "random"), then the patches in file
// order. Empty without a [food] table.
std::vector<float> initial_food(const Scenario& scenario);

// The field `field` (on `from`'s grid) carried over to `to`'s grid when the panel or
// GpuFlock::set_parameters edits the [food] table (docs/model.md, "The food field"):
// each old cell's food is spread over the new cells by the area of the world they share, in
// double, and each new cell is then capped at to.max_per_cell. The total is conserved except
// for what the cap cuts. Same grid and a cap no lower: the field unchanged.
std::vector<float> refit_food_field(const FoodParams& from, const FoodParams& to,
                                    glm::vec2 world, std::span<const float> field);

// Whether going from `from` to `to` needs refit_food_field: a new grid, or a lower cap.
bool food_field_needs_refit(const FoodParams& from, const FoodParams& to);

// CSV with header `id,species,x,y,vx,vy,age,energy`, or in a 3D world ([world] dimensions = 3)
// `id,species,x,y,z,vx,vy,vz,age,energy`; floats as %.9g (reads back to the same float32). A
// file without the energy column reads with every energy its species' energy_initial, and one
// without age either with every age 0. The state read gets the initial food field and zeroed
// totals. read_state_csv throws InputError (naming file, line and column) for a malformed file
// or one that does not match the scenario: a header of the other number of dimensions (z and
// vz missing, or there in a 2D world), unknown species, duplicate id, non-finite numbers,
// positions outside the world, energies outside [0, energy_max], more boids than the
// scenario's capacity. Ids are any distinct uint32 values (not necessarily 0..N-1).
FlockState read_state_csv(const std::filesystem::path& path, const Scenario& scenario);
// Same, from text; `source` names it in messages (the fuzz target reads from memory).
FlockState parse_state_csv(std::string_view text, const std::string& source,
                           const Scenario& scenario);
// `state`, a flock of a world of `state_dimensions` (world.dimensions: 2 or 3), as a run of
// `scenario` starts from it (a parameter sweep's --carry-state, docs/sweep.md; Python's
// Flock.set_state): its boids checked as parse_state_csv checks a file's, `source` naming them
// in messages (InputError), and its step, counters, next id and food field kept. A state of the
// other number of dimensions than the scenario's, or a food field of another size, is an
// InputError.
FlockState carried_state(const FlockState& state, std::uint32_t state_dimensions,
                         const Scenario& scenario, const std::string& source);
// The writers take the scenario the state belongs to, whose world.dimensions decides the
// columns: every caller has to say which world it writes, so a 3D flock cannot be written
// without its z and vz, and a 2D one keeps the bytes of its files. (A FlockState field set by
// whoever makes a state would default to 2D wherever one was forgotten.)
// Writes through a temporary file renamed into place; throws OutputError naming the path.
void write_state_csv(const std::filesystem::path& path, const FlockState& state,
                     const Scenario& scenario);
// NumPy .npy, structured dtype [('id','<u4'),('species','<u4'),('x','<f4'),('y','<f4'),
// ('vx','<f4'),('vy','<f4'),('age','<u4'),('energy','<f4')]; in 3D ('z','<f4') follows 'y' and
// ('vz','<f4') follows 'vy'. Throws OutputError naming the path.
void write_state_npy(const std::filesystem::path& path, const FlockState& state,
                     const Scenario& scenario);
// Chooses CSV or .npy by the extension.
void write_state(const std::filesystem::path& path, const FlockState& state,
                 const Scenario& scenario);

}  // namespace murmur
