// Unit: spherical rotation update q(t+dt) = Quaternion(omega dt) q(t) (seed "Spherical nodes").
#include "solver/builders.hpp"

#include <boost/test/unit_test.hpp>

using namespace dem;

BOOST_AUTO_TEST_SUITE(quaternion_update)

BOOST_AUTO_TEST_CASE(one_step_rotates_by_omega_dt_about_omega) {
  const Vec3 w(0.3, -1.2, 2.0);
  const double dt = 0.01;
  Scene s = singleSphereScene(Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), dt);
  const Quat q0(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  s.particles.ori[0] = q0;
  s.particles.angVel[0] = w;
  s.step();
  const Quat expected = Quat(Eigen::AngleAxisd(w.norm() * dt, w.normalized())) * q0;
  BOOST_TEST(rotationAngleBetween(s.particles.ori[0], expected) < 1e-15);
  // The rotation axis of q(dt) q0* is omega / |omega|.
  const Eigen::AngleAxisd step(s.particles.ori[0] * q0.conjugate());
  BOOST_TEST((step.axis() - w.normalized()).norm() < 1e-12);
  BOOST_TEST(std::abs(step.angle() - w.norm() * dt) < 1e-14);
}

BOOST_AUTO_TEST_CASE(norm_preserved_and_constant_spin_exact) {
  const Vec3 w(5.0, 1.0, -3.0);
  const double dt = 1e-3;
  const int n = 20000;
  Scene s = singleSphereScene(Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), dt);
  s.particles.angVel[0] = w;
  s.run(n);
  BOOST_TEST(std::abs(s.particles.ori[0].norm() - 1.0) < 1e-14);
  const double angle = std::fmod(w.norm() * n * dt, 2 * M_PI);
  const Quat expected(Eigen::AngleAxisd(angle, w.normalized()));
  // Round-off of n compositions: ~ n eps.
  BOOST_TEST(rotationAngleBetween(s.particles.ori[0], expected) < 100 * n * 2.2e-16);
  BOOST_TEST((s.particles.angVel[0] - w).norm() == 0.0);
}

BOOST_AUTO_TEST_CASE(angular_momentum_of_sphere_is_I_omega) {
  Scene s = singleSphereScene(Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), 1e-3);
  s.particles.angVel[0] = Vec3(1, 2, 3);
  s.step();
  const double I = s.particles.inertia[0][0];
  BOOST_TEST((s.particles.angMom[0] - I * s.particles.angVel[0]).norm() < 1e-15);
}

BOOST_AUTO_TEST_SUITE_END()
