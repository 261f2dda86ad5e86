#pragma once
// Per-contact CSV (outputs.contacts): every `interval` steps one row per real contact, sorted by
// its two bodies' user ids (realContactsByUserIds), with the columns
//   step, ledger_time     the step after which the row is written; the contacts' time t_n = time - dt
//   id1, id2              the bodies' user ids (Particles::userId: their ids in the scene, whatever
//                         their slots in storage; sphere-sphere: id1 < id2; sphere-wall: id2 the wall)
//   cx, cy, cz            the contact point (middle of the overlap zone)
//   nx, ny, nz            the unit normal, from particle 1 towards particle 2
//   fn_x .. fn_z          normal force on particle 2, (F2 . n) n (Yade's NormShearPhys::normalForce)
//   fs_x .. fs_z          shear force on particle 2, F2 - fn (Yade's shearForce); particle 1 gets -(fn + fs)
//   overlap               -u_N, m (> 0 for a real contact)
// Numbers with 17 significant digits; the file is an AppendFile (io/output_files.hpp): its
// length and checksum go into the checkpoints, and a restart cuts it back to them.

#include "output_files.hpp"
#include "solver/scene.hpp"

#include <string>
#include <vector>

namespace dem::io {

// The indices of the real contacts in the order of their bodies' user ids (id1's, then id2's;
// ContactStore::forEachRealInUserOrder, the solver's order of sums over contacts): an order
// independent of the store's and of the bodies' slots, that every output listing contacts or
// summing over them follows.
std::vector<std::size_t> realContactsByUserIds(const Particles& p, const ContactStore& contacts);

class ContactsOutput {
 public:
  // As CsvOutput: append keeps existing rows; restore cuts the file back to the record first.
  ContactsOutput(const std::string& path, bool append, const OutputRecord* restore = nullptr,
                 const std::string& checkpoint = {});

  void write(const Scene& scene);
  void sync() { file_.sync(); }
  void close() { file_.close(); }
  OutputRecord record(const std::string& name) const { return file_.record(name); }

 private:
  AppendFile file_;
  std::string rows_;
};

}  // namespace dem::io
