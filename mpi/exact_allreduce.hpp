#pragma once
// The exact sums of every rank combined (solver/exact_sum.hpp): each accumulator's words added as
// integers across the ranks (MPI_SUM over int64, exact and associative), its special-value flags
// or-ed. Every rank receives the same sums, the same bits as one accumulator fed every rank's terms
// in any order: global reductions that do not depend on the number of ranks (docs/mpi.md).

#include "solver/exact_sum.hpp"

#include <mpi.h>

#include <span>

namespace dem::mpi {

// Replaces each sum by the sum over all ranks of `comm` (collective: every rank passes as many).
void allreduce(std::span<ExactSum> sums, MPI_Comm comm);
// The same on the rank `root` only (root < 0: on every rank, as allreduce); the other ranks' sums
// are left as they were (normalised).
void reduce(std::span<ExactSum> sums, int root, MPI_Comm comm);

}  // namespace dem::mpi
