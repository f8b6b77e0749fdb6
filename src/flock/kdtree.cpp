#include "murmur/flock/kdtree.hpp"

#include <algorithm>
#include <array>
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

}  // namespace

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

void brute_force_radius(std::span<const glm::vec2> points, glm::vec2 center, float radius,
                        Topology topology, glm::vec2 world, std::vector<std::uint32_t>& out) {
  const float radius_sq = radius * radius;
  for (std::uint32_t i = 0; i < points.size(); ++i) {
    if (within_radius(center, points[i], radius_sq, topology, world)) out.push_back(i);
  }
}

}  // namespace murmur
