#pragma once
// CSV time series (one row every `interval` steps), columns:
//   step, time            the scene after the step: positions at `time` (on-step), velocities mid-step
//   ledger_time, kinetic, rotational, gravity, elastic, damping_dissipated, friction_dissipated,
//   total                 the energy ledger (solver/energy.hpp), which refers to ledger_time = time - dt
//   contacts              real contacts (overlapping bodies)
//   cell_work             periodic scenes with csv.cell: the ledger's work of the cell (energy.hpp)
//   H_xx .. H_zz          the cell's H (row, column; columns are the side vectors) at `time`
//   stress_xx .. stress_zz  the Love-Weber stress (Scene::stress) at ledger_time, Pa
//   pID_x .. pID_wz       position, velocity, angular velocity of each chosen particle
// Numbers are written with 17 significant digits (they read back to the same doubles).

#include "solver/scene.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace dem::io {

class CsvOutput {
 public:
  // Opens `path` (append = keep existing rows, as on a restart; the header is written only into an
  // empty file); cell: write the cell columns (the scene must have a cell). Throws
  // std::runtime_error when it cannot be opened.
  CsvOutput(const std::string& path, std::vector<std::size_t> particles, bool append, bool cell = false);
  ~CsvOutput();
  CsvOutput(const CsvOutput&) = delete;
  CsvOutput& operator=(const CsvOutput&) = delete;

  void write(const Scene& scene);
  void flush();

 private:
  std::FILE* f_ = nullptr;
  std::string path_;
  std::vector<std::size_t> particles_;
  bool cell_;
};

}  // namespace dem::io
