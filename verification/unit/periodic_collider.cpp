// Unit: periodic collision detection and periodic contacts.
// - The periodic collider's potential contacts (pair and cellDist) equal the O(N^2) brute force
//   (minimum image of the boxes in the cell's transformed coordinates) after every step of
//   (a) a simple-shear run (216 spheres with random fluctuation velocities, shear strain 1.5) and
//   (b) a stretch/compression run with shear components (L = [[2,1,0],[0,-1.5,.5],[0,0,-.5]] /s);
//   exact set equality, and cellDist != 0 contacts and real contacts occur.
// - Periodic contacts == replicated contacts: a dense periodic packing (overlaps from the start) and
//   the same packing replicated 3x3x3 without periodicity (images at x + H k with velocities
//   v + V k, V the cell's image velocity) give the same set of real contacts (central copy) and the
//   same forces and torques on the central copy, in a sheared cell at rest (3 steps, shear history
//   included) and in a deforming cell started on the affine field (first step: contacts formed with
//   relative velocities across the boundary). Tolerance: round-off of positions (eps |x| over
//   overlaps of ~1e-2 m) and of sums in another order: 1e-11 of the largest force.
// - A particle wider than half the cell along a transformed axis: std::invalid_argument.
#include "solver/builders.hpp"
#include "solver/periodic_collider.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <iterator>
#include <set>

using namespace dem;

namespace {

std::vector<PeriodicPair> colliderPairs(const Scene& s) {
  std::vector<PeriodicPair> pairs;
  for (const Contact& c : s.contacts.items)
    pairs.emplace_back(c.id1, c.id2, std::array<int, 3>{c.cellDist[0], c.cellDist[1], c.cellDist[2]});
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

Scene gasInCell() {
  PeriodicLatticeSpec spec;
  spec.m = 6;
  spec.radius = 0.07;
  spec.spread = 0.2;
  spec.jitter = 0.15;
  spec.speed = 1.0;
  return periodicLatticeScene(spec);
}

// Runs `steps` steps, comparing the collider with the brute force over the configuration each step's
// collider saw; returns (cellDist != 0 contacts seen, real contacts seen).
// With flip, the cell is flipped (Scene::flipCell, as flipFlippable does inside step()) after the
// comparison, so that the contacts' cellDist and the brute force refer to the same basis.
std::pair<std::size_t, std::size_t> checkAgainstBruteForce(Scene& s, int steps, bool flip = false) {
  std::size_t mismatches = 0, shifted = 0, real = 0;
  for (int k = 0; k < steps; ++k) {
    const Particles before = s.particles;
    const Cell cellBefore = *s.cell;
    s.step();
    auto expected = bruteForcePeriodicPairs(before, cellBefore, s.periodicCollider.sweepLength());
    std::sort(expected.begin(), expected.end());
    const auto got = colliderPairs(s);
    if (got != expected) {
      ++mismatches;
      std::vector<PeriodicPair> extra, missing;
      std::set_difference(got.begin(), got.end(), expected.begin(), expected.end(), std::back_inserter(extra));
      std::set_difference(expected.begin(), expected.end(), got.begin(), got.end(), std::back_inserter(missing));
      BOOST_TEST_MESSAGE("step " << k << ": " << extra.size() << " extra, " << missing.size() << " missing; full runs "
                                 << s.periodicCollider.fullRuns());
      for (const auto& [a, b, d] : extra) BOOST_TEST_MESSAGE("  extra " << a << " " << b << " " << d[0] << d[1] << d[2]);
      for (const auto& [a, b, d] : missing) BOOST_TEST_MESSAGE("  missing " << a << " " << b << " " << d[0] << d[1] << d[2]);
    }
    for (const Contact& c : s.contacts.items) {
      shifted += !c.cellDist.isZero();
      real += c.real;
    }
    if (flip) s.flipCell();
  }
  BOOST_TEST(mismatches == 0u);
  return {shifted, real};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(periodic_collider)

BOOST_AUTO_TEST_CASE(equals_brute_force_in_simple_shear_with_flips) {
  Scene s = gasInCell();
  const int steps = 600;
  Mat3 L = Mat3::Zero();
  L(0, 1) = 3.0 / (steps * s.dt());  // shear strain 3: boxes wider than half the cell without flips
  s.cell->setVelGrad(L);
  s.startOnAffineField();
  const auto [shifted, real] = checkAgainstBruteForce(s, steps, true);
  BOOST_TEST(std::abs(s.cell->H()(0, 1)) <= 0.5);  // flipped three times
  BOOST_TEST(std::abs(s.cell->H0()(0, 1) + 3.0) < 1e-9);  // the reference basis follows the flips
  Cell unflipped = Cell::box(Vec3(1, 1, 1));
  Mat3 F = Mat3::Identity();
  F(0, 1) = 3.0;
  unflipped.setH(F);
  BOOST_TEST((s.cell->henckyStrain() - unflipped.henckyStrain()).norm() < 1e-9);  // strain unchanged by flips
  BOOST_TEST(s.periodicCollider.fullRuns() == 4u);
  BOOST_TEST(shifted > 0u);
  BOOST_TEST(real > 0u);
}

BOOST_AUTO_TEST_CASE(too_much_shear_without_flips) {
  Scene s = gasInCell();
  Mat3 L = Mat3::Zero();
  L(0, 1) = 3.0 / (600 * s.dt());
  s.cell->setVelGrad(L);
  s.startOnAffineField();
  BOOST_CHECK_THROW(s.run(600), std::invalid_argument);
}

// Flipping changes no contact: a dense packing in a cell sheared by 0.8, run for a few steps, then
// two copies, one flipped: the same real contacts with the same images (cellDist mapped by F^{-1}),
// the same forces to round-off of x2 + H k in another basis.
BOOST_AUTO_TEST_CASE(flipping_changes_no_contact) {
  PeriodicLatticeSpec spec;
  spec.H << 1, 0.8, 0, 0, 1, 0, 0, 0, 1;
  spec.m = 4;
  spec.radius = 0.13;
  spec.spread = 0.05;
  spec.jitter = 0.05;
  spec.speed = 0.5;
  Scene a = periodicLatticeScene(spec);
  a.run(3);
  Scene b = a;
  BOOST_TEST(b.flipCell());
  BOOST_TEST(std::abs(b.cell->H()(0, 1) + 0.2) < 1e-15);
  for (int k = 0; k < 3; ++k) {
    a.step();
    b.step();
    BOOST_TEST(a.contacts.countReal() == b.contacts.countReal());
    std::size_t same = 0;
    for (const Contact& c : a.contacts.items) {
      if (!c.real) continue;
      const std::int64_t m = b.contacts.find(c.id1, c.id2);
      if (m < 0) continue;
      const Contact& d = b.contacts.items[static_cast<std::size_t>(m)];
      const Vec3 ia = a.cell->H() * c.cellDist.cast<double>(), ib = b.cell->H() * d.cellDist.cast<double>();
      same += d.real && (ia - ib).norm() < 1e-12;
    }
    BOOST_TEST(same == a.contacts.countReal());
    double fMax = 0.0, df = 0.0;
    for (std::size_t i = 0; i < a.particles.size(); ++i) {
      fMax = std::max(fMax, a.particles.force[i].norm());
      df = std::max(df, (a.particles.force[i] - b.particles.force[i]).norm());
    }
    BOOST_TEST(df <= 1e-11 * fMax);
  }
}

BOOST_AUTO_TEST_CASE(equals_brute_force_in_stretch_and_compression) {
  Scene s = gasInCell();
  Mat3 L;
  L << 2, 1, 0, 0, -1.5, .5, 0, 0, -.5;
  s.cell->setVelGrad(L);
  s.startOnAffineField();
  const auto [shifted, real] = checkAgainstBruteForce(s, 500);
  BOOST_TEST(s.cell->H()(0, 0) > 1.25);
  BOOST_TEST(s.cell->H()(1, 1) < 0.85);
  BOOST_TEST(shifted > 0u);
  BOOST_TEST(real > 0u);
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

namespace {

// The periodic scene replicated 3x3x3 without a cell; copy c (0..26, offsets k in {-1,0,1}^3) of
// particle i has index c n + i; the central copy is c = 13.
Scene replicate(const Scene& periodic, std::vector<Eigen::Vector3i>& offsets) {
  Scene r;
  r.materials = periodic.materials;
  r.setDt(periodic.dt());
  r.setDamping(periodic.damping());
  r.collider.verletDist = periodic.periodicCollider.verletDist;
  const Mat3 H = periodic.cell->H(), V = periodic.cell->imageVelocity();
  const Particles& p = periodic.particles;
  offsets.clear();
  for (int kz = -1; kz <= 1; ++kz)
    for (int ky = -1; ky <= 1; ++ky)
      for (int kx = -1; kx <= 1; ++kx) {
        const Eigen::Vector3i k(kx, ky, kz);
        offsets.push_back(k);
        for (std::size_t i = 0; i < p.size(); ++i) {
          ParticleSpec q = sphereSpec(p.pos[i] + H * k.cast<double>(), p.radius[i], periodic.materials[0].density);
          q.vel = p.vel[i] + V * k.cast<double>();
          q.angVel = p.angVel[i];
          r.particles.add(q);
          r.particles.velMidstep.back() = p.velMidstep[i];
        }
      }
  return r;
}

using RealSet = std::set<std::tuple<std::uint32_t, std::uint32_t, int, int, int>>;

RealSet periodicReal(const Scene& s) {
  RealSet set;
  for (const Contact& c : s.contacts.items)
    if (c.real) set.emplace(c.id1, c.id2, c.cellDist[0], c.cellDist[1], c.cellDist[2]);
  return set;
}

RealSet replicatedReal(const Scene& r, std::size_t n, const std::vector<Eigen::Vector3i>& offsets) {
  RealSet set;
  for (const Contact& c : r.contacts.items) {
    if (!c.real) continue;
    const std::size_t ca = c.id1 / n, cb = c.id2 / n;
    if (ca != 13 && cb != 13) continue;
    const auto i = static_cast<std::uint32_t>(c.id1 % n), j = static_cast<std::uint32_t>(c.id2 % n);
    // offset of the second body's image relative to the first
    const Eigen::Vector3i d = offsets[cb] - offsets[ca];
    if (i < j) set.emplace(i, j, d[0], d[1], d[2]);
    else set.emplace(j, i, -d[0], -d[1], -d[2]);
  }
  return set;
}

void compareWithReplicated(Scene& s, int steps) {
  std::vector<Eigen::Vector3i> offsets;
  Scene r = replicate(s, offsets);
  const std::size_t n = s.particles.size();
  for (int k = 0; k < steps; ++k) {
    s.step();
    r.step();
    const RealSet ps = periodicReal(s), rs = replicatedReal(r, n, offsets);
    BOOST_TEST(ps.size() > n);  // dense: more than one real contact per particle
    BOOST_TEST((ps == rs));
    double fMax = 0.0, df = 0.0, dt = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      fMax = std::max(fMax, s.particles.force[i].norm());
      df = std::max(df, (s.particles.force[i] - r.particles.force[13 * n + i]).norm());
      dt = std::max(dt, (s.particles.torque[i] - r.particles.torque[13 * n + i]).norm());
    }
    BOOST_TEST_INFO("step " << k << ": max |F| " << fMax << ", force diff " << df << ", torque diff " << dt);
    BOOST_TEST(df <= 1e-11 * fMax);
    BOOST_TEST(dt <= 1e-11 * fMax * 0.1);
  }
}

PeriodicLatticeSpec densePacking(const Mat3& H) {
  PeriodicLatticeSpec spec;
  spec.H = H;
  spec.m = 4;
  spec.radius = 0.13;
  spec.spread = 0.05;
  spec.jitter = 0.05;
  spec.speed = 0.5;
  spec.seed = 3;
  return spec;
}

}  // namespace

BOOST_AUTO_TEST_CASE(periodic_contacts_equal_replicated_contacts_sheared_cell) {
  Mat3 H;
  H << 1, 0.4, 0.1, 0, 1, 0.2, 0, 0, 1;
  Scene s = periodicLatticeScene(densePacking(H));
  compareWithReplicated(s, 3);
}

BOOST_AUTO_TEST_CASE(periodic_contacts_equal_replicated_contacts_deforming_cell) {
  Mat3 H;
  H << 1, 0.3, 0, 0, 1.1, 0, 0, 0, 0.95;
  Scene s = periodicLatticeScene(densePacking(H));
  Mat3 L;
  L << 0.5, 3.0, 0, 0, -0.2, 1.0, 0, 0, -0.3;
  s.cell->setVelGrad(L);
  s.startOnAffineField();
  compareWithReplicated(s, 1);
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
    const Contact &a = across.contacts.items[0], &b = inside.contacts.items[0];
    BOOST_TEST((a.cellDist == Eigen::Vector3i(-1, 0, 0) || a.cellDist == Eigen::Vector3i(1, 0, 0)));
    BOOST_TEST_INFO("step " << k << ": u " << a.u.transpose() << " vs " << b.u.transpose());
    BOOST_TEST((a.force - b.force).norm() <= 1e-9 * b.force.norm());
    BOOST_TEST((a.u - b.u).norm() <= 1e-9 * b.u.norm());
  }
  BOOST_TEST(std::abs(inside.contacts.items[0].u[1]) + std::abs(inside.contacts.items[0].u[2]) > 0.0);
}

BOOST_AUTO_TEST_SUITE_END()
