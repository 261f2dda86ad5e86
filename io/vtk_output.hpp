#pragma once
// VTK snapshots for ParaView: XML UnstructuredGrid (.vtu, ASCII) files and .pvd collections.
//
// Particles (spheres, clump members included; walls and clump bodies have no sphere shape and are
// left out) are points (VTK_VERTEX cells) with point data
//   id, radius, material, velocity, angularVelocity, force, torque
// (positions at the scene's time; velocities mid-step; force and torque those of the last step).
// In ParaView: Glyph filter, Sphere glyph, Scale by "radius", scale factor 2 (glyphs are diameters).
// Contacts (optional) are lines (VTK_LINE) from particle 1's centre to particle 2's centre (a wall
// contact ends at the contact point; in a periodic cell a contact ends at the image x2 + H cellDist) with cell data id1, id2, normalForce (|F.n|, N), force (on
// particle 1), overlap (-u_N).
// Periodic cell (scenes with a cell): the parallelepiped spanned by H's columns from the origin as
// one VTK_HEXAHEDRON (8 points: 0, h1, h1+h2, h2, h3, h1+h3, h1+h2+h3, h2+h3) with cell data H (9
// components, row-major), stress (Scene::stress, 9, row-major) and volume, in PREFIX_cell_NNN.vtu +
// PREFIX_cell.pvd (ParaView: Wireframe or Outline representation).
// A collection PREFIX.pvd lists every snapshot with its time; it is rewritten (atomically) after
// each snapshot so that it is valid while the run goes on.

#include "solver/scene.hpp"

#include <string>
#include <vector>

namespace dem::io {

std::string particlesVtu(const Scene& scene);
std::string contactsVtu(const Scene& scene);
// Requires scene.cell.
std::string cellVtu(const Scene& scene);

struct PvdEntry {
  double time;
  std::string file;  // relative to the .pvd
};
std::string pvdCollection(const std::vector<PvdEntry>& entries);

class VtkOutput {
 public:
  // Snapshots go to DIR/PREFIX_NNNNNNNNN.vtu (NNN: the step), DIR/PREFIX_contacts_NNN.vtu,
  // DIR/PREFIX_cell_NNN.vtu (periodic scenes), and the collections DIR/PREFIX.pvd,
  // DIR/PREFIX_contacts.pvd, DIR/PREFIX_cell.pvd.
  VtkOutput(std::string directory, std::string prefix, bool contacts);
  // Writes the scene's snapshot (once per step: a second call at the same step does nothing).
  void write(const Scene& scene);
  // A restart: keeps the entries of existing collections up to the scene's time (the snapshots the
  // interrupted run wrote), so that the collections go on listing the whole run.
  void resume(const Scene& scene);

 private:
  std::string dir_, prefix_;
  bool contacts_;
  std::vector<PvdEntry> particles_, contactFiles_, cellFiles_;
  std::uint64_t lastStep_ = ~std::uint64_t{0};
};

}  // namespace dem::io
