// Unit: Scene::step stops an unstable run with RunawayError (solver/runaway.hpp) naming the step,
// the particle, dt and the estimated critical dt; a stable run near the limit never trips it.
#include "cases/contact_oscillator.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>

using namespace dem;

BOOST_AUTO_TEST_SUITE(runaway)

// A sphere on a wall (theory 2.1: omega^2 = kn/m, dt_cr = 2/omega) at 1.1 dt_cr: |lambda| = 2.43
// per step (theory 2.3), so the state leaves any stable bound within a few steps.
BOOST_AUTO_TEST_CASE(sphere_on_wall_unstable) {
  verify::ContactOscillator o;
  const double dt = 1.1 * o.dtCritical();
  Scene s = o.build(dt, o.amplitude());
  const std::uint64_t maxSteps = 200;
  bool thrown = false;
  try {
    s.run(maxSteps);
  } catch (const RunawayError& e) {
    thrown = true;
    BOOST_TEST_MESSAGE("runaway: " << e.what());
    BOOST_TEST(e.step < maxSteps);
    BOOST_TEST(e.particle == 1u);  // the sphere (0 is the wall)
    BOOST_TEST(e.dt == dt);
    const std::string m = e.what();
    BOOST_TEST(m.find("step " + std::to_string(e.step)) != std::string::npos);
    BOOST_TEST(m.find("particle 1") != std::string::npos);
    BOOST_TEST(m.find("critical dt") != std::string::npos);
    // The estimate in the error: global stiffness sqrt(2 m/kn) of the sphere-wall pair the collider
    // still holds (the sphere has been thrown off the wall by then), below the true limit.
    const double gs = std::sqrt(2.0 * o.mass() / o.kn());
    BOOST_TEST(std::abs(e.dtCritical - gs) <= 1e-12 * gs);
    BOOST_TEST(e.dtCritical < o.dtCritical());
  }
  BOOST_TEST(thrown);
}

// The same at 0.9 dt_cr: 200 periods without an error, the contact closed throughout.
BOOST_AUTO_TEST_CASE(sphere_on_wall_stable) {
  verify::ContactOscillator o;
  const double dt = 0.9 * o.dtCritical();
  Scene s = o.build(dt, o.amplitude());
  const auto steps = static_cast<std::uint64_t>(200 * 2 * std::numbers::pi / o.omega() / dt);
  BOOST_CHECK_NO_THROW(s.run(steps));
  BOOST_TEST(s.contacts.countReal() == 1u);
  BOOST_TEST(std::abs(o.xi(s)) <= 1.0001 * o.amplitude());
}

// Two free spheres pressed together (external load: the energy criterion is off, only the
// non-finite criterion applies) at 1.1 dt_cr: the run must still stop, not return NaN.
BOOST_AUTO_TEST_CASE(two_spheres_unstable_never_nan) {
  verify::ContactOscillator o;
  o.kind = verify::ContactOscillator::Kind::TwoSpheres;
  const double dt = 1.1 * o.dtCritical();
  Scene s = o.build(dt, o.amplitude());
  bool thrown = false;
  try {
    for (int n = 0; n < 5000; ++n) {
      s.step();
      BOOST_REQUIRE(std::isfinite(s.particles.pos[0].sum() + s.particles.pos[1].sum()));
    }
  } catch (const RunawayError& e) {
    thrown = true;
    BOOST_TEST_MESSAGE("runaway: " << e.what());
    BOOST_TEST(e.dt == dt);
    BOOST_TEST(e.particle < 2u);
  }
  BOOST_TEST_MESSAGE("two spheres at 1.1 dt_cr: " << (thrown ? "RunawayError" : "bounded, no error"));
}

BOOST_AUTO_TEST_SUITE_END()
