#pragma once
// Bad-input tests: f() must throw std::invalid_argument whose message contains every needle.

#include <boost/test/unit_test.hpp>

#include <stdexcept>
#include <string>

namespace dem::test {

template <class F, class... Needles>
void expectError(F&& f, const std::string& needle, const Needles&... more) {
  try {
    f();
    BOOST_ERROR("no exception; expected one mentioning '" << needle << "'");
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    BOOST_TEST_INFO("message: " << m);
    for (const std::string& n : {needle, std::string(more)...}) BOOST_TEST(m.find(n) != std::string::npos);
  }
}

}  // namespace dem::test
