// Unit: periodic collision detection and periodic contacts (the brute-force, replicated 3x3x3 and
// flip comparisons are verification cases: periodic_collider_brute_force, periodic_replicated_contacts,
// cell_flip_invariance).
// - Shear to strain 3 without flips: a box grows wider than half the cell: std::invalid_argument.
// - Flips keep the strain: a bare cell sheared to strain 3 and flipped after every step has the
//   Hencky strain of the unflipped cell (round-off of three column operations and of the log of
//   F F^T with eigenvalues ~ 0.09 and 11: well below 1e-9) and the reference basis follows.
// - The collider's State: restored into a fresh collider, the run continues bit-identically
//   (positions, contact order); an inconsistent state is refused.
// - A particle wider than half the cell along a transformed axis: std::invalid_argument.
// - A pair across the boundary moves like an interior pair (theory 4.3).
// - Dormant contacts in a cell (PeriodicCollider::dormant) never touch before the next run, in a
//   cubic cell (exact box distance), a sheared static cell (lower bounds) and a deforming cell
//   (dormant contacts woken when H changes); in the static cells most potential contacts are dormant.
// - A run skipped on the distance alone (H the run's, a sphere within dL of its place at the run)
//   misses no touching pair.
// - A changed smallest radius (dL relative to it) asks for a run with nothing moved.
// - Incremental runs that would cost more than a full run are full runs (the lists' descents, the
//   insertion sort's budget), a cheap one stays incremental; the store then holds the brute force's
//   pairs with the run's sweep length.
#include "solver/periodic_collider.hpp"
#include "cases/periodic_oracle.hpp"
#include "cases/periodic_scenes.hpp"
#include "unit/same_bits.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstring>
#include <limits>

#include <random>

using namespace dem;
using dem::test::sameBits;
using dem::verify::gasInCell;

namespace {
// A gas on a jittered lattice in a sheared static cell (H not diagonal).
dem::PeriodicLatticeSpec shearedGas(double radius, double speed) {
  dem::PeriodicLatticeSpec spec;
  spec.m = 6;
  spec.radius = radius;
  spec.spread = 0.2;
  spec.jitter = 0.15;
  spec.speed = speed;
  spec.H << 1.0, 0.4, 0.1, 0.0, 1.1, -0.2, 0.0, 0.0, 0.9;
  return spec;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(periodic_collider)

BOOST_AUTO_TEST_CASE(too_much_shear_without_flips) {
  Scene s = gasInCell();
  Mat3 L = Mat3::Zero();
  L(0, 1) = 3.0 / (600 * s.dt());
  s.cell->setVelGrad(L);
  s.startOnAffineField();
  BOOST_CHECK_THROW(s.run(600), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(flips_keep_the_strain) {
  Cell flipped = Cell::box(Vec3(1, 1, 1)), unflipped = flipped;
  Mat3 L = Mat3::Zero();
  L(0, 1) = 3.0 / 600;
  flipped.setVelGrad(L);
  unflipped.setVelGrad(L);
  int flips = 0;
  for (int k = 0; k < 600; ++k) {
    flipped.advance(1.0);
    unflipped.advance(1.0);
    flips += flipped.flip() != Eigen::Matrix3i::Identity();
  }
  BOOST_TEST(flips == 3);
  BOOST_TEST(std::abs(flipped.H()(0, 1)) <= 0.5);
  BOOST_TEST(std::abs(flipped.H0()(0, 1) + 3.0) < 1e-9);  // the reference basis follows the flips
  BOOST_TEST((flipped.henckyStrain() - unflipped.henckyStrain()).norm() < 1e-9);
}

// A restart from the collider's State continues bit-identically: b is a copy of a whose collider is
// replaced by a fresh one restored from a's state (what a checkpoint does).
BOOST_AUTO_TEST_CASE(state_restores_bit_identically) {
  Scene a = gasInCell();
  Mat3 L = Mat3::Zero();
  L(0, 1) = 1.0 / (300 * a.dt());
  a.cell->setVelGrad(L);
  a.cell->flipFlippable = true;
  a.startOnAffineField();
  a.run(157);
  Scene b = a;
  b.periodicCollider = PeriodicCollider{};
  b.periodicCollider.verletDist = a.periodicCollider.verletDist;
  b.periodicCollider.restore(a.periodicCollider.state(), b.particles.size());
  BOOST_TEST(b.periodicCollider.runs() == a.periodicCollider.runs());
  a.run(300);
  b.run(300);
  BOOST_TEST(a.periodicCollider.runs() < a.stepCount);  // the collider skipped steps
  BOOST_TEST(sameBits(a.particles.pos, b.particles.pos));
  BOOST_TEST(sameBits(a.particles.vel, b.particles.vel));
  BOOST_TEST_REQUIRE(a.contacts.size() == b.contacts.size());
  bool sameOrder = true;
  for (std::size_t k = 0; k < a.contacts.size(); ++k)
    sameOrder = sameOrder && a.contacts.get(k).id1 == b.contacts.get(k).id1 &&
                a.contacts.get(k).id2 == b.contacts.get(k).id2 &&
                a.contacts.get(k).cellDist == b.contacts.get(k).cellDist;
  BOOST_TEST(sameOrder);
  BOOST_TEST(b.contacts.activeEnd() == a.contacts.activeEnd());  // the same dormant contacts

  PeriodicCollider::State bad = a.periodicCollider.state();
  bad.lists[1].pop_back();
  BOOST_CHECK_THROW(PeriodicCollider{}.restore(bad, a.particles.size()), std::invalid_argument);
  bad = a.periodicCollider.state();
  bad.lo[2] = bad.lists[2].size();
  BOOST_CHECK_THROW(PeriodicCollider{}.restore(bad, a.particles.size()), std::invalid_argument);
  BOOST_CHECK_THROW(PeriodicCollider{}.restore(a.periodicCollider.state(), a.particles.size() + 1),
                    std::invalid_argument);
}

// Steps the gas and, before every step whose collider does not run, checks every dormant contact
// against the positions the step reads: its spheres (body 2's image x2 + H k) do not overlap. So
// also every contact that is not real and that the contact loop skips without reading its bodies
// (its gap at the run above twice PeriodicCollider::moveSinceRun: ContactStore::recordRunGaps).
static void checkDormantContactsApart(Scene& s, std::size_t steps, std::size_t minDormantChecks) {
  const Particles& p = s.particles;
  std::size_t checked = 0, overlapping = 0, notClean = 0, skipped = 0, skippedOverlapping = 0;
  for (std::size_t n = 0; n < steps; ++n) {
    if (!s.periodicCollider.needsRun(p, *s.cell)) {
      const Mat3& H = s.cell->H();
      const auto gapNow = [&](const Contact& c) {
        const Vec3 x2 = p.pos[c.id2] + H * c.cellDist.cast<double>();
        return (x2 - p.pos[c.id1]).norm() - (p.radius[c.id1] + p.radius[c.id2]);
      };
      for (std::size_t k = s.contacts.activeEnd(); k < s.contacts.size(); ++k) {
        const Contact& c = s.contacts.get(k);
        ++checked;
        if (!(gapNow(c) > 0.0)) ++overlapping;
        if (c.real || c.dissipated != 0.0 || !c.force.isZero(0.0)) ++notClean;
      }
      const double reach = 2.0 * s.periodicCollider.moveSinceRun();
      for (std::size_t k = 0; k < s.contacts.size(); ++k) {
        if (s.contacts.real(k) || !(static_cast<double>(s.contacts.recordedRunGap(k)) > reach)) continue;
        ++skipped;
        if (!(gapNow(s.contacts.get(k)) > 0.0)) ++skippedOverlapping;
      }
    }
    s.step();
  }
  BOOST_TEST_MESSAGE("dormant contact-steps checked: " << checked << " in " << steps << " steps, collider runs "
                                                       << s.periodicCollider.runs()
                                                       << "; skipped by the gap at the run: " << skipped);
  BOOST_TEST(checked >= minDormantChecks);
  BOOST_TEST(overlapping == 0u);
  BOOST_TEST(notClean == 0u);
  BOOST_TEST(skipped >= minDormantChecks / 10);
  BOOST_TEST(skippedOverlapping == 0u);
}

BOOST_AUTO_TEST_CASE(dormant_contacts_never_touch_before_the_next_run) {
  {
    Scene s = gasInCell();  // cubic cell
    checkDormantContactsApart(s, 2000, 50u * 2000u);
  }
  {
    Scene s = periodicLatticeScene(shearedGas(0.07, 1.0));
    checkDormantContactsApart(s, 2000, 50u * 2000u);
  }
  {
    Scene s = gasInCell();  // a deforming cell: dormant contacts only between a run and the next change of H
    Mat3 L = Mat3::Zero();
    L(0, 1) = 1.0 / (300 * s.dt());
    s.cell->setVelGrad(L);
    s.cell->flipFlippable = true;
    s.startOnAffineField();
    checkDormantContactsApart(s, 600, 0u);
  }
}

BOOST_AUTO_TEST_CASE(particle_larger_than_half_the_cell) {
  Scene s;
  s.materials.push_back(Material{});
  s.particles.add(sphereSpec(Vec3(0.5, 0.5, 0.5), 0.1, 1000.0));
  s.particles.add(sphereSpec(Vec3(0.2, 0.2, 0.2), 0.3, 1000.0));
  s.setDt(1e-4);
  s.setCell(Cell::box(Vec3(1, 1, 1)));
  try {
    s.step();
    BOOST_ERROR("no exception for a particle wider than half the cell");
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    BOOST_TEST(m.find("particle 1") != std::string::npos);
    BOOST_TEST(m.find("half the cell") != std::string::npos);
  }
}

// Verification theory 4.3's identity: the image of particle j moves with v_j + L H k, so a pair on the
// affine field in contact across the boundary has the relative velocity L (x_j + H k - x_i) of an
// interior pair with the same branch vector: both contacts (same radii, same branch vector, the
// fluctuations start at zero) evolve the same way, step after step, to round-off.
BOOST_AUTO_TEST_CASE(boundary_pair_moves_like_interior_pair) {
  Mat3 L;
  L << 0.3, 2.0, 0, 0, -0.1, 0.5, 0, 0, -0.2;
  const auto pairScene = [&L](const Vec3& x1, const Vec3& x2) {
    Scene s;
    s.materials.push_back(Material{2600.0, 1e7, 0.2, 0.5});
    s.particles.add(sphereSpec(x1, 0.045, 2600.0));
    s.particles.add(sphereSpec(x2, 0.045, 2600.0));
    s.setDt(2e-5);
    Cell c = Cell::box(Vec3(1, 1, 1));
    c.setVelGrad(L);
    s.setCell(c);
    s.startOnAffineField();
    return s;
  };
  Scene across = pairScene(Vec3(0.95, 0.5, 0.5), Vec3(0.03, 0.52, 0.49));  // image at x + 1
  Scene inside = pairScene(Vec3(0.45, 0.5, 0.5), Vec3(0.53, 0.52, 0.49));
  for (int k = 0; k < 50; ++k) {
    across.step();
    inside.step();
    BOOST_TEST_REQUIRE(across.contacts.countReal() == 1u);
    BOOST_TEST_REQUIRE(inside.contacts.countReal() == 1u);
    const Contact &a = across.contacts.get(0), &b = inside.contacts.get(0);
    BOOST_TEST((a.cellDist == Eigen::Vector3i(-1, 0, 0) || a.cellDist == Eigen::Vector3i(1, 0, 0)));
    BOOST_TEST_INFO("step " << k << ": u " << a.u.transpose() << " vs " << b.u.transpose());
    BOOST_TEST((a.force - b.force).norm() <= 1e-9 * b.force.norm());
    BOOST_TEST((a.u - b.u).norm() <= 1e-9 * b.u.norm());
  }
  BOOST_TEST(std::abs(inside.contacts.get(0).u[1]) + std::abs(inside.contacts.get(0).u[2]) > 0.0);
}

// While H is the run's, needsRun takes a sphere whose centre moved less than dL (less a margin of
// relative 1e-12 for round-off) for one whose box is still inside the box of the run, and evaluates
// only the distance. In a sheared static cell every sphere moved by 0.999999 dL in a random
// direction from its place at the run: no run is needed, and every pair of spheres that touch
// now (any periodic image) is a potential contact of the store; moved by 1.000001 dL, a run is.
BOOST_AUTO_TEST_CASE(a_skipped_run_misses_no_touching_pair_in_a_static_cell) {
  Scene s = periodicLatticeScene(shearedGas(0.075, 0.0));
  PeriodicCollider& collider = s.periodicCollider;
  collider.invalidate();
  BOOST_TEST_REQUIRE(collider.update(s.particles, *s.cell, s.materials, s.contacts));
  const std::vector<Vec3> atRun = s.particles.pos;
  const double dL = collider.sweepLength();
  BOOST_TEST_REQUIRE(dL > 0.0);
  const Mat3& H = s.cell->H();
  std::mt19937_64 rng(5);
  std::normal_distribution<double> gauss;
  std::size_t touching = 0, missing = 0;
  for (int trial = 0; trial < 20; ++trial) {
    for (const double factor : {1.000001, 0.999999}) {
      Particles& p = s.particles;
      for (std::size_t i = 0; i < p.size(); ++i) {
        const Vec3 dir = Vec3(gauss(rng), gauss(rng), gauss(rng)).normalized();
        p.pos[i] = atRun[i] + factor * dL * dir;
      }
      BOOST_TEST(collider.needsRun(p, *s.cell) == (factor > 1.0));
    }
    const Particles& p = s.particles;
    for (std::uint32_t a = 0; a < p.size(); ++a)
      for (std::uint32_t b = a + 1; b < p.size(); ++b) {
        bool touch = false;
        for (int i = -1; i <= 1; ++i)
          for (int j = -1; j <= 1; ++j)
            for (int k = -1; k <= 1; ++k)
              touch = touch || (p.pos[b] + H * Vec3(i, j, k) - p.pos[a]).norm() < p.radius[a] + p.radius[b];
        if (!touch) continue;
        ++touching;
        if (s.contacts.find(a, b) < 0) ++missing;
      }
  }
  BOOST_TEST_MESSAGE("touching pairs checked: " << touching);
  BOOST_TEST(touching > 20u);
  BOOST_TEST(missing == 0u);
}

// A sweep length relative to the smallest sphere (verletDist < 0) follows its radius: shrinking
// any one sphere below the others (or growing the smallest) asks for a run at the next check, with
// nothing moved, whether or not the run's H still holds; the radii as at the run ask for none.
BOOST_AUTO_TEST_CASE(a_changed_smallest_radius_asks_for_a_run) {
  for (const bool sheared : {false, true}) {
    Scene s = periodicLatticeScene(shearedGas(0.075, 0.0));
    PeriodicCollider& collider = s.periodicCollider;
    BOOST_TEST_REQUIRE(collider.verletDist < 0.0);
    collider.invalidate();
    BOOST_TEST_REQUIRE(collider.update(s.particles, *s.cell, s.materials, s.contacts));
    if (sheared) {  // (H no longer the run's: every body takes the box test)
      Mat3 H = s.cell->H();
      H(0, 1) += 1e-9;
      s.cell->setH(H);
    }
    Particles& p = s.particles;
    BOOST_TEST(!collider.needsRun(p, *s.cell));
    const std::size_t last = p.size() - 1;
    const double r = p.radius[last];
    p.radius[last] = 0.999 * *std::min_element(p.radius.begin(), p.radius.end());  // (its box shrinks)
    BOOST_TEST(collider.needsRun(p, *s.cell));
    p.radius[last] = r;
    BOOST_TEST(!collider.needsRun(p, *s.cell));
  }
}

// The image choice's rounding (roundHalfAway, math.hpp) is std::round bit for bit: halves away from
// zero, the last double below a half, signed zeros, integers beyond 2^52, inf and NaN, and random
// values around the small integers where images are chosen.
BOOST_AUTO_TEST_CASE(image_rounding_is_std_round) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> xs{0.0,
                         -0.0,
                         0.5,
                         -0.5,
                         1.5,
                         -1.5,
                         2.5,
                         -2.5,
                         0.49999999999999994,
                         -0.49999999999999994,
                         std::nextafter(1.5, 0.0),
                         std::nextafter(-1.5, 0.0),
                         4503599627370495.5,
                         9007199254740993.0,
                         1e300,
                         -1e300,
                         inf,
                         -inf,
                         std::numeric_limits<double>::denorm_min(),
                         -0.3};
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-4.0, 4.0);
  for (int i = 0; i < 100000; ++i) xs.push_back(u(rng));
  for (int i = -8; i <= 8; ++i) xs.push_back(0.5 * i);
  std::size_t differ = 0;
  for (const double x : xs) {
    const double a = roundHalfAway(x), b = std::round(x);
    differ += std::memcmp(&a, &b, sizeof a) != 0;
  }
  const double nan = roundHalfAway(std::numeric_limits<double>::quiet_NaN());
  BOOST_TEST(std::isnan(nan));
  BOOST_TEST(differ == 0u);
}

// An exact lattice (the bounds of each lattice plane equal, as in a cloud poured from a grid) of 1728
// spheres whose boxes overlap their neighbours'. Every body moved by 1.2 dL in a random direction
// shuffles each plane's bounds (descents on the order of the bodies): a full run. Five bodies moved
// by 1.1 dL: an incremental run. 250 bodies moved by half the cell along x (about 400 descents, below
// the 0.75 per body of a scrambled list, but about 8.5e5 moves of the insertion sort against a
// budget of 3.5e5): the budget gives up for a full run. After each run the store holds exactly the
// brute force's pairs.
BOOST_AUTO_TEST_CASE(runs_costlier_than_a_full_run_are_full_runs_with_the_same_pairs) {
  PeriodicLatticeSpec spec;
  spec.m = 12;
  spec.radius = 0.03;
  spec.jitter = 0.0;
  Scene s = periodicLatticeScene(spec);
  PeriodicCollider& collider = s.periodicCollider;
  collider.verletDist = -0.5;
  collider.invalidate();
  BOOST_TEST_REQUIRE(collider.update(s.particles, *s.cell, s.materials, s.contacts));
  const auto brute = [&] {
    std::vector<PeriodicPair> expected = bruteForcePeriodicPairs(s.particles, *s.cell, collider.sweepLength());
    std::sort(expected.begin(), expected.end());
    return expected;
  };
  BOOST_TEST((dem::verify::storePairs(s.contacts) == brute()));
  BOOST_TEST_REQUIRE(s.contacts.size() > 3 * s.particles.size());  // (six neighbours' boxes each)
  const double dL = collider.sweepLength();
  std::mt19937_64 rng(7);
  std::normal_distribution<double> gauss;
  Particles& p = s.particles;
  const auto moveAndRun = [&](std::size_t count, std::size_t stride, const auto& move) {
    const std::uint64_t full = collider.fullRuns(), forCost = collider.fullRunsForCost();
    for (std::size_t i = 0; i < count; ++i) p.pos[i * stride] += move();
    BOOST_TEST_REQUIRE(collider.update(p, *s.cell, s.materials, s.contacts));
    BOOST_TEST((dem::verify::storePairs(s.contacts) == brute()));
    BOOST_TEST(collider.fullRunsForCost() - forCost == collider.fullRuns() - full);  // (for their cost)
    return collider.fullRuns() - full;
  };
  const auto randomMove = [&](double length) {
    return [&, length] { return Vec3(length * dL * Vec3(gauss(rng), gauss(rng), gauss(rng)).normalized()); };
  };
  BOOST_TEST(moveAndRun(p.size(), 1, randomMove(1.2)) == 1u);
  BOOST_TEST(moveAndRun(5, 97, randomMove(1.1)) == 0u);
  BOOST_TEST(moveAndRun(250, 7, [&] { return Vec3(0.5 * s.cell->H().col(0)); }) == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
