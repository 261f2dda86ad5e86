#define BOOST_TEST_MODULE dem io tests
#include <boost/test/unit_test.hpp>
