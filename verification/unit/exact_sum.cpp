// Unit: ExactSum (solver/exact_sum.hpp) gives the exact sum of its terms rounded once to the nearest
// double, ties to even: the same bits for any order of the terms and any split into partial sums
// merged in any order. Reference: Boost.Multiprecision's binary floating point with 2200 bits,
// which holds every sum of these terms exactly (every double is an integer multiple of 2^-1074
// below 2^1024: 2098 bits, and a few more for the carries), converted to double by its own
// correctly rounded conversion. The assertions are exact (bits), as the claim is.
#include "solver/exact_sum.hpp"
#include "unit/same_bits.hpp"

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace dem;
using dem::test::sameValue;

namespace {

using Exact = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<2200, boost::multiprecision::digit_base_2>>;

double reference(const std::vector<double>& terms) {
  Exact s = 0;
  for (const double x : terms) s += Exact(x);
  return static_cast<double>(s);
}

double exactSum(const std::vector<double>& terms) {
  ExactSum s;
  for (const double x : terms) s += x;
  return s.value();
}

// Terms spread over the whole exponent range (subnormals to near the largest double), both signs.
std::vector<double> wideTerms(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-1080, 1020), sign(0, 1);
  std::vector<double> t(n);
  for (double& x : t) x = (sign(rng) ? -1.0 : 1.0) * std::ldexp(mantissa(rng), exponent(rng));
  return t;
}

// Terms of the kind an energy ledger adds: similar magnitudes, many of them, cancelling in part.
std::vector<double> ledgerTerms(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  std::vector<double> t(n);
  for (double& x : t) x = 1e-7 * g(rng) + 3e-9 * g(rng) * g(rng);
  return t;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(exact_sum)

BOOST_AUTO_TEST_CASE(sums_are_the_exact_sum_rounded_once) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    for (const auto& terms : {wideTerms(1 + seed * 37, seed), ledgerTerms(1000 * seed, seed)}) {
      const double got = exactSum(terms), want = reference(terms);
      BOOST_TEST_INFO("seed " << seed << ", " << terms.size() << " terms");
      BOOST_TEST(sameValue(got, want), std::hexfloat << got << " against " << want);
    }
  }
}

BOOST_AUTO_TEST_CASE(ties_round_to_even_and_cancellation_loses_nothing) {
  const double u = std::ldexp(1.0, -53), tiny = std::numeric_limits<double>::denorm_min();
  const double big = std::numeric_limits<double>::max();
  struct Case {
    std::vector<double> terms;
    double sum;
  };
  const std::vector<Case> cases{
      {{1.0, u}, 1.0},                                         // a tie, 1 even
      {{1.0 + 2 * u, u}, 1.0 + 4 * u},                         // a tie, 1 + 2^-52 odd: up
      {{1.0, u, tiny}, 1.0 + 2 * u},                           // above the tie by the smallest subnormal
      {{1.0, u, -tiny}, 1.0},                                  // below it
      {{1e300, 1.0, -1e300}, 1.0},                             // cancellation (a float sum gives 0)
      {{big, big, -big}, big},                                 // an intermediate beyond the largest double
      {{big, big}, std::numeric_limits<double>::infinity()},  // the sum itself beyond it
      {{-big, -big}, -std::numeric_limits<double>::infinity()},
      {{tiny, tiny, tiny}, 3 * tiny},                          // subnormals, exactly
      {{std::ldexp(1.0, -1022), -tiny}, std::ldexp(1.0, -1022) - tiny},
      {{0.1, 0.2, -0.3}, reference({0.1, 0.2, -0.3})},
      {{}, 0.0},
      {{-0.0, -0.0}, 0.0},  // (as a sum that starts from 0.0)
      {{2.5, -2.5}, 0.0},
  };
  for (const Case& c : cases) {
    const double got = exactSum(c.terms);
    BOOST_TEST(sameValue(got, c.sum), std::hexfloat << got << " against " << c.sum);
    BOOST_TEST(sameValue(got, reference(c.terms)));
  }
}

BOOST_AUTO_TEST_CASE(special_values) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  BOOST_TEST(exactSum({1.0, inf, 2.0}) == inf);
  BOOST_TEST(exactSum({1.0, -inf}) == -inf);
  BOOST_TEST(std::isnan(exactSum({inf, -inf})));
  BOOST_TEST(std::isnan(exactSum({1.0, nan, 2.0})));
}

BOOST_AUTO_TEST_CASE(any_order_and_any_split_gives_the_same_bits) {
  std::mt19937_64 rng(7);
  for (const auto& base : {wideTerms(5000, 3), ledgerTerms(50000, 4)}) {
    const double want = exactSum(base);
    for (int trial = 0; trial < 6; ++trial) {
      std::vector<double> t = base;
      std::shuffle(t.begin(), t.end(), rng);
      // split into `parts` partial sums (as threads or ranks), merged in a shuffled order
      const std::size_t parts = 1 + static_cast<std::size_t>(trial) * 3;
      std::vector<ExactSum> partial(parts);
      std::uniform_int_distribution<std::size_t> which(0, parts - 1);
      for (const double x : t) partial[which(rng)] += x;
      std::shuffle(partial.begin(), partial.end(), rng);
      ExactSum total;
      for (const ExactSum& s : partial) total.merge(s);
      BOOST_TEST(sameValue(total.value(), want), "trial " << trial);
      // word by word, as MPI_SUM reduces them: normalised words added as integers
      ExactSum byWords;
      for (ExactSum& s : partial) {
        s.normalise();
        for (std::size_t i = 0; i < ExactSum::kWords; ++i) byWords.words()[i] += s.words()[i];
        byWords.specials() |= s.specials();
      }
      BOOST_TEST(sameValue(byWords.value(), want), "trial " << trial << " (words)");
    }
  }
}

BOOST_AUTO_TEST_CASE(large_terms_in_bulk_carry_without_overflow) {
  // many terms near the largest double, of both signs: the words' carries (normalise) are exercised
  // and the exact sum, far beyond a double's range on the way, comes back to a double
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> m(1.0, 2.0);
  std::vector<double> t;
  for (int i = 0; i < 200000; ++i) {
    const double x = std::ldexp(m(rng), 1022);
    t.push_back(x);
    t.push_back(-x);
  }
  t.push_back(std::ldexp(1.0, -1074));
  BOOST_TEST(sameValue(exactSum(t), std::ldexp(1.0, -1074)));
  t.pop_back();
  for (int i = 0; i < 1000; ++i) t.push_back(std::ldexp(m(rng), 1000));
  BOOST_TEST(sameValue(exactSum(t), reference(t)));
}

BOOST_AUTO_TEST_SUITE_END()
