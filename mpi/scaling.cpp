// dem-mpi-scaling: times a scene file's steps on the ranks of mpirun (docs/mpi.md, "Scaling").
//
//   mpirun -n R dem-mpi-scaling SCENE.json [STEPS [WARMUP]]
//
// Loads the scene on every rank, distributes it (mpi/distributed_scene.hpp), runs WARMUP steps
// (default 50), then STEPS steps (default 200) timed with MPI_Wtime, and prints from rank 0: the
// wall time per step, particle-steps per second, and per rank its bodies, its ghosts, the copies it
// sends after each step and their bytes, the epochs and the migrations.
#include "io/scene_loader.hpp"
#include "mpi/distributed_scene.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (argc < 2) {
    if (rank == 0) std::fprintf(stderr, "usage: mpirun -n R dem-mpi-scaling SCENE.json [STEPS [WARMUP]]\n");
    MPI_Finalize();
    return 2;
  }
  try {
    const std::uint64_t steps = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 200;
    const std::uint64_t warmup = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 50;
    const double t0 = MPI_Wtime();
    dem::mpi::DistributedScene d(dem::io::loadSceneFile(argv[1]).scene, MPI_COMM_WORLD);
    const double loaded = MPI_Wtime() - t0;
    d.run(warmup);
    const std::uint64_t epochs0 = d.epochs();
    MPI_Barrier(MPI_COMM_WORLD);
    const double t1 = MPI_Wtime();
    d.run(steps);
    MPI_Barrier(MPI_COMM_WORLD);
    const double perStep = (MPI_Wtime() - t1) / static_cast<double>(steps);
    const auto owned = static_cast<unsigned long>(d.ownedCount());
    const auto ghosts = static_cast<unsigned long>(d.local().particles.size() - d.ownedCount());
    const auto sent = static_cast<unsigned long>(d.ghostsSent());
    std::vector<unsigned long> mine{owned, ghosts, sent}, all(3 * static_cast<std::size_t>(ranks));
    MPI_Gather(mine.data(), 3, MPI_UNSIGNED_LONG, all.data(), 3, MPI_UNSIGNED_LONG, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      unsigned long bodies = 0;
      for (int r = 0; r < ranks; ++r) bodies += all[3 * static_cast<std::size_t>(r)];
      std::printf("ranks %d  bodies %lu  load+distribute %.2f s  step %.3f ms  particle-steps/s %.3g  epochs %lu in %lu steps  migrations %lu\n",
                  ranks, bodies, loaded, 1e3 * perStep, static_cast<double>(bodies) / perStep,
                  static_cast<unsigned long>(d.epochs() - epochs0), static_cast<unsigned long>(steps),
                  static_cast<unsigned long>(d.migrations()));
      for (int r = 0; r < ranks; ++r) {
        const unsigned long* a = &all[3 * static_cast<std::size_t>(r)];
        std::printf("  rank %d: %lu bodies, %lu ghosts, %lu copies sent per step (%.1f kB)\n", r, a[0], a[1], a[2],
                    static_cast<double>(a[2]) * 17.0 * 8.0 / 1024.0);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dem-mpi-scaling (rank %d): %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return 0;
}
