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
  BOOST_TEST((s.particles.angMomOf(0) - I * s.particles.angVel[0]).norm() < 1e-15);
}

// Particles::angMom is kept only where some body needs it: a scene of spheres stores none (its
// L is I w, exactly what the integrator would have stored); the first aspherical body, or a value
// other than I w, gives every body its entry, the spheres' I w (the checkpoint's side:
// io/tests/checkpoint_restart.cpp, angular_momentum_kept_through_restart).
BOOST_AUTO_TEST_CASE(angular_momentum_kept_only_where_needed) {
  Scene s = singleSphereScene(Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), 1e-3);
  s.particles.angVel[0] = Vec3(1, 2, 3);
  s.step();
  BOOST_TEST(s.particles.angMom.empty());
  const Vec3 L = s.particles.angMomOf(0);
  BOOST_TEST((L == s.particles.inertia[0][0] * s.particles.angVel[0]));

  ParticleSpec top = sphereSpec(Vec3(1, 0, 0), 0.1, 1000.0);
  top.inertia = Vec3(1e-3, 2e-3, 3e-3);
  top.angVel = Vec3(0.5, 0, 0);
  s.particles.add(top);
  BOOST_TEST_REQUIRE(s.particles.angMom.size() == 2u);
  BOOST_TEST((s.particles.angMom[0] == L));  // (the sphere's I w)
  BOOST_TEST((s.particles.angMom[1] == Vec3(0.5e-3, 0, 0)));
  // setting a sphere's own I w keeps nothing; another value is kept
  Scene t = singleSphereScene(Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), 1e-3);
  t.particles.angVel[0] = Vec3(1, 2, 3);
  t.particles.setAngMom(0, t.particles.isotropicAngMom(0));
  BOOST_TEST(t.particles.angMom.empty());
  t.particles.setAngMom(0, Vec3(0, 0, 1));
  BOOST_TEST_REQUIRE(t.particles.angMom.size() == 1u);
  BOOST_TEST((t.particles.angMomOf(0) == Vec3(0, 0, 1)));
}

BOOST_AUTO_TEST_SUITE_END()
