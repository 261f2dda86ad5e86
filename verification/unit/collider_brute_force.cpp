// Unit: the sweep-and-prune collider finds exactly the brute-force set of potential contacts.
// Scenario: 1,000 spheres (random radii 0.5..1.5 x 5 mm, random velocities up to 1.7 m/s) in a box of
//           six walls (one with a general normal), with gravity, bouncing for 300 steps; verletDist 0, absolute (0.5 mm) and
//           relative (-0.3).
// Checks after every step: (a) the collider's potential contacts equal the O(N^2) brute force over
//           the boxes built from the positions of the collider's last run (exact set equality);
//           (b) every pair whose bodies overlap now is in the set (the Verlet trigger is safe);
//           (c) with verletDist != 0 the collider was skipped on some steps.
#include "solver/builders.hpp"
#include "solver/collider.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <random>

using namespace dem;

namespace {

Scene gasInBox(double verletDist) {
  Scene s;
  s.materials.push_back(Material{2600.0, 1e7, 0.3, 0.4});
  const double L = 0.2;
  s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
  s.particles.addWall(Vec3(0, 0, L), -Vec3::UnitZ(), 0);
  s.particles.addWall(Vec3::Zero(), Vec3::UnitX(), 0);
  s.particles.addWall(Vec3(L, 0, 0), -Vec3::UnitX(), 0);
  s.particles.addWall(Vec3::Zero(), Vec3::UnitY(), 0);
  s.particles.addWall(Vec3(0, L, 1.1 * L), -Vec3(0, 1, 1), 0);  // general normal: cuts the y-z corner
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int i = 0; i < 1000; ++i) {
    // 10 x 10 x 10 lattice of spacing L/10 with a jitter of +-2 mm: no initial overlap.
    const double r = 0.005 * (0.5 + u(rng));
    const Vec3 site((i % 10 + 0.5) * L / 10, (i / 10 % 10 + 0.5) * L / 10, (i / 100 + 0.5) * L / 10);
    ParticleSpec p = sphereSpec(site + 0.002 * Vec3(2 * u(rng) - 1, 2 * u(rng) - 1, 2 * u(rng) - 1), r, 2600.0);
    p.vel = 2.0 * Vec3(u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5);
    s.particles.add(p);
  }
  s.gravity = Vec3(0, 0, -9.81);
  s.setDt(2e-5);
  s.collider.verletDist = verletDist;
  return s;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> colliderPairs(const Scene& s) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (const Contact& c : s.contacts.records()) pairs.emplace_back(std::min(c.id1, c.id2), std::max(c.id1, c.id2));
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

void checkAgainstBruteForce(double verletDist) {
  Scene s = gasInBox(verletDist);
  std::size_t mismatches = 0, missedOverlaps = 0, realContacts = 0;
  for (int step = 0; step < 300; ++step) {
    const std::vector<Vec3> before = s.particles.pos;  // the configuration the step's collider saw
    s.step();
    const auto expected = bruteForcePairs(s.particles, s.collider.refPos(), s.collider.sweepLength());
    if (colliderPairs(s) != expected) ++mismatches;
    const auto& p = s.particles;
    // Every pair overlapping in the configuration of this step's contact stage is a potential contact.
    const auto now = bruteForcePairs(p, before, 0.0);
    for (const auto& [a, b] : now) {
      const bool wa = p.isWall(a), wb = p.isWall(b);
      double gap;
      if (!wa && !wb) gap = (before[b] - before[a]).norm() - p.radius[a] - p.radius[b];
      else {
        const std::uint32_t sph = wa ? b : a, wall = wa ? a : b;
        gap = (before[sph] - before[wall]).dot(p.walls[p.shapeIndex[wall]].normal) - p.radius[sph];
      }
      if (gap < 0.0 && s.contacts.find(a, b) < 0) ++missedOverlaps;
    }
    realContacts += s.contacts.countReal();
  }
  BOOST_TEST(mismatches == 0u);
  BOOST_TEST(missedOverlaps == 0u);
  BOOST_TEST(realContacts > 0u);  // the gas does collide
  if (verletDist != 0.0) BOOST_TEST(s.collider.runs() < 300u);
  BOOST_TEST_MESSAGE("verletDist " << verletDist << ": collider runs " << s.collider.runs() << " / 300 steps");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(collider_brute_force)

BOOST_AUTO_TEST_CASE(verlet_dist_zero) { checkAgainstBruteForce(0.0); }
BOOST_AUTO_TEST_CASE(verlet_dist_absolute) { checkAgainstBruteForce(5e-4); }
BOOST_AUTO_TEST_CASE(verlet_dist_relative) { checkAgainstBruteForce(-0.3); }

BOOST_AUTO_TEST_SUITE_END()
