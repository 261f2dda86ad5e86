// Unit: blocked degrees of freedom keep their prescribed velocity; free axes are unaffected.
#include "solver/builders.hpp"

#include <boost/test/unit_test.hpp>

using namespace dem;

BOOST_AUTO_TEST_SUITE(blocked_dofs)

BOOST_AUTO_TEST_CASE(blocked_z_keeps_prescribed_velocity_under_gravity) {
  const double dt = 1e-3;
  Scene s = singleSphereScene(Vec3(0, 0, 1), Vec3(1, 0, 0.5), Vec3(0, -2, -9.81), dt);
  s.particles.blocked[0] = dof::z;
  s.run(1000);
  BOOST_TEST(s.particles.vel[0].z() == 0.5);
  BOOST_TEST(std::abs(s.particles.pos[0].z() - (1.0 + 0.5 * 1.0)) < 1e-12);
  BOOST_TEST(s.particles.vel[0].x() == 1.0);  // no force on x
  // y is free and falls at -2 m/s^2 (adjusted start: exact).
  BOOST_TEST(std::abs(s.particles.pos[0].y() - (-1.0)) < 1e-12);
}

BOOST_AUTO_TEST_CASE(fixed_particle_does_not_move_and_keeps_its_spin) {
  Scene s = singleSphereScene(Vec3(1, 2, 3), Vec3::Zero(), Vec3(0, 0, -9.81), 1e-3);
  s.particles.blocked[0] = dof::all;
  s.particles.angVel[0] = Vec3(0, 0, 2);
  s.externalForces = [](Particles& p, double) { p.torque[0] += Vec3(1, 1, 1); };
  s.run(500);
  BOOST_TEST((s.particles.pos[0] - Vec3(1, 2, 3)).norm() == 0.0);
  BOOST_TEST((s.particles.angVel[0] - Vec3(0, 0, 2)).norm() == 0.0);
}

BOOST_AUTO_TEST_CASE(blocked_rotation_axis_ignores_torque) {
  Scene s = singleSphereScene(Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), 1e-3);
  s.particles.blocked[0] = dof::rx | dof::ry;
  s.externalForces = [](Particles& p, double) { p.torque[0] += Vec3(3, 3, 3); };
  s.run(100);
  BOOST_TEST(s.particles.angVel[0].x() == 0.0);
  BOOST_TEST(s.particles.angVel[0].y() == 0.0);
  BOOST_TEST(s.particles.angVel[0].z() > 0.0);
}

BOOST_AUTO_TEST_SUITE_END()
