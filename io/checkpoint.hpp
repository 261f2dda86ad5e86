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
// Since version 5 the integrator's dampGravity flag (after the contact law; older files: true).
// Since version 6 the periodic collider's H at its last run (dormant contacts in a cell; older
// files: none dormant until the next run).
// Since version 7 a contact that is not real and holds only defaults besides its law parameters,
// `dissipated` and cellDist (every potential contact the collider keeps, once the contact stage
// has reset a separated contact's frame, normal and point: most of a granular scene's contacts) is
// written as those alone, marked by a byte after `real`; the others as before.
// Since version 8 the facets and meshes of mesh walls (after the walls).
// Since version 9 the form byte is a set of flags, each leaving a field out: the law parameters
// when they are the mixing rule's for the contact's bodies and materials (recomputed when read, the
// same bits), `dissipated` when +0.0, and cellDist as three bytes when each component fits: a
// potential contact takes 14 bytes where it took 71 (the last good state dem-run keeps).
// Since version 10 the ledger's boundary work and its pending half (after the shear-spring term;
// older files: 0, as their ledgers did not book it).
// Since version 11 the user id of the body in each slot (Particles::userId, after the clump arrays):
// the particle arrays and the contacts are written by slot, as they are stored (spatial order,
// Scene::setSpatialOrder, moves spheres to other slots); older files: every body in the slot of its
// user id. Read back, it must be a permutation that moves only Particles::movable bodies.
// Since version 12 a byte before the contacts: whether the store kept the contacts' results at
// that step (ContactStore::useResultColumns; dem-run's copies of the last good state are taken at
// steps that keep none); without them each record holds a default Contact's results, and the scene
// read back keeps none until its next step (older files: kept).
// Since version 4 the state of dem-run's output files at the checkpoint's step (OutputState: for each
// file its length and an FNV-1a 64 checksum of those bytes, for a VTK collection the step of its
// last snapshot), so that a restart can cut every output back to that step (io/output_files.hpp).
// Version 1, 2 and 3 files (Cundall contacts without dashpots; version 1 without cell or automatic
// timestep; none with output state) are still read.
// Not saved: Scene::externalForces (code, not data), and transient scratch.
//
// Saving is atomic (io/atomic_file.hpp) and streamed: the bytes go to the file through a 1 MiB
// buffer with the checksum computed as they pass (io/buffered_file.hpp), never whole in memory.
// Loading checks the magic, version, checksum, every count against the bytes left, and every index
// (material, wall, clump, contact ids) against its range, and throws CheckpointError naming the
// file and the problem.

#include "fnv1a.hpp"
#include "solver/scene.hpp"

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dem::io {

inline constexpr std::uint32_t kCheckpointVersion = 12;

class CheckpointError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One output file as it was at a checkpoint's step.
struct OutputRecord {
  enum class Kind : std::uint8_t {
    Appended = 0,    // rows appended (CSV): the first `offset` bytes are the run's up to the step
    Collection = 1,  // a .pvd collection: `offset` bytes of entries before the closing tail
  };
  Kind kind = Kind::Appended;
  std::string file;            // name in the output directory
  std::uint64_t offset = 0;    // bytes
  std::uint64_t checksum = 0;  // fnv1a64 of bytes [0, offset)
  std::uint64_t lastStep = 0;  // Collection: step of its last snapshot (valid when hasSnapshot)
  bool hasSnapshot = false;    // Collection: it lists at least one snapshot
};

struct OutputState {
  std::vector<OutputRecord> files;
  const OutputRecord* find(const std::string& file) const;
};

// What a checkpoint file holds besides the scene.
struct CheckpointInfo {
  std::uint32_t version = 0;
  std::optional<OutputState> outputs;  // absent in files of versions 1-3
};

std::string checkpointBytes(const Scene& scene, const OutputState& outputs = {});
// The same into `bytes`, reusing its storage (no second buffer of a checkpoint's size), without the
// checksum: sealCheckpoint(bytes) appends it (a checkpoint kept in memory is sealed only when it is
// written). On an exception `bytes` is left empty or partial.
void checkpointBytes(const Scene& scene, const OutputState& outputs, std::string& bytes);
void sealCheckpoint(std::string& bytes);
Scene sceneFromCheckpointBytes(const std::string& bytes, const std::string& name, CheckpointInfo* info = nullptr);

class BufferedFile;
// The bytes of checkpointBytes(scene, outputs), seal included, written into `file` as they are
// produced (no copy of the checkpoint in memory); the caller closes the file. sealed false: without
// the seal (the file need not keep its hash), which sealCheckpointFile appends later.
void streamCheckpoint(const Scene& scene, const OutputState& outputs, BufferedFile& file, bool sealed = true);
// Appends the seal to a checkpoint file streamed without it (the hash of its bytes, read back in
// pieces of a fixed buffer: no memory of the checkpoint's size); throws std::runtime_error naming
// the file.
void sealCheckpointFile(const std::string& path);
// Streams the checkpoint into PATH.tmp, syncs it and renames it over PATH (io/atomic_file.hpp).
void saveCheckpoint(const Scene& scene, const std::string& path, const OutputState& outputs = {});
Scene loadCheckpoint(const std::string& path, CheckpointInfo* info = nullptr);

}  // namespace dem::io
