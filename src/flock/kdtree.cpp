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
// A binary tree with L leaves has fewer than 2L nodes.
constexpr std::size_t kNodesPerLeaf = 2;

// The tree prunes with boxes of half-width r widened by this (relative) slack. The model
// accepts a pair only if |fl(d_a)| < r on each axis, and fl(d_a) is the exact image-shifted
// difference rounded once; rounding is monotone and r is a float, so the exact |d_a| < r as
// well and a half-width of exactly r would lose nothing. The slack keeps that true should the
// displacement ever gain a rounding; it never decides membership, the exact predicate does.
constexpr double kPruneSlack = 1e-5;

template <int D>
using Point = glm::vec<D, float>;

// The model's squared length, the products summed in axis order as in_view writes it
// (docs/model.md, "One step in 3D"), so the predicate is bit-identical (the core is built with
// -ffp-contract=off, so nothing is fused). In 2D this is d.x*d.x + d.y*d.y.
template <int D>
float squared_length(Point<D> d) {
  float sum = d[0] * d[0];
  for (int a = 1; a < D; ++a) sum += d[a] * d[a];
  return sum;
}

template <int D>
bool within_radius(Point<D> center, Point<D> q, float radius_sq, Topology topology,
                   Point<D> world) {
  return squared_length<D>(displacement(center, q, topology, world)) < radius_sq;
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
template <int D, class Admit>
void offer(std::vector<Ranked>& kept, std::uint32_t k, Point<D> center, Point<D> q,
           std::uint32_t index, float radius_sq, Topology topology, Point<D> world,
           std::span<const std::uint32_t> ids, const Admit& admits) {
  const Point<D> d = displacement(center, q, topology, world);
  const float dist_sq = squared_length<D>(d);
  if (!(dist_sq < radius_sq) || !admits(index, d)) return;
  keep_nearest(kept, k, Ranked{dist_sq, ids[index], index});
}

// The squared distance from `p` to the nearest point of `box` (0 inside it).
template <int D>
double distance_sq_to(const glm::vec<D, double>& p, const glm::vec<D, double>& lo,
                      const glm::vec<D, double>& hi) {
  double sum = 0.0;
  for (int a = 0; a < D; ++a) {
    const double gap = std::max({lo[a] - p[a], 0.0, p[a] - hi[a]});
    sum += gap * gap;
  }
  return sum;
}

// On a wrap axis the center is seen at three images, c + kL for k = 0, 1, -1 (the model
// shifts by one L at most); a query looks at up to kImagesPerAxis^D of them.
constexpr int kImagesPerAxis = 3;

// Calls visit(choice) for every choice of one of count[a] options on each axis a, the last
// axis varying fastest (in 2D: for ix { for iy { ... } }).
template <int D, class Visit>
void for_each_combination(const std::array<int, D>& count, const Visit& visit) {
  std::array<int, D> choice{};
  while (true) {
    visit(choice);
    int a = D - 1;
    while (a >= 0 && ++choice[a] == count[a]) choice[a--] = 0;
    if (a < 0) return;
  }
}

}  // namespace

// A k-nearest query under way: the boxes around each image of the center shrink to the k-th
// nearest distance met so far (widened by kPruneSlack, so that a point as near as the k-th, which
// may still win on its id, is never pruned: fl(|d|^2) <= D implies |d_a| <= sqrt(D) (1 + 3u)).
template <int D>
struct KdTree<D>::NearestSearch {
  Point center;
  float radius_sq = 0.0f;
  std::uint32_t k = 0;
  Topology topology = Topology::Wrap;
  Point world{0.0f};
  std::span<const std::uint32_t> ids;
  const Admits* admits = nullptr;
  std::array<bool, D> unbounded{};  // an axis not pruned (the reach covers half the world)
  double reach = 0.0;               // half-width of the boxes around the center's images
  std::vector<Ranked> kept;

  bool overlaps(const Box& bounds, Bound image) const {
    for (int a = 0; a < D; ++a) {
      if (unbounded[a]) continue;
      if (bounds.hi[a] < image[a] - reach || bounds.lo[a] > image[a] + reach) return false;
    }
    return true;
  }
  bool holds(Point q, Bound image) const {
    for (int a = 0; a < D; ++a) {
      if (!unbounded[a] && (q[a] < image[a] - reach || q[a] > image[a] + reach)) return false;
    }
    return true;
  }
  void offer_point(Point q, std::uint32_t index) {
    offer<D>(kept, k, center, q, index, radius_sq, topology, world, ids, *admits);
    if (kept.size() == k) {
      reach = std::min(reach, std::sqrt(double(kept.front().dist_sq)) * (1.0 + kPruneSlack));
    }
  }
};

template <int D>
KdTree<D>::KdTree(std::span<const Point> points) : points_(points.begin(), points.end()) {
  order_.resize(points_.size());
  for (std::uint32_t i = 0; i < order_.size(); ++i) order_[i] = i;
  if (points_.empty()) return;
  nodes_.reserve(kNodesPerLeaf * (points_.size() / kLeafSize + 1));
  build(0, static_cast<std::uint32_t>(order_.size()));
}

template <int D>
std::uint32_t KdTree<D>::build(std::uint32_t begin, std::uint32_t end) {
  const auto node_index = static_cast<std::uint32_t>(nodes_.size());
  nodes_.emplace_back();
  Box bounds{Bound(std::numeric_limits<double>::infinity()),
             Bound(-std::numeric_limits<double>::infinity())};
  for (std::uint32_t k = begin; k < end; ++k) {
    const Point p = points_[order_[k]];
    for (int a = 0; a < D; ++a) {
      bounds.lo[a] = std::min(bounds.lo[a], static_cast<double>(p[a]));
      bounds.hi[a] = std::max(bounds.hi[a], static_cast<double>(p[a]));
    }
  }
  nodes_[node_index].bounds = bounds;
  nodes_[node_index].begin = begin;
  nodes_[node_index].end = end;
  if (end - begin <= kLeafSize) return node_index;

  // Split the largest extent (the first of equal ones) at the median; ties on the coordinate
  // are broken by index so the partition (and so every later query's result order) depends
  // only on the input.
  int axis = 0;
  for (int a = 1; a < D; ++a) {
    if (!(bounds.hi[axis] - bounds.lo[axis] >= bounds.hi[a] - bounds.lo[a])) axis = a;
  }
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

template <int D>
void KdTree<D>::query_radius(Point center, float radius, Topology topology, Point world,
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
  std::array<std::array<Interval, kImagesPerAxis>, D> intervals{};
  std::array<int, D> interval_count{};
  for (int a = 0; a < D; ++a) {
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
      interval_count[a] = kImagesPerAxis;
    }
  }
  for_each_combination<D>(interval_count, [&](const std::array<int, D>& choice) {
    Box box;
    for (int a = 0; a < D; ++a) {
      box.lo[a] = intervals[a][choice[a]].lo;
      box.hi[a] = intervals[a][choice[a]].hi;
    }
    query_box(0, box, center, radius_sq, topology, world, out);
  });
}

template <int D>
void KdTree<D>::query_box(std::uint32_t node_index, const Box& box, Point center,
                          float radius_sq, Topology topology, Point world,
                          std::vector<std::uint32_t>& out) const {
  const Node& node = nodes_[node_index];
  for (int a = 0; a < D; ++a) {
    if (node.bounds.hi[a] < box.lo[a] || node.bounds.lo[a] > box.hi[a]) return;
  }
  if (!node.is_leaf()) {
    query_box(node.left, box, center, radius_sq, topology, world, out);
    query_box(node.right, box, center, radius_sq, topology, world, out);
    return;
  }
  for (std::uint32_t k = node.begin; k < node.end; ++k) {
    const std::uint32_t index = order_[k];
    const Point q = points_[index];
    // The box test keeps each point to the one image box that holds it (the boxes are
    // disjoint); the model's own predicate then decides.
    bool in_box = true;
    for (int a = 0; a < D; ++a) in_box = in_box && box.lo[a] <= q[a] && q[a] <= box.hi[a];
    if (in_box && within_radius<D>(center, q, radius_sq, topology, world)) out.push_back(index);
  }
}

template <int D>
void KdTree<D>::query_nearest(Point center, float radius, std::uint32_t k, Topology topology,
                              Point world, std::span<const std::uint32_t> ids,
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
  std::array<std::array<double, kImagesPerAxis>, D> images{};
  std::array<int, D> image_count{};
  for (int a = 0; a < D; ++a) {
    const double c = center[a];
    images[a] = {c, c + world[a], c - world[a]};
    search.unbounded[a] = topology == Topology::Wrap && 2.0 * search.reach >= world[a];
    image_count[a] = topology == Topology::Wrap && !search.unbounded[a] ? kImagesPerAxis : 1;
  }
  for_each_combination<D>(image_count, [&](const std::array<int, D>& choice) {
    Bound image;
    for (int a = 0; a < D; ++a) image[a] = images[a][choice[a]];
    nearest_in(0, image, search);
  });
  for (const Ranked& r : search.kept) out.push_back(r.index);
}

template <int D>
void KdTree<D>::nearest_in(std::uint32_t node_index, Bound image, NearestSearch& search) const {
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
  const bool left_first = distance_sq_to<D>(image, left.bounds.lo, left.bounds.hi) <=
                          distance_sq_to<D>(image, right.bounds.lo, right.bounds.hi);
  nearest_in(left_first ? node.left : node.right, image, search);
  nearest_in(left_first ? node.right : node.left, image, search);
}

template <int D>
std::size_t KdTree<D>::bytes_per_point() {
  // Rounded up: the nodes are a share of a point each.
  return sizeof(Point) + sizeof(std::uint32_t) +
         (kNodesPerLeaf * sizeof(Node) + kLeafSize - 1) / kLeafSize;
}

template class KdTree<2>;
template class KdTree<3>;


namespace {

template <int D>
void nearest_by_brute_force(std::span<const Point<D>> points, Point<D> center, float radius,
                            std::uint32_t k, Topology topology, Point<D> world,
                            std::span<const std::uint32_t> ids,
                            const typename KdTree<D>::Admits& admits,
                            std::vector<std::uint32_t>& out) {
  if (k == 0) return;
  const float radius_sq = radius * radius;
  std::vector<Ranked> kept;
  for (std::uint32_t i = 0; i < points.size(); ++i) {
    offer<D>(kept, k, center, points[i], i, radius_sq, topology, world, ids, admits);
  }
  for (const Ranked& r : kept) out.push_back(r.index);
}

template <int D>
void radius_by_brute_force(std::span<const Point<D>> points, Point<D> center, float radius,
                           Topology topology, Point<D> world, std::vector<std::uint32_t>& out) {
  const float radius_sq = radius * radius;
  for (std::uint32_t i = 0; i < points.size(); ++i) {
    if (within_radius<D>(center, points[i], radius_sq, topology, world)) out.push_back(i);
  }
}

}  // namespace

void brute_force_nearest(std::span<const glm::vec2> points, glm::vec2 center, float radius,
                         std::uint32_t k, Topology topology, glm::vec2 world,
                         std::span<const std::uint32_t> ids, const KdTree2D::Admits& admits,
                         std::vector<std::uint32_t>& out) {
  nearest_by_brute_force<2>(points, center, radius, k, topology, world, ids, admits, out);
}

void brute_force_nearest(std::span<const glm::vec3> points, glm::vec3 center, float radius,
                         std::uint32_t k, Topology topology, glm::vec3 world,
                         std::span<const std::uint32_t> ids, const KdTree3D::Admits& admits,
                         std::vector<std::uint32_t>& out) {
  nearest_by_brute_force<3>(points, center, radius, k, topology, world, ids, admits, out);
}

void brute_force_radius(std::span<const glm::vec2> points, glm::vec2 center, float radius,
                        Topology topology, glm::vec2 world, std::vector<std::uint32_t>& out) {
  radius_by_brute_force<2>(points, center, radius, topology, world, out);
}

void brute_force_radius(std::span<const glm::vec3> points, glm::vec3 center, float radius,
                        Topology topology, glm::vec3 world, std::vector<std::uint32_t>& out) {
  radius_by_brute_force<3>(points, center, radius, topology, world, out);
}

}  // namespace murmur
