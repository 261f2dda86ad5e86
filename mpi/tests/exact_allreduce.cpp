// MPI: sums over the ranks (mpi/exact_allreduce.hpp) are the same bits as one rank's exact sum of all
// the terms, for any number of ranks and any split of the terms among them; and the brick
// decomposition (solver/decomposition.hpp) that every rank computes from the same positions is the
// same on every rank.
#include "mpi/exact_allreduce.hpp"
#include "solver/decomposition.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace dem;

namespace {

int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int size() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

// The same terms on every rank (a seeded generator), of the kinds an energy ledger adds.
std::vector<double> terms(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  std::uniform_int_distribution<int> e(-60, 60);
  std::vector<double> t(n);
  for (double& x : t) x = std::ldexp(g(rng), e(rng));
  return t;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(exact_allreduce)

BOOST_AUTO_TEST_CASE(the_ranks_sum_is_the_exact_sum_of_all_terms) {
  const std::vector<double> a = terms(20000, 1), b = terms(3000, 2);
  ExactSum wantA, wantB;
  for (const double x : a) wantA += x;
  for (const double x : b) wantB += x;
  // each term on one rank, chosen by a hash of its index that does not follow the ranks' order
  std::vector<ExactSum> mine(2);
  for (std::size_t i = 0; i < a.size(); ++i)
    if (static_cast<int>((i * 2654435761u) % static_cast<std::size_t>(size())) == rank()) mine[0] += a[i];
  for (std::size_t i = 0; i < b.size(); ++i)
    if (static_cast<int>((i * 40503u + 7u) % static_cast<std::size_t>(size())) == rank()) mine[1] += b[i];
  mpi::allreduce(mine, MPI_COMM_WORLD);
  const double gotA = mine[0].value(), gotB = mine[1].value(), expectA = wantA.value(), expectB = wantB.value();
  BOOST_TEST(std::memcmp(&gotA, &expectA, sizeof(double)) == 0, std::hexfloat << gotA << " against " << expectA);
  BOOST_TEST(std::memcmp(&gotB, &expectB, sizeof(double)) == 0, std::hexfloat << gotB << " against " << expectB);
}

// A special value seen on one rank reaches every rank: +inf and -inf make NaN, one infinity stays.
BOOST_AUTO_TEST_CASE(special_values_on_one_rank_reach_all) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<ExactSum> mine(3);
  const int last = size() - 1;
  for (ExactSum& x : mine) x += 1.0;
  if (rank() == last) {
    mine[0] += inf;
    mine[1] += -inf;
    mine[2] += std::numeric_limits<double>::quiet_NaN();
  }
  if (rank() == 0) mine[0] += -inf;
  mpi::allreduce(mine, MPI_COMM_WORLD);
  BOOST_TEST(std::isnan(mine[0].value()));  // (+inf and -inf)
  BOOST_TEST(mine[1].value() == -inf);
  BOOST_TEST(std::isnan(mine[2].value()));
}

BOOST_AUTO_TEST_CASE(every_rank_computes_the_same_bricks) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Vec3> x(4000);
  for (Vec3& p : x) p = Vec3(u(rng), u(rng), 0.3 * u(rng));
  const Decomposition d = Decomposition::bisect(x, size(), std::nullopt);
  std::vector<double> mine;
  for (int q = 0; q < d.ranks(); ++q)
    for (int a = 0; a < 3; ++a) {
      mine.push_back(d.brick(q).lo[a]);
      mine.push_back(d.brick(q).hi[a]);
    }
  std::vector<double> root = mine;
  MPI_Bcast(root.data(), static_cast<int>(root.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  BOOST_TEST(std::memcmp(root.data(), mine.data(), mine.size() * sizeof(double)) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
