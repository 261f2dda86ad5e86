// Unit: the brick decomposition (solver/decomposition.hpp). Bricks partition space (every point has
// exactly one, and owner() names it); their body counts differ from N / P by at most the rounding of
// each bisection level; the decomposition is the same bits for any order of the bodies; and every
// body within the pair-detection reach of another rank's body (the minimum periodic image in a
// sheared cell, brute force over the 27 images) is a ghost there (ranksNear), so that every contact
// of a rank's bodies can be found on that rank.
#include "solver/decomposition.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

using namespace dem;

namespace {

std::vector<Vec3> randomPoints(std::size_t n, const Vec3& lo, const Vec3& hi, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Vec3> x(n);
  for (Vec3& p : x) p = lo + Vec3(u(rng), u(rng), u(rng)).cwiseProduct(hi - lo);
  return x;
}

// A sheared, unequal cell (columns are the sides).
Mat3 shearedCell() {
  Mat3 H;
  H << 1.0, 0.35, 0.1, 0.0, 0.8, -0.2, 0.0, 0.0, 1.3;
  return H;
}

// The levels of bisection for P ranks: each rounds a count by at most 1/2.
int levels(int ranks) { return static_cast<int>(std::ceil(std::log2(static_cast<double>(ranks)))); }

}  // namespace

BOOST_AUTO_TEST_SUITE(decomposition)

BOOST_AUTO_TEST_CASE(bricks_partition_space_and_balance_the_bodies) {
  for (const bool cell : {false, true}) {
    const std::optional<Mat3> H = cell ? std::optional<Mat3>(shearedCell()) : std::nullopt;
    // in the cell: positions beyond it too (its images wrap them)
    const std::vector<Vec3> x = randomPoints(5003, Vec3(-0.7, -0.4, -0.2), Vec3(2.1, 1.5, 0.9), 5);
    for (int ranks = 1; ranks <= 9; ++ranks) {
      const Decomposition d = Decomposition::bisect(x, ranks, H);
      BOOST_TEST_REQUIRE(d.ranks() == ranks);
      std::vector<int> count(static_cast<std::size_t>(ranks), 0);
      for (const Vec3& p : x) {
        const Vec3 s = d.coordinates(p);
        int holders = 0;
        for (int q = 0; q < ranks; ++q) holders += d.brick(q).contains(s) ? 1 : 0;
        BOOST_TEST(holders == 1);
        const int o = d.owner(p);
        BOOST_TEST(d.brick(o).contains(s));
        ++count[static_cast<std::size_t>(o)];
      }
      const double mean = static_cast<double>(x.size()) / ranks;
      for (int q = 0; q < ranks; ++q)
        BOOST_TEST(std::abs(count[static_cast<std::size_t>(q)] - mean) <= levels(ranks) + 1e-9,
                   "cell " << cell << ", " << ranks << " ranks: brick " << q << " holds "
                           << count[static_cast<std::size_t>(q)]);
    }
  }
}

BOOST_AUTO_TEST_CASE(the_same_bricks_for_any_order_of_the_bodies) {
  std::vector<Vec3> x = randomPoints(2000, Vec3::Zero(), Vec3(3.0, 1.0, 0.5), 9);
  std::mt19937_64 rng(1);
  for (const bool cell : {false, true}) {
    const std::optional<Mat3> H = cell ? std::optional<Mat3>(shearedCell()) : std::nullopt;
    const Decomposition a = Decomposition::bisect(x, 6, H);
    std::shuffle(x.begin(), x.end(), rng);
    const Decomposition b = Decomposition::bisect(x, 6, H);
    for (int q = 0; q < 6; ++q) {
      BOOST_TEST((a.brick(q).lo.array() == b.brick(q).lo.array()).all());
      BOOST_TEST((a.brick(q).hi.array() == b.brick(q).hi.array()).all());
    }
  }
}

BOOST_AUTO_TEST_CASE(every_body_within_reach_of_a_brick_is_a_ghost_there) {
  const double reach = 0.12;
  for (const bool cell : {false, true}) {
    const std::optional<Mat3> H = cell ? std::optional<Mat3>(shearedCell()) : std::nullopt;
    const std::vector<Vec3> x = randomPoints(1500, Vec3::Zero(), Vec3(1.3, 0.8, 1.3), 21);
    for (const int ranks : {2, 3, 4, 7}) {
      const Decomposition d = Decomposition::bisect(x, ranks, H);
      std::vector<int> owner(x.size());
      std::vector<std::vector<int>> near(x.size());
      for (std::size_t i = 0; i < x.size(); ++i) {
        owner[i] = d.owner(x[i]);
        d.ranksNear(x[i], reach, owner[i], near[i]);
      }
      std::size_t pairs = 0, missing = 0;
      for (std::size_t i = 0; i < x.size(); ++i)
        for (std::size_t j = 0; j < x.size(); ++j) {
          if (i == j || owner[i] == owner[j]) continue;
          // the distance of the nearest image of j from i
          double dist = (x[j] - x[i]).norm();
          if (H)
            for (int a = -1; a <= 1; ++a)
              for (int b = -1; b <= 1; ++b)
                for (int c = -1; c <= 1; ++c) dist = std::min(dist, (x[j] + *H * Vec3(a, b, c) - x[i]).norm());
          if (dist > reach) continue;
          ++pairs;
          // j must be a ghost on i's rank
          if (!std::binary_search(near[j].begin(), near[j].end(), owner[i])) ++missing;
        }
      BOOST_TEST(pairs > 0u);
      BOOST_TEST(missing == 0u, "cell " << cell << ", " << ranks << " ranks: " << missing << " of " << pairs);
    }
  }
}

// ranksNear walks the bisection tree; what it finds is exactly the ranks whose bricks, grown by the
// reach (|row_i(H^-1)| reach along fractional axis i in a cell), hold the body or one of its
// periodic images, each brick tested here on its own.
BOOST_AUTO_TEST_CASE(the_tree_walk_finds_exactly_the_grown_bricks_that_hold_a_body) {
  const double reach = 0.05;
  for (const bool cell : {false, true}) {
    const std::optional<Mat3> H = cell ? std::optional<Mat3>(shearedCell()) : std::nullopt;
    const std::vector<Vec3> x = randomPoints(4000, Vec3::Zero(), Vec3(1.3, 0.8, 1.3), 5);
    Vec3 margin = Vec3::Constant(reach);
    if (H)
      for (int a = 0; a < 3; ++a) margin[a] = reach * H->inverse().row(a).norm();
    for (const int ranks : {1, 5, 64, 100}) {
      const Decomposition d = Decomposition::bisect(x, ranks, H);
      std::size_t found = 0, differ = 0;
      std::vector<int> walk;
      for (const Vec3& xi : x) {
        const int owner = d.owner(xi);
        d.ranksNear(xi, reach, owner, walk);
        const Vec3 s = d.coordinates(xi);
        std::vector<int> brute;
        for (int q = 0; q < ranks; ++q) {
          if (q == owner) continue;
          bool near = true;
          for (int a = 0; a < 3; ++a) {
            bool any = false;
            for (const double shift : {0.0, -1.0, 1.0}) {
              if (!H && shift != 0.0) continue;
              const double c = s[a] + shift;
              any = any || (d.brick(q).lo[a] - margin[a] <= c && c <= d.brick(q).hi[a] + margin[a]);
            }
            near = near && any;
          }
          if (near) brute.push_back(q);
        }
        found += brute.size();
        if (walk != brute) ++differ;
      }
      if (ranks > 1) BOOST_TEST(found > 0u);
      BOOST_TEST(differ == 0u, "cell " << cell << ", " << ranks << " ranks: " << differ << " bodies differ");
    }
  }
}

BOOST_AUTO_TEST_CASE(more_ranks_than_bodies_and_bad_counts) {
  const std::vector<Vec3> x = randomPoints(3, Vec3::Zero(), Vec3::Ones(), 2);
  const Decomposition d = Decomposition::bisect(x, 7, std::nullopt);
  std::vector<int> count(7, 0);
  for (const Vec3& p : x) ++count[static_cast<std::size_t>(d.owner(p))];
  BOOST_TEST(*std::max_element(count.begin(), count.end()) == 1);
  BOOST_CHECK_THROW(Decomposition::bisect(x, 0, std::nullopt), std::invalid_argument);
  // in a cell, a reach of half its thickness would let a brick meet its own image
  const Decomposition c = Decomposition::bisect(x, 2, Mat3::Identity());
  std::vector<int> out;
  BOOST_CHECK_THROW(c.ranksNear(x[0], 0.5, 0, out), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
