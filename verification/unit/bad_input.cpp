// Unit: bad input gets an exception naming the field and the value.
#include "solver/builders.hpp"

#include <boost/test/unit_test.hpp>
#include "expect_error.hpp"

#include <limits>

using namespace dem;
using dem::test::expectError;

namespace {
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();


ParticleSpec good() { return sphereSpec(Vec3::Zero(), 0.1, 1000.0); }
}  // namespace

BOOST_AUTO_TEST_SUITE(bad_input)

BOOST_AUTO_TEST_CASE(non_positive_radius) {
  Particles p;
  auto s = good();
  s.radius = -0.5;
  expectError([&] { p.add(s); }, "radius", "-0.5");
  s.radius = 0.0;
  expectError([&] { p.add(s); }, "radius", "0");
  BOOST_TEST(p.size() == 0u);
}

BOOST_AUTO_TEST_CASE(non_positive_mass_and_inertia) {
  Particles p;
  auto s = good();
  s.mass = -2.0;
  expectError([&] { p.add(s); }, "mass", "-2");
  s = good();
  s.inertia = Vec3(1, 0, 1);
  expectError([&] { p.add(s); }, "inertia[1]", "0");
  s.inertia = Vec3(1, 1, kNaN);
  expectError([&] { p.add(s); }, "inertia[2]", "nan");
}

BOOST_AUTO_TEST_CASE(non_finite_position_and_velocity) {
  Particles p;
  auto s = good();
  s.pos = Vec3(0, kNaN, 0);
  expectError([&] { p.add(s); }, "pos", "nan");
  s = good();
  s.vel = Vec3(kInf, 0, 0);
  expectError([&] { p.add(s); }, "vel", "inf");
  s = good();
  s.angVel = Vec3(0, 0, -kInf);
  expectError([&] { p.add(s); }, "angVel", "inf");
}

BOOST_AUTO_TEST_CASE(state_corrupted_after_add_is_caught_before_stepping) {
  Scene sc = singleSphereScene(Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), 1e-3);
  sc.particles.add(good());
  sc.particles.vel[1] = Vec3(kNaN, 0, 0);
  expectError([&] { sc.step(); }, "particle 1", "vel");
}

BOOST_AUTO_TEST_CASE(bad_dt) {
  Scene sc;
  expectError([&] { sc.setDt(0.0); }, "dt", "0");
  expectError([&] { sc.setDt(-1e-3); }, "dt", "-0.001");
  expectError([&] { sc.setDt(kNaN); }, "dt", "nan");
  expectError([&] { sc.setDt(kInf); }, "dt", "inf");
  sc.particles.add(good());
  expectError([&] { sc.step(); }, "dt", "not set");
}

BOOST_AUTO_TEST_CASE(bad_damping) {
  Scene sc;
  expectError([&] { sc.setDamping(1.0); }, "damping", "1");
  expectError([&] { sc.setDamping(-0.1); }, "damping", "-0.1");
  expectError([&] { sc.setDamping(kNaN); }, "damping", "nan");
  sc.setDamping(0.0);
  sc.setDamping(0.999);
  BOOST_TEST(sc.damping() == 0.999);
}

BOOST_AUTO_TEST_SUITE_END()
