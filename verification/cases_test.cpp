// Boost.Test gates for every verification case: one test per registered case, each failing with the
// quantity, the measured error, the tolerance and the fitted order.
#include "cases/registry.hpp"

#include <boost/test/unit_test.hpp>

#include <sstream>

namespace {

void runCase(const dem::verify::Case& c) {
  const dem::verify::CaseResult r = dem::verify::evaluate(c);
  BOOST_TEST_MESSAGE(c.name << ": " << c.title << " (" << r.seconds << " s)");
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
