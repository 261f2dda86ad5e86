// Unit: the order fit of the verification harness.
#include "harness/case.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>

using namespace dem::verify;

BOOST_AUTO_TEST_SUITE(harness)

BOOST_AUTO_TEST_CASE(fit_recovers_power_law_and_skips_round_off) {
  const auto dts = halvings(0.1, 5);
  std::vector<double> e;
  for (double dt : dts) e.push_back(3.0 * dt * dt);
  BOOST_TEST(std::abs(*fitOrder(dts, e, 0.0) - 2.0) < 1e-12);
  e.back() = 1e-17;  // a level at round-off is not fitted
  BOOST_TEST(std::abs(*fitOrder(dts, e, 1e-15) - 2.0) < 1e-12);
  BOOST_TEST(!fitOrder({0.1}, {1.0}, 0.0).has_value());
}

BOOST_AUTO_TEST_CASE(failing_tolerance_and_order_are_reported) {
  Case c;
  c.name = "synthetic";
  c.dts = halvings(0.1, 4);
  c.quantities.push_back({"q1", [](double dt) { return dt * dt; }, OrderSpec{2.0, 1.9, 2.1, 0.0}});
  c.run = [](double dt) { return RunOutput{{{"q1", 2 * dt}}, {}}; };
  const auto r = evaluate(c);
  BOOST_TEST(!r.pass);
  BOOST_TEST(!r.quantities[0].pass);
  BOOST_TEST(std::abs(*r.quantities[0].fittedOrder - 1.0) < 1e-12);
}

BOOST_AUTO_TEST_CASE(fit_over_the_asymptotic_range_only) {
  // e = 3 dt^2 from level 2 on; the two coarsest levels are pre-asymptotic (e = 30 dt^2).
  const auto dts = halvings(0.1, 6);
  std::vector<double> e;
  for (std::size_t k = 0; k < dts.size(); ++k) e.push_back((k < 2 ? 30.0 : 3.0) * dts[k] * dts[k]);
  const double all = *fitOrder(dts, e, 0.0);
  const double tail = *fitOrder(dts, e, 0.0, 2);
  BOOST_TEST(all > 2.5);  // the pre-asymptotic levels pull the fit away from 2
  BOOST_TEST(std::abs(tail - 2.0) < 1e-12);
  BOOST_TEST(fitPoints(dts, e, 0.0, 2) == 4u);
  BOOST_TEST(!fitOrder(dts, e, 0.0, 5).has_value());  // one point left: no slope
}

BOOST_AUTO_TEST_CASE(order_needs_four_levels) {
  Case c;
  c.name = "too_few_levels";
  c.dts = halvings(0.1, 3);
  c.quantities.push_back({"q1", [](double) { return 1.0; }, OrderSpec{2.0, 1.9, 2.1, 0.0}});
  c.run = [](double dt) { return RunOutput{{{"q1", dt * dt}}, {}}; };
  auto r = evaluate(c);
  BOOST_TEST(!r.pass);
  BOOST_TEST(r.quantities[0].failure.find(">= 4") != std::string::npos);
  c.dts = halvings(0.1, 4);
  r = evaluate(c);
  BOOST_TEST(r.pass);
  BOOST_TEST(r.quantities[0].fittedPoints == 4u);
}

BOOST_AUTO_TEST_SUITE_END()
