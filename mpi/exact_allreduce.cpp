#include "exact_allreduce.hpp"

#include <cstdint>
#include <vector>

namespace dem::mpi {

void allreduce(std::span<ExactSum> sums, MPI_Comm comm) {
  // normalised words: each below 2^32 in magnitude but the last, so that the sum over up to 2^30
  // ranks cannot overflow
  std::vector<std::int64_t> words(sums.size() * ExactSum::kWords);
  std::vector<std::uint32_t> specials(sums.size());
  for (std::size_t i = 0; i < sums.size(); ++i) {
    sums[i].normalise();
    for (std::size_t w = 0; w < ExactSum::kWords; ++w) words[i * ExactSum::kWords + w] = sums[i].words()[w];
    specials[i] = sums[i].specials();
  }
  MPI_Allreduce(MPI_IN_PLACE, words.data(), static_cast<int>(words.size()), MPI_INT64_T, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, specials.data(), static_cast<int>(specials.size()), MPI_UINT32_T, MPI_BOR, comm);
  for (std::size_t i = 0; i < sums.size(); ++i) {
    for (std::size_t w = 0; w < ExactSum::kWords; ++w) sums[i].words()[w] = words[i * ExactSum::kWords + w];
    sums[i].specials() = specials[i];
    sums[i].normalise();
  }
}

}  // namespace dem::mpi
