// The statistics of docs/model.md ("Flock statistics", "Statistics in 3D") on the CPU, one code
// for 2 and 3 dimensions.
//
// Sections: polarization; milling in walls and on a torus; nearest neighbours and clusters
// (the k-d tree); the measures of a state; the population and its events; the stats' columns.
#include "murmur/flock/stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <numeric>
#include <span>
#include <vector>

#include <glm/geometric.hpp>

#include "common/interface.h"
#include "murmur/flock/kdtree.hpp"
#include "murmur/flock/model.hpp"

namespace murmur {

namespace {

// A found neighbour at distance m proves the nearest is within m, but the tree's predicate is
// float32 (|d|^2 < r^2 in float) while distances here are double: re-querying at m widened by
// this much catches every point whose double distance ties or beats m despite that rounding.
constexpr double kNearestRequerySlack = 1e-5;
// Each failed nearest-neighbour search doubles its radius.
constexpr float kRadiusGrowth = 2.0f;

// Statistics in D = 2 or 3 dimensions (docs/model.md, "Statistics in 3D"): one code for
// both, with the 2D arithmetic exactly as it was (2D results keep their bits).
template <int D>
using Point = glm::vec<D, float>;
template <int D>
using Vector = glm::vec<D, double>;

// sqrt(x^2 + y^2 (+ z^2)) in double, the squares summed in axis order.
template <int D>
double length_of(Point<D> d) {
  double sum = static_cast<double>(d[0]) * d[0];
  for (int a = 1; a < D; ++a) sum += static_cast<double>(d[a]) * d[a];
  return std::sqrt(sum);
}

// The length of a sum, without overflow or underflow in the squares.
double hypot_of(Vector<2> v) { return std::hypot(v.x, v.y); }
double hypot_of(Vector<3> v) { return std::hypot(v.x, v.y, v.z); }

// r x v: a scalar in the plane (the z of the 3D product), a vector in space.
double cross(Vector<2> r, Vector<2> v) { return r.x * v.y - r.y * v.x; }
Vector<3> cross(Vector<3> r, Vector<3> v) { return glm::cross(r, v); }

// |m| of a summed angular momentum.
double magnitude(double m) { return std::abs(m); }
double magnitude(Vector<3> m) { return hypot_of(m); }

template <int D>
double polarization(const FlockState& state) {
  Vector<D> sum(0.0);
  for (const Boid& b : state.boids) {
    const Point<D> velocity = velocity_in<Point<D>>(b);
    const double speed = length_of<D>(velocity);
    if (speed == 0.0) continue;  // no heading: counts in N, adds nothing
    sum += Vector<D>(velocity) / speed;
  }
  return hypot_of(sum) / static_cast<double>(state.boids.size());
}

// |sum_i (r_i x v_i) / (|r_i| |v_i|)| / N with r_i = offset_of(boid i): in 3D the length of
// the summed vector, 1 for a perfect mill about any axis.
template <int D, typename Offset>
double milling_about(const FlockState& state, Offset&& offset_of) {
  decltype(cross(Vector<D>{}, Vector<D>{})) angular{0.0};
  for (const Boid& b : state.boids) {
    const Vector<D> r = offset_of(b);
    const Point<D> velocity = velocity_in<Point<D>>(b);
    const double norm = hypot_of(r) * length_of<D>(velocity);
    if (norm == 0.0) continue;  // at the centroid or at rest: no direction of rotation
    angular += cross(r, Vector<D>(velocity)) / norm;
  }
  return magnitude(angular) / static_cast<double>(state.boids.size());
}

// Every species bounded: the centroid is the plain mean of the positions.
template <int D>
double milling_in_walls(const FlockState& state) {
  Vector<D> centroid(0.0);
  for (const Boid& b : state.boids) centroid += Vector<D>(position_in<Point<D>>(b));
  centroid /= static_cast<double>(state.boids.size());
  return milling_about<D>(state,
                          [&](const Boid& b) { return Vector<D>(position_in<Point<D>>(b)) - centroid; });
}

// The circular mean of one axis of side `side`: the positions as angles 2 pi x / side, their
// mean direction back as a position in [0, side). Empty when the directions cancel exactly.
std::optional<double> circular_mean(double cos_sum, double sin_sum, double side) {
  if (cos_sum == 0.0 && sin_sum == 0.0) return std::nullopt;
  double centre = side / (2.0 * std::numbers::pi) * std::atan2(sin_sum, cos_sum);
  if (centre < 0.0) centre += side;
  return centre < side ? centre : 0.0;  // -tiny + side may round up to side itself
}

// From a centre in [0, side) to a position in [0, side]: |d| <= side, so one shift suffices.
double minimum_image(double d, double side) {
  if (d > 0.5 * side) return d - side;
  if (d < -0.5 * side) return d + side;
  return d;
}

// Some species wrap: the centroid is the circular mean per axis, and each boid's offset from
// it the displacement its own species sees (the minimum image for a wrap species). Empty
// unless every boid lies within MURMUR_MILLING_COMPACT_SHARE of the side of it on each axis.
template <int D>
std::optional<double> milling_on_torus(const Scenario& scenario, const FlockState& state) {
  const Vector<D> sides(world_in<Point<D>>(scenario));
  Vector<D> cos_sum(0.0);
  Vector<D> sin_sum(0.0);
  for (const Boid& b : state.boids) {
    const Point<D> p = position_in<Point<D>>(b);
    for (int a = 0; a < D; ++a) {
      const double angle = 2.0 * std::numbers::pi * p[a] / sides[a];
      cos_sum[a] += std::cos(angle);
      sin_sum[a] += std::sin(angle);
    }
  }
  Vector<D> centre;
  for (int a = 0; a < D; ++a) {
    const std::optional<double> mean = circular_mean(cos_sum[a], sin_sum[a], sides[a]);
    if (!mean) return std::nullopt;
    centre[a] = *mean;
  }
  const auto offset_of = [&](const Boid& b) {
    Vector<D> r = Vector<D>(position_in<Point<D>>(b)) - centre;
    if (scenario.species.at(b.species).topology == Topology::Wrap) {
      for (int a = 0; a < D; ++a) r[a] = minimum_image(r[a], sides[a]);
    }
    return r;
  };
  const bool compact = std::all_of(state.boids.begin(), state.boids.end(), [&](const Boid& b) {
    const Vector<D> r = offset_of(b);
    for (int a = 0; a < D; ++a) {
      if (!(std::abs(r[a]) <= MURMUR_MILLING_COMPACT_SHARE * sides[a])) return false;
    }
    return true;
  });
  if (!compact) return std::nullopt;
  return milling_about<D>(state, offset_of);
}

// Each boid's species' topology and perception radius, looked up once.
struct PerBoidSpecies {
  std::vector<Topology> topology;
  std::vector<float> radius;
};

PerBoidSpecies per_boid_species(const Scenario& scenario, const FlockState& state) {
  PerBoidSpecies t;
  t.topology.reserve(state.boids.size());
  t.radius.reserve(state.boids.size());
  for (const Boid& b : state.boids) {
    const SpeciesParams& s = scenario.species.at(b.species);
    t.topology.push_back(s.topology);
    t.radius.push_back(s.perception_radius);
  }
  return t;
}

// Exact nearest-neighbour distance of boid i (j != i), seen with i's topology: grow the query
// radius until something is found, then re-query just past the best distance found.
template <int D>
double nearest_distance(const KdTree<D>& tree, std::span<const Point<D>> positions,
                        std::size_t i, Topology topology, Point<D> world, float start_radius,
                        std::vector<std::uint32_t>& found) {
  // Past this radius the query box covers the whole world (for wrap: every axis unpruned).
  float side_sum = world[0];
  for (int a = 1; a < D; ++a) side_sum += world[a];
  const float covering_radius = 2.0f * side_sum;
  const auto best_of = [&]() {
    double best = std::numeric_limits<double>::infinity();
    for (const std::uint32_t j : found) {
      if (j == i) continue;
      best = std::min(best,
                      length_of<D>(displacement(positions[i], positions[j], topology, world)));
    }
    return best;
  };
  float radius = start_radius;
  double best = std::numeric_limits<double>::infinity();
  while (true) {
    found.clear();
    tree.query_radius(positions[i], radius, topology, world, found);
    best = best_of();
    if (std::isfinite(best) || radius >= covering_radius) break;
    radius *= kRadiusGrowth;
  }
  if (!std::isfinite(best)) {  // only for positions outside the world; fall back to all pairs
    found.resize(positions.size());
    std::iota(found.begin(), found.end(), 0u);
    return best_of();
  }
  if (best == 0.0) return best;
  found.clear();
  tree.query_radius(positions[i], static_cast<float>(best * (1.0 + kNearestRequerySlack)),
                    topology, world, found);
  return best_of();
}

// The typical nearest-neighbour distance of `count` uniform points, sqrt(area / N) or
// cbrt(volume / N): a first guess that usually finds a neighbour at once.
double typical_spacing(glm::vec2 world, double count) {
  return std::sqrt(static_cast<double>(world.x) * world.y / count);
}
double typical_spacing(glm::vec3 world, double count) {
  return std::cbrt(static_cast<double>(world.x) * world.y * world.z / count);
}

template <int D>
double mean_nearest_neighbour(const Scenario& scenario, const KdTree<D>& tree,
                              std::span<const Point<D>> positions, const PerBoidSpecies& species) {
  const Point<D> world = world_in<Point<D>>(scenario);
  const auto start_radius =
      static_cast<float>(typical_spacing(world, static_cast<double>(positions.size())));
  std::vector<std::uint32_t> found;
  double sum = 0.0;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    sum += nearest_distance<D>(tree, positions, i, species.topology[i], world, start_radius, found);
  }
  return sum / static_cast<double>(positions.size());
}

class DisjointSets {
 public:
  explicit DisjointSets(std::size_t n) : parent_(n), size_(n, 1) {
    std::iota(parent_.begin(), parent_.end(), std::uint32_t{0});
  }
  std::uint32_t find(std::uint32_t x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];  // path halving
      x = parent_[x];
    }
    return x;
  }
  // Returns true when a and b were in different sets.
  bool unite(std::uint32_t a, std::uint32_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return false;
    if (size_[a] < size_[b]) std::swap(a, b);
    parent_[b] = a;
    size_[a] += size_[b];
    return true;
  }

 private:
  std::vector<std::uint32_t> parent_;
  std::vector<std::uint32_t> size_;

 public:
  // The bytes a set of `n` elements holds: a parent and a size each.
  static constexpr std::size_t kBytesPerElement = 2 * sizeof(std::uint32_t);
};

// Each boid links to every boid within its own perception radius (its own topology); the
// union over all observers gives the "within the radius of either" edge set.
template <int D>
std::uint32_t cluster_count(const Scenario& scenario, const KdTree<D>& tree,
                            std::span<const Point<D>> positions, const PerBoidSpecies& species) {
  DisjointSets sets(positions.size());
  auto components = static_cast<std::uint32_t>(positions.size());
  std::vector<std::uint32_t> found;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    found.clear();
    tree.query_radius(positions[i], species.radius[i], species.topology[i],
                      world_in<Point<D>>(scenario), found);
    for (const std::uint32_t j : found) {
      if (sets.unite(static_cast<std::uint32_t>(i), j)) --components;
    }
  }
  return components;
}

// Everything but the count, for a flock of at least one boid in D dimensions.
template <int D>
void measure(const Scenario& scenario, const FlockState& state, bool any_wrap, FlockStats& stats) {
  stats.polarization = polarization<D>(state);
  // On a torus a flock across the seam would average to the middle of the world: the
  // centroid there is the circular mean, and only of a compact flock.
  stats.milling = any_wrap ? milling_on_torus<D>(scenario, state) : milling_in_walls<D>(state);
  stats.state = collective_state(stats.polarization, stats.milling);

  std::vector<Point<D>> positions;
  positions.reserve(state.boids.size());
  for (const Boid& b : state.boids) positions.push_back(position_in<Point<D>>(b));
  const KdTree<D> tree(positions);
  const PerBoidSpecies species = per_boid_species(scenario, state);
  if (positions.size() >= 2) {
    stats.mean_nearest_neighbour = mean_nearest_neighbour<D>(scenario, tree, positions, species);
  }
  stats.clusters = cluster_count<D>(scenario, tree, positions, species);
}

}  // namespace

std::optional<CollectiveState> collective_state(double polarization,
                                                std::optional<double> milling) {
  if (!milling) return std::nullopt;
  const bool polarized = polarization > kOrderParameterHigh;
  const bool mills = *milling > kOrderParameterHigh;
  const bool unpolarized = polarization < kOrderParameterLow;
  const bool not_milling = *milling < kOrderParameterLow;
  if (polarized && not_milling) return CollectiveState::Polarized;
  if (mills && unpolarized) return CollectiveState::Milling;
  if (unpolarized && not_milling) return CollectiveState::Swarm;
  return CollectiveState::Transition;
}

std::string_view state_name(CollectiveState state) {
  switch (state) {
    case CollectiveState::Polarized: return "polarized";
    case CollectiveState::Milling: return "milling";
    case CollectiveState::Swarm: return "swarm";
    case CollectiveState::Transition: return "transition";
  }
  return "transition";  // not reached: every enumerator returns above
}

namespace {

template <int D>
MemoryNeed stats_memory_in() {
  return {0, sizeof(Point<D>) + KdTree<D>::bytes_per_point()  // the positions and their tree
                 + sizeof(Topology) + sizeof(float)           // per_boid_species
                 + DisjointSets::kBytesPerElement};           // cluster_count
}

}  // namespace

MemoryNeed stats_memory(const Scenario& scenario) {
  return is_3d(scenario) ? stats_memory_in<3>() : stats_memory_in<2>();
}

FlockStats compute_stats(const Scenario& scenario, const FlockState& state) {
  FlockStats stats;
  stats.count = static_cast<std::uint32_t>(state.boids.size());
  const bool any_wrap =
      std::any_of(scenario.species.begin(), scenario.species.end(),
                  [](const SpeciesParams& s) { return s.topology == Topology::Wrap; });
  if (state.boids.empty()) {
    // No boid, no centroid on a torus and no state anywhere; walls keep their 0 of old.
    if (!any_wrap) stats.milling = 0.0;
    return stats;
  }
  if (is_3d(scenario)) {
    measure<3>(scenario, state, any_wrap, stats);
  } else {
    measure<2>(scenario, state, any_wrap, stats);
  }
  return stats;
}

PopulationStats compute_population(const Scenario& scenario, const FlockState& state) {
  PopulationStats population;
  population.counts.assign(scenario.species.size(), 0);
  for (const Boid& b : state.boids) ++population.counts.at(b.species);
  population.totals = state.totals;
  population.totals.resize(scenario.species.size());
  if (scenario.food) {
    population.food = std::accumulate(state.food.begin(), state.food.end(), 0.0);
  }
  return population;
}

std::vector<SpeciesTotals> events_between(const std::vector<SpeciesTotals>& earlier,
                                          const std::vector<SpeciesTotals>& later) {
  std::vector<SpeciesTotals> events(later.size());
  for (std::size_t s = 0; s < later.size(); ++s) {
    // Totals only grow, and a species missing from `earlier` had counted nothing yet.
    const SpeciesTotals before = s < earlier.size() ? earlier[s] : SpeciesTotals{};
    events[s] = {later[s].born - before.born, later[s].dropped - before.dropped,
                 later[s].died - before.died};
  }
  return events;
}

StatsSample stats_sample(const Scenario& scenario, const FlockState& state,
                         const std::optional<std::vector<SpeciesTotals>>& previous_totals) {
  StatsSample sample;
  sample.flock = compute_stats(scenario, state);
  sample.population = compute_population(scenario, state);
  // The first sample's totals are its own, so it shows no events.
  sample.events = events_between(previous_totals.value_or(sample.population.totals),
                                 sample.population.totals);
  return sample;
}

std::string stats_number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

namespace {

StatsValue number_cell(double value) { return {stats_number_text(value), value}; }

StatsValue number_cell(std::optional<double> value) {
  return value ? number_cell(*value) : StatsValue{};
}

StatsValue count_cell(std::uint64_t value) {
  return {std::to_string(value), static_cast<double>(value)};
}

}  // namespace

std::vector<StatsColumn> flock_stats_columns(const Scenario& scenario) {
  using Kind = StatsColumn::Kind;
  std::vector<StatsColumn> columns = {
      {"polarization", Kind::Number,
       [](const StatsSample& s) { return number_cell(s.flock.polarization); }},
      {"milling", Kind::Number, [](const StatsSample& s) { return number_cell(s.flock.milling); }},
      {"state", Kind::Word,
       [](const StatsSample& s) {
         return s.flock.state ? StatsValue{std::string(state_name(*s.flock.state)), std::nullopt}
                              : StatsValue{};
       }},
      {"mean_nn", Kind::Number,
       [](const StatsSample& s) { return number_cell(s.flock.mean_nearest_neighbour); }},
      {"clusters", Kind::Number, [](const StatsSample& s) { return count_cell(s.flock.clusters); }},
  };
  for (std::size_t i = 0; i < scenario.species.size(); ++i) {
    const std::string& name = scenario.species[i].name;
    columns.push_back({"n_" + name, Kind::Number,
                       [i](const StatsSample& s) { return count_cell(s.population.counts[i]); }});
    columns.push_back({"births_" + name, Kind::Number,
                       [i](const StatsSample& s) { return count_cell(s.events[i].born); }});
    columns.push_back({"deaths_" + name, Kind::Number,
                       [i](const StatsSample& s) { return count_cell(s.events[i].died); }});
  }
  columns.push_back(
      {"food", Kind::Number, [](const StatsSample& s) { return number_cell(s.population.food); }});
  return columns;
}

}  // namespace murmur
