#pragma once
// MPI for a program that may be started by mpirun: initialised when Open MPI started it (it sets
// OMPI_COMM_WORLD_SIZE), nothing otherwise; finalised at the end of the session's scope.

#include <mpi.h>

#include <cstdlib>

namespace dem::mpi {

struct Session {
  bool active = false;
  int rank = 0, size = 1;
  Session(int& argc, char**& argv) {
    if (!std::getenv("OMPI_COMM_WORLD_SIZE")) return;
    MPI_Init(&argc, &argv);
    active = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session() {
    if (active) MPI_Finalize();
  }
  // An error on one rank while the others step: all end at once, with its exit code.
  [[noreturn]] void abort(int code) const {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::exit(code);
  }
};

}  // namespace dem::mpi
