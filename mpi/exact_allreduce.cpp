#include "exact_allreduce.hpp"

#include <cstdint>
#include <vector>

namespace dem::mpi {

namespace {
constexpr std::size_t kFlags = 3;  // the bits of ExactSum::specials(): NaN, +inf, -inf
}

void allreduce(std::span<ExactSum> sums, MPI_Comm comm) { reduce(sums, -1, comm); }

void reduce(std::span<ExactSum> sums, int root, MPI_Comm comm) {
  // normalised words: each below 2^32 in magnitude but the last, so that the sum over up to 2^30
  // ranks cannot overflow; after them one word per special-value flag, counting the ranks that saw
  // it (one reduction, not a second one or-ing the flags)
  const std::size_t stride = ExactSum::kWords + kFlags;
  std::vector<std::int64_t> words(sums.size() * stride);
  for (std::size_t i = 0; i < sums.size(); ++i) {
    sums[i].normalise();
    std::int64_t* w = words.data() + i * stride;
    for (std::size_t k = 0; k < ExactSum::kWords; ++k) w[k] = sums[i].words()[k];
    for (std::size_t f = 0; f < kFlags; ++f) w[ExactSum::kWords + f] = (sums[i].specials() >> f) & 1u;
  }
  const int n = static_cast<int>(words.size());
  if (root < 0) {
    MPI_Allreduce(MPI_IN_PLACE, words.data(), n, MPI_INT64_T, MPI_SUM, comm);
  } else {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank == root) MPI_Reduce(MPI_IN_PLACE, words.data(), n, MPI_INT64_T, MPI_SUM, root, comm);
    else MPI_Reduce(words.data(), nullptr, n, MPI_INT64_T, MPI_SUM, root, comm);
    if (rank != root) return;  // (its sums are its own terms still)
  }
  for (std::size_t i = 0; i < sums.size(); ++i) {
    const std::int64_t* w = words.data() + i * stride;
    for (std::size_t k = 0; k < ExactSum::kWords; ++k) sums[i].words()[k] = w[k];
    std::uint32_t flags = 0;
    for (std::size_t f = 0; f < kFlags; ++f)
      if (w[ExactSum::kWords + f] != 0) flags |= std::uint32_t{1} << f;
    sums[i].specials() = flags;
    sums[i].normalise();
  }
}

}  // namespace dem::mpi
