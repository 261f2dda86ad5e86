// Unit: the sweep-and-prune collider finds exactly the brute-force set of potential contacts.
// Scenario: 1,000 spheres (random radii 0.5..1.5 x 5 mm, random velocities up to 1.7 m/s) in a box of
//           six walls (one with a general normal), with gravity, bouncing for 300 steps; verletDist 0, absolute (0.5 mm) and
//           relative (-0.3).
// Also: the first run with mesh walls of wide and of small triangles (first_run_with_wide_and_small_facets).
// Checks after every step: (a) the collider's potential contacts equal the O(N^2) brute force over
//           the boxes built from the positions of the collider's last run (exact set equality);
//           (b) every pair whose bodies overlap now is in the set (the Verlet trigger is safe);
//           (c) with verletDist != 0 the collider was skipped on some steps.
#include "solver/builders.hpp"
#include "solver/collider.hpp"
#include "solver/mesh_generators.hpp"

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

// Spheres in a drum (a closed cylinder mesh: its side's and caps' triangles are far wider than a
// sphere's box, the grid's `wide` boxes), around a thin post (a mesh of triangles narrower than
// that, in the grid), on a floor wall (unbounded): the first run's contacts are the brute force's
// set, in the literal sweep's order (by the rank of the first lower bound along x, then the second's).
void checkFirstRunWithMeshes(int drumSegments) {
  Scene s;
  s.materials.push_back(Material{2600.0, 1e7, 0.3, 0.4});
  const double R = 0.1, r = 0.004;
  s.particles.addWall(Vec3(0, 0, -0.01), Vec3::UnitZ(), 0);
  s.particles.addMesh(cylinderMesh(Vec3::Zero(), Vec3::UnitY(), R, 0.06, drumSegments, true, true), 0);
  s.particles.addMesh(cylinderMesh(Vec3(0.02, 0.0, -0.03), Vec3::UnitY(), 0.5 * r, 0.06, 24, false, false), 0);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int i = 0; i < 1500; ++i) {  // (overlaps are allowed: the collider only compares boxes)
    const double rho = (R + 2 * r) * std::sqrt(u(rng)), phi = 2 * M_PI * u(rng);
    s.particles.add(sphereSpec(Vec3(rho * std::cos(phi), -0.01 + 0.08 * u(rng), rho * std::sin(phi)),
                               r * (0.6 + 0.8 * u(rng)), 2600.0));
  }
  s.collider.verletDist = -0.2;
  ContactStore contacts;
  BOOST_TEST_REQUIRE(s.collider.update(s.particles, s.materials, contacts));
  std::vector<std::pair<std::uint32_t, std::uint32_t>> found;
  for (std::size_t k = 0; k < contacts.size(); ++k)
    found.emplace_back(std::min(contacts.id1(k), contacts.id2(k)), std::max(contacts.id1(k), contacts.id2(k)));
  std::vector<std::uint32_t> rankLo(s.particles.size());
  const auto& xs = s.collider.view().lists[0];
  for (std::size_t k = 0; k < xs.size(); ++k)
    if (!(xs[k].tag & 1u)) rankLo[xs[k].tag >> 1] = static_cast<std::uint32_t>(k);
  std::size_t outOfOrder = 0, facetPairs = 0;
  std::pair<std::uint32_t, std::uint32_t> last{0, 0};
  for (std::size_t k = 0; k < found.size(); ++k) {
    const auto [a, b] = found[k];
    const std::pair<std::uint32_t, std::uint32_t> key = std::minmax(rankLo[a], rankLo[b]);
    if (k > 0 && !(last < key)) ++outOfOrder;
    last = key;
    facetPairs += s.particles.isFacet(a) || s.particles.isFacet(b);
  }
  std::sort(found.begin(), found.end());
  const auto expected = bruteForcePairs(s.particles, s.collider.refPos(), s.collider.sweepLength());
  BOOST_TEST(found.size() == expected.size());
  BOOST_TEST((found == expected));
  BOOST_TEST(outOfOrder == 0u);
  BOOST_TEST(facetPairs > 100u);  // (the meshes take part)
  BOOST_TEST_MESSAGE("drum of " << drumSegments << " segments: " << contacts.size() << " potential contacts, "
                                << facetPairs << " with facets");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(collider_brute_force)

BOOST_AUTO_TEST_CASE(first_run_with_wide_and_small_facets) {
  checkFirstRunWithMeshes(12);   // few, very wide triangles
  checkFirstRunWithMeshes(400);  // long thin ones
}

BOOST_AUTO_TEST_CASE(verlet_dist_zero) { checkAgainstBruteForce(0.0); }
BOOST_AUTO_TEST_CASE(verlet_dist_absolute) { checkAgainstBruteForce(5e-4); }
BOOST_AUTO_TEST_CASE(verlet_dist_relative) { checkAgainstBruteForce(-0.3); }

BOOST_AUTO_TEST_SUITE_END()
