#pragma once
// A scene run by the ranks of an MPI communicator (docs/mpi.md): each rank owns the bodies in its
// brick (solver/decomposition.hpp) and holds copies (ghosts) of the other ranks' bodies within
// reach of its brick; its own Scene (local()) steps them all, and after each step the owners' new
// states overwrite the ghosts.
//
// Epochs. At the start of an epoch the bodies go to the owners of their bricks (migration), each
// with the contacts whose first body it is, and the ghost lists are drawn anew; within the epoch
// the lists stay. An epoch ends when some body has moved farther than `move` from its place at the
// epoch's start (the maximum over all ranks), counting in a deforming cell half the farthest its
// periodic images have moved (a flip ends it at once); the bricks stay in fractional coordinates. The ghosts are the
// bodies within reach = 2 (largest radius + move) of a brick: during an epoch two bodies that touch were at most that
// far apart at its start, so every contact of an owned body is found by the rank's own collider among its owned and
// ghost bodies.
//
// The same bits for any number of ranks: a body's contacts are evaluated on every rank that holds
// both bodies, from the same inputs (the ghosts are the owners' states, bit for bit), with the
// history they have on the rank that owns the contact's first body (carried at each epoch's start,
// as a checkpoint carries it); each body sums its contacts in the order of the partners' user ids
// (Scene::setUserIdSums; the local user ids keep the global ids' order); a body's integration
// depends on nothing else. The energy ledger's sums are exact sums over each rank's own bodies,
// combined over the ranks (solver/shared_sums.hpp): every rank holds the same ledger, the same bits
// for any number of ranks (and as one scene with the same shared sums over all its bodies).
//
// Driven bodies (blocked axes at a velocity: walls and spheres) book their work in the ledger as
// exact sums over the ranks (solver/drive_work.hpp). The automatic time step (dt from the global
// stiffness) is each rank's estimate over its own bodies, then the minimum over the ranks
// (solver/timestep.hpp). Mesh walls are on every rank whole, placed from the time by each (no rank
// owns or sends their facets); a moving mesh's work is an exact sum over each rank's own spheres'
// contacts (meshLoadPower). A clump's parts are owned together by the owner of its body's place
// and are ghosts together. Not yet supported (the constructor throws std::invalid_argument): walls
// with a free axis, Scene::externalForces.

#include "solver/decomposition.hpp"
#include "solver/scene.hpp"

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace dem::mpi {

// A clump by global ids: its body, its members, and their places in its principal frame (Clump).
struct ClumpParts {
  std::uint32_t body = 0;
  std::vector<std::uint32_t> members;
  std::vector<Vec3> relPos;
  std::vector<Quat> relOri;
};

class DistributedScene {
 public:
  // Every rank passes the same scene (e.g. loaded from the same file); `comm`'s ranks share its
  // bodies. `move`: the epochs' displacement bound (<= 0: the scene's Verlet distance, or a tenth
  // of the smallest radius without one).
  DistributedScene(const Scene& whole, MPI_Comm comm, double move = 0.0);

  void step();
  void run(std::uint64_t steps);

  int rank() const { return rank_; }
  int ranks() const { return ranks_; }
  // This rank's scene: its owned bodies and the ghosts, in the order of global ids.
  const Scene& local() const { return local_; }
  bool owned(std::size_t slot) const { return owned_[slot] != 0; }
  std::uint32_t globalId(std::size_t slot) const { return global_[slot]; }
  std::size_t ownedCount() const;
  const Decomposition& decomposition() const { return decomposition_; }
  std::uint64_t epochs() const { return epochs_; }
  // Bodies that changed owner at the epochs' starts, on all ranks together.
  std::uint64_t migrations() const { return migrations_; }
  // Copies of this rank's bodies it sends after each step (the sum over the ranks it sends to).
  std::size_t ghostsSent() const;

  // The whole scene on every rank (collective): every body in the slot of its global id, every
  // contact with its history, the ledger, the time and the settings; fresh colliders. What a
  // checkpoint or an output of the distributed scene writes (io/checkpoint.hpp), and what a
  // DistributedScene on any number of ranks continues from.
  Scene gatherScene();
  // The same on the rank `root` only (collective: every rank calls it; the others get nothing and
  // hold no copy of the whole): what a run that writes its outputs from one rank needs.
  std::optional<Scene> gatherSceneOn(int root);

  // Load balance: at an epoch's start, when the rank with the most spheres holds more than
  // rebalanceAbove times the mean, the bricks are bisected anew from every sphere's place.
  void setRebalanceAbove(double ratio) { rebalanceAbove_ = ratio; }
  std::uint64_t rebalances() const { return rebalances_; }

 private:
  MPI_Comm comm_;
  int rank_ = 0, ranks_ = 1;
  double move_ = 0.0, reach_ = 0.0;
  Decomposition decomposition_;
  Scene local_;
  // Every clump of the scene by global ids (its parts' places in the body frame do not change);
  // per global id, the clump it is a part of (body or member), or -1. A clump's parts are on the
  // same ranks, owned by the owner of its body's place.
  std::vector<ClumpParts> clumps_;
  std::vector<std::int32_t> clumpOf_;
  std::vector<std::uint32_t> global_;  // per local slot: the global id
  std::vector<std::uint8_t> owned_;    // per local slot
  std::vector<Vec3> epochStart_;       // per local slot: its place at the epoch's start
  Mat3 epochH_ = Mat3::Identity();     // the cell at the epoch's start
  // per rank: the local slots of the owned bodies sent to it after each step, and the ghost slots
  // filled from it (both in the order of global ids)
  std::vector<std::vector<std::uint32_t>> sendSlots_, recvSlots_;
  std::uint64_t epochs_ = 0, migrations_ = 0, rebalances_ = 0;
  double rebalanceAbove_ = 1.1;
  bool drives_ = false;  // the scene has driven bodies (their work's sums are combined every step)

  std::size_t slotOfGlobal(std::uint32_t id) const;
  // The rank that owns the body in `slot` (walls: rank 0; a clump's parts: the owner of its body's
  // place), and the other ranks that hold it as a ghost (a clump's parts: those near any part).
  int ownerOf(std::size_t slot) const;
  void ghostRanks(std::size_t slot, int owner, std::vector<int>& out) const;
  std::optional<Scene> gatherOn(int root);  // root < 0: on every rank
  void rebalanceIfNeeded();
  void beginEpoch();
  void updateGhosts();
  double farthestMove() const;            // of this rank's bodies from their places at the epoch's start
  bool epochOver(double farthest) const;  // farthest: over all ranks
};

}  // namespace dem::mpi
