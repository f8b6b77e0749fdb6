#pragma once
// A static k-d tree over points of D = 2 or 3 dimensions, for fixed-radius and k-nearest
// queries with the model's strict |d|^2 < r^2 predicate; wrap-aware queries split the query
// box at the world's edges.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "murmur/scenario/scenario.hpp"

namespace murmur {

template <int D>
class KdTree {
 public:
  using Point = glm::vec<D, float>;

  KdTree() = default;
  // Builds over `points` (copied); indices returned by queries index into this span.
  // Deterministic: the same points give the same tree and the same result order.
  explicit KdTree(std::span<const Point> points);

  // Appends to `out` the index of every point q with |displacement(center, q)|^2 < radius^2,
  // where displacement is the minimum image when topology is Wrap (world size `world`) and
  // the plain difference otherwise. The center itself is reported if it is a stored point.
  void query_radius(Point center, float radius, Topology topology, Point world,
                    std::vector<std::uint32_t>& out) const;

  // What a candidate must pass before it is ranked (query_nearest): its index and its
  // displacement d from the center, as `displacement` computes it.
  using Admits = std::function<bool(std::uint32_t index, Point d)>;

  // Appends to `out`, in no particular order, the indices of the `k` points nearest `center`
  // among those with |d|^2 < radius^2 that `admits` accepts (all of them when fewer): ranked
  // by ranks_nearer on (fl(|d|^2), ids[index]), so that of equally near points the smaller id
  // wins (docs/model.md, "Topological neighbours"). `ids` holds one id per point.
  void query_nearest(Point center, float radius, std::uint32_t k, Topology topology,
                     Point world, std::span<const std::uint32_t> ids, const Admits& admits,
                     std::vector<std::uint32_t>& out) const;

  std::size_t size() const { return points_.size(); }

  // The bytes a tree holds per point it is built over: the copied point, its place in the
  // order and its share of the nodes build() reserves (the memory estimate,
  // docs/reliability.md).
  static std::size_t bytes_per_point();

 private:
  using Bound = glm::vec<D, double>;
  struct Box {  // closed, in double so that bounds built from floats are exact
    Bound lo, hi;
  };
  struct Node {
    Box bounds;               // tight bounding box of the node's points
    std::uint32_t begin = 0;  // the node's points are order_[begin, end)
    std::uint32_t end = 0;
    std::uint32_t left = 0;   // child nodes; 0 for a leaf (node 0 is the root)
    std::uint32_t right = 0;
    bool is_leaf() const { return left == 0; }
  };
  std::vector<Point> points_;
  std::vector<std::uint32_t> order_;  // point indices in tree order
  std::vector<Node> nodes_;
  std::uint32_t build(std::uint32_t begin, std::uint32_t end);
  // Reports the points of `node`'s subtree that lie in `box` and pass the model's predicate.
  void query_box(std::uint32_t node, const Box& box, Point center, float radius_sq,
                 Topology topology, Point world, std::vector<std::uint32_t>& out) const;
  struct NearestSearch;
  // Offers the points of `node`'s subtree near the image `image` of the center to `search`.
  void nearest_in(std::uint32_t node, Bound image, NearestSearch& search) const;
};

// The code is in kdtree.cpp, built once for each dimension.
extern template class KdTree<2>;
extern template class KdTree<3>;

using KdTree2D = KdTree<2>;
using KdTree3D = KdTree<3>;

// O(N) per query: every index whose (minimum-image) squared distance is < radius^2.
// Overloads rather than a template, so that a vector of points converts to the span.
void brute_force_radius(std::span<const glm::vec2> points, glm::vec2 center, float radius,
                        Topology topology, glm::vec2 world, std::vector<std::uint32_t>& out);
void brute_force_radius(std::span<const glm::vec3> points, glm::vec3 center, float radius,
                        Topology topology, glm::vec3 world, std::vector<std::uint32_t>& out);

// O(N) per query: the same k nearest as KdTree::query_nearest.
void brute_force_nearest(std::span<const glm::vec2> points, glm::vec2 center, float radius,
                         std::uint32_t k, Topology topology, glm::vec2 world,
                         std::span<const std::uint32_t> ids, const KdTree2D::Admits& admits,
                         std::vector<std::uint32_t>& out);
void brute_force_nearest(std::span<const glm::vec3> points, glm::vec3 center, float radius,
                         std::uint32_t k, Topology topology, glm::vec3 world,
                         std::span<const std::uint32_t> ids, const KdTree3D::Admits& admits,
                         std::vector<std::uint32_t>& out);

}  // namespace murmur
