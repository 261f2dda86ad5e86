// Unit suite generic_lanes (program dem-unit-tests-generic only, CTest unit.generic_lanes): this
// build takes solver/lanes.hpp's generic path (no AVX-512: the loads and stores one component at a
// time), so the other suites of the program check that path's bits against the one-item kernels.
#include "solver/lanes.hpp"

#include <boost/test/unit_test.hpp>

#if defined(__AVX512F__)
#error "dem-unit-tests-generic must be compiled without AVX-512 (-mno-avx512f)"
#endif

BOOST_AUTO_TEST_SUITE(generic_lanes)

BOOST_AUTO_TEST_CASE(fewer_than_eight_lanes) {
  BOOST_TEST_MESSAGE("lanes in this build: " << dem::kLanes);
  BOOST_TEST(dem::kLanes < 8u);
  // a round trip through the generic loads and stores
  double a[3 * 8], b[3 * 8] = {};
  for (std::size_t i = 0; i < 3 * dem::kLanes; ++i) a[i] = 0.5 + static_cast<double>(i);
  dem::storeV3Lanes(b, dem::loadV3Lanes(a));
  for (std::size_t i = 0; i < 3 * dem::kLanes; ++i) BOOST_TEST(b[i] == a[i]);
}

BOOST_AUTO_TEST_SUITE_END()
