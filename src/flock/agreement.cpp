// How close two implementations of the model must come (docs/harness.md derives each bound):
// the neighbour sets both must find, the velocity and energy tolerances of one step, and the
// comparisons of lockstep steps and free runs.
//
// Sections: decisions near a limit; the rules of motion besides boids; topological neighbours;
// neighbour sets; the tolerances of one step; lockstep steps; free runs and their perturbations.
#include "murmur/flock/agreement.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "murmur/flock/grid.hpp"
#include "murmur/flock/kdtree.hpp"
#include "murmur/flock/model.hpp"
#include "murmur/base/random.hpp"

namespace murmur {

// --- decisions near a limit --------------------------------------------------------------------
namespace {

// One side's rounding of fl(|d|^2) in D dimensions, in eps relative to |d|^2: d's rounding per
// axis (eps on each square), then D products and D - 1 additions of u = eps/2 each
// (docs/harness.md, "Three dimensions").
constexpr double squared_length_error(int dimensions) { return 1.0 + 0.5 * (2 * dimensions - 1); }
// A GPU square root may be this many ulp off (GLSL does not round it correctly).
constexpr double kGpuSqrtUlps = 3;
// One side's rounding of the fov test in eps |d| |v|: facing's D eps, and the threshold's two
// square roots (half of |d|^2's and |v|^2's errors, plus the GPU's own) and two products.
constexpr double fov_test_error(int d) {
  return d + squared_length_error(d) - 0.5 + 2 * kGpuSqrtUlps + 1;
}
// One band for either dimension: two sides' difference fits it in the plane and in a volume.
static_assert(2 * squared_length_error(2) * kFloatEpsilon <= kRadiusBand &&
              2 * squared_length_error(3) * kFloatEpsilon <= kRadiusBand);
static_assert(2 * fov_test_error(2) * kFloatEpsilon <= kFovBand &&
              2 * fov_test_error(3) * kFloatEpsilon <= kFovBand);

// Whether a comparison `value < limit` (or >=) is decided the same way by every correct
// implementation: Definite(true/false) or Ambiguous.
enum class Decision { No, Yes, Either };

Decision strictly_below(double value, double limit, double band) {
  if (std::abs(value - limit) <= band) return Decision::Either;
  return value < limit ? Decision::Yes : Decision::No;
}

Decision both(Decision a, Decision b) {
  if (a == Decision::No || b == Decision::No) return Decision::No;
  if (a == Decision::Yes && b == Decision::Yes) return Decision::Yes;
  return Decision::Either;
}

void tally(CountRange& range, Decision d) {
  if (d == Decision::Yes) ++range.definite;
  else if (d == Decision::Either) ++range.ambiguous;
}

// |v| in double, its squares summed in axis order.
double length(glm::vec2 v) { return std::sqrt(double(v.x) * v.x + double(v.y) * v.y); }
double length(glm::vec3 v) {
  return std::sqrt(double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
}

// The model's vectors of one dimension in double: the expectation's sums and directions.
template <ModelVector V>
using Exact = glm::vec<V::length(), double>;
double norm(glm::dvec2 v) { return std::hypot(v.x, v.y); }
double norm(glm::dvec3 v) { return std::hypot(v.x, v.y, v.z); }
double dot(glm::dvec2 a, glm::dvec2 b) { return a.x * b.x + a.y * b.y; }
double dot(glm::dvec3 a, glm::dvec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// The scenario's surroundings as the model's vectors (its obstacles, target and sides).
template <ModelVector V>
SurroundingsIn<V> surroundings_in(const Scenario& scenario) {
  if constexpr (V::length() == 2) return surroundings_of(scenario);
  else return surroundings_3d(scenario);
}

std::string describe_range(const char* what, std::uint32_t seen, const CountRange& r) {
  char text[160];
  std::snprintf(text, sizeof text, "%s %u (expected %u%s)", what, seen, r.definite,
                r.ambiguous ? (" to " + std::to_string(r.definite + r.ambiguous)).c_str() : "");
  return text;
}

}  // namespace

// --- the rules of motion besides boids --------------------------------------------------------
namespace {
// A vicsek or couzin boid's sums in double (docs/harness.md, "Rules of motion"): each is a sum
// of unit vectors, so its count bounds both its size and its rounding.
template <ModelVector V>
struct RuleSums {
  Exact<V> heading{0.0};      // vicsek: the flock neighbours' headings; couzin: zone O's
  Exact<V> repulsion{0.0};    // couzin: zone R's unit offsets
  Exact<V> attraction{0.0};   // couzin: zone A's unit offsets
  std::uint32_t headings = 0, repelling = 0, attracting = 0;
};

template <class E>
E unit_of(E v) {
  const double n = norm(v);
  return n > 0 ? v / n : E(0.0);
}

Decision negated(Decision d) {
  return d == Decision::Either ? d : d == Decision::Yes ? Decision::No : Decision::Yes;
}

// Counts (flock: the vicsek flock neighbours or couzin's zone O; separating: couzin's zone R)
// and double sums of one visible pair, as add_rule_neighbour adds it.
template <ModelVector V>
void tally_rule_neighbour(NeighbourhoodExpectation& hood, RuleSums<V>& sums,
                          const SpeciesModel& m, V d, float dist_sq, const Boid& other,
                          Decision visible) {
  const bool flocks = ((m.flock_mask >> other.species) & 1u) != 0;
  const Exact<V> other_heading = unit_of(Exact<V>(velocity_in<V>(other)));
  if (m.rule == Rule::Vicsek) {
    if (!flocks) return;
    tally(hood.flock, visible);
    sums.heading += other_heading;
    ++sums.headings;
    return;
  }
  const Decision repelled =
      dist_sq > 0.0f
          ? both(visible, strictly_below(dist_sq, m.rep_radius_sq, kRadiusBand * double(m.rep_radius_sq)))
          : Decision::No;
  tally(hood.separating, repelled);
  if (repelled != Decision::No) {
    sums.repulsion += unit_of(Exact<V>(d));
    ++sums.repelling;
  }
  if (!flocks || repelled == Decision::Yes) return;
  const Decision oriented = both(both(visible, negated(repelled)),
                                 strictly_below(dist_sq, m.ori_radius_sq,
                                                kRadiusBand * double(m.ori_radius_sq)));
  tally(hood.flock, oriented);
  if (oriented != Decision::No) {
    sums.heading += other_heading;
    ++sums.headings;
  } else {
    sums.attraction += unit_of(Exact<V>(d));
    ++sums.attracting;
  }
}

// The rounding of a sum of n unit vectors, each a square root and two divisions a GPU may
// round a few ulp off (8 eps), added in another order ((n - 1) eps times the n terms' sizes).
double unit_sum_error(std::uint32_t n) {
  const double terms = n;
  return kFloatEpsilon * (8 * terms + (terms > 1 ? (terms - 1) * terms : 0));
}

// The direction of a sum whose error is `error`, in radians: error / |sum| plus the unit
// vector's own rounding.
template <class E>
double direction_error(E sum, double error) {
  return error / norm(sum) + 8 * kFloatEpsilon;
}

// A direction this uncertain is not compared: its sums nearly cancel (docs/harness.md).
constexpr double kIllConditionedHeading = 1e-2;

// The 3D noise's cos phi e1(h) + sin phi e2(h) moves by at most this times h's move (each
// basis vector's Jacobian is at most 3 in norm: 3 sqrt 2; docs/harness.md, "Three dimensions").
constexpr double kNoiseBasisGain = 5.0;

// The 3D noise turn of a direction whose error is `error`, as tilt computes it: the error it
// leaves (the direction's, grown by the turn, plus the turn's own rounding), and whether the
// basis may be taken on the other side of h.z = 0 (docs/harness.md, "Three dimensions").
struct NoisyDirection {
  glm::dvec3 direction{0.0};
  double error = 0;
  bool basis_flips = false;
};
NoisyDirection noise_in_volume(const SpeciesModel& m, glm::dvec3 desired, double error,
                               const Boid& self, std::uint64_t seed, std::uint64_t step) {
  const double eps = kFloatEpsilon;
  const NoiseTurn turn = noise_turn(m, self.id, seed, step);
  // The turn's angle: the uniform cap's cosine is exact operations on both sides, its sine a
  // square root (4 eps); the Gaussian's angle is the 2D one (32 eps (1 + |a|)).
  const double angle_error =
      m.noise_distribution == NoiseDistribution::Gaussian
          ? 32 * eps * (1 + std::abs(double(noise_angle(m, self.id, seed, step))))
          : 4 * eps;
  NoisyDirection noisy;
  // The basis' GPU division by sigma + h.z, tilt's products and sums, the final unit vector.
  constexpr double kTiltRounding = 24;
  noisy.error = (std::abs(double(turn.cos)) + kNoiseBasisGain * std::abs(double(turn.sin))) * error +
                angle_error + kTiltRounding * eps;
  noisy.basis_flips = std::abs(desired.z) <= error;
  noisy.direction =
      unit_of(glm::dvec3(tilt(glm::vec3(desired), turn.cos, turn.sin, turn.phi)));
  return noisy;
}

template <ModelVector V>
void expect_rule_heading(NeighbourhoodExpectation& hood, const RuleSums<V>& sums,
                         const SpeciesModel& m, const Boid& self, std::uint64_t seed,
                         std::uint64_t step) {
  const double eps = kFloatEpsilon;
  const Exact<V> heading = Exact<V>(heading_of(velocity_in<V>(self)));
  Exact<V> desired = heading;
  double error = 8 * eps;
  if (m.rule == Rule::Vicsek) {
    const Exact<V> total = unit_of(Exact<V>(velocity_in<V>(self))) + sums.heading;
    if (norm(total) > 0) {
      desired = unit_of(total);
      error = direction_error(total, unit_sum_error(sums.headings + 1));
    }
  } else if (sums.repelling > 0) {
    desired = unit_of(-sums.repulsion);
    error = direction_error(sums.repulsion, unit_sum_error(sums.repelling));
  } else if (sums.headings > 0 && sums.attracting > 0) {
    const Exact<V> mean = 0.5 * (unit_of(sums.heading) + unit_of(sums.attraction));
    const double mean_error = 0.5 * (direction_error(sums.heading, unit_sum_error(sums.headings)) +
                                     direction_error(sums.attraction, unit_sum_error(sums.attracting))) +
                              2 * eps;
    desired = unit_of(mean);
    error = direction_error(mean, mean_error);
  } else if (sums.headings > 0) {
    desired = unit_of(sums.heading);
    error = direction_error(sums.heading, unit_sum_error(sums.headings));
  } else if (sums.attracting > 0) {
    desired = unit_of(sums.attraction);
    error = direction_error(sums.attraction, unit_sum_error(sums.attracting));
  }
  Exact<V> noisy = desired;
  if constexpr (V::length() == 2) {
    // The noise angle is the same float on both sides for a uniform draw; the Gaussian's log,
    // square root and division may round a few ulp apart. The rotation adds 4 eps.
    const double angle = noise_angle(m, self.id, seed, step);
    if (m.noise_distribution == NoiseDistribution::Gaussian) error += 32 * eps * (1 + std::abs(angle));
    error += 4 * eps;
    noisy = {std::cos(angle) * desired.x - std::sin(angle) * desired.y,
             std::sin(angle) * desired.x + std::cos(angle) * desired.y};
  } else if (m.noise > 0.0f) {
    const NoisyDirection turned = noise_in_volume(m, desired, error, self, seed, step);
    if (turned.basis_flips) hood.ill_conditioned = true;
    noisy = turned.direction;
    error = turned.error;
  }
  if (m.rule == Rule::Couzin) {
    // The bound decides between the noisy direction and a turn of exactly theta_max from the
    // heading: in the plane towards a side both sides compute from the same heading; in 3D
    // towards the part of the noisy direction across the heading, whose direction carries
    // the noisy direction's error over its length (the sine of the wanted turn).
    const double facing = dot(heading, noisy);
    double across = 0;
    if constexpr (V::length() == 2) across = std::abs(heading.x * noisy.y - heading.y * noisy.x);
    else across = norm(noisy - facing * heading);
    if (std::abs(facing - double(m.cos_max_turn)) <= error + 8 * eps) hood.ill_conditioned = true;
    if (facing < double(m.cos_max_turn)) {
      if (across <= error + 8 * eps) hood.ill_conditioned = true;
      const double plane_error =
          V::length() == 3 ? 2 * double(m.sin_max_turn) * (error + 8 * eps) / across : 0.0;
      error = 16 * eps + plane_error;
    }
  }
  hood.heading_error = error;
  if (error > kIllConditionedHeading) hood.ill_conditioned = true;
}

}  // namespace

// --- topological neighbours -------------------------------------------------------------------
namespace {
// A pair a topological observer may take: seen on some correct implementation (`visible` is
// Yes or Either), at squared distance dist_sq.
template <ModelVector V>
struct RankedPair {
  std::uint32_t j = 0;
  V d{0.0f};
  float dist_sq = 0.0f;
  Decision visible = Decision::No;
};

// Which of `pairs` a topological observer keeping `k` must take, may take or must not
// (docs/harness.md, "Topological neighbours"), in the order of `pairs`, and the range of how
// many it takes. Two squared distances within kRadiusBand of the larger may be ranked either
// way by two correct implementations (each is within 2.5 eps of the exact value), so a pair
// is taken for sure when fewer than k others may rank before it, and left out for sure when k
// seen for sure rank before it on every implementation.
template <ModelVector V>
std::vector<Decision> topological_choice(const std::vector<RankedPair<V>>& pairs, std::uint32_t k,
                                         CountRange& taken) {
  std::vector<double> all, seen;  // the squared distances, sorted; `seen`: the definite ones
  for (const RankedPair<V>& p : pairs) {
    all.push_back(p.dist_sq);
    if (p.visible == Decision::Yes) seen.push_back(p.dist_sq);
  }
  std::sort(all.begin(), all.end());
  std::sort(seen.begin(), seen.end());
  const auto at_most_k = [k](std::size_t n) {
    return static_cast<std::uint32_t>(std::min<std::size_t>(k, n));
  };
  taken.definite = at_most_k(seen.size());
  taken.ambiguous = at_most_k(all.size()) - taken.definite;
  std::vector<Decision> chosen;
  chosen.reserve(pairs.size());
  for (const RankedPair<V>& p : pairs) {
    const double d = p.dist_sq;
    // Others that may rank before p (c <= d / (1 - band), p itself among them), and those seen
    // for sure that rank before it everywhere (c < d (1 - band)).
    const auto may_precede = static_cast<std::size_t>(
        std::upper_bound(all.begin(), all.end(), d / (1 - kRadiusBand)) - all.begin() - 1);
    const auto must_precede = static_cast<std::size_t>(
        std::lower_bound(seen.begin(), seen.end(), d * (1 - kRadiusBand)) - seen.begin());
    if (must_precede >= k) {
      chosen.push_back(Decision::No);
    } else if (may_precede < k) {
      chosen.push_back(p.visible);
    } else {
      chosen.push_back(Decision::Either);
    }
  }
  return chosen;
}
}  // namespace

// --- neighbour sets ----------------------------------------------------------------------------
namespace {
// expected_neighbourhoods in the scenario's dimension: V is glm::vec2 or glm::vec3.
template <ModelVector V>
std::vector<NeighbourhoodExpectation> neighbourhoods_in(const Scenario& scenario,
                                                        const FlockState& state) {
  FlockState sorted = state;
  sorted.sort_by_id();
  const std::vector<SpeciesModel> models = species_models(scenario);
  const V world = world_in<V>(scenario);
  std::vector<V> points;
  points.reserve(sorted.boids.size());
  for (const Boid& b : sorted.boids) points.push_back(position_in<V>(b));
  const KdTree<V::length()> tree(points);

  std::vector<NeighbourhoodExpectation> result(sorted.boids.size());
  std::vector<std::uint32_t> candidates;
  for (std::size_t i = 0; i < sorted.boids.size(); ++i) {
    const Boid& self = sorted.boids[i];
    const SpeciesModel& m = models[self.species];
    const SpeciesParams& params = scenario.species[self.species];
    NeighbourhoodExpectation& hood = result[i];
    hood.id = self.id;
    // Search a little wider than r so pairs inside the band above r^2 are classified too.
    const float search = params.perception_radius * float(1.0 + kRadiusBand);
    candidates.clear();
    const V position = position_in<V>(self);
    const V velocity = velocity_in<V>(self);
    tree.query_radius(position, search, m.topology, world, candidates);
    const double speed = length(velocity);
    RuleSums<V> rule_sums;
    const bool topological = m.neighbours == Neighbours::Topological;
    std::vector<RankedPair<V>> ranked;
    // One pair that the observer counts (`counted`: for sure, or maybe), in its sums and counts.
    const auto count_pair = [&](std::uint32_t j, V d, float dist_sq, Decision counted) {
      const Boid& other = sorted.boids[j];
      const double distance = std::sqrt(double(dist_sq));
      if (m.rule != Rule::Boids) {
        tally_rule_neighbour(hood, rule_sums, m, d, dist_sq, other, counted);
        return;
      }
      if ((m.flock_mask >> other.species) & 1u) {
        tally(hood.flock, counted);
        hood.flock_speed_sum += length(velocity_in<V>(other));
        hood.flock_distance_sum += distance;
      }
      if (dist_sq > 0.0f) {
        const Decision close =
            strictly_below(dist_sq, m.sep_radius_sq, kRadiusBand * double(m.sep_radius_sq));
        const Decision separating = both(counted, close);
        tally(hood.separating, separating);
        if (separating != Decision::No) {
          hood.inverse_distance_sum += 1.0 / distance;
          hood.separation_distance_sum += distance;
        }
        if ((m.hunter_mask >> other.species) & 1u) {
          hood.hunter_inverse_distance_sum += 1.0 / distance;
        }
      }
    };
    for (std::uint32_t j : candidates) {
      if (j == i) continue;
      const Boid& other = sorted.boids[j];
      const V d = displacement(position, position_in<V>(other), m.topology, world);
      // In axis order, as the model computes them (docs/model.md, "One step in 3D").
      const float dist_sq = dot_in_order(d, d);
      Decision visible =
          strictly_below(dist_sq, m.radius_sq, kRadiusBand * double(m.radius_sq));
      if (visible != Decision::No && m.limited_fov) {
        const float facing = dot_in_order(d, velocity);
        const double threshold = std::sqrt(double(dist_sq)) * speed * m.cos_half_fov;
        const double band = kFovBand * std::sqrt(double(dist_sq)) * speed;
        // in view when facing >= threshold, i.e. NOT (facing < threshold)
        const Decision behind = strictly_below(facing, threshold, band);
        const Decision in_fov = behind == Decision::Either ? Decision::Either
                                : behind == Decision::Yes  ? Decision::No
                                                           : Decision::Yes;
        visible = both(visible, in_fov);
      }
      if (visible == Decision::No) continue;
      if (topological) {
        ranked.push_back({j, d, dist_sq, visible});
        continue;
      }
      tally(hood.visible, visible);
      count_pair(j, d, dist_sq, visible);
    }
    if (topological) {
      // The k nearest: the visible count is how many are taken, the rest as for any pair.
      const std::vector<Decision> chosen =
          topological_choice(ranked, neighbour_limit(m), hood.visible);
      for (std::size_t p = 0; p < ranked.size(); ++p) {
        if (chosen[p] == Decision::Either) ++hood.ranks_ambiguous;
        if (chosen[p] == Decision::No) continue;
        count_pair(ranked[p].j, ranked[p].d, ranked[p].dist_sq, chosen[p]);
      }
    }
    if (m.rule != Rule::Boids) {
      expect_rule_heading(hood, rule_sums, m, self, scenario.world.seed, state.step);
    }
  }
  return result;
}
}  // namespace

std::vector<NeighbourhoodExpectation> expected_neighbourhoods(const Scenario& scenario,
                                                              const FlockState& state) {
  return is_3d(scenario) ? neighbourhoods_in<glm::vec3>(scenario, state)
                         : neighbourhoods_in<glm::vec2>(scenario, state);
}

NeighbourCheck check_neighbour_counts(const std::vector<NeighbourhoodExpectation>& expected,
                                      const std::vector<ObservedCounts>& observed) {
  constexpr std::size_t kReportedMismatches = 5;
  NeighbourCheck check;
  check.boids = static_cast<std::uint32_t>(expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const NeighbourhoodExpectation& e = expected[i];
    check.ambiguous_pairs += e.ambiguous_pairs();
    if (e.ambiguous()) ++check.ambiguous_boids;
    const bool id_matches = i < observed.size() && observed[i].id == e.id;
    if (id_matches && e.visible.admits(observed[i].visible) && e.flock.admits(observed[i].flock) &&
        e.separating.admits(observed[i].separating)) {
      continue;
    }
    ++check.mismatched_boids;
    if (check.first_mismatches.size() < kReportedMismatches) {
      if (!id_matches) {
        check.first_mismatches.push_back("boid " + std::to_string(e.id) + ": missing from the GPU output");
      } else {
        const ObservedCounts& o = observed[i];
        check.first_mismatches.push_back("boid " + std::to_string(e.id) + ": " +
                                         describe_range("visible", o.visible, e.visible) + ", " +
                                         describe_range("flock", o.flock, e.flock) + ", " +
                                         describe_range("separating", o.separating, e.separating));
      }
    }
  }
  return check;
}

// --- the tolerances of one step ----------------------------------------------------------------
namespace {
// velocity_tolerance in the scenario's dimension: V is glm::vec2 or glm::vec3.
template <ModelVector V>
double tolerance_in(const Scenario& scenario, const Boid& before, const Boid& reference_after,
                    const NeighbourhoodExpectation& hood) {
  const SpeciesParams& s = scenario.species[before.species];
  const double eps = kFloatEpsilon;
  if (s.rule != Rule::Boids) {
    // v' = v0 h': the heading's error in radians is a chord of at most that length, times v0;
    // factor 2 for the second-order terms, as below.
    return 2.0 * double(s.speed) * hood.heading_error + 4 * eps * double(s.speed);
  }
  const double n = hood.flock.definite + hood.flock.ambiguous;
  const double own_speed = length(velocity_in<V>(before));
  const double mean_speed = n > 0 ? hood.flock_speed_sum / n : 0.0;
  const double mean_distance = n > 0 ? hood.flock_distance_sum / n : 0.0;
  // Two summation orders of n terms differ by at most (n-1) eps sum|x|; the means divide by n
  // (n + k with self_weight k, whose k v_i is one more rounded term of the velocity sum).
  const double self_speed = double(s.self_weight) * own_speed;
  const double align_error =
      eps * (hood.flock_speed_sum + self_speed) + 2 * eps * (mean_speed + own_speed);
  const double cohesion_error = eps * hood.flock_distance_sum + 2 * eps * mean_distance;
  // inverse_square: sum order plus a GPU division that may be off by 2 ulp per term, on terms
  // of size 1/|d|. linear: the terms are d itself (no division), of size |d|, so the sum's
  // magnitude is sum |d| and only its order rounds differently.
  const bool linear_separation = s.separation_kernel == SeparationKernel::Linear;
  const double separation_size =
      linear_separation ? hood.separation_distance_sum : hood.inverse_distance_sum;
  const double separation_error = (linear_separation ? 2 : 5) * eps * separation_size;
  const double align_size = mean_speed + own_speed;
  // The reflecting walls' ramp reaches k m; the push is k itself.
  const double edge_size =
      s.walls == Walls::Push ? double(s.edge_gain) : double(s.edge_gain) * s.edge_margin;
  // Obstacles within reach push with depth (R + r - |q|) / r <= (R + r) / r; a square root
  // and two divisions per obstacle that a GPU may round a few ulp differently.
  const SurroundingsIn<V> env = surroundings_in<V>(scenario);
  const V position = position_in<V>(before);
  double obstacle_size = 0;
  for (const Obstacle& o : env.obstacles) {
    const V q = displacement(centre_of<V>(o), position, s.topology, env.world);
    const double reach = double(o.radius) + s.perception_radius;
    if (length(q) < reach * (1 + kRadiusBand)) obstacle_size += reach / s.perception_radius;
  }
  const double obstacle_error = 16 * eps * obstacle_size;
  // The unit target pull: a square root and a division. The linear pull is the displacement
  // to the target, of its length.
  double target_size = 0.0;
  if (env.target) {
    target_size = s.target_pull == TargetPull::Linear
                      ? length(displacement(position, *env.target, s.topology, env.world))
                      : 1.0;
  }
  const double target_error = 8 * eps * target_size;
  // The ecosystem (docs/model.md, "An ecosystem"): the flee sum like separation's; the chase
  // and food pulls are unit vectors like the target's.
  const double flee_error = 5 * eps * hood.hunter_inverse_distance_sum;
  const double unit_pulls = double(s.chase_weight) + double(s.food_weight);
  const double acc_error =
      std::abs(s.align_weight) * align_error + std::abs(s.cohesion_weight) * cohesion_error +
      std::abs(s.separation_weight) * separation_error +
      std::abs(s.obstacle_weight) * obstacle_error + std::abs(s.target_weight) * target_error +
      std::abs(s.flee_weight) * flee_error + 8 * eps * unit_pulls +
      4 * eps *
          (std::abs(s.align_weight) * align_size + std::abs(s.cohesion_weight) * mean_distance +
           std::abs(s.separation_weight) * separation_size + edge_size +
           std::abs(s.obstacle_weight) * obstacle_size + std::abs(s.target_weight) * target_size +
           std::abs(s.flee_weight) * hood.hunter_inverse_distance_sum + unit_pulls +
           s.max_force);
  // v' = f (v + acc) scales acc's error by f (velocity_factor; its own rounding is in the
  // last term). Raising a slow velocity to min_speed scales errors by min_speed / |v'|, and
  // |v'| >= f (|v| - F).
  const double factor = s.velocity_factor;
  const double slowest =
      std::max(factor * (own_speed - double(s.max_force)), double(s.min_speed) * eps);
  const double min_speed_gain = std::max(1.0, double(s.min_speed) / slowest);
  // Factor 2 covers the second-order terms the first-order bounds above leave out.
  constexpr double kSafety = 2.0;
  return kSafety * acc_error * factor * min_speed_gain +
         4 * eps * length(velocity_in<V>(reference_after));
}
}  // namespace

double velocity_tolerance(const Scenario& scenario, const Boid& before, const Boid& reference_after,
                          const NeighbourhoodExpectation& hood) {
  return is_3d(scenario) ? tolerance_in<glm::vec3>(scenario, before, reference_after, hood)
                         : tolerance_in<glm::vec2>(scenario, before, reference_after, hood);
}

double world_scale(const Scenario& scenario) {
  const glm::vec3 sides = world_box(scenario);  // a 2D world's depth is 0
  return std::max({double(sides.x), double(sides.y), double(sides.z)});
}

double energy_band(const Scenario& scenario, std::uint32_t species) {
  return kEnergyBandUlps * kFloatEpsilon * double(scenario.species[species].energy_max);
}

// --- lockstep steps ----------------------------------------------------------------------------
namespace {
double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  return values[mid];
}

// |p_a - p_b| (the minimum image for a wrap species) and |v_a - v_b| in the scenario's
// dimension.
template <ModelVector V>
double position_error_in(const Scenario& scenario, const Boid& a, const Boid& b) {
  const Topology topology = scenario.species[a.species].topology;
  return length(displacement(position_in<V>(a), position_in<V>(b), topology, world_in<V>(scenario)));
}
double position_error(const Scenario& scenario, const Boid& a, const Boid& b) {
  return is_3d(scenario) ? position_error_in<glm::vec3>(scenario, a, b)
                         : position_error_in<glm::vec2>(scenario, a, b);
}
double velocity_error(const Scenario& scenario, const Boid& a, const Boid& b) {
  return is_3d(scenario) ? length(velocity_in<glm::vec3>(a) - velocity_in<glm::vec3>(b))
                         : length(velocity_in<glm::vec2>(a) - velocity_in<glm::vec2>(b));
}
}  // namespace

namespace {
// The boid with `id` in a state sorted by id, or nullptr.
const Boid* find_by_id(const FlockState& state, std::uint32_t id) {
  const auto it = std::lower_bound(state.boids.begin(), state.boids.end(), id,
                                   [](const Boid& b, std::uint32_t key) { return b.id < key; });
  return it != state.boids.end() && it->id == id ? &*it : nullptr;
}
}  // namespace

LockstepCheck compare_lockstep(const Scenario& scenario, const FlockState& before,
                               const std::vector<NeighbourhoodExpectation>& expected,
                               const FlockState& reference_after, const FlockState& candidate_after,
                               const std::vector<BirthRecord>& reference_births,
                               const std::vector<float>& reference_energies) {
  constexpr std::size_t kReportedFailures = 5;
  if (!reference_energies.empty() && reference_energies.size() != before.boids.size()) {
    throw std::logic_error("compare_lockstep: one reference energy per boid of the state");
  }
  // e' of boid i within its band of `threshold` (never without the reference's energies).
  auto near = [&](std::size_t i, float threshold) {
    if (reference_energies.empty()) return false;
    const std::uint32_t species = before.boids[i].species;
    if (scenario.species[species].energy_max <= 0) return false;
    return std::abs(double(reference_energies[i]) - threshold) <= energy_band(scenario, species);
  };
  // A child decided within the band shifts the ids of every later child (parent order, docs/
  // model.md "Births"): children from the first such parent on are not compared by id.
  const GridShape grid = grid_shape_for(scenario, scenario.capacity());
  auto parent_key = [&](const Boid& b) {
    return (std::uint64_t{grid.cell_of(b)} << 32) | b.id;
  };
  std::vector<bool> child_in_band(before.boids.size(), false);
  std::uint64_t first_band_parent = UINT64_MAX;
  for (std::size_t i = 0; i < before.boids.size(); ++i) {
    const float threshold = scenario.species[before.boids[i].species].reproduce_energy;
    if (threshold > 0 && near(i, threshold)) {
      child_in_band[i] = true;
      first_band_parent = std::min(first_band_parent, parent_key(before.boids[i]));
    }
  }
  LockstepCheck check;
  const double largest_side = world_scale(scenario);
  std::vector<double> velocity_errors, position_errors;
  auto report = [&check](const std::string& text) {
    if (check.first_failures.size() < kReportedFailures) check.first_failures.push_back(text);
  };
  auto event_mismatch = [&](const std::string& text) {
    ++check.event_mismatches;
    ++check.failed;
    report(text);
  };
  // One boid (or child) judged against the tolerance of `b`, whose step made it.
  auto judge = [&](const Boid& b, const NeighbourhoodExpectation& hood, const Boid& ref,
                   const Boid& cand, const char* what, bool check_energy) {
    ++check.boids;
    const double v_tol = velocity_tolerance(scenario, b, ref, hood);
    // p' = p + v': the velocity error plus the rounding of the add and of a wrap shift by L.
    const double p_tol = v_tol + 2 * kFloatEpsilon * largest_side;
    const double v_err = velocity_error(scenario, ref, cand);
    const double p_err = position_error(scenario, ref, cand);
    velocity_errors.push_back(v_err);
    position_errors.push_back(p_err);
    check.max_velocity_error = std::max(check.max_velocity_error, v_err);
    check.max_position_error = std::max(check.max_position_error, p_err);
    const double ratio = std::max(v_err / v_tol, p_err / p_tol);
    check.worst_error_over_tolerance = std::max(check.worst_error_over_tolerance, ratio);
    const double e_err = std::abs(double(cand.energy) - double(ref.energy));
    const bool energy_bad = check_energy && !(e_err <= energy_band(scenario, ref.species));
    const bool bad = !(ratio <= 1.0) || cand.species != ref.species || cand.age != ref.age ||
                     energy_bad;  // NaN fails too
    if (bad) {
      ++check.failed;
      char text[256];
      std::snprintf(text, sizeof text,
                    "%s %u: |dv| = %.3g (tolerance %.3g), |dp| = %.3g (tolerance %.3g), "
                    "age %u vs %u, energy %.9g vs %.9g",
                    what, ref.id, v_err, v_tol, p_err, p_tol, cand.age, ref.age, cand.energy,
                    ref.energy);
      report(text);
    }
  };

  for (std::size_t i = 0; i < before.boids.size(); ++i) {
    const Boid& b = before.boids[i];
    const Boid* ref = find_by_id(reference_after, b.id);
    const Boid* cand = find_by_id(candidate_after, b.id);
    if (ref == nullptr && cand == nullptr) {
      ++check.deaths;
      continue;
    }
    if (ref == nullptr || cand == nullptr) {
      if (near(i, 0.0f)) {
        ++check.ambiguous_events;  // starved on one side only, e' within its band of 0
        continue;
      }
      event_mismatch("boid " + std::to_string(b.id) + " died on the " +
                     (ref == nullptr ? "reference" : "candidate") + " side only");
      continue;
    }
    if (expected[i].skipped_in_lockstep()) {
      ++check.skipped_ambiguous;
      continue;
    }
    // A parent split on one side only keeps e' there and e'/2 on the other.
    const bool split_differs =
        child_in_band[i] && std::abs(double(cand->energy) - double(ref->energy)) >
                                energy_band(scenario, b.species);
    if (split_differs) ++check.ambiguous_events;
    judge(b, expected[i], *ref, *cand, "boid", !split_differs);
  }

  std::size_t children_found = 0;
  for (const BirthRecord& birth : reference_births) {
    const Boid* ref = find_by_id(reference_after, birth.child_id);
    const Boid* cand = find_by_id(candidate_after, birth.child_id);
    const auto parent = std::lower_bound(before.boids.begin(), before.boids.end(), birth.parent_id,
                                         [](const Boid& x, std::uint32_t key) { return x.id < key; });
    if (ref == nullptr || parent == before.boids.end() || parent->id != birth.parent_id) {
      throw std::logic_error("compare_lockstep: the reference's birth record does not match its states");
    }
    if (parent_key(*parent) >= first_band_parent) {
      ++check.skipped_ambiguous;  // its id may be shifted by a child decided within the band
      continue;
    }
    if (cand == nullptr) {
      event_mismatch("child " + std::to_string(birth.child_id) + " of boid " +
                     std::to_string(birth.parent_id) + " was not born on the candidate side");
      continue;
    }
    ++children_found;
    ++check.births;
    const auto p = static_cast<std::size_t>(parent - before.boids.begin());
    if (expected[p].skipped_in_lockstep()) {
      ++check.skipped_ambiguous;
      continue;
    }
    judge(*parent, expected[p], *ref, *cand, "child", true);
  }
  // Whatever else the candidate holds was born there alone (or is a boid from nowhere).
  const std::size_t survivors = reference_after.boids.size() - reference_births.size();
  const std::size_t expected_size = survivors + children_found;
  const bool ids_shifted = first_band_parent != UINT64_MAX;
  if (!ids_shifted && candidate_after.boids.size() > expected_size) {
    for (const Boid& cand : candidate_after.boids) {
      if (find_by_id(reference_after, cand.id) == nullptr) {
        event_mismatch("boid " + std::to_string(cand.id) + " exists on the candidate side only");
      }
    }
  }
  check.median_velocity_error = median(velocity_errors);
  check.median_position_error = median(position_errors);
  return check;
}

// --- free runs and their perturbations ---------------------------------------------------------
double rms_position_drift(const Scenario& scenario, const FlockState& a, const FlockState& b) {
  double sum = 0;
  std::size_t shared = 0;
  for (const Boid& x : a.boids) {
    const Boid* y = find_by_id(b, x.id);
    if (y == nullptr) continue;
    const double e = position_error(scenario, x, *y);
    sum += e * e;
    ++shared;
  }
  return shared == 0 ? 0.0 : std::sqrt(sum / double(shared));
}

std::vector<std::uint32_t> population_by_species(const Scenario& scenario, const FlockState& state) {
  std::vector<std::uint32_t> population(scenario.species.size(), 0);
  for (const Boid& b : state.boids) {
    if (b.species < population.size()) ++population[b.species];
  }
  return population;
}

FlockState perturb_one_ulp(const Scenario& scenario, const FlockState& state, int variant) {
  FlockState out = state;
  const int dimensions = is_3d(scenario) ? 3 : 2;
  const int axis = variant % dimensions;
  const float sign = (variant / dimensions) % 2 == 0 ? 1.0f : -1.0f;
  for (Boid& b : out.boids) {
    const float length = world_box(scenario)[axis];
    const float centre = 0.5f * length;
    float& p = axis < 2 ? b.pos[axis] : b.z;
    const float toward = (p < centre ? length : 0.0f) * (sign > 0 ? 1.0f : 0.0f) +
                         (p < centre ? 0.0f : length) * (sign > 0 ? 0.0f : 1.0f);
    const float nudged = std::nextafter(p, toward);
    const bool inside = scenario.species[b.species].topology == Topology::Wrap
                            ? nudged >= 0.0f && nudged < length
                            : nudged >= 0.0f && nudged <= length;
    p = inside ? nudged : std::nextafter(p, centre);
  }
  return out;
}

void jitter_energies_within_band(const Scenario& scenario, FlockState& state, int variant) {
  const float smallest_energy = std::nextafter(0.0f, 1.0f);
  for (Boid& b : state.boids) {
    const float energy_max = scenario.species[b.species].energy_max;
    if (energy_max <= 0.0f) continue;
    const auto band = static_cast<float>(energy_band(scenario, b.species));
    const float jitter = random_uniform(
        RandomDraw{static_cast<std::uint64_t>(variant), b.id, state.step, kEnvelopeEnergyDraw},
        -band, band);
    b.energy = std::clamp(b.energy + jitter, smallest_energy, energy_max);
  }
}

}  // namespace murmur
