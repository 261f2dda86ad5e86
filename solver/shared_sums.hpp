#pragma once
// The ledger's sums of a scene whose bodies are shared among ranks (mpi/distributed_scene.hpp): the
// terms of this rank's own bodies only (not its copies of the others'), each summed exactly
// (exact_sum.hpp) and then combined over the ranks, so that the totals are the same bits for any
// number of ranks and any split of the bodies. Without it (a scene alone) the sums run in double in
// the order of user ids, which is faster.

#include "exact_sum.hpp"
#include "particles.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace dem {

struct SharedSums {
  std::vector<std::uint8_t> owned;                   // per slot: 1 for this rank's own body
  std::function<void(std::span<ExactSum>)> combine;  // each sum replaced by the sum over the ranks
  bool drives = false;  // some rank may hold a driven body: the drives' work is combined (drive_work.hpp)
  std::function<double(double)> minimum;  // the minimum over the ranks (the time step's estimate, timestep.hpp)
  bool owns(std::size_t slot) const { return owned[slot] != 0; }
  // The minimum of x over the ranks (without `minimum`: one rank's, x).
  double min(double x) const { return minimum ? minimum(x) : x; }

  // N sums over this rank's bodies among the n slots (add(i, sums) adds body i's terms), on the
  // threads of the step (each thread's exact sums merged, in any order: the same bits), combined
  // over the ranks.
  template <std::size_t N, class Add>
  std::array<ExactSum, N> sum(std::size_t n, Add&& add) const {
    std::array<ExactSum, N> total;
    if (n <= kParallelThreshold) {  // (no team of one thread: its lock costs more than a few bodies' terms)
      for (std::size_t i = 0; i < n; ++i)
        if (owns(i)) add(i, total);
      combine(total);
      return total;
    }
#pragma omp parallel
    {
      std::array<ExactSum, N> mine;
#pragma omp for schedule(static) nowait
      for (std::size_t i = 0; i < n; ++i)
        if (owns(i)) add(i, mine);
#pragma omp critical(dem_shared_sums)
      for (std::size_t k = 0; k < N; ++k) total[k].merge(mine[k]);
    }
    combine(total);
    return total;
  }
};

}  // namespace dem
