// The floor-plan generator's CPU reference (docs/model.md, "The floor-plan generator (origin
// 003)"). Vector operations follow Processing's PVector in float32, one rounding each, so that
// the rules read as origin 003's lines do; sums whose order a GPU could change are in a fixed
// order (agent index) or in double. The GPU's twin (shaders/plan/plan.glsl, plan_move.comp,
// plan_branch.comp) names its functions alike.
// Sections, in order: PVector in float32 and the grid helpers (plan_magnitude .. plan_bucket);
// the death check and the move; the crowd and its steering; the clearance index; the coverage;
// the plan (start, branching, the step); the drawing and the statistics.
#include "murmur/plan/plan.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "common/interface.h"
#include "murmur/base/errors.hpp"
#include "murmur/base/parallel.hpp"
#include "murmur/base/random.hpp"

namespace murmur {
namespace {

// Below this many agents per thread a phase is too short for threads to pay for their start-up.
constexpr std::size_t kMinAgentsPerWorker = 2048;
// The shapes below are shared with the GPU (shaders/common/interface.h says what each is).
constexpr std::uint32_t kMinBuckets = MURMUR_PLAN_MIN_BUCKETS;
constexpr std::size_t kMaxPointsPerBucket = MURMUR_PLAN_MAX_POINTS_PER_BUCKET;
constexpr std::size_t kTotalBlock = MURMUR_PLAN_TOTAL_BLOCK;
constexpr float kCandidateSlack = float(MURMUR_PLAN_CANDIDATE_SLACK);
constexpr float kMinCandidateRadius = float(MURMUR_PLAN_MIN_CANDIDATE_RADIUS);
constexpr std::size_t kMaxCellsPerAgent = MURMUR_PLAN_MAX_CELLS_PER_AGENT;
// PlanPoint::step is a uint32.
constexpr std::uint64_t kMaxPlanStep = 0xffffffffu;
// Origin 003's random draws per agent at the start: position x, y, velocity x, y.
enum StartDraw : std::uint32_t { kDrawX = 0, kDrawY = 1, kDrawVelocityX = 2, kDrawVelocityY = 3 };
// Branching's draws (shaders/common/interface.h), after the start's.
static_assert(MURMUR_PLAN_DRAW_BRANCH > kDrawVelocityY);
constexpr std::uint32_t kDrawBranch = MURMUR_PLAN_DRAW_BRANCH;
constexpr std::uint32_t kDrawBranchSide = MURMUR_PLAN_DRAW_BRANCH_SIDE;
constexpr std::uint64_t kMaxCoverageCells = MURMUR_PLAN_MAX_COVERAGE_CELLS;

// ---- PVector in float32 -------------------------------------------------------------

float plan_magnitude(glm::vec2 v) { return std::sqrt(v.x * v.x + v.y * v.y); }

// PVector.normalize: unchanged when the magnitude is 0 or 1.
glm::vec2 plan_normalized(glm::vec2 v) {
  const float m = plan_magnitude(v);
  return (m != 0.0f && m != 1.0f) ? v / m : v;
}

glm::vec2 with_magnitude(glm::vec2 v, float length) { return plan_normalized(v) * length; }

// PVector.limit.
glm::vec2 plan_limited(glm::vec2 v, float max) {
  return (v.x * v.x + v.y * v.y > max * max) ? plan_normalized(v) * max : v;
}

// Reynolds steering as origin 003 writes it: toward `desired` at max_speed, minus the velocity,
// limited to max_force.
glm::vec2 plan_steer(glm::vec2 desired, glm::vec2 velocity, const PlanParams& plan) {
  return plan_limited(with_magnitude(desired, plan.max_speed) - velocity, plan.max_force);
}

// Java's float remainder v % m: std::fmod is exact, with the sign of v.
float plan_remainder(float v, float m) { return std::fmod(v, m); }

// The clearance index's cell of a position, for cells of side `cell_side`.
glm::ivec2 plan_index_cell(glm::vec2 position, float cell_side) {
  // A power-of-two side: the product is exact, and so is the cell's edge.
  const float inverse_side = 1.0f / cell_side;
  return {int(std::floor(position.x * inverse_side)), int(std::floor(position.y * inverse_side))};
}

// The clearance index's bucket of a cell among `buckets` (a power of two).
std::uint32_t plan_bucket(glm::ivec2 cell, std::uint32_t buckets) {
  // Teschner et al.'s spatial hash, then Fibonacci hashing to take the well-mixed top bits.
  constexpr std::uint32_t kPrimeX = 73856093u;
  constexpr std::uint32_t kPrimeY = 19349663u;
  constexpr std::uint32_t kGoldenRatio32 = 0x9e3779b1u;
  const std::uint32_t hash =
      (std::uint32_t(cell.x) * kPrimeX) ^ (std::uint32_t(cell.y) * kPrimeY);
  const int bits = std::countr_zero(buckets);
  return (hash * kGoldenRatio32) >> (32 - bits);
}

// How a step finds the points near an agent and its neighbours: through the clearance index and
// the steering grid, or by scanning everything (the oracle of the tests).
enum class Search { Indexed, BruteForce };

// The death check at the start of a step (docs/model.md, "One step of the plan", 1), on the
// state the previous step left: the first cause that holds.
PlanDeath death_of(const PlanParams& plan, const PlanState& state, const PlanAgent& agent,
                   Search search) {
  if (plan_magnitude(agent.last_move) < plan.min_speed) return PlanDeath::TooSlow;
  const bool too_close =
      search == Search::Indexed
          ? state.index.near_other_path(state.points, agent.location, agent.id)
          : near_other_path_brute_force(state.points, agent.location, agent.id, plan.clearance);
  if (too_close) return PlanDeath::TooClose;
  if (agent.turns > plan.max_turns) return PlanDeath::TooManyTurns;
  return PlanDeath::Lives;
}

// Origin 003's move() and calTurns() (docs/model.md, "One step of the plan", 2-3): the axis
// move, the drawn point snapped across it, and a turn's squared corner.
void move(const PlanParams& plan, PlanAgent& agent) {
  agent.velocity = plan_limited(agent.velocity + agent.acceleration, plan.max_speed);
  const glm::vec2 previous_move = agent.last_move;
  const glm::vec2 v = agent.velocity;
  const glm::vec2 axis_move =
      std::abs(v.x) >= std::abs(v.y) ? glm::vec2(v.x, 0.0f) : glm::vec2(0.0f, v.y);
  agent.location += axis_move;
  const glm::vec2 previous_drawn = agent.drawn;
  // Both branches run for a zero move, as in origin 003: the second one wins.
  const glm::vec2 at = agent.location;
  if (axis_move.x == 0.0f) agent.drawn = {plan_snapped(at.x, plan.snap), at.y};
  if (axis_move.y == 0.0f) agent.drawn = {at.x, plan_snapped(at.y, plan.snap)};
  if (axis_move.x * previous_move.x + axis_move.y * previous_move.y <= 0.0f) {
    ++agent.turns;
    if (axis_move.x == 0.0f) agent.drawn.y = previous_drawn.y;
    if (axis_move.y == 0.0f) agent.drawn.x = previous_drawn.x;
  }
  agent.last_move = axis_move;
  agent.acceleration = glm::vec2(0.0f);
  ++agent.steps;
}

// Where every agent stands after the moves, binned for separation and cohesion: a uniform grid
// over the agents' bounding box, cells at least the steering's reach so that 3 x 3 cells hold
// every candidate, each cell's agents in index order (a stable counting sort, as a GPU's scan
// and scatter would give).
struct Crowd {
  std::vector<glm::vec2> locations;  // by agent index, the dead included (origin 003's list)
  glm::vec2 origin{0.0f};            // the bounding box's low corner
  float cell = 1.0f;
  glm::ivec2 cells{1, 1};
  std::vector<std::uint32_t> cell_start;  // per cell, then one past the last: into `sorted`
  std::vector<std::uint32_t> sorted;      // agent indices by cell, then index
  glm::dvec2 total{0.0};  // sum of the locations, in blocks of kTotalBlock (docs/model.md)
};

// The steering grid's cell of a location, clamped into the grid.
glm::ivec2 plan_grid_cell(const Crowd& crowd, glm::vec2 p) {
  const glm::ivec2 c(glm::floor((p - crowd.origin) / crowd.cell));
  return glm::clamp(c, glm::ivec2(0), crowd.cells - 1);
}

Crowd crowd_of(const PlanState& state, float reach, Search search) {
  Crowd crowd;
  const std::size_t count = state.agents.size();
  crowd.locations.reserve(count);
  for (const PlanAgent& a : state.agents) crowd.locations.push_back(a.location);
  glm::vec2 low{0.0f}, high{0.0f};
  if (count > 0) low = high = crowd.locations[0];
  for (const glm::vec2 p : crowd.locations) {
    low = glm::min(low, p);
    high = glm::max(high, p);
  }
  // Agents that wander far would ask for many empty cells: the cells grow instead, past
  // kMaxCellsPerAgent per agent.
  const glm::vec2 extent = high - low;
  const double area_per_cell = double(extent.x) * double(extent.y) /
                               double(kMaxCellsPerAgent * std::max<std::size_t>(count, 1));
  crowd.cell = std::max({reach * (1.0f + kCandidateSlack) + kMinCandidateRadius,
                         float(std::sqrt(area_per_cell)), kMinCandidateRadius});
  // One cell holding everyone: every agent is a candidate.
  if (search == Search::BruteForce) crowd.cell = std::max({extent.x, extent.y, reach}) * 2.0f;
  crowd.origin = low;
  crowd.cells = glm::ivec2(glm::floor(extent / crowd.cell)) + 1;
  const std::size_t cells = std::size_t(crowd.cells.x) * std::size_t(crowd.cells.y);
  crowd.cell_start.assign(cells + 1, 0);
  std::vector<std::uint32_t> cell_of_agent(count);
  for (std::size_t i = 0; i < count; ++i) {
    const glm::ivec2 c = plan_grid_cell(crowd, crowd.locations[i]);
    cell_of_agent[i] = std::uint32_t(c.y * crowd.cells.x + c.x);
    ++crowd.cell_start[cell_of_agent[i] + 1];
  }
  for (std::size_t c = 0; c < cells; ++c) crowd.cell_start[c + 1] += crowd.cell_start[c];
  crowd.sorted.resize(count);
  std::vector<std::uint32_t> fill(crowd.cell_start.begin(), crowd.cell_start.end() - 1);
  for (std::size_t i = 0; i < count; ++i) crowd.sorted[fill[cell_of_agent[i]]++] = std::uint32_t(i);
  for (std::size_t begin = 0; begin < count; begin += kTotalBlock) {
    glm::dvec2 block{0.0};
    const std::size_t end = std::min(count, begin + kTotalBlock);
    for (std::size_t i = begin; i < end; ++i) block += glm::dvec2(crowd.locations[i]);
    crowd.total += block;
  }
  return crowd;
}

// Origin 003's flock(): separation from the agents closer than separation_radius, cohesion toward
// the centroid of those farther than cohesion_min_distance; each sum in agent index order.
glm::vec2 steering(const PlanParams& plan, const Crowd& crowd, const PlanAgent& agent,
                   std::vector<std::uint32_t>& near) {
  const glm::vec2 at = agent.location;
  near.clear();
  const glm::ivec2 centre = plan_grid_cell(crowd, at);
  const glm::ivec2 first = glm::max(centre - 1, glm::ivec2(0));
  const glm::ivec2 last = glm::min(centre + 1, crowd.cells - 1);
  for (int y = first.y; y <= last.y; ++y) {
    for (int x = first.x; x <= last.x; ++x) {
      const std::size_t c = std::size_t(y) * std::size_t(crowd.cells.x) + std::size_t(x);
      near.insert(near.end(), crowd.sorted.begin() + crowd.cell_start[c],
                  crowd.sorted.begin() + crowd.cell_start[c + 1]);
    }
  }
  std::sort(near.begin(), near.end());
  glm::vec2 separation{0.0f};
  std::uint32_t separating = 0;
  glm::dvec2 near_sum{0.0};
  std::size_t near_count = 0;
  for (const std::uint32_t j : near) {
    const glm::vec2 other = crowd.locations[j];
    const float distance = plan_distance(at, other);
    if (distance > 0.0f && distance < plan.separation_radius) {
      separation += plan_normalized(at - other) / distance;
      ++separating;
    }
    if (!(distance > plan.cohesion_min_distance)) {
      near_sum += glm::dvec2(other);
      ++near_count;
    }
  }
  glm::vec2 acceleration{0.0f};
  if (separating > 0) {
    acceleration += plan_steer(separation, agent.velocity, plan) * plan.separation_weight;
  }
  const std::size_t far_count = crowd.locations.size() - near_count;
  if (far_count > 0) {
    const glm::vec2 centroid((crowd.total - near_sum) / double(far_count));
    acceleration += plan_steer(centroid - at, agent.velocity, plan) * plan.cohesion_weight;
  }
  return acceleration;
}

}  // namespace

// ---- the clearance index ------------------------------------------------------------

PlanPointIndex::PlanPointIndex(float clearance) : clearance_(clearance) {
  cell_side_ = plan_index_cell_side(clearance);
  rings_ = 1;
  heads_.assign(kMinBuckets, kNone);
}

glm::ivec2 PlanPointIndex::cell_of(glm::vec2 position) const {
  return plan_index_cell(position, cell_side_);
}

std::uint32_t PlanPointIndex::bucket_of(glm::ivec2 cell) const {
  return plan_bucket(cell, std::uint32_t(heads_.size()));
}

void PlanPointIndex::link(std::span<const PlanPoint> points, std::uint32_t point) {
  std::uint32_t& head = heads_[bucket_of(cell_of(points[point].raw))];
  next_[point] = head;
  head = point;
}

void PlanPointIndex::add(std::span<const PlanPoint> points) {
  const std::size_t first = next_.size();
  std::size_t buckets = heads_.size();
  while (points.size() > kMaxPointsPerBucket * buckets) buckets *= 2;
  next_.resize(points.size(), kNone);
  if (buckets != heads_.size()) {
    // Rebuilt in point order: the chains come out newest first, as appending makes them.
    heads_.assign(buckets, kNone);
    for (std::size_t p = 0; p < points.size(); ++p) link(points, std::uint32_t(p));
    return;
  }
  for (std::size_t p = first; p < points.size(); ++p) link(points, std::uint32_t(p));
}

bool PlanPointIndex::near_other_path(std::span<const PlanPoint> points, glm::vec2 at,
                                     std::uint32_t agent) const {
  const glm::ivec2 centre = cell_of(at);
  for (int dy = -rings_; dy <= rings_; ++dy) {
    for (int dx = -rings_; dx <= rings_; ++dx) {
      const glm::ivec2 cell = centre + glm::ivec2(dx, dy);
      for (std::uint32_t p = heads_[bucket_of(cell)]; p != kNone; p = next_[p]) {
        if (points[p].agent != agent && plan_distance(at, points[p].raw) < clearance_) {
          return true;
        }
      }
    }
  }
  return false;
}

// ---- the coverage ------------------------------------------------------------------

double PlanCoverage::cells_for(glm::vec2 canvas, float cell_side) {
  return plan_canvas_cells(canvas, cell_side);
}

PlanCoverage::PlanCoverage(glm::vec2 canvas, float cell_side)
    : canvas_(canvas), inverse_side_(1.0f / cell_side) {
  if (!(cells_for(canvas, cell_side) <= double(kMaxCoverageCells))) return;  // none counted
  shape_ = glm::uvec2(std::uint32_t(std::ceil(double(canvas.x) / double(cell_side))),
                      std::uint32_t(std::ceil(double(canvas.y) / double(cell_side))));
  cells_ = shape_.x * shape_.y;
  bits_.assign((std::size_t(cells_) + 31) / 32, 0u);
}

std::uint32_t PlanCoverage::cell_of(glm::vec2 raw) const {
  if (cells_ == 0 || !(raw.x >= 0.0f && raw.x < canvas_.x && raw.y >= 0.0f && raw.y < canvas_.y)) {
    return kNoCell;
  }
  // Exact products (a power of two) inside the canvas: below the columns and rows.
  const auto column = std::uint32_t(std::floor(raw.x * inverse_side_));
  const auto row = std::uint32_t(std::floor(raw.y * inverse_side_));
  return row * shape_.x + column;
}

void PlanCoverage::add(std::span<const PlanPoint> points) {
  for (; read_ < points.size(); ++read_) {
    const std::uint32_t cell = cell_of(points[read_].raw);
    if (cell == kNoCell) continue;
    std::uint32_t& word = bits_[cell / 32];
    const std::uint32_t bit = 1u << (cell % 32);
    if ((word & bit) == 0) ++covered_;
    word |= bit;
  }
}

bool PlanCoverage::below(float fraction) const {
  return double(covered_) < double(fraction) * double(cells_);
}

PlanCoverage plan_coverage(const PlanScenario& scenario) {
  return PlanCoverage(scenario.size(), plan_index_cell_side(scenario.plan.clearance));
}

float plan_distance(glm::vec2 a, glm::vec2 b) { return plan_magnitude(a - b); }

// v - remainder is an exact multiple of snap wherever that multiple is a float.
float plan_snapped(float v, float snap) {
  const float remainder = plan_remainder(v, snap);
  const float below = v - remainder;
  return remainder < 0.5f * snap ? below : below + snap;
}

bool near_other_path_brute_force(std::span<const PlanPoint> points, glm::vec2 at,
                                 std::uint32_t agent, float clearance) {
  return std::any_of(points.begin(), points.end(), [&](const PlanPoint& p) {
    return p.agent != agent && plan_distance(at, p.raw) < clearance;
  });
}

// ---- the plan -----------------------------------------------------------------------

namespace {

bool same_bits(glm::vec2 a, glm::vec2 b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

}  // namespace

bool same_plan_agent(const PlanAgent& a, const PlanAgent& b) {
  return same_bits(a.location, b.location) && same_bits(a.velocity, b.velocity) &&
         same_bits(a.acceleration, b.acceleration) && same_bits(a.last_move, b.last_move) &&
         same_bits(a.drawn, b.drawn) && a.id == b.id && a.turns == b.turns &&
         a.steps == b.steps && a.death == b.death && a.died_at == b.died_at &&
         a.alive == b.alive && a.parent == b.parent && a.born == b.born &&
         same_bits(a.origin, b.origin);
}

std::string describe_plan_agent(const PlanAgent& a) {
  char text[512];
  std::snprintf(text, sizeof text,
                "id %u loc (%a, %a) vel (%a, %a) acc (%a, %a) move (%a, %a) drawn (%a, %a) "
                "turns %u steps %u death %u at %llu alive %d parent %u born %u origin (%a, %a)",
                a.id, a.location.x, a.location.y, a.velocity.x, a.velocity.y, a.acceleration.x,
                a.acceleration.y, a.last_move.x, a.last_move.y, a.drawn.x, a.drawn.y, a.turns,
                a.steps, unsigned(a.death), static_cast<unsigned long long>(a.died_at),
                a.alive ? 1 : 0, a.parent, a.born, a.origin.x, a.origin.y);
  return text;
}


std::uint32_t PlanState::living() const {
  return std::uint32_t(std::count_if(agents.begin(), agents.end(),
                                     [](const PlanAgent& a) { return a.alive; }));
}

std::uint32_t PlanState::births() const {
  return std::uint32_t(std::count_if(agents.begin(), agents.end(),
                                     [](const PlanAgent& a) { return a.parent != kPlanNoParent; }));
}

PlanState plan_start(const PlanScenario& scenario, std::uint64_t seed) {
  const PlanParams& plan = scenario.plan;
  PlanState state;
  state.seed = seed;
  state.index = PlanPointIndex(plan.clearance);
  state.coverage = plan_coverage(scenario);
  std::uint32_t id = 0;
  for (const PlanGroup& group : plan.groups) {
    for (std::uint32_t k = 0; k < group.count; ++k, ++id) {
      const auto draw = [&](std::uint32_t which, float low, float high) {
        return random_uniform(RandomDraw{seed, id, 0, which}, low, high);
      };
      PlanAgent agent;
      agent.id = id;
      agent.location = {draw(kDrawX, group.x, group.x + group.width),
                        draw(kDrawY, group.y, group.y + group.height)};
      agent.velocity = {draw(kDrawVelocityX, -plan.start_speed_x, plan.start_speed_x),
                        draw(kDrawVelocityY, -plan.start_speed_y, plan.start_speed_y)};
      state.agents.push_back(agent);
    }
  }
  return state;
}

namespace {

// The child that agent `parent` starts in step `step` (docs/model.md, "Branching"): at its
// location, at a right angle to its last move, its line from the grid point nearest it.
PlanAgent child_of(const PlanParams& plan, const PlanAgent& parent, std::uint32_t index,
                   std::uint64_t seed, std::uint64_t step) {
  const float side =
      random_uniform01(RandomDraw{seed, parent.id, step, kDrawBranchSide}) < 0.5f ? 1.0f : -1.0f;
  const glm::vec2 m = parent.last_move;
  PlanAgent child;
  child.id = index;
  child.location = parent.location;
  child.velocity = side * glm::vec2(-m.y, m.x);  // exact: a negation and a swap
  child.last_move = child.velocity;              // the first move is then no turn
  child.drawn = {plan_snapped(parent.location.x, plan.snap),
                 plan_snapped(parent.location.y, plan.snap)};
  child.origin = child.drawn;
  child.parent = parent.id;
  child.born = std::uint32_t(step);
  return child;
}

// Whether agent `agent`, alive after step `step`, draws a branch (its draw below
// branch_chance); step_plan has checked the warm-up and the coverage for every agent at once.
bool branches(const PlanParams& plan, const PlanState& state, const PlanAgent& agent,
              std::uint64_t step) {
  if (!agent.alive) return false;
  const RandomDraw draw{state.seed, agent.id, step, kDrawBranch};
  return random_uniform01(draw) < plan.branch_chance;
}

// Every agent the step started with that is still alive draws its branch; the branching ones,
// ranked in index order, take the indices after the step's agents while there is room under
// max_agents, as the flock's births take theirs in parent order.
void branch(const PlanParams& plan, PlanState& state, std::uint64_t step) {
  const std::size_t count = state.agents.size();
  std::uint64_t rank = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const PlanAgent& parent = state.agents[i];
    if (!branches(plan, state, parent, step)) continue;
    if (count + rank < plan.max_agents) {
      // push_back may move the agents: the parent is read before it.
      const PlanAgent child = child_of(plan, parent, std::uint32_t(count + rank), state.seed, step);
      state.agents.push_back(child);
    } else {
      ++state.births_dropped;
    }
    ++rank;
  }
}

void step_plan(const PlanScenario& scenario, PlanState& state, unsigned workers, Search search) {
  const PlanParams& plan = scenario.plan;
  const std::uint64_t step = state.step + 1;
  std::vector<PlanAgent>& agents = state.agents;
  const std::size_t count = agents.size();
  const std::size_t threads = workers_for(count, workers, kMinAgentsPerWorker);

  // 1. Deaths, on the state the previous step left. An agent killed here still makes this
  // step's move, as in origin 003 (its run() follows checkDead()).
  std::vector<char> moves(count, 0);
  for (std::size_t i = 0; i < count; ++i) moves[i] = agents[i].alive ? 1 : 0;
  if (step > plan.warmup) {
    for_each_chunk(count, threads, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) {
        // A child's deaths apply from its birth plus the warm-up (born = 0 at the start).
        if (!moves[i] || step <= std::uint64_t{agents[i].born} + plan.warmup) continue;
        const PlanDeath death = death_of(plan, state, agents[i], search);
        if (death != PlanDeath::Lives) {
          agents[i].death = death;
          agents[i].died_at = step;
          agents[i].alive = false;
        }
      }
    });
  }

  // 2. The moves, each with the acceleration the previous step's steering left.
  for_each_chunk(count, threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      if (moves[i]) move(plan, agents[i]);
    }
  });

  // 3. The new points, in agent order, into the points and the index. Point indices and steps
  // are uint32 in the index and the records (as on a GPU): running out is an error, never a
  // wrapped index that would hide points from the clearance test.
  const auto movers = std::size_t(std::count(moves.begin(), moves.end(), char{1}));
  if (state.points.size() + movers >= PlanPointIndex::kNone || step > kMaxPlanStep) {
    throw std::length_error("plan step " + std::to_string(step) + ": more than " +
                            std::to_string(PlanPointIndex::kNone - 1) + " saved points or " +
                            std::to_string(kMaxPlanStep) + " steps, the most a plan holds");
  }
  // The coverage the step started from decides its branches (one snapshot for every agent).
  const bool branching = plan.branch_chance > 0.0f && step > plan.warmup &&
                         state.coverage.below(plan.branch_coverage);
  for (std::size_t i = 0; i < count; ++i) {
    if (!moves[i]) continue;
    const PlanAgent& a = agents[i];
    state.points.push_back({a.location, a.drawn, a.last_move, a.id, std::uint32_t(step)});
  }
  state.index.add(state.points);
  state.coverage.add(state.points);

  // 4. Steering for the next move, from where everyone now stands (the dead too).
  const Crowd crowd =
      crowd_of(state, std::max(plan.separation_radius, plan.cohesion_min_distance), search);
  for_each_chunk(count, threads, [&](std::size_t begin, std::size_t end) {
    std::vector<std::uint32_t> near;
    for (std::size_t i = begin; i < end; ++i) {
      if (agents[i].alive) agents[i].acceleration = steering(plan, crowd, agents[i], near);
    }
  });

  // 5. Branches, at the end of the step (docs/model.md, "Branching").
  if (branching) branch(plan, state, step);
  state.step = step;
}

}  // namespace

void plan_step(const PlanScenario& scenario, PlanState& state, unsigned workers) {
  step_plan(scenario, state, workers, Search::Indexed);
}

void plan_step_brute_force(const PlanScenario& scenario, PlanState& state, unsigned workers) {
  step_plan(scenario, state, workers, Search::BruteForce);
}

namespace {

// A point joins its agent's previous drawn point from step kPlanFirstLineStep on (origin 003 draws
// from its third frame).
bool draws_segment(const PlanPoint& point) { return point.step >= kPlanFirstLineStep; }

// Origin 003's display(): width 1 when v0.x == 0, then width 2 when v0.y == 0, so a zero move,
// which is both, is drawn as horizontal.
bool horizontal_move(const PlanPoint& point) { return point.move.y == 0.0f; }

// Where the segment of a point starts: its agent's drawn point before it, or, for a child's
// first point, the child's origin on its parent's line; none for a start agent's first point.
const glm::vec2* segment_start(const PlanAgent& agent, const PlanPoint* before) {
  if (before != nullptr) return &before->drawn;
  return agent.parent != kPlanNoParent ? &agent.origin : nullptr;
}

}  // namespace

std::vector<std::vector<PlanSegment>> plan_drawing(const PlanScenario& scenario,
                                                   const PlanState& state) {
  const PlanParams& plan = scenario.plan;
  std::vector<std::vector<PlanSegment>> drawing(state.agents.size());
  std::vector<const PlanPoint*> previous(state.agents.size(), nullptr);
  for (const PlanPoint& p : state.points) {
    const PlanPoint* before = previous[p.agent];
    previous[p.agent] = &p;
    const glm::vec2* from = segment_start(state.agents[p.agent], before);
    if (from == nullptr || !draws_segment(p)) continue;
    const float width = horizontal_move(p) ? plan.horizontal_width : plan.vertical_width;
    drawing[p.agent].push_back({*from, p.drawn, width});
  }
  return drawing;
}

PlanSummary PlanSummaryTracker::summary(const PlanState& state) {
  // Agents are only ever appended (branching): the new ones have no point read yet.
  if (state.points.size() < points_read_ || latest_.size() > state.agents.size()) {
    throw std::logic_error("PlanSummaryTracker: a state of another run");
  }
  latest_.resize(state.agents.size(), PlanPointIndex::kNone);
  // The segments the new points draw: plan_drawing's, each agent's from its newest point read.
  for (std::size_t i = points_read_; i < state.points.size(); ++i) {
    const PlanPoint& p = state.points[i];
    const std::uint32_t before = latest_[p.agent];
    latest_[p.agent] = std::uint32_t(i);
    const glm::vec2* from = segment_start(
        state.agents[p.agent], before == PlanPointIndex::kNone ? nullptr : &state.points[before]);
    if (from == nullptr || !draws_segment(p)) continue;
    const glm::dvec2 d = glm::dvec2(p.drawn) - glm::dvec2(*from);
    (horizontal_move(p) ? horizontal_ : vertical_) += std::sqrt(d.x * d.x + d.y * d.y);
  }
  points_read_ = state.points.size();

  PlanSummary summary;
  summary.step = state.step;
  summary.agents = std::uint32_t(state.agents.size());
  for (const PlanAgent& a : state.agents) {
    summary.living += a.alive ? 1 : 0;
    summary.died_too_slow += a.death == PlanDeath::TooSlow ? 1 : 0;
    summary.died_too_close += a.death == PlanDeath::TooClose ? 1 : 0;
    summary.died_too_many_turns += a.death == PlanDeath::TooManyTurns ? 1 : 0;
  }
  summary.points = state.points.size();
  summary.births = state.births();
  summary.births_dropped = state.births_dropped;
  summary.covered_cells = state.coverage.covered();
  summary.cells = state.coverage.cells();
  summary.drawn_length_horizontal = horizontal_;
  summary.drawn_length_vertical = vertical_;
  summary.drawn_length = horizontal_ + vertical_;
  return summary;
}

PlanSummary plan_summary(const PlanScenario&, const PlanState& state) {
  return PlanSummaryTracker().summary(state);
}

}  // namespace murmur
