#pragma once
// A static 2D k-d tree over points, for fixed-radius queries with the model's strict
// |d|^2 < r^2 predicate; wrap-aware queries split the query box at the world's edges.
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec2.hpp>

#include "murmur/scenario.hpp"

namespace murmur {

class KdTree2D {
 public:
  KdTree2D() = default;
  // Builds over `points` (copied); indices returned by queries index into this span.
  // Deterministic: the same points give the same tree and the same result order.
  explicit KdTree2D(std::span<const glm::vec2> points);

  // Appends to `out` the index of every point q with |displacement(center, q)|^2 < radius^2,
  // where displacement is the minimum image when topology is Wrap (world size `world`) and
  // the plain difference otherwise. The center itself is reported if it is a stored point.
  void query_radius(glm::vec2 center, float radius, Topology topology, glm::vec2 world,
                    std::vector<std::uint32_t>& out) const;

  std::size_t size() const { return points_.size(); }

 private:
  struct Node;
  std::vector<glm::vec2> points_;
  std::vector<std::uint32_t> order_;  // point indices in tree order
  std::vector<Node> nodes_;
  void query_box(glm::vec2 lo, glm::vec2 hi, glm::vec2 center, glm::vec2 shift, float radius_sq,
                 std::vector<std::uint32_t>& out) const;
};

// O(N) per query: every index whose (minimum-image) squared distance is < radius^2.
void brute_force_radius(std::span<const glm::vec2> points, glm::vec2 center, float radius,
                        Topology topology, glm::vec2 world, std::vector<std::uint32_t>& out);

}  // namespace murmur
