#pragma once
// CSV time series (one row every `interval` steps), columns:
//   step, time            the scene after the step: positions at `time` (on-step), velocities mid-step
//   ledger_time, kinetic, rotational, gravity, elastic, damping_dissipated, friction_dissipated,
//   total                 the energy ledger (solver/energy.hpp), which refers to ledger_time = time - dt
//   contacts              real contacts (overlapping bodies)
//   boundary_work         csv.boundary (default: scenes with a moving mesh or a blocked axis driven
//                         at a velocity): the ledger's work of the prescribed motions (energy.hpp)
//   unbalanced_force, coordination, coordination_mechanical   csv.micromechanics: Yade's unbalanced
//                         force (solver/unbalanced_force.hpp), the mean coordination number with
//                         and without rattlers (solver/coordination.hpp), at ledger_time
//   packing_fraction      csv.packing: of a box or of the cell (solver/packing_fraction.hpp), at time
//   wID_fx .. wID_tz      csv.walls: force and torque on wall ID (solver/wall_loads.hpp), at ledger_time
//   mK_fx .. mK_tz        csv.meshes: force and torque on mesh K (scene order; torque about its
//                         rotation centre; solver/wall_loads.hpp), at ledger_time
//   cell_work             periodic scenes with csv.cell: the ledger's work of the cell (energy.hpp)
//   H_xx .. H_zz          the cell's H (row, column; columns are the side vectors) at `time`
//   stress_xx .. stress_zz  the Love-Weber stress (Scene::stress) at ledger_time, Pa
//   pID_x .. pID_wz       position, velocity, angular velocity of each chosen particle (ID its user id,
//                         Particles::userId: its id in the scene, whatever its slot in storage)
//   pID_qw .. pID_qz      its orientation (quaternion, body to global axes) at time
//   pID_Lx .. pID_Lz      its angular momentum about its centre (solver/angular_momentum.hpp), mid-step
// Numbers are written with 17 significant digits (they read back to the same doubles).
// The row of step 0 (the initial state, before any step) has nan in every column that refers to
// ledger_time (there is no step before it): the ledger, contacts, stress, micromechanics, walls.
// Rows go through an AppendFile (io/output_files.hpp): every write is checked, and the file's
// length and checksum can be recorded in a checkpoint and restored from it.

#include "output_files.hpp"
#include "run_spec.hpp"
#include "solver/scene.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dem::io {

class CsvOutput {
 public:
  // Opens `path` (append = keep existing rows, as on a restart from a checkpoint without output
  // state; the header is written only into an empty file); cell: write the cell columns (the
  // scene must have a cell). restore: cut the file back to this record first (a restart; `append`
  // is then ignored; `checkpoint` names the checkpoint in messages). Throws std::runtime_error
  // when it cannot be opened, OutputResumeError when it does not match the record or its header
  // (a file kept by append or restore) is not the one these particles and cell columns give.
  CsvOutput(const std::string& path, std::vector<std::size_t> particles, bool append, bool cell = false,
            const OutputRecord* restore = nullptr, const std::string& checkpoint = {});
  // The columns of `spec` (its file and interval are not used).
  CsvOutput(const std::string& path, const CsvSpec& spec, bool append, const OutputRecord* restore = nullptr,
            const std::string& checkpoint = {});

  void write(const Scene& scene);
  void flush();  // rows to the file
  void sync();   // rows to the file, and the file to the disk (fsync)
  void close();  // flush and close, checked
  OutputRecord record(const std::string& name) const { return file_.record(name); }

  // The header line (with its newline) of the columns of `spec`.
  static std::string header(const CsvSpec& spec);
  // Throws OutputResumeError naming `path` unless `start`, the first bytes of a CSV file (empty: a
  // new file), begins with `header`.
  static void checkHeader(const std::string& path, std::string_view start, const std::string& header,
                          const std::string& checkpoint);

 private:
  AppendFile file_;
  CsvSpec spec_;
  std::string row_;

  void writeLedger(const Scene& s);
  void writeMeasures(const Scene& s);
};

}  // namespace dem::io
