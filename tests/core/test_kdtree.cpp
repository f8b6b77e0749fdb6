// The k-d tree (docs/model.md, "The k-d tree") against brute force and against the model's own
// predicate: the CPU reference's neighbour sets are only as trustworthy as this search.
//
// Sections: helpers; the plane (random sets, duplicates, edges, lattices, seams, the
// predicate); three dimensions (random clouds, seams, ties, duplicates, the predicate, a flat
// cloud).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <glm/geometric.hpp>

#include "murmur/flock/kdtree.hpp"
#include "murmur/flock/model.hpp"
#include "test_random.hpp"

namespace {

using murmur::KdTree2D;
using murmur::KdTree3D;
using murmur::Topology;
using murmur::test::SplitMix;
using Indices = std::vector<std::uint32_t>;
template <int D>
using Point = glm::vec<D, float>;

constexpr glm::vec2 kWorld{100.0f, 60.0f};  // not square: catches swapped axes
constexpr glm::vec3 kWorld3{100.0f, 60.0f, 80.0f};  // no two sides equal
constexpr Topology kTopologies[] = {Topology::Wrap, Topology::Bounded};

template <int D>
Point<D> default_world() {
  if constexpr (D == 2) {
    return kWorld;
  } else {
    return kWorld3;
  }
}

std::string name_of(Topology t) { return t == Topology::Wrap ? "wrap" : "bounded"; }

template <int D>
std::string text_of(Point<D> p) {
  std::string text = "(";
  for (int a = 0; a < D; ++a) text += (a > 0 ? ", " : "") + std::to_string(p[a]);
  return text + ")";
}

template <int D>
Indices tree_query(const murmur::KdTree<D>& tree, Point<D> center, float radius,
                   Topology topology, Point<D> world) {
  Indices out;
  tree.query_radius(center, radius, topology, world, out);
  std::sort(out.begin(), out.end());
  return out;
}

template <int D>
Indices brute_query(const std::vector<Point<D>>& points, Point<D> center, float radius,
                    Topology topology, Point<D> world) {
  Indices out;
  murmur::brute_force_radius(points, center, radius, topology, world, out);
  return out;  // ascending by construction
}

// Compares the two searches as sets and checks the tree never reports a point twice.
template <int D>
void require_same_sets(const murmur::KdTree<D>& tree, const std::vector<Point<D>>& points,
                       Point<D> center, float radius, Topology topology,
                       Point<D> world = default_world<D>()) {
  INFO("center " << text_of<D>(center) << " radius " << radius << " " << name_of(topology)
                 << " N=" << points.size());
  const Indices from_tree = tree_query<D>(tree, center, radius, topology, world);
  REQUIRE(std::adjacent_find(from_tree.begin(), from_tree.end()) == from_tree.end());
  REQUIRE(from_tree == brute_query<D>(points, center, radius, topology, world));
}

template <int D = 2>
std::vector<Point<D>> random_points(std::size_t count, std::uint64_t seed,
                                    Point<D> world = default_world<D>()) {
  SplitMix rng(seed);
  std::vector<Point<D>> points(count);
  for (Point<D>& p : points) {
    for (int a = 0; a < D; ++a) p[a] = rng.in(0.0f, world[a]);
  }
  return points;
}

// The k nearest by the tree and by brute force, as sorted index sets.
template <int D>
std::pair<Indices, Indices> nearest_both_ways(const murmur::KdTree<D>& tree,
                                              const std::vector<Point<D>>& points,
                                              Point<D> center, float radius, std::uint32_t k,
                                              Topology topology, Point<D> world,
                                              const Indices& ids,
                                              const typename murmur::KdTree<D>::Admits& admits) {
  Indices from_tree;
  Indices from_brute;
  tree.query_nearest(center, radius, k, topology, world, ids, admits, from_tree);
  murmur::brute_force_nearest(points, center, radius, k, topology, world, ids, admits,
                              from_brute);
  std::sort(from_tree.begin(), from_tree.end());
  std::sort(from_brute.begin(), from_brute.end());
  return {from_tree, from_brute};
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

// ---- three dimensions (docs/model.md, "Three dimensions", "The k-d tree") -------------------

TEST_CASE("3D k-d tree equals brute force on random clouds", "[kdtree][3d]") {
  const std::size_t sizes[] = {0, 1, 2, 1000, 20000};
  const std::uint64_t seeds[] = {3, 0xC0FFEE};
  // 29.9 is just under half the smallest side (min(L)/2 = 30): the wrap images nearly touch.
  const float radii[] = {0.5f, 4.0f, 12.5f, 29.9f};
  constexpr int kQueriesPerSet = 40;
  constexpr std::uint32_t kMostNeighbours = 20;
  for (const std::size_t size : sizes) {
    for (const std::uint64_t seed : seeds) {
      const std::vector<glm::vec3> points = random_points<3>(size, seed);
      Indices ids(size);
      for (std::uint32_t i = 0; i < size; ++i) ids[i] = (i * 7919u) % 100003u;  // unordered
      const KdTree3D tree(points);
      REQUIRE(tree.size() == size);
      SplitMix rng(seed * 7919 + size);
      for (int q = 0; q < kQueriesPerSet; ++q) {
        // Half the queries sit on stored points (as the step's are), half anywhere.
        const glm::vec3 center = (q % 2 == 0 && size > 0) ? points[rng.next() % size]
                                                          : random_points<3>(1, rng.next())[0];
        const std::uint32_t k = 1 + rng.next() % kMostNeighbours;
        for (const float radius : radii) {
          for (const Topology topology : kTopologies) {
            require_same_sets<3>(tree, points, center, radius, topology);
            // A field of view's worth of admission: only points above the center.
            const KdTree3D::Admits above = [&](std::uint32_t, glm::vec3 d) { return d.z >= 0.0f; };
            const auto [from_tree, from_brute] = nearest_both_ways<3>(
                tree, points, center, radius, k, topology, kWorld3, ids, above);
            REQUIRE(from_tree == from_brute);
          }
        }
      }
    }
  }
}

TEST_CASE("3D wrap queries see across every seam, walls do not", "[kdtree][3d]") {
  // One point near each of the eight corners of the box: near 0 or near L on each axis, so
  // that every pair of them is a seam pair on one, two or three axes.
  constexpr float kInset = 1.0f;
  // Past the farthest corners' wrap distance, 2 sqrt(3), and short of any other gap.
  constexpr float kRadius = 4.0f;
  std::vector<glm::vec3> points;
  for (int corner = 0; corner < 8; ++corner) {
    glm::vec3 p;
    for (int a = 0; a < 3; ++a) p[a] = ((corner >> a) & 1) ? kWorld3[a] - kInset : kInset;
    points.push_back(p);
  }
  points.push_back(kWorld3 * 0.5f);  // far from every corner
  // Points exactly at 0 and at L on each axis are one place on a torus.
  for (int a = 0; a < 3; ++a) {
    glm::vec3 low = kWorld3 * 0.5f;
    glm::vec3 high = low;
    low[a] = 0.0f;
    high[a] = kWorld3[a];
    points.push_back(low);
    points.push_back(high);
  }
  const KdTree3D tree(points);
  const Indices corners{0, 1, 2, 3, 4, 5, 6, 7};
  for (std::uint32_t i = 0; i < 8; ++i) {
    INFO("corner " << i);
    REQUIRE(tree_query<3>(tree, points[i], kRadius, Topology::Wrap, kWorld3) == corners);
    REQUIRE(tree_query<3>(tree, points[i], kRadius, Topology::Bounded, kWorld3) == Indices{i});
    for (const Topology topology : kTopologies) {
      require_same_sets<3>(tree, points, points[i], kRadius, topology);
    }
  }
  for (std::uint32_t a = 0; a < 3; ++a) {
    INFO("axis " << a);
    const std::uint32_t low = 9 + 2 * a;
    const std::uint32_t high = low + 1;
    REQUIRE(tree_query<3>(tree, points[low], 1.0f, Topology::Wrap, kWorld3) ==
            (Indices{low, high}));
    REQUIRE(tree_query<3>(tree, points[high], 1.0f, Topology::Wrap, kWorld3) ==
            (Indices{low, high}));
    REQUIRE(tree_query<3>(tree, points[low], 1.0f, Topology::Bounded, kWorld3) == Indices{low});
  }
  // The nearest across the seams: from the corner at the origin, its seven images are nearer
  // than anything else, and a wall hides them.
  const Indices ids{10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24};
  const KdTree3D::Admits others = [](std::uint32_t j, glm::vec3) { return j != 0; };
  constexpr std::uint32_t kAllCorners = 7;
  const auto [wrap_tree, wrap_brute] = nearest_both_ways<3>(
      tree, points, points[0], kRadius, kAllCorners, Topology::Wrap, kWorld3, ids, others);
  REQUIRE(wrap_tree == (Indices{1, 2, 3, 4, 5, 6, 7}));
  REQUIRE(wrap_brute == wrap_tree);
  const auto [walled_tree, walled_brute] = nearest_both_ways<3>(
      tree, points, points[0], kRadius, kAllCorners, Topology::Bounded, kWorld3, ids, others);
  REQUIRE(walled_tree.empty());
  REQUIRE(walled_brute.empty());
}

TEST_CASE("3D nearest: of equally near points the smaller id wins", "[kdtree][3d]") {
  // Twelve points exactly 2 from the center (two on each half-axis, duplicates), every
  // distance exact in float32, so only the ids decide which 7 of them are taken; plus
  // filler farther away. Checked on a torus across its seams too (the center near a corner).
  constexpr float kStep = 2.0f;
  constexpr std::uint32_t kTaken = 7;
  for (const glm::vec3 center : {kWorld3 * 0.5f, glm::vec3{1.0f, 1.0f, 1.0f}}) {
    INFO("center " << text_of<3>(center));
    std::vector<glm::vec3> points;
    Indices ids;
    SplitMix rng(77);
    constexpr int kCopies = 2;
    for (int copy = 0; copy < kCopies; ++copy) {
      for (int a = 0; a < 3; ++a) {
        for (const float sign : {1.0f, -1.0f}) {
          glm::vec3 p = center;
          p[a] += sign * kStep;
          if (p[a] < 0.0f) p[a] += kWorld3[a];  // exact: every coordinate here is an integer
          points.push_back(p);
          ids.push_back(static_cast<std::uint32_t>(rng.next() % 1000000u));
        }
      }
    }
    const std::size_t tied = points.size();
    const std::vector<glm::vec3> filler = random_points<3>(500, 78);
    for (const glm::vec3& p : filler) {
      if (glm::length(murmur::displacement(center, p, Topology::Wrap, kWorld3)) > 2.0f * kStep) {
        points.push_back(p);
        ids.push_back(static_cast<std::uint32_t>(1000000u + points.size()));
      }
    }
    // The answer by the definition: the tied points' seven smallest ids.
    Indices by_id(tied);
    std::iota(by_id.begin(), by_id.end(), 0u);
    std::sort(by_id.begin(), by_id.end(), [&](std::uint32_t a, std::uint32_t b) {
      return ids[a] < ids[b];
    });
    Indices expected(by_id.begin(), by_id.begin() + kTaken);
    std::sort(expected.begin(), expected.end());

    const KdTree3D tree(points);
    const KdTree3D::Admits all = [](std::uint32_t, glm::vec3) { return true; };
    constexpr float kRadius = 10.0f;
    const auto [from_tree, from_brute] = nearest_both_ways<3>(
        tree, points, center, kRadius, kTaken, Topology::Wrap, kWorld3, ids, all);
    REQUIRE(from_tree == expected);
    REQUIRE(from_brute == expected);
  }
}

TEST_CASE("3D k-d tree with duplicates and a radius near half the world", "[kdtree][3d]") {
  SplitMix rng(5);
  const std::vector<glm::vec3> distinct = random_points<3>(9, 6);
  std::vector<glm::vec3> points;
  constexpr int kPoints = 3000;
  for (int i = 0; i < kPoints; ++i) points.push_back(distinct[rng.next() % distinct.size()]);
  const std::vector<glm::vec3> spread = random_points<3>(2000, 8);
  points.insert(points.end(), spread.begin(), spread.end());
  Indices ids(points.size());
  for (std::uint32_t i = 0; i < ids.size(); ++i) ids[i] = (i * 7919u) % 100003u;
  const KdTree3D tree(points);
  constexpr float kNearHalf = 29.999f;  // just under min(L)/2 = 30
  // Past half the world on every axis, where a wrap axis is not pruned at all.
  constexpr float kPastHalf = 45.0f;
  const KdTree3D::Admits all = [](std::uint32_t, glm::vec3) { return true; };
  for (const glm::vec3 center : {distinct[0], distinct[4], kWorld3 * 0.5f, glm::vec3{0.0f}}) {
    for (const Topology topology : kTopologies) {
      for (const float radius : {1.0f, 20.0f, kNearHalf, kPastHalf}) {
        require_same_sets<3>(tree, points, center, radius, topology);
        for (const std::uint32_t k : {1u, 7u, 50u}) {
          const auto [from_tree, from_brute] = nearest_both_ways<3>(
              tree, points, center, radius, k, topology, kWorld3, ids, all);
          REQUIRE(from_tree == from_brute);
        }
      }
    }
  }
}

TEST_CASE("the 3D tree's predicate sums the squares in axis order", "[kdtree][3d]") {
  // Pairs within a few ulps of the radius, many across the seams: membership must be exactly
  // fl(fl(fl(dx*dx) + fl(dy*dy)) + fl(dz*dz)) < fl(r*r) of the minimum image, written out here.
  SplitMix rng(2026);
  constexpr int kPairs = 4000;
  constexpr float kRadius = 7.3f;  // r^2 is inexact in float32: the rounding must match too
  std::vector<glm::vec3> points;
  std::vector<glm::vec3> centers;
  for (int k = 0; k < kPairs; ++k) {
    const float distance = kRadius * (1.0f + rng.in(-4.0f, 4.0f) * 0x1.0p-23f);
    glm::vec3 direction{rng.in(-1.0f, 1.0f), rng.in(-1.0f, 1.0f), rng.in(-1.0f, 1.0f)};
    direction = glm::normalize(direction);
    // Centers hug the seams so many pairs wrap.
    glm::vec3 center;
    for (int a = 0; a < 3; ++a) {
      center[a] = ((k >> a) & 1) ? rng.in(0.0f, 8.0f) : rng.in(0.0f, kWorld3[a]);
    }
    glm::vec3 q = center + distance * direction;
    for (int a = 0; a < 3; ++a) {
      if (q[a] < 0.0f) q[a] += kWorld3[a];
      if (q[a] >= kWorld3[a]) q[a] -= kWorld3[a];
    }
    centers.push_back(center);
    points.push_back(q);
  }
  const KdTree3D tree(points);
  int accepted = 0;
  for (int k = 0; k < kPairs; ++k) {
    const Indices found = tree_query<3>(tree, centers[k], kRadius, Topology::Wrap, kWorld3);
    const bool in_tree = std::binary_search(found.begin(), found.end(), std::uint32_t(k));
    const glm::vec3 d = murmur::displacement(centers[k], points[k], Topology::Wrap, kWorld3);
    const float xy = d.x * d.x + d.y * d.y;
    const float dist_sq = xy + d.z * d.z;
    REQUIRE(in_tree == (dist_sq < kRadius * kRadius));
    accepted += in_tree ? 1 : 0;
  }
  REQUIRE(accepted > kPairs / 10);
  REQUIRE(accepted < kPairs - kPairs / 10);
}

TEST_CASE("a 3D cloud in a plane finds what the 2D tree finds", "[kdtree][3d]") {
  // fl(|d|^2) in 3D is the 2D value plus an exact +0 when z is the same for all points.
  const std::vector<glm::vec2> flat = random_points(3000, 21);
  constexpr float kPlane = 40.0f;
  std::vector<glm::vec3> points;
  for (const glm::vec2 p : flat) points.push_back({p, kPlane});
  Indices ids(flat.size());
  for (std::uint32_t i = 0; i < ids.size(); ++i) ids[i] = (i * 7919u) % 100003u;
  const KdTree2D tree2(flat);
  const KdTree3D tree3(points);
  SplitMix rng(22);
  for (int q = 0; q < 100; ++q) {
    const glm::vec2 center = flat[rng.next() % flat.size()];
    const float radius = rng.in(0.5f, 29.0f);
    const std::uint32_t k = 1 + rng.next() % 20;
    for (const Topology topology : kTopologies) {
      REQUIRE(tree_query<3>(tree3, {center, kPlane}, radius, topology, kWorld3) ==
              tree_query<2>(tree2, center, radius, topology, kWorld));
      const KdTree2D::Admits ahead2 = [](std::uint32_t, glm::vec2 d) { return d.x >= 0.0f; };
      const KdTree3D::Admits ahead3 = [](std::uint32_t, glm::vec3 d) { return d.x >= 0.0f; };
      const auto nearest3 = nearest_both_ways<3>(tree3, points, {center, kPlane}, radius, k,
                                                 topology, kWorld3, ids, ahead3);
      const auto nearest2 = nearest_both_ways<2>(tree2, flat, center, radius, k, topology,
                                                 kWorld, ids, ahead2);
      REQUIRE(nearest3.first == nearest2.first);
    }
  }
}
