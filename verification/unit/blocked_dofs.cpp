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

// A fixed sphere (every axis blocked) with prescribed velocities (integrate's fixed-sphere path)
// moves with them whatever the forces: after n steps x = x0 + n dt v (round-off of n additions),
// the spin and the velocity unchanged to the bit, the orientation turned by n dt |w| about w (round-off
// of n rotations), the angular momentum I w, and no kinetic energy in the ledger (blocked axes are
// outside it).
BOOST_AUTO_TEST_CASE(fixed_sphere_moves_with_its_prescribed_velocities) {
  const double dt = 1e-3;
  const Vec3 v(1.0, -0.5, 0.25), w(0.0, 0.0, 2.0), x0(1, 2, 3);
  Scene s = singleSphereScene(x0, v, Vec3(0, 0, -9.81), dt);
  s.particles.blocked[0] = dof::all;
  s.particles.angVel[0] = w;
  s.externalForces = [](Particles& p, double) {
    p.force[0] += Vec3(5, -5, 5);
    p.torque[0] += Vec3(1, 1, 1);
  };
  const int n = 400;
  s.run(n);
  const Particles& p = s.particles;
  BOOST_TEST((p.pos[0] - (x0 + n * dt * v)).norm() < 2e-13);  // (n half-ulps of |x| < 4 per axis)
  BOOST_TEST((p.vel[0] - v).norm() == 0.0);
  BOOST_TEST((p.angVel[0] - w).norm() == 0.0);
  BOOST_TEST((p.angMomOf(0) - p.inertia[0][0] * w).norm() == 0.0);
  const Quat expected(Eigen::AngleAxisd(n * dt * w.norm(), w.normalized()));
  BOOST_TEST(p.ori[0].angularDistance(expected) < 1e-12);
  BOOST_TEST(s.energy.kinetic == 0.0);
  BOOST_TEST(s.energy.rotational == 0.0);
}

BOOST_AUTO_TEST_SUITE_END()
