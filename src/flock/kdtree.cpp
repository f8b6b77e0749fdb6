#include "murmur/flock/kdtree.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "murmur/flock/model.hpp"

namespace murmur {

namespace {

// Leaves hold at most this many points: small enough to prune well, large enough that the
// tree's depth (and its node count) stays modest.
constexpr std::size_t kLeafSize = 8;

// The tree prunes with boxes of half-width r widened by this (relative) slack. The model
// accepts a pair only if |fl(d_a)| < r on each axis, and fl(d_a) is the exact image-shifted
// difference rounded once; rounding is monotone and r is a float, so the exact |d_a| < r as
// well and a half-width of exactly r would lose nothing. The slack keeps that true should the
// displacement ever gain a rounding; it never decides membership, the exact predicate does.
constexpr double kPruneSlack = 1e-5;

// The model's squared length, written exactly as in_view writes it so the predicate is
// bit-identical (the core is built with -ffp-contract=off, so nothing is fused).
float squared_length(glm::vec2 d) { return d.x * d.x + d.y * d.y; }

bool within_radius(glm::vec2 center, glm::vec2 q, float radius_sq, Topology topology,
                   glm::vec2 world) {
  return squared_length(displacement(center, q, topology, world)) < radius_sq;
}

// A candidate of a k-nearest query, ranked by (dist_sq, id).
struct Ranked {
  float dist_sq = 0.0f;
  std::uint32_t id = 0;
  std::uint32_t index = 0;
};

// Heap order: the candidate that ranks last is on top, the first to go.
bool ranks_before(const Ranked& a, const Ranked& b) {
  return ranks_nearer(a.dist_sq, a.id, b.dist_sq, b.id);
}

// Keeps `candidate` in `kept` (a heap of at most k, the last-ranked on top) if it ranks among
// the k first met so far.
void keep_nearest(std::vector<Ranked>& kept, std::uint32_t k, const Ranked& candidate) {
  if (kept.size() < k) {
    kept.push_back(candidate);
    std::push_heap(kept.begin(), kept.end(), ranks_before);
  } else if (ranks_before(candidate, kept.front())) {
    std::pop_heap(kept.begin(), kept.end(), ranks_before);
    kept.back() = candidate;
    std::push_heap(kept.begin(), kept.end(), ranks_before);
  }
}

// The point `q` at index `index` offered to a k-nearest query around `center`: admitted,
// within the radius, and ranked.
template <class Admit>
void offer(std::vector<Ranked>& kept, std::uint32_t k, glm::vec2 center, glm::vec2 q,
           std::uint32_t index, float radius_sq, Topology topology, glm::vec2 world,
           std::span<const std::uint32_t> ids, const Admit& admits) {
  const glm::vec2 d = displacement(center, q, topology, world);
  const float dist_sq = squared_length(d);
  if (!(dist_sq < radius_sq) || !admits(index, d)) return;
  keep_nearest(kept, k, Ranked{dist_sq, ids[index], index});
}

// The squared distance from `p` to the nearest point of `box` (0 inside it).
double distance_sq_to(const glm::dvec2& p, const glm::dvec2& lo, const glm::dvec2& hi) {
  double sum = 0.0;
  for (int a = 0; a < 2; ++a) {
    const double gap = std::max({lo[a] - p[a], 0.0, p[a] - hi[a]});
    sum += gap * gap;
  }
  return sum;
}

}  // namespace

// A k-nearest query under way: the boxes around each image of the center shrink to the k-th
// nearest distance met so far (widened by kPruneSlack, so that a point as near as the k-th, which
// may still win on its id, is never pruned: fl(|d|^2) <= D implies |d_a| <= sqrt(D) (1 + 3u)).
struct KdTree2D::NearestSearch {
  glm::vec2 center;
  float radius_sq = 0.0f;
  std::uint32_t k = 0;
  Topology topology = Topology::Wrap;
  glm::vec2 world{0.0f};
  std::span<const std::uint32_t> ids;
  const Admits* admits = nullptr;
  std::array<bool, 2> unbounded{};  // an axis not pruned (the reach covers half the world)
  double reach = 0.0;               // half-width of the boxes around the center's images
  std::vector<Ranked> kept;

  bool overlaps(const Box& bounds, glm::dvec2 image) const {
    for (int a = 0; a < 2; ++a) {
      if (unbounded[a]) continue;
      if (bounds.hi[a] < image[a] - reach || bounds.lo[a] > image[a] + reach) return false;
    }
    return true;
  }
  bool holds(glm::vec2 q, glm::dvec2 image) const {
    for (int a = 0; a < 2; ++a) {
      if (!unbounded[a] && (q[a] < image[a] - reach || q[a] > image[a] + reach)) return false;
    }
    return true;
  }
  void offer_point(glm::vec2 q, std::uint32_t index) {
    offer(kept, k, center, q, index, radius_sq, topology, world, ids, *admits);
    if (kept.size() == k) {
      reach = std::min(reach, std::sqrt(double(kept.front().dist_sq)) * (1.0 + kPruneSlack));
    }
  }
};

KdTree2D::KdTree2D(std::span<const glm::vec2> points) : points_(points.begin(), points.end()) {
  order_.resize(points_.size());
  for (std::uint32_t i = 0; i < order_.size(); ++i) order_[i] = i;
  if (points_.empty()) return;
  nodes_.reserve(2 * (points_.size() / kLeafSize + 1));
  build(0, static_cast<std::uint32_t>(order_.size()));
}

std::uint32_t KdTree2D::build(std::uint32_t begin, std::uint32_t end) {
  const auto node_index = static_cast<std::uint32_t>(nodes_.size());
  nodes_.emplace_back();
  Box bounds{{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()},
             {-std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}};
  for (std::uint32_t k = begin; k < end; ++k) {
    const glm::vec2 p = points_[order_[k]];
    for (int a = 0; a < 2; ++a) {
      bounds.lo[a] = std::min(bounds.lo[a], static_cast<double>(p[a]));
      bounds.hi[a] = std::max(bounds.hi[a], static_cast<double>(p[a]));
    }
  }
  nodes_[node_index].bounds = bounds;
  nodes_[node_index].begin = begin;
  nodes_[node_index].end = end;
  if (end - begin <= kLeafSize) return node_index;

  // Split the larger extent at the median; ties on the coordinate are broken by index so the
  // partition (and so every later query's result order) depends only on the input.
  const int axis = (bounds.hi[0] - bounds.lo[0] >= bounds.hi[1] - bounds.lo[1]) ? 0 : 1;
  const std::uint32_t mid = begin + (end - begin) / 2;
  std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
                   [&](std::uint32_t a, std::uint32_t b) {
                     const float pa = points_[a][axis];
                     const float pb = points_[b][axis];
                     return pa < pb || (pa == pb && a < b);
                   });
  const std::uint32_t left = build(begin, mid);
  const std::uint32_t right = build(mid, end);
  nodes_[node_index].left = left;
  nodes_[node_index].right = right;
  return node_index;
}

void KdTree2D::query_radius(glm::vec2 center, float radius, Topology topology, glm::vec2 world,
                            std::vector<std::uint32_t>& out) const {
  if (nodes_.empty()) return;
  const float radius_sq = radius * radius;
  const double reach = static_cast<double>(radius) * (1.0 + kPruneSlack);

  // Per axis, the intervals of stored coordinates that can hold an accepted point. On a torus
  // those are the three images [c - R + kL, c + R + kL], k = -1, 0, 1 (the model shifts by one
  // L at most); they are disjoint while 2R < L, so no point is ever visited twice. If the reach
  // covers half the world the axis is not pruned at all (one unbounded interval).
  struct Interval {
    double lo, hi;
  };
  std::array<std::array<Interval, 3>, 2> intervals{};
  std::array<int, 2> interval_count{};
  for (int a = 0; a < 2; ++a) {
    const double c = center[a];
    const double length = world[a];
    if (topology == Topology::Bounded) {
      intervals[a][0] = {c - reach, c + reach};
      interval_count[a] = 1;
    } else if (2.0 * reach >= length) {
      intervals[a][0] = {-std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::infinity()};
      interval_count[a] = 1;
    } else {
      intervals[a][0] = {c - reach, c + reach};
      intervals[a][1] = {c - reach + length, c + reach + length};
      intervals[a][2] = {c - reach - length, c + reach - length};
      interval_count[a] = 3;
    }
  }
  for (int ix = 0; ix < interval_count[0]; ++ix) {
    for (int iy = 0; iy < interval_count[1]; ++iy) {
      const Box box{{intervals[0][ix].lo, intervals[1][iy].lo},
                    {intervals[0][ix].hi, intervals[1][iy].hi}};
      query_box(0, box, center, radius_sq, topology, world, out);
    }
  }
}

void KdTree2D::query_box(std::uint32_t node_index, const Box& box, glm::vec2 center,
                         float radius_sq, Topology topology, glm::vec2 world,
                         std::vector<std::uint32_t>& out) const {
  const Node& node = nodes_[node_index];
  for (int a = 0; a < 2; ++a) {
    if (node.bounds.hi[a] < box.lo[a] || node.bounds.lo[a] > box.hi[a]) return;
  }
  if (!node.is_leaf()) {
    query_box(node.left, box, center, radius_sq, topology, world, out);
    query_box(node.right, box, center, radius_sq, topology, world, out);
    return;
  }
  for (std::uint32_t k = node.begin; k < node.end; ++k) {
    const std::uint32_t index = order_[k];
    const glm::vec2 q = points_[index];
    // The box test keeps each point to the one image box that holds it (the boxes are
    // disjoint); the model's own predicate then decides.
    const bool in_box = box.lo[0] <= q.x && q.x <= box.hi[0] && box.lo[1] <= q.y &&
                        q.y <= box.hi[1];
    if (in_box && within_radius(center, q, radius_sq, topology, world)) out.push_back(index);
  }
}

void KdTree2D::query_nearest(glm::vec2 center, float radius, std::uint32_t k, Topology topology,
                             glm::vec2 world, std::span<const std::uint32_t> ids,
                             const Admits& admits, std::vector<std::uint32_t>& out) const {
  if (nodes_.empty() || k == 0) return;
  NearestSearch search;
  search.center = center;
  search.radius_sq = radius * radius;
  search.k = k;
  search.topology = topology;
  search.world = world;
  search.ids = ids;
  search.admits = &admits;
  search.reach = static_cast<double>(radius) * (1.0 + kPruneSlack);
  search.kept.reserve(k);
  // The images of the center a point may be seen at, per axis, as in query_radius: one shift
  // by L at most, disjoint while 2R < L; the center itself first, where most neighbours are.
  std::array<std::array<double, 3>, 2> images{};
  std::array<int, 2> image_count{};
  for (int a = 0; a < 2; ++a) {
    const double c = center[a];
    images[a] = {c, c + world[a], c - world[a]};
    search.unbounded[a] = topology == Topology::Wrap && 2.0 * search.reach >= world[a];
    image_count[a] = topology == Topology::Wrap && !search.unbounded[a] ? 3 : 1;
  }
  for (int ix = 0; ix < image_count[0]; ++ix) {
    for (int iy = 0; iy < image_count[1]; ++iy) {
      nearest_in(0, {images[0][ix], images[1][iy]}, search);
    }
  }
  for (const Ranked& r : search.kept) out.push_back(r.index);
}

void KdTree2D::nearest_in(std::uint32_t node_index, glm::dvec2 image,
                          NearestSearch& search) const {
  const Node& node = nodes_[node_index];
  if (!search.overlaps(node.bounds, image)) return;
  if (node.is_leaf()) {
    for (std::uint32_t k = node.begin; k < node.end; ++k) {
      const std::uint32_t index = order_[k];
      // The box keeps each point to the one image that can see it (the boxes are disjoint).
      if (search.holds(points_[index], image)) search.offer_point(points_[index], index);
    }
    return;
  }
  // The nearer child first: its points shrink the reach before the farther one is looked at.
  const Node& left = nodes_[node.left];
  const Node& right = nodes_[node.right];
  const bool left_first = distance_sq_to(image, left.bounds.lo, left.bounds.hi) <=
                          distance_sq_to(image, right.bounds.lo, right.bounds.hi);
  nearest_in(left_first ? node.left : node.right, image, search);
  nearest_in(left_first ? node.right : node.left, image, search);
}

void brute_force_nearest(std::span<const glm::vec2> points, glm::vec2 center, float radius,
                         std::uint32_t k, Topology topology, glm::vec2 world,
                         std::span<const std::uint32_t> ids, const KdTree2D::Admits& admits,
                         std::vector<std::uint32_t>& out) {
  if (k == 0) return;
  const float radius_sq = radius * radius;
  std::vector<Ranked> kept;
  for (std::uint32_t i = 0; i < points.size(); ++i) {
    offer(kept, k, center, points[i], i, radius_sq, topology, world, ids, admits);
  }
  for (const Ranked& r : kept) out.push_back(r.index);
}

void brute_force_radius(std::span<const glm::vec2> points, glm::vec2 center, float radius,
                        Topology topology, glm::vec2 world, std::vector<std::uint32_t>& out) {
  const float radius_sq = radius * radius;
  for (std::uint32_t i = 0; i < points.size(); ++i) {
    if (within_radius(center, points[i], radius_sq, topology, world)) out.push_back(i);
  }
}

}  // namespace murmur
