#include "csv_output.hpp"

#include "solver/angular_momentum.hpp"
#include "solver/coordination.hpp"
#include "solver/packing_fraction.hpp"
#include "solver/unbalanced_force.hpp"
#include "solver/wall_loads.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace dem::io {

namespace {
constexpr const char* kAxes[3] = {"x", "y", "z"};

void appendNumber(std::string& s, double v) {
  char buf[40];
  const int k = std::snprintf(buf, sizeof buf, ",%.17g", v);
  s.append(buf, static_cast<std::size_t>(k));
}

AppendFile::Mode openMode(bool append, const OutputRecord* restore) {
  if (restore) return AppendFile::Mode::Restore;
  return append ? AppendFile::Mode::Append : AppendFile::Mode::Replace;
}
}  // namespace

namespace {
CsvSpec columnsOf(std::vector<std::size_t> particles, bool cell) {
  CsvSpec spec;
  spec.particles = std::move(particles);
  spec.cell = cell;
  return spec;
}

void appendNumbers(std::string& s, const Vec3& v) {
  for (int k = 0; k < 3; ++k) appendNumber(s, v[k]);
}
}  // namespace

CsvOutput::CsvOutput(const std::string& path, std::vector<std::size_t> particles, bool append, bool cell,
                     const OutputRecord* restore, const std::string& checkpoint)
    : CsvOutput(path, columnsOf(std::move(particles), cell), append, restore, checkpoint) {}

CsvOutput::CsvOutput(const std::string& path, const CsvSpec& spec, bool append, const OutputRecord* restore,
                     const std::string& checkpoint)
    : file_(path, openMode(append, restore), restore, checkpoint), spec_(spec) {
  const std::string h = header(spec_);
  if (file_.size() == 0) {
    file_.write(h);
    return;
  }
  std::ifstream in(file_.path());
  std::string first;
  std::getline(in, first);
  checkHeader(file_.path(), first + '\n', h, checkpoint);
}

std::string CsvOutput::header(const CsvSpec& spec) {
  std::string h =
      "step,time,ledger_time,kinetic,rotational,gravity,elastic,damping_dissipated,friction_dissipated,"
      "viscous_dissipated,spring_dissipated,total,contacts";
  if (spec.boundary) h += ",boundary_work";
  if (spec.cell) {
    h += ",cell_work";
    for (const char* m : {"H", "stress"})
      for (const char* r : kAxes)
        for (const char* c : kAxes) h += std::string(",") + m + "_" + r + c;
  }
  if (spec.micromechanics) h += ",unbalanced_force,coordination,coordination_mechanical";
  if (spec.packing != CsvSpec::Packing::None) h += ",packing_fraction";
  for (const std::size_t id : spec.walls)
    for (const char* c : {"fx", "fy", "fz", "tx", "ty", "tz"}) h += ",w" + std::to_string(id) + "_" + c;
  for (std::size_t m = 0; m < spec.meshCount; ++m)
    for (const char* c : {"fx", "fy", "fz", "tx", "ty", "tz"}) h += ",m" + std::to_string(m) + "_" + c;
  for (const std::size_t id : spec.particles)
    for (const char* c : {"x", "y", "z", "vx", "vy", "vz", "wx", "wy", "wz", "qw", "qx", "qy", "qz", "Lx", "Ly", "Lz"})
      h += ",p" + std::to_string(id) + "_" + c;
  return h + '\n';
}

// Rule: rows are appended only under the header they belong to (the same columns).
void CsvOutput::checkHeader(const std::string& path, std::string_view start, const std::string& header,
                            const std::string& checkpoint) {
  if (start.empty() || start.substr(0, header.size()) == header) return;
  throw OutputResumeError(
      path + ": its columns differ from those the scene asks for now (outputs.csv changed since " +
      (checkpoint.empty() ? "the checkpoint" : checkpoint) +
      "); refusing to resume (restart with --out into a new directory to start the outputs afresh)");
}

// The ledger (at ledger_time) and the contact count; nan at step 0, which has no step before it.
void CsvOutput::writeLedger(const Scene& s) {
  const EnergyLedger& e = s.energy;
  const bool initial = s.stepCount == 0;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const double v : {e.time, e.kinetic, e.rotational, e.gravity, e.elastic, e.dampingDissipated,
                         e.frictionDissipated, e.viscousDissipated, e.springDissipated, e.total()})
    appendNumber(row_, initial ? nan : v);
  if (initial) row_ += ",nan";
  else row_ += ',' + std::to_string(s.contacts.countReal());
  if (spec_.boundary) appendNumber(row_, initial ? nan : e.boundaryWork);
  if (spec_.cell) {
    if (!s.cell) throw std::logic_error(file_.path() + ": cell columns requested for a scene without a cell");
    appendNumber(row_, initial ? nan : e.cellWork);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) appendNumber(row_, s.cell->H()(r, c));
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) appendNumber(row_, initial ? nan : s.stress(r, c));
  }
}

// Micromechanics, packing fraction and wall loads (solver/*.hpp); nan at step 0 but the packing.
void CsvOutput::writeMeasures(const Scene& s) {
  const bool initial = s.stepCount == 0;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (spec_.micromechanics) {
    const Coordination z = coordination(s.particles, s.contacts);
    appendNumber(row_, initial ? nan : unbalancedForce(s.particles, s.contacts));
    appendNumber(row_, initial ? nan : z.mean);
    appendNumber(row_, initial ? nan : z.mechanical);
  }
  if (spec_.packing == CsvSpec::Packing::Cell) {
    if (!s.cell)
      throw std::logic_error(file_.path() + ": the packing fraction of the cell requested for a scene without a cell");
    appendNumber(row_, packingFractionInCell(s.particles, *s.cell));
  } else if (spec_.packing == CsvSpec::Packing::Box) {
    const Vec3 lo(spec_.packingMin[0], spec_.packingMin[1], spec_.packingMin[2]);
    const Vec3 hi(spec_.packingMax[0], spec_.packingMax[1], spec_.packingMax[2]);
    appendNumber(row_, packingFractionInBox(s.particles, lo, hi));
  }
  if (spec_.walls.empty()) return;
  const std::vector<WallLoad> loads =
      wallLoads(s.particles, s.contacts, s.cell ? &s.cell->previousH() : nullptr);  // (H_n)
  for (const std::size_t id : spec_.walls) {
    const auto w = std::find_if(loads.begin(), loads.end(), [&](const WallLoad& l) { return l.id == id; });
    if (w == loads.end()) throw std::logic_error(file_.path() + ": particle " + std::to_string(id) + " is not a wall");
    appendNumbers(row_, initial ? Vec3::Constant(nan) : w->force);
    appendNumbers(row_, initial ? Vec3::Constant(nan) : w->torque);
  }
}

void CsvOutput::write(const Scene& s) {
  row_ = std::to_string(s.stepCount);
  appendNumber(row_, s.time);
  writeLedger(s);
  writeMeasures(s);
  if (spec_.meshCount > 0) {
    const bool initial = s.stepCount == 0;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<MeshLoad> loads =
        meshLoads(s.particles, s.contacts, s.time - s.dt(), s.cell ? &s.cell->previousH() : nullptr);  // (H_n)
    for (std::size_t m = 0; m < spec_.meshCount; ++m) {
      appendNumbers(row_, initial ? Vec3::Constant(nan) : loads.at(m).force);
      appendNumbers(row_, initial ? Vec3::Constant(nan) : loads.at(m).torque);
    }
  }
  const Particles& p = s.particles;
  for (const std::size_t id : spec_.particles) {  // (user ids)
    const std::size_t i = p.slotOf.at(id);
    for (const Vec3* v : {&p.pos[i], &p.vel[i], &p.angVel[i]}) appendNumbers(row_, *v);
    const Quat& q = p.ori[i];
    for (const double c : {q.w(), q.x(), q.y(), q.z()}) appendNumber(row_, c);
    appendNumbers(row_, angularMomentum(p, i));
  }
  row_ += '\n';
  file_.write(row_);
}

void CsvOutput::flush() { file_.flush(); }
void CsvOutput::sync() { file_.sync(); }
void CsvOutput::close() { file_.close(); }

}  // namespace dem::io
