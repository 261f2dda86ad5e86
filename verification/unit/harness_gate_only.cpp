// Unit: the harness's gate-level mode (EvaluateOptions::gateOnly, DEM_VERIFY_GATE_ONLY in the
// sanitizer tests): one level, its tolerances checked, no order fit.
#include "harness/case.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <string>

using namespace dem::verify;

BOOST_AUTO_TEST_SUITE(harness_gate_only)

namespace {
Case sweep(double coefficient) {
  Case c;
  c.name = "gate_only";
  c.dts = halvings(0.1, 4);
  c.quantities.push_back({"q1", [](double dt) { return dt; }, OrderSpec{2.0, 1.9, 2.1, 0.0}});
  // error = coefficient * dt: first order, so the full sweep fails its order band.
  c.run = [coefficient](double dt) { return RunOutput{{{"q1", coefficient * dt}}, {}}; };
  return c;
}
}  // namespace

BOOST_AUTO_TEST_CASE(runs_the_first_level_only_and_checks_its_tolerance) {
  int runs = 0;
  Case c = sweep(0.5);
  const auto inner = c.run;
  c.run = [&runs, inner](double dt) { ++runs; return inner(dt); };
  const auto full = evaluate(c);
  BOOST_TEST(runs == 4);
  BOOST_TEST(!full.pass);  // fitted order 1, band [1.9, 2.1]
  runs = 0;
  const auto gate = evaluate(c, EvaluateOptions{true});
  BOOST_TEST(runs == 1);
  BOOST_TEST(gate.pass);
  BOOST_TEST(gate.dts.size() == 1u);
  BOOST_TEST(!gate.quantities[0].fittedOrder.has_value());
  // The tolerance is still checked at the gate level.
  BOOST_TEST(!evaluate(sweep(2.0), EvaluateOptions{true}).pass);
}

BOOST_AUTO_TEST_CASE(options_from_the_environment) {
  const char* saved = std::getenv("DEM_VERIFY_GATE_ONLY");
  const std::string keep = saved ? saved : "";
  ::setenv("DEM_VERIFY_GATE_ONLY", "1", 1);
  BOOST_TEST(evaluateOptionsFromEnvironment().gateOnly);
  ::setenv("DEM_VERIFY_GATE_ONLY", "0", 1);
  BOOST_TEST(!evaluateOptionsFromEnvironment().gateOnly);
  ::unsetenv("DEM_VERIFY_GATE_ONLY");
  BOOST_TEST(!evaluateOptionsFromEnvironment().gateOnly);
  if (saved) ::setenv("DEM_VERIFY_GATE_ONLY", keep.c_str(), 1);
}

BOOST_AUTO_TEST_SUITE_END()
