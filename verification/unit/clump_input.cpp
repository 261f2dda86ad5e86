// Unit: clump construction (solver/clump.hpp): bad input gets a clear error; members never contact
// each other; members move rigidly with their clump and carry no gravity of their own.
#include "solver/builders.hpp"

#include <boost/test/unit_test.hpp>
#include "expect_error.hpp"

#include <limits>

using namespace dem;
using dem::test::expectError;

namespace {

Scene threeSpheres() {
  Scene s;
  s.materials.push_back(Material{});
  s.particles.add(sphereSpec(Vec3(0, 0, 0), 0.1, 2600));
  s.particles.add(sphereSpec(Vec3(0.2, 0, 0), 0.1, 2600));
  s.particles.add(sphereSpec(Vec3(0.15, 0.05, 0), 0.1, 2600));  // overlaps both
  s.setDt(1e-4);
  return s;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(clump_input)

BOOST_AUTO_TEST_CASE(bad_input) {
  Scene s = threeSpheres();
  expectError([&] { s.addClump({}); }, "members is empty");
  expectError([&] { s.addClump({0, 7}); }, "member 7 is not a particle id");
  expectError([&] { s.addClump({0, 1, 0}); }, "particle 0 is listed twice");
  expectError([&] { s.addClump({0, 2}, {ClumpInertiaMethod::ParallelAxis, 0.0}); }, "members overlap");
  expectError([&] { s.addClump({0, 2}, {ClumpInertiaMethod::Grid, -0.01}); }, "gridSpacing = -0.01");
  expectError([&] { s.addClump({0, 2}, {ClumpInertiaMethod::Grid, std::numeric_limits<double>::quiet_NaN()}); },
              "gridSpacing = nan");
  BOOST_TEST(s.clumps.list.empty());
  BOOST_TEST(s.particles.size() == 3u);
  const std::size_t b = s.addClump({0, 1});
  expectError([&] { s.addClump({1, 2}); }, "particle 1 is already a member of clump 3");
  expectError([&] { s.addClump({b}); }, "is itself a clump body");
}

BOOST_AUTO_TEST_CASE(members_never_contact_each_other) {
  Scene s = threeSpheres();
  s.particles.add(sphereSpec(Vec3(1, 0, 0), 0.1, 2600));
  const std::size_t b = s.addClump({0, 1});
  BOOST_TEST(!s.particles.mayContact(0, 1));
  BOOST_TEST(s.particles.mayContact(0, 2));  // member vs free sphere
  BOOST_TEST(!s.particles.mayContact(0, b));  // the clump body never collides
  BOOST_TEST(!s.particles.mayContact(3, b));
  const std::size_t b2 = s.addClump({2, 3});
  BOOST_TEST(s.particles.mayContact(0, 2));  // members of different clumps
  BOOST_TEST(!s.particles.mayContact(2, 3));
  BOOST_TEST(!s.particles.mayContact(b, b2));
}

BOOST_AUTO_TEST_CASE(members_follow_clump_and_forces_aggregate) {
  Scene s = threeSpheres();
  s.particles.pos[2] = Vec3(5, 0, 0);  // out of contact: only the external force acts
  const std::size_t b = s.addClump({0, 1});
  s.gravity = Vec3(0, 0, -9.81);
  // A force on one member off the centroid pushes the clump and spins it: F_c = F, T_c = r x F.
  const Vec3 F(0, 3.0, 0);
  s.externalForces = [&](Particles& p, double) { p.force[1] += F; };
  const Vec3 xc0 = s.particles.pos[b], r1 = s.particles.pos[1] - xc0;
  s.step();
  const Particles& p = s.particles;
  const double dt = s.dt(), m = p.mass[b];
  // Adjusted first step: v(dt/2) = (F/m + g) dt/2 (members carry no gravity of their own).
  BOOST_TEST((p.vel[b] - (F / m + s.gravity) * dt / 2).norm() < 1e-15);
  const Vec3 L = r1.cross(F) * dt / 2;  // L(dt/2) = T dt/2
  BOOST_TEST((p.angMomOf(b) - L).norm() < 1e-15 * (1 + L.norm()));
  // Members placed rigidly, velocities v_c + w x r.
  for (std::size_t i : {std::size_t(0), std::size_t(1)}) {
    BOOST_TEST((p.vel[i] - (p.vel[b] + p.angVel[b].cross(p.pos[i] - p.pos[b]))).norm() < 1e-15);
    BOOST_TEST((p.angVel[i] - p.angVel[b]).norm() == 0.0);
  }
  BOOST_TEST(std::abs((p.pos[0] - p.pos[1]).norm() - 0.2) < 1e-15);
  // Energy: the members are not counted twice (only the clump's mass has kinetic/potential energy).
  BOOST_TEST(std::abs(s.energy.gravity - (-m * s.gravity.dot(xc0))) < 1e-12);
}

BOOST_AUTO_TEST_SUITE_END()
