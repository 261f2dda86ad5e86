#pragma once
// VTK snapshots for ParaView: XML UnstructuredGrid (.vtu; ASCII, or appended raw binary, zlib-compressed
// when the build has zlib: io/vtu_binary.hpp) files and .pvd collections.
//
// Particles (spheres, clump members included; walls and clump bodies have no sphere shape and are
// left out) are points (VTK_VERTEX cells) with point data
//   id, radius, material, velocity, angularVelocity, force, torque, orientation (quaternion w, x, y,
//   z, body to global axes), angularMomentum (solver/angular_momentum.hpp), bodyOrientation and
//   bodyAngularMomentum (those of the rigid body the point belongs to: its clump for a clump member,
//   itself otherwise), clump (the clump body's id, -1: none)
// (positions and orientations at the scene's time; velocities and angular momenta mid-step; force
// and torque those of the last step). The points are in the order of the bodies' user ids, and id is
// the user id (Particles::userId: a body's id in the scene, whatever its slot in storage), so that a
// snapshot is the same bytes whether or not the spatial order moved the bodies (Scene::setSpatialOrder).
// In ParaView: Glyph filter, Sphere glyph, Scale by "radius", scale factor 2 (glyphs are diameters).
// Contacts (optional) are lines (VTK_LINE) from particle 1's centre to particle 2's centre (a wall
// contact ends at the contact point; in a periodic cell a contact ends at the image x2 + H cellDist) with cell data id1, id2, normalForce (|F.n|, N), force (on
// particle 1), overlap (-u_N); id1 and id2 are user ids, the lines in their order (realContactsByUserIds).
// Walls and meshes (scenes with either): triangles (VTK_TRIANGLE), each facet as it lies at the
// scene's time (moving meshes move), each infinite wall as a square of two triangles centred on
// the spheres and twice their extent, in PREFIX_walls_NNN.vtu + PREFIX_walls.pvd, with cell data id
// (the body), mesh (its index, -1 for a wall), material, velocity and force (the contacts' reaction
// on the body, split between a wall's two triangles) (ParaView: Surface, or Wireframe).
// Periodic cell (scenes with a cell): the parallelepiped spanned by H's columns from the origin as
// one VTK_HEXAHEDRON (8 points: 0, h1, h1+h2, h2, h3, h1+h3, h1+h2+h3, h2+h3) with cell data H (9
// components, row-major), stress (Scene::stress, 9, row-major) and volume, in PREFIX_cell_NNN.vtu +
// PREFIX_cell.pvd (ParaView: Wireframe or Outline representation).
// A collection PREFIX.pvd lists every snapshot with its time; it is rewritten (atomically) after
// each snapshot so that it is valid while the run goes on. Every file is written atomically and
// synced (io/atomic_file.hpp), every failure names the file and the system's reason.
// Restart: a checkpoint records each collection's entries (the bytes before its closing tail,
// their length and checksum) and the step of its last snapshot (records()); restore() checks
// the collections against that, cuts them back to those entries (the tail rewritten) and removes
// the snapshot files of later steps, which the interrupted run wrote after the checkpoint.

#include "checkpoint.hpp"
#include "solver/scene.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dem::io {

std::string particlesVtu(const Scene& scene);
std::string contactsVtu(const Scene& scene);
// Requires scene.cell.
std::string cellVtu(const Scene& scene);
// Walls and facets (see above); whether the scene has any.
std::string boundariesVtu(const Scene& scene);
inline bool hasBoundaries(const Scene& scene) {
  return !scene.particles.walls.empty() || !scene.particles.facets.empty();
}

struct PvdEntry {
  double time;
  std::string file;  // relative to the .pvd
};
std::string pvdCollection(const std::vector<PvdEntry>& entries);
// The closing tail of a collection (what follows the last entry).
std::string_view pvdTail();

class VtkOutput {
 public:
  // Snapshots go to DIR/PREFIX_NNNNNNNNN.vtu (NNN: the step), DIR/PREFIX_contacts_NNN.vtu,
  // DIR/PREFIX_cell_NNN.vtu (periodic scenes), DIR/PREFIX_walls_NNN.vtu (walls, meshes), and the collections DIR/PREFIX.pvd,
  // DIR/PREFIX_contacts.pvd, DIR/PREFIX_cell.pvd.
  // binary: appended raw data (io/vtu_binary.hpp), zlib-compressed when `compress`; else ASCII.
  VtkOutput(std::string directory, std::string prefix, bool contacts, bool binary = false, bool compress = false);
  // Writes the scene's snapshot (once per step: a second call at the same step does nothing).
  void write(const Scene& scene);
  // A restart from a checkpoint without output state (format versions 1-3): keeps the entries of
  // existing collections up to the scene's time (the snapshots the interrupted run wrote), so that
  // the collections go on listing the whole run.
  void resume(const Scene& scene);
  // A restart from a checkpoint with output state: each collection of this output that `state`
  // records is checked (OutputResumeError naming the file when it is missing, shorter, or its
  // bytes differ), cut back to the recorded entries, and the snapshot files of its series after
  // the recorded last snapshot are removed. Returns whether the particles' collection was
  // recorded (false: the interrupted run wrote no VTK; this output starts afresh).
  bool restore(const Scene& scene, const OutputState& state, const std::string& checkpoint);
  // Removes leftover temporary files (NAME.tmp of an interrupted atomic write) of this output.
  void removeTemporaries() const;
  // The collections' state for a checkpoint.
  void records(std::vector<OutputRecord>& out) const;

 private:
  struct Series {
    std::string name;  // PREFIX, PREFIX_contacts, PREFIX_cell
    std::string text;  // the collection without its tail: the head and an entry per snapshot
    std::uint64_t hash = 0;  // fnv1a64(text)
    std::optional<std::uint64_t> lastStep;  // of the last snapshot written
    std::string pvdName() const { return name + ".pvd"; }
    void setText(std::string t);
  };
  void add(Series& series, const Scene& scene, const std::string& vtu);
  void removeSnapshotsAfter(const Series& series, std::optional<std::uint64_t> step) const;

  std::string dir_, prefix_;
  bool contacts_;
  bool binary_ = false, compress_ = false;
  Series particles_, contactFiles_, cellFiles_, boundaryFiles_;
  std::uint64_t lastStep_ = ~std::uint64_t{0};
};

}  // namespace dem::io
