#pragma once
// The ledger's sums of a scene whose bodies are shared among ranks (mpi/distributed_scene.hpp): the
// terms of this rank's own bodies only (not its copies of the others'), each summed exactly
// (exact_sum.hpp) and then combined over the ranks, so that the totals are the same bits for any
// number of ranks and any split of the bodies. Without it (a scene alone) the sums run in double in
// the order of user ids, which is faster.

#include "exact_sum.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace dem {

struct SharedSums {
  std::vector<std::uint8_t> owned;                      // per slot: 1 for this rank's own body
  std::function<void(std::span<ExactSum>)> combine;     // each sum replaced by the sum over the ranks
  bool owns(std::size_t slot) const { return owned[slot] != 0; }
};

}  // namespace dem
