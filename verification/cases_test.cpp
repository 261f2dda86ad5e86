// Boost.Test gates for every verification case: one test per registered case, each failing with the
// quantity, the measured error, the tolerance and the fitted order. With DEM_VERIFY_GATE_ONLY=1 (the
// sanitizer tests) each case runs at its gate level only (harness/case.hpp, EvaluateOptions).
#include "cases/registry.hpp"

#include <boost/test/unit_test.hpp>

#include <sstream>

namespace {

void runCase(const dem::verify::Case& c) {
  const dem::verify::EvaluateOptions options = dem::verify::evaluateOptionsFromEnvironment();
  const dem::verify::CaseResult r = dem::verify::evaluate(c, options);
  BOOST_TEST_MESSAGE(c.name << ": " << c.title << " (" << r.seconds << " s"
                            << (options.gateOnly ? ", gate level only: DEM_VERIFY_GATE_ONLY" : "") << ")");
  BOOST_TEST_REQUIRE(r.exception.empty(), c.name << " threw: " << r.exception);
  for (const auto& q : r.quantities) {
    std::ostringstream msg;
    msg.precision(4);
    msg << c.name << " / " << q.quantity << ": error " << q.error << ", tolerance " << q.tolerance
        << ", worst error/tolerance over levels " << q.worstRatio;
    if (q.fittedOrder) msg << ", fitted order " << *q.fittedOrder << " (band " << q.order->lo << ".." << q.order->hi << ")";
    if (!q.pass) msg << " -- FAILED: " << q.failure;
    BOOST_TEST_MESSAGE(msg.str());
    BOOST_TEST(q.pass, msg.str());
  }
}

bool registerCases() {
  auto& master = boost::unit_test::framework::master_test_suite();
  master.p_name.value = "verification";
  for (const auto& c : dem::verify::allCases()) {
    master.add(boost::unit_test::make_test_case([c] { runCase(c); }, c.name, __FILE__, __LINE__));
  }
  return true;
}

}  // namespace

int main(int argc, char* argv[]) { return boost::unit_test::unit_test_main(&registerCases, argc, argv); }
