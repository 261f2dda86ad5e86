#pragma once
// Checkpoint/restart: the full state of a Scene in a versioned binary file.
//
// Contents (format version kCheckpointVersion, little-endian doubles as in memory): the magic
// "DEMCKPT\0", the version, then time, step, dt, integrator settings (damping, first-step adjustment,
// rotation algorithm), gravity, materials, every particle array (solver/particles.hpp) and the walls,
// the clumps (members, body-frame positions and orientations), the energy ledger, the contacts in
// their order with their history (frame, normal, point, u, phi) and this step's results, and the
// collider (Verlet distance and its complete sorted state, so that later steps meet the same
// inversions and add contacts in the same order); since version 2 also each contact's cellDist, the
// ledger's cell work and total kinetic energy, the automatic timestep (safety, interval, step of
// its next evaluation) and V sigma of the previous step (Scene::CarriedState), the periodic cell
// (every matrix of Cell::State, homoDeform, flipFlippable) with the stress, and the periodic
// collider (Verlet distance and complete state); finally an FNV-1a 64-bit checksum of all bytes
// before it; since version 3 the contact law, each material's Poisson ratio and restitution, each
// contact's law parameters (in place of Cundall's kn, ks, tan phi) and dashpot force, and the
// ledger's viscous work. A run resumed from a checkpoint is bit-identical to the uninterrupted run.
// Version 1 and 2 files (Cundall contacts without dashpots; version 1 without cell or automatic
// timestep) are still read.
// Not saved: Scene::externalForces (code, not data), and transient scratch.
//
// Saving is atomic (io/atomic_file.hpp). Loading checks the magic, version, checksum, every count
// against the bytes left, and every index (material, wall, clump, contact ids) against its range,
// and throws CheckpointError naming the file and the problem.

#include "solver/scene.hpp"

#include <stdexcept>
#include <string>

namespace dem::io {

inline constexpr std::uint32_t kCheckpointVersion = 3;

class CheckpointError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string checkpointBytes(const Scene& scene);
Scene sceneFromCheckpointBytes(const std::string& bytes, const std::string& name);

void saveCheckpoint(const Scene& scene, const std::string& path);
Scene loadCheckpoint(const std::string& path);

}  // namespace dem::io
