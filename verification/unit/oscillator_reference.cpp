// Unit: the oscillator references (verification theory, sections 2 and 5.2) agree with what they
// claim: the discrete closed form with the leapfrog recurrence iterated directly (no solver), the
// numerical frequency with its series, the growth factor with theory 2.3's numbers, the eigenvalue
// critical timestep with the one- and two-mass formulas, and the Cundall-damped closed form with
// the Boost.Odeint integration of the same piecewise ODE (tolerance: a few 1e-12 integrator
// tolerances accumulated over ~20 switches).
#include <dem_reference/damped_oscillator.hpp>
#include <dem_reference/oscillator.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <numbers>

using namespace dem::ref;

BOOST_AUTO_TEST_SUITE(oscillator_reference)

BOOST_AUTO_TEST_CASE(discrete_closed_form_matches_recurrence) {
  const double w = 5.0;
  for (double f : {0.02, 0.5, 0.99}) {
    const double dt = f * 2.0 / w;
    for (bool adjusted : {true, false}) {
      for (double v0 : {0.0, 0.3}) {
        const LeapfrogOscillator lf{w, 0.1, v0, adjusted};
        double x = 0.1, v = adjusted ? v0 + 0.5 * dt * (-w * w * x) : v0 + dt * (-w * w * x);
        x += dt * v;  // now x_1, v = v_{1/2}
        double err = std::abs(lf.position(0, dt) - 0.1) + std::abs(lf.midStepVelocity(0, dt) - v);
        for (long n = 1; n < 500; ++n) {
          err = std::max(err, std::abs(lf.position(n, dt) - x));
          v += dt * (-w * w * x);
          x += dt * v;
          err = std::max(err, std::abs(lf.midStepVelocity(n, dt) - v) * dt);
        }
        BOOST_TEST(err < 1e-12 * lf.amplitude(dt) * 10, "f = " << f << " adjusted " << adjusted << " v0 " << v0 << ": " << err);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(numerical_frequency_and_growth) {
  const double w = 5.0, dt = 1e-3;
  // theta/(w dt) - 1 = (w dt)^2/24 + 3 (w dt)^4/640 + ...
  const double x = w * dt;
  BOOST_TEST(std::abs(numericalFrequency(w, dt) / w - 1 - x * x / 24 - 3 * std::pow(x, 4) / 640) < 1e-14);
  BOOST_TEST(growthFactor(w, 0.99 * criticalTimestep(w)) == 1.0);
  // theory 2.3: predicted 1.3266 at 1.01 dt_cr, 1.877 at 1.05 dt_cr.
  BOOST_TEST(std::abs(growthFactor(w, 1.01 * criticalTimestep(w)) - 1.3266) < 1e-4);
  BOOST_TEST(std::abs(growthFactor(w, 1.05 * criticalTimestep(w)) - 1.877) < 1e-3);
}

BOOST_AUTO_TEST_CASE(energy_error_formula_is_bounded_by_quarter_wdt_squared) {
  const double w = 5.0, dt = 4e-3, s = w * dt / 2;
  double worst = 0;
  for (long n = 0; n < 5000; ++n) worst = std::max(worst, -leapfrogEnergyError(w, dt, n));
  BOOST_TEST(worst <= s * s);
  BOOST_TEST(worst > 0.999 * s * s);
}

BOOST_AUTO_TEST_CASE(eigenvalue_critical_timestep) {
  Eigen::VectorXd m1(1);
  m1 << 2.0;
  Eigen::MatrixXd k1(1, 1);
  k1 << 50.0;
  BOOST_TEST(std::abs(criticalTimestep(m1, k1) - 2 * std::sqrt(2.0 / 50.0)) < 1e-15);
  Eigen::VectorXd m2(2);
  m2 << 2.0, 3.0;
  Eigen::MatrixXd k2(2, 2);
  k2 << 50, -50, -50, 50;
  BOOST_TEST(std::abs(criticalTimestep(m2, k2) / (2 * std::sqrt(1.2 / 50.0)) - 1) < 1e-14);
  // Uniform free chain, m = k = 1: lambda_max = 4 cos^2(pi/(2N)) -> dt_cr = 1/cos(pi/(2N)).
  const int N = 50;
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(N, N);
  for (int i = 0; i + 1 < N; ++i) {
    K(i, i) += 1; K(i + 1, i + 1) += 1; K(i, i + 1) -= 1; K(i + 1, i) -= 1;
  }
  BOOST_TEST(std::abs(criticalTimestep(Eigen::VectorXd::Ones(N), K) * std::cos(std::numbers::pi / (2 * N)) - 1) < 1e-12);
}

BOOST_AUTO_TEST_CASE(damped_closed_form_agrees_with_odeint) {
  for (double lambda : {0.0, 0.2, 0.8}) {
    for (double v0 : {0.0, 0.7, -1.3}) {
      const double w = 1.7, x0 = 1.0, T = 20.0;
      std::vector<double> ts;
      for (int j = 0; j <= 200; ++j) ts.push_back(T * j / 200.0);
      const DampedOscillatorClosedForm cf(w, lambda, x0, v0, T);
      const auto od = odeintDampedOscillator(w, lambda, x0, v0, T, ts);
      BOOST_TEST_REQUIRE(od.samples.size() == ts.size());
      double err = 0;
      for (std::size_t j = 0; j < ts.size(); ++j) err = std::max(err, std::abs(od.samples[j] - cf.position(ts[j])));
      BOOST_TEST(err < 1e-9, "lambda " << lambda << " v0 " << v0 << ": sample error " << err);
      // The same switches, at the same times, with the same amplitudes / peak speeds.
      std::size_t nEvents = 0;
      for (std::size_t e = 0; e < cf.events().size() && e < od.events.size(); ++e) {
        if (cf.events()[e].t > T - 1e-6) break;
        BOOST_TEST(cf.events()[e].kind == od.events[e].kind);
        BOOST_TEST(std::abs(cf.events()[e].t - od.events[e].t) < 1e-9);
        BOOST_TEST(std::abs(cf.events()[e].x - od.events[e].x) + std::abs(cf.events()[e].v - od.events[e].v) < 1e-9);
        ++nEvents;
      }
      BOOST_TEST(nEvents >= 10u);
      // Closed-form half cycles: ratio and half period formulas (from the second turning point on).
      std::vector<DampedEvent> turns, zeros;
      for (const auto& e : cf.events()) (e.kind == DampedEvent::TurningPoint ? turns : zeros).push_back(e);
      for (std::size_t j = 1; j + 1 < turns.size(); ++j)
        BOOST_TEST(std::abs(std::abs(turns[j + 1].x / turns[j].x) - dampedHalfCycleRatio(lambda)) < 1e-13);
      for (std::size_t j = 0; j + 1 < zeros.size(); ++j)
        BOOST_TEST(std::abs(zeros[j + 1].t - zeros[j].t - dampedHalfPeriod(w, lambda)) < 1e-12);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
