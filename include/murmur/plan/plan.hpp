#pragma once
// The floor-plan generator of origin 003 (docs/model.md, "The floor-plan generator (origin 003)"):
// agents that move along one axis at a time, snap their drawn points to a grid, draw their
// paths and die when slow, when near another agent's path or after too many turns. The CPU
// reference; its records are flat and fixed-size so that a GPU can hold them in buffers.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/vec2.hpp>

#include "murmur/scenario/scenario.hpp"

namespace murmur {

// Why an agent stopped (docs/model.md, "One step of the plan", 1); the first that holds, in
// this order.
enum class PlanDeath : std::uint32_t { Lives = 0, TooSlow = 1, TooClose = 2, TooManyTurns = 3 };

// Lines join drawn points from this step on: origin 003 draws only from its third frame.
inline constexpr std::uint64_t kPlanFirstLineStep = 3;

// A start's agent has no parent (docs/model.md, "Branching").
inline constexpr std::uint32_t kPlanNoParent = 0xffffffffu;

struct PlanAgent {
  glm::vec2 location{0.0f};      // the raw location (origin 003's `loc`)
  glm::vec2 velocity{0.0f};      // `vel`
  glm::vec2 acceleration{0.0f};  // the steering summed after the last move, for the next one
  glm::vec2 last_move{1.0f};     // v0: the last axis move; origin 003 starts it at (1, 1)
  glm::vec2 drawn{0.0f};         // the last drawn point (`loc0`); origin 003 starts it at (0, 0)
  std::uint32_t id = 0;
  std::uint32_t turns = 0;       // turns counted so far
  std::uint32_t steps = 0;       // moves made so far
  PlanDeath death = PlanDeath::Lives;
  std::uint64_t died_at = 0;     // the step whose check killed it (0 while alive)
  bool alive = true;
  // Branching (docs/model.md, "Branching"): the parent's index, the step of the birth (0 for the
  // start's agents; deaths apply from born + warmup) and a child's origin, the drawn point on
  // its parent's line that its first segment starts from.
  std::uint32_t parent = kPlanNoParent;
  std::uint32_t born = 0;
  glm::vec2 origin{0.0f};
};

// Whether two agents are the same bit for bit, every field (floats compared as bits).
bool same_plan_agent(const PlanAgent& a, const PlanAgent& b);
// Every field of an agent on one line, floats in hexadecimal (%a) so that a difference in the
// last bit shows: for reports of a difference.
std::string describe_plan_agent(const PlanAgent& agent);

// One saved point of a path: appended for every move, never changed.
struct PlanPoint {
  glm::vec2 raw{0.0f};    // the raw location after the move: what clearance is measured to
  glm::vec2 drawn{0.0f};  // the drawn point after the move (snapped, corner squared)
  // The move itself (v0), added to the agreed shape: a segment's width follows the axis of
  // its move, which neither point alone says.
  glm::vec2 move{0.0f};
  std::uint32_t agent = 0;  // index into PlanState::agents (== its id)
  std::uint32_t step = 0;   // the step that made it (1 = the first move)
};

// The clearance index (docs/model.md, "The clearance index"): the saved points in a spatial
// hash of square cells, each cell's points a chain through `next`, newest first. Flat arrays
// that a GPU can mirror; grown by appending and, when the chains grow long, by doubling the
// buckets and rebuilding in point order, so the same points always give the same arrays.
class PlanPointIndex {
 public:
  static constexpr std::uint32_t kNone = 0xffffffffu;

  PlanPointIndex() = default;
  // Cells of side the smallest power of two >= clearance (exact to divide by), searched 3 x 3.
  explicit PlanPointIndex(float clearance);

  // Adds points[size() .. points.size()), which extend the points already added.
  void add(std::span<const PlanPoint> points);
  // Whether a point of an agent other than `agent` lies within `clearance` (the index's):
  // origin 003's float distance, |at - raw| < clearance.
  bool near_other_path(std::span<const PlanPoint> points, glm::vec2 at,
                       std::uint32_t agent) const;

  std::size_t size() const { return next_.size(); }
  float clearance() const { return clearance_; }
  float cell_side() const { return cell_side_; }
  int rings() const { return rings_; }
  std::span<const std::uint32_t> heads() const { return heads_; }
  std::span<const std::uint32_t> next() const { return next_; }
  // The bucket of a cell (docs/model.md gives the hash).
  std::uint32_t bucket_of(glm::ivec2 cell) const;
  glm::ivec2 cell_of(glm::vec2 position) const;

 private:
  float clearance_ = 1.0f;
  float cell_side_ = 1.0f;
  int rings_ = 1;                      // cells searched on each side of the centre cell
  std::vector<std::uint32_t> heads_;   // per bucket: its newest point, or kNone
  std::vector<std::uint32_t> next_;    // per point: the next older point of its bucket
  void link(std::span<const PlanPoint> points, std::uint32_t point);
};

// The clearance index's cell side for a clearance: plan_index_cell_side (scenario.hpp).

// The canvas's cells that saved points cover (docs/model.md, "Branching"): a bitmap over
// ceil(W / h) x ceil(H / h) square cells of the clearance index's side h from (0, 0), and the
// count of those set. A point outside the canvas covers nothing.
class PlanCoverage {
 public:
  PlanCoverage() = default;  // no cells
  // No cells either when the canvas has more than MURMUR_PLAN_MAX_COVERAGE_CELLS of them.
  PlanCoverage(glm::vec2 canvas, float cell_side);
  // ceil(W / h) * ceil(H / h), in double (a canvas may have more cells than a uint32 counts).
  static double cells_for(glm::vec2 canvas, float cell_side);
  // Adds points[read() .. points.size()), which extend the points already added.
  void add(std::span<const PlanPoint> points);
  // The cell a raw location covers, or kNoCell outside the canvas (or with no cells).
  static constexpr std::uint32_t kNoCell = 0xffffffffu;
  std::uint32_t cell_of(glm::vec2 raw) const;
  std::uint32_t cells() const { return cells_; }
  std::uint32_t covered() const { return covered_; }
  std::size_t read() const { return read_; }
  glm::uvec2 shape() const { return shape_; }
  // covered < fraction * cells, exact in double (both below 2^53).
  bool below(float fraction) const;
  std::span<const std::uint32_t> bits() const { return bits_; }

 private:
  glm::vec2 canvas_{0.0f};
  float inverse_side_ = 1.0f;
  glm::uvec2 shape_{0u};
  std::uint32_t cells_ = 0;
  std::uint32_t covered_ = 0;
  std::size_t read_ = 0;
  std::vector<std::uint32_t> bits_;  // bit c % 32 of word c / 32: cell c is covered
};

// The coverage cells of a plan scenario's canvas (its world, the clearance index's side).
PlanCoverage plan_coverage(const PlanScenario& scenario);

// Origin 003's snap of the coordinate across a move to a multiple of `snap`: `v - v % snap`,
// plus `snap` when the remainder is at least snap / 2, with Java's remainder (the sign of v).
// So v >= 0 rounds half up, and v < 0 rounds toward zero (-17 -> -10, -3 -> 0).
float plan_snapped(float v, float snap);

// Origin 003's distance, |a - b| in float32 as Processing's PVector.dist computes it.
float plan_distance(glm::vec2 a, glm::vec2 b);

// The same question as PlanPointIndex::near_other_path, by a scan over every point: the oracle
// the index is tested against.
bool near_other_path_brute_force(std::span<const PlanPoint> points, glm::vec2 at,
                                 std::uint32_t agent, float clearance);

struct PlanState {
  std::uint64_t step = 0;          // steps made
  std::uint64_t seed = 0;          // the start's seed; branching draws from it
  std::vector<PlanAgent> agents;   // by id
  std::vector<PlanPoint> points;   // append-only, in step then agent order
  PlanPointIndex index;            // over `points`
  PlanCoverage coverage;           // over `points`
  std::uint64_t births_dropped = 0;  // branches past max_agents (docs/model.md, "Branching")
  std::uint32_t living() const;
  std::uint32_t births() const;    // agents with a parent
};

// The start: every group's agents, ids in file order, uniform in its rectangle, velocities
// uniform in [-start_speed_x, start_speed_x) x [-start_speed_y, start_speed_y), from `seed`
// through the counter-based generator (random.hpp). No points yet. `scenario` must have a
// [plan] table.
PlanState plan_start(const PlanScenario& scenario, std::uint64_t seed);

// One synchronous step of every agent (docs/model.md, "One step of the plan"). `workers`: the
// threads that share the agents (0: as many as the cores and the agents make worthwhile); the
// result does not depend on it, bit for bit. Throws std::length_error rather than wrap when the
// points would pass 2^32 - 2 or the steps 2^32 - 1 (uint32 in the records and the index).
void plan_step(const PlanScenario& scenario, PlanState& state, unsigned workers = 0);

// The same step with every agent a steering candidate and every point scanned for clearance
// (O(N^2 + N P)): the oracle plan_step is tested against, bit for bit.
void plan_step_brute_force(const PlanScenario& scenario, PlanState& state, unsigned workers = 0);

// The drawing: one polyline per agent (by id), its consecutive drawn points joined from step
// kPlanFirstLineStep on (a child's first one from its origin); each segment's width is the
// scenario's vertical_width for a move along y and horizontal_width for a move along x.
struct PlanSegment {
  glm::vec2 from{0.0f}, to{0.0f};
  float width = 0.0f;
};
std::vector<std::vector<PlanSegment>> plan_drawing(const PlanScenario& scenario,
                                                   const PlanState& state);

// The plan statistics of docs/model.md ("Plan statistics") for one state: its agents by fate,
// its saved points and the ink of plan_drawing. living + the three death counts = agents.
struct PlanSummary {
  std::uint64_t step = 0;
  std::uint32_t agents = 0;
  std::uint32_t living = 0;
  std::uint32_t died_too_slow = 0;        // PlanDeath::TooSlow
  std::uint32_t died_too_close = 0;       // PlanDeath::TooClose
  std::uint32_t died_too_many_turns = 0;  // PlanDeath::TooManyTurns
  std::uint64_t points = 0;               // saved points: one per move
  std::uint32_t births = 0;               // children born (agents with a parent)
  std::uint64_t births_dropped = 0;       // branches past max_agents
  std::uint32_t covered_cells = 0;        // the state's coverage cells holding a point ...
  std::uint32_t cells = 0;                // ... of these (0: coverage not counted)
  double coverage() const { return cells == 0 ? 0.0 : double(covered_cells) / double(cells); }
  // The length of plan_drawing's segments, in double, summed in point order: those drawn by
  // moves along x (horizontal_width, the DXF's layer of that width), along y (vertical_width),
  // and their sum.
  double drawn_length_horizontal = 0;
  double drawn_length_vertical = 0;
  double drawn_length = 0;
  bool operator==(const PlanSummary&) const = default;
};
PlanSummary plan_summary(const PlanScenario& scenario, const PlanState& state);

// plan_summary along one run, reading each saved point once: summary(state) gives exactly
// plan_summary(scenario, state) as long as every call sees the same run's points, only grown.
class PlanSummaryTracker {
 public:
  PlanSummary summary(const PlanState& state);

 private:
  std::size_t points_read_ = 0;
  std::vector<std::uint32_t> latest_;  // per agent: its newest point read, or kNone
  double horizontal_ = 0.0;
  double vertical_ = 0.0;
};

}  // namespace murmur
