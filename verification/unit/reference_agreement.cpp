// Unit: the closed-form references and the Boost.Odeint references agree (two independent
// references for the same ODE; tolerance: a few times the integrator's 1e-12 tolerance).
#include <dem_reference/free_fall.hpp>
#include <dem_reference/odeint_ballistic.hpp>

#include <boost/test/unit_test.hpp>

using namespace dem::ref;

BOOST_AUTO_TEST_SUITE(reference_agreement)

BOOST_AUTO_TEST_CASE(free_fall_and_projectile) {
  const V3 g(0, 0, -9.81), x0(0, 0, 10);
  for (const V3& v0 : {V3(0, 0, 0), V3(3, 0, 5)}) {
    const Ballistic b{x0, v0, g};
    const auto o = odeintBallistic(x0, v0, g, 0.0, 1.0);
    BOOST_TEST((o.x - b.position(1.0)).norm() < 1e-10);
    BOOST_TEST((o.v - b.velocity(1.0)).norm() < 1e-10);
  }
}

BOOST_AUTO_TEST_CASE(damped_fall_and_apex) {
  const V3 g(0, 0, -9.81), x0(0, 0, 10);
  const double lambda = 0.3;
  const auto fall = odeintBallistic(x0, V3::Zero(), g, lambda, 1.0);
  BOOST_TEST((fall.x - dampedFallFromRest(x0, g, lambda).position(1.0)).norm() < 1e-10);
  // Apex of a throw: Odeint up to the apex time v0 / (g (1 + lambda)).
  const double v0 = 5.0, tApex = v0 / (9.81 * (1 + lambda));
  const auto up = odeintBallistic(V3::Zero(), V3(0, 0, v0), g, lambda, tApex);
  BOOST_TEST(std::abs(up.x.z() - dampedApexHeight(v0, 9.81, lambda)) < 1e-10);
}

BOOST_AUTO_TEST_CASE(leapfrog_discrete_solution_offsets) {
  const V3 g(0, 0, -9.81);
  const LeapfrogConstantAcceleration adj{{V3::Zero(), V3::Zero(), g}, true}, raw{{V3::Zero(), V3::Zero(), g}, false};
  const double dt = 0.01;
  BOOST_TEST((raw.position(100, dt) - adj.position(100, dt) - 0.5 * g * dt * 1.0).norm() < 1e-15);
  BOOST_TEST((raw.midStepVelocity(100, dt) - adj.midStepVelocity(100, dt) - 0.5 * g * dt).norm() < 1e-15);
}

BOOST_AUTO_TEST_SUITE_END()
