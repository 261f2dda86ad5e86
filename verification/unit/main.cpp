#define BOOST_TEST_MODULE dem unit tests
#include <boost/test/unit_test.hpp>
