#pragma once
// dem-verify under mpirun (docs/mpi.md, "dem-verify on ranks"): every Scene::step() of the process
// runs on the ranks of a communicator (mpi/distributed_scene.hpp), and the scene the case holds
// becomes the gathered whole after each step (DistributedScene::gatherScene: every body, contact
// and the ledger, the same on every rank), so that the case's checks read what the ranks computed.
//
// A case may change its scene between steps (a velocity, the cell's gradient, a new body): the
// stepper keeps each scene's distributed copy only while the scene is byte for byte what the last
// gather left (its checkpoint bytes, io/checkpoint.hpp), and shares the scene anew otherwise. A
// scene the distributed scene does not take (clumps, mesh walls, driven bodies, the automatic time
// step, external forces: its constructor throws std::invalid_argument) steps itself on every rank,
// and is counted as replicated.

#include "solver/scene.hpp"

#include <mpi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace dem::mpi {
class DistributedScene;
}

namespace dem::verify {

class RanksStepper {
 public:
  explicit RanksStepper(MPI_Comm comm);
  ~RanksStepper();
  RanksStepper(const RanksStepper&) = delete;
  RanksStepper& operator=(const RanksStepper&) = delete;

  // Scene::step's hook: one step of `s` on the ranks (or on each rank alone, replicated).
  void step(Scene& s);

  struct Counts {
    std::uint64_t distributed = 0;  // steps run on the ranks
    std::uint64_t shared = 0;       // times a scene was shared anew among the ranks
    std::uint64_t replicated = 0;   // steps of scenes the distributed scene does not take
    std::map<std::string, std::uint64_t> reasons;  // why, with its steps
  };
  const Counts& counts() const { return counts_; }
  void resetCounts() { counts_ = {}; }

 private:
  struct Entry;
  MPI_Comm comm_;
  std::vector<std::unique_ptr<Entry>> entries_;  // the scenes stepped lately, latest last
  Counts counts_;
  Entry& entryFor(const Scene* s);
};

}  // namespace dem::verify
