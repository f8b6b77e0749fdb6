// The k-d tree (docs/model.md, "The k-d tree") against brute force and against the model's own
// predicate: the CPU reference's neighbour sets are only as trustworthy as this search.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "murmur/flock/kdtree.hpp"
#include "murmur/flock/model.hpp"
#include "test_random.hpp"

namespace {

using murmur::KdTree2D;
using murmur::Topology;
using murmur::test::SplitMix;
using Indices = std::vector<std::uint32_t>;

constexpr glm::vec2 kWorld{100.0f, 60.0f};  // not square: catches swapped axes
constexpr Topology kTopologies[] = {Topology::Wrap, Topology::Bounded};

std::string name_of(Topology t) { return t == Topology::Wrap ? "wrap" : "bounded"; }

Indices tree_query(const KdTree2D& tree, glm::vec2 center, float radius, Topology topology,
                   glm::vec2 world) {
  Indices out;
  tree.query_radius(center, radius, topology, world, out);
  std::sort(out.begin(), out.end());
  return out;
}

Indices brute_query(const std::vector<glm::vec2>& points, glm::vec2 center, float radius,
                    Topology topology, glm::vec2 world) {
  Indices out;
  murmur::brute_force_radius(points, center, radius, topology, world, out);
  return out;  // ascending by construction
}

// Compares the two searches as sets and checks the tree never reports a point twice.
void require_same_sets(const KdTree2D& tree, const std::vector<glm::vec2>& points,
                       glm::vec2 center, float radius, Topology topology,
                       glm::vec2 world = kWorld) {
  INFO("center (" << center.x << ", " << center.y << ") radius " << radius << " "
                  << name_of(topology) << " N=" << points.size());
  const Indices from_tree = tree_query(tree, center, radius, topology, world);
  REQUIRE(std::adjacent_find(from_tree.begin(), from_tree.end()) == from_tree.end());
  REQUIRE(from_tree == brute_query(points, center, radius, topology, world));
}

std::vector<glm::vec2> random_points(std::size_t count, std::uint64_t seed,
                                     glm::vec2 world = kWorld) {
  SplitMix rng(seed);
  std::vector<glm::vec2> points(count);
  for (glm::vec2& p : points) p = {rng.in(0.0f, world.x), rng.in(0.0f, world.y)};
  return points;
}

}  // namespace

TEST_CASE("k-d tree equals brute force on random sets", "[kdtree]") {
  const std::size_t sizes[] = {0, 1, 2, 1000, 20000};
  const std::uint64_t seeds[] = {1, 2, 0xDEADBEEF};
  const float radii[] = {0.5f, 3.0f, 12.5f, 29.9f};  // 29.9 < min(L)/2 = 30
  constexpr int kQueriesPerSet = 60;
  for (const std::size_t size : sizes) {
    for (const std::uint64_t seed : seeds) {
      const std::vector<glm::vec2> points = random_points(size, seed);
      const KdTree2D tree(points);
      REQUIRE(tree.size() == size);
      SplitMix rng(seed * 7919 + size);
      for (int q = 0; q < kQueriesPerSet; ++q) {
        // Half the queries sit on stored points (as the step's are), half anywhere.
        const glm::vec2 center = (q % 2 == 0 && size > 0)
                                     ? points[rng.next() % size]
                                     : glm::vec2{rng.in(0.0f, kWorld.x), rng.in(0.0f, kWorld.y)};
        for (const float radius : radii) {
          for (const Topology topology : kTopologies) {
            require_same_sets(tree, points, center, radius, topology);
          }
        }
      }
    }
  }
}

TEST_CASE("k-d tree agrees on a query that finds everything", "[kdtree]") {
  // Radius just under half the smaller side, centered mid-world: the wrap query's image boxes
  // nearly touch, so a point counted in two of them would show up as a duplicate.
  const std::vector<glm::vec2> points = random_points(5000, 99);
  const KdTree2D tree(points);
  for (const Topology topology : kTopologies) {
    require_same_sets(tree, points, kWorld * 0.5f, 29.999f, topology);
    require_same_sets(tree, points, {0.0f, 0.0f}, 29.999f, topology);
  }
}

TEST_CASE("k-d tree handles duplicates and identical points", "[kdtree]") {
  SECTION("many points on few distinct positions") {
    SplitMix rng(5);
    std::vector<glm::vec2> distinct = random_points(7, 6);
    std::vector<glm::vec2> points;
    for (int i = 0; i < 3000; ++i) points.push_back(distinct[rng.next() % distinct.size()]);
    const KdTree2D tree(points);
    for (const glm::vec2 center : distinct) {
      for (const Topology topology : kTopologies) {
        require_same_sets(tree, points, center, 20.0f, topology);
      }
    }
  }
  SECTION("all points identical") {
    const glm::vec2 spot{5.0f, 5.0f};
    const std::vector<glm::vec2> points(100, spot);
    const KdTree2D tree(points);
    for (const Topology topology : kTopologies) {
      REQUIRE(tree_query(tree, spot, 1.0f, topology, kWorld).size() == 100);
      // 1.5^2 = 2.25 is exact in float32, so the strict < excludes a point exactly 1.5 away.
      REQUIRE(tree_query(tree, spot + glm::vec2{1.5f, 0.0f}, 1.5f, topology, kWorld).empty());
      REQUIRE(tree_query(tree, spot + glm::vec2{1.5f, 0.0f}, 1.5001f, topology, kWorld).size() ==
              100);
    }
  }
}

TEST_CASE("k-d tree on world edges and radius multiples", "[kdtree]") {
  // Positions at 0, L and multiples of the radius: the values where a box or image test that
  // is off by one comparison (< vs <=) would show.
  constexpr float kRadius = 5.0f;
  std::vector<glm::vec2> points;
  for (float x = 0.0f; x <= kWorld.x; x += kRadius) {
    for (float y = 0.0f; y <= kWorld.y; y += kRadius) points.push_back({x, y});
  }
  const std::vector<glm::vec2> random = random_points(2000, 11);
  points.insert(points.end(), random.begin(), random.end());
  const KdTree2D tree(points);
  for (const Topology topology : kTopologies) {
    for (const glm::vec2 center :
         {glm::vec2{0.0f, 0.0f}, glm::vec2{kWorld.x, kWorld.y}, glm::vec2{0.0f, kWorld.y},
          glm::vec2{kWorld.x, 0.0f}, glm::vec2{kWorld.x, 30.0f}, glm::vec2{50.0f, 0.0f},
          glm::vec2{25.0f, 35.0f}, glm::vec2{2.5f, 57.5f}}) {
      for (const float radius : {kRadius, 2.0f * kRadius, 0.5f * kRadius}) {
        require_same_sets(tree, points, center, radius, topology);
      }
    }
  }

  SECTION("a wrap query sees the points at 0 and at L as one place") {
    const std::vector<glm::vec2> edge{{0.0f, 10.0f}, {kWorld.x, 10.0f}, {50.0f, 10.0f}};
    const KdTree2D edge_tree(edge);
    REQUIRE(tree_query(edge_tree, {0.0f, 10.0f}, 1.0f, Topology::Wrap, kWorld) == Indices{0, 1});
    REQUIRE(tree_query(edge_tree, {kWorld.x, 10.0f}, 1.0f, Topology::Wrap, kWorld) ==
            Indices{0, 1});
    REQUIRE(tree_query(edge_tree, {0.0f, 10.0f}, 1.0f, Topology::Bounded, kWorld) == Indices{0});
    REQUIRE(tree_query(edge_tree, {kWorld.x, 10.0f}, 1.0f, Topology::Bounded, kWorld) ==
            Indices{1});
  }
}

TEST_CASE("k-d tree on a lattice spaced exactly r apart", "[kdtree]") {
  // Spacing 2 and a world of 20 x 12 lattice cells: every distance here is exact in float32,
  // so the strict < decides (docs/model.md: not a rounding question).
  constexpr float kSpacing = 2.0f;
  constexpr int kColumns = 20;
  constexpr int kRows = 12;
  const glm::vec2 world{kSpacing * kColumns, kSpacing * kRows};
  std::vector<glm::vec2> points;
  for (int row = 0; row < kRows; ++row) {
    for (int col = 0; col < kColumns; ++col) {
      points.push_back({kSpacing * static_cast<float>(col), kSpacing * static_cast<float>(row)});
    }
  }
  const KdTree2D tree(points);
  const float just_over = std::nextafter(kSpacing, 1.0e9f);
  // Between the side (2) and the diagonal (2.83) and the next ring (4).
  constexpr float kPastDiagonal = 3.0f;

  for (std::size_t i = 0; i < points.size(); ++i) {
    const int col = static_cast<int>(i) % kColumns;
    const int row = static_cast<int>(i) / kColumns;
    INFO("lattice point " << col << ", " << row);
    for (const Topology topology : kTopologies) {
      // At exactly r only the point itself: its four side neighbours are exactly r away.
      const Indices at_r = tree_query(tree, points[i], kSpacing, topology, world);
      REQUIRE(at_r == Indices{static_cast<std::uint32_t>(i)});
      REQUIRE(at_r == brute_query(points, points[i], kSpacing, topology, world));
    }
    // One ulp more takes in the side neighbours: 4 on the torus; on a walled world, fewer at
    // the walls (the lattice's last column sits at L - 2, not at L).
    const std::size_t side_bounded = 1 + (col > 0) + (col < kColumns - 1) + (row > 0) +
                                     (row < kRows - 1);
    REQUIRE(tree_query(tree, points[i], just_over, Topology::Wrap, world).size() == 5);
    REQUIRE(tree_query(tree, points[i], just_over, Topology::Bounded, world).size() ==
            side_bounded);
    // Past the diagonal: the 3 x 3 block, clipped at walls when bounded.
    const std::size_t block_columns = 1 + (col > 0) + (col < kColumns - 1);
    const std::size_t block_rows = 1 + (row > 0) + (row < kRows - 1);
    REQUIRE(tree_query(tree, points[i], kPastDiagonal, Topology::Wrap, world).size() == 9);
    REQUIRE(tree_query(tree, points[i], kPastDiagonal, Topology::Bounded, world).size() ==
            block_columns * block_rows);
    for (const Topology topology : kTopologies) {
      REQUIRE(tree_query(tree, points[i], kPastDiagonal, topology, world) ==
              brute_query(points, points[i], kPastDiagonal, topology, world));
    }
  }
}

TEST_CASE("wrap queries near corners see across both seams and the diagonal", "[kdtree]") {
  const std::vector<glm::vec2> points{
      {1.0f, 1.0f},                        // 0: same corner
      {kWorld.x - 1.0f, 1.0f},             // 1: across the x seam
      {1.0f, kWorld.y - 1.0f},             // 2: across the y seam
      {kWorld.x - 1.0f, kWorld.y - 1.0f},  // 3: across both (the diagonal corner)
      {50.0f, 30.0f},                      // 4: far away
  };
  const KdTree2D tree(points);
  for (const glm::vec2 corner : {glm::vec2{0.5f, 0.5f}, glm::vec2{kWorld.x - 0.5f, 0.5f},
                                 glm::vec2{0.5f, kWorld.y - 0.5f}, kWorld - 0.5f}) {
    INFO("corner (" << corner.x << ", " << corner.y << ")");
    REQUIRE(tree_query(tree, corner, 3.0f, Topology::Wrap, kWorld) == Indices{0, 1, 2, 3});
    const Indices bounded = tree_query(tree, corner, 3.0f, Topology::Bounded, kWorld);
    REQUIRE(bounded.size() == 1);  // only the boid in its own corner, no wrap neighbours
    REQUIRE(bounded == brute_query(points, corner, 3.0f, Topology::Bounded, kWorld));
  }
}

TEST_CASE("the tree's predicate is the model's in_view, bit for bit", "[kdtree]") {
  // Pairs placed within a few ulps of the radius, many across the seam: membership must match
  // in_view(displacement(...)) exactly, not just "approximately r".
  SplitMix rng(2024);
  constexpr int kPairs = 4000;
  constexpr float kRadius = 7.3f;  // r^2 is inexact in float32: the rounding must match too
  murmur::SpeciesModel observer;
  observer.radius_sq = kRadius * kRadius;
  std::vector<glm::vec2> points;
  std::vector<glm::vec2> centers;
  for (int k = 0; k < kPairs; ++k) {
    const float angle = rng.in(0.0f, 6.2831853f);
    const float distance = kRadius * (1.0f + rng.in(-4.0f, 4.0f) * 0x1.0p-23f);
    // Centers hug the seams so half the pairs wrap.
    const glm::vec2 center{(k % 2 == 0) ? rng.in(0.0f, 8.0f) : rng.in(0.0f, kWorld.x),
                           (k % 3 == 0) ? rng.in(kWorld.y - 8.0f, kWorld.y)
                                        : rng.in(0.0f, kWorld.y)};
    // Every fourth pair lies along an axis: the whole distance on one coordinate is the tightest
    // case for the tree's box pruning.
    static const glm::vec2 kAxes[] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    const glm::vec2 direction = (k % 4 == 0) ? kAxes[(k / 4) % 4]
                                             : glm::vec2{std::cos(angle), std::sin(angle)};
    glm::vec2 q = center + distance * direction;
    for (int a = 0; a < 2; ++a) {
      if (q[a] < 0.0f) q[a] += kWorld[a];
      if (q[a] >= kWorld[a]) q[a] -= kWorld[a];
    }
    centers.push_back(center);
    points.push_back(q);
  }
  const KdTree2D tree(points);
  int accepted = 0;
  for (int k = 0; k < kPairs; ++k) {
    const Indices found = tree_query(tree, centers[k], kRadius, Topology::Wrap, kWorld);
    const bool in_tree = std::binary_search(found.begin(), found.end(), std::uint32_t(k));
    const glm::vec2 d = murmur::displacement(centers[k], points[k], Topology::Wrap, kWorld);
    REQUIRE(in_tree == murmur::in_view(observer, d, glm::vec2{1.0f, 0.0f}));
    accepted += in_tree ? 1 : 0;
  }
  // Both outcomes occur, or the pairs were not near the boundary at all.
  REQUIRE(accepted > kPairs / 10);
  REQUIRE(accepted < kPairs - kPairs / 10);
}

TEST_CASE("query_radius appends and an empty tree finds nothing", "[kdtree]") {
  const KdTree2D empty;
  Indices out{42};
  empty.query_radius({1.0f, 1.0f}, 5.0f, Topology::Wrap, kWorld, out);
  REQUIRE(out == Indices{42});
  const std::vector<glm::vec2> points{{1.0f, 1.0f}};
  const KdTree2D one(points);
  one.query_radius({1.0f, 1.0f}, 5.0f, Topology::Wrap, kWorld, out);
  REQUIRE(out == Indices{42, 0});
}
