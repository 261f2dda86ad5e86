// The MPI tests (dem-mpi-tests): Boost.Test on every rank of MPI_COMM_WORLD, the same test cases in
// the same order, so that their collective calls meet. Run by CTest under mpirun with 1 to 4 ranks
// (mpi/CMakeLists.txt); a failure on any rank fails the run.
#define BOOST_TEST_MODULE dem mpi tests
#define BOOST_TEST_NO_MAIN
#include <boost/test/unit_test.hpp>

#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int failed = boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
  // (every rank's verdict: a rank that failed fails the run even if mpirun looked at another)
  int anyFailed = 0;
  MPI_Allreduce(&failed, &anyFailed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return anyFailed;
}
