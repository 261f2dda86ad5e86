#include "csv_output.hpp"

#include <cstdio>
#include <fstream>
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

CsvOutput::CsvOutput(const std::string& path, std::vector<std::size_t> particles, bool append, bool cell,
                     const OutputRecord* restore, const std::string& checkpoint)
    : file_(path, openMode(append, restore), restore, checkpoint), particles_(std::move(particles)), cell_(cell) {
  const std::string h = header(particles_, cell_);
  if (file_.size() == 0) {
    file_.write(h);
    return;
  }
  std::ifstream in(file_.path());
  std::string first;
  std::getline(in, first);
  checkHeader(file_.path(), first + '\n', h, checkpoint);
}

std::string CsvOutput::header(const std::vector<std::size_t>& particles, bool cell) {
  std::string h =
      "step,time,ledger_time,kinetic,rotational,gravity,elastic,damping_dissipated,friction_dissipated,"
      "viscous_dissipated,spring_dissipated,total,contacts";
  if (cell) {
    h += ",cell_work";
    for (const char* m : {"H", "stress"})
      for (const char* r : kAxes)
        for (const char* c : kAxes) h += std::string(",") + m + "_" + r + c;
  }
  for (const std::size_t id : particles)
    for (const char* c : {"x", "y", "z", "vx", "vy", "vz", "wx", "wy", "wz"})
      h += ",p" + std::to_string(id) + "_" + c;
  return h + '\n';
}

// Rule: rows are appended only under the header they belong to (the same particles and cell columns).
void CsvOutput::checkHeader(const std::string& path, std::string_view start, const std::string& header,
                            const std::string& checkpoint) {
  if (start.empty() || start.substr(0, header.size()) == header) return;
  throw OutputResumeError(
      path + ": its columns differ from those the scene asks for now (outputs.csv.particles " +
      "or outputs.csv.cell changed since " + (checkpoint.empty() ? "the checkpoint" : checkpoint) +
      "); refusing to resume (restart with --out into a new directory to start the outputs afresh)");
}

void CsvOutput::write(const Scene& s) {
  const EnergyLedger& e = s.energy;
  row_ = std::to_string(s.stepCount);
  for (const double v : {s.time, e.time, e.kinetic, e.rotational, e.gravity, e.elastic, e.dampingDissipated,
                         e.frictionDissipated, e.viscousDissipated, e.springDissipated, e.total()})
    appendNumber(row_, v);
  row_ += ',' + std::to_string(s.contacts.countReal());
  if (cell_) {
    if (!s.cell) throw std::logic_error(file_.path() + ": cell columns requested for a scene without a cell");
    appendNumber(row_, e.cellWork);
    for (const Mat3* m : {&s.cell->H(), &s.stress})
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) appendNumber(row_, (*m)(r, c));
  }
  const Particles& p = s.particles;
  for (const std::size_t id : particles_)
    for (const Vec3* v : {&p.pos[id], &p.vel[id], &p.angVel[id]})
      for (int k = 0; k < 3; ++k) appendNumber(row_, (*v)[k]);
  row_ += '\n';
  file_.write(row_);
}

void CsvOutput::flush() { file_.flush(); }
void CsvOutput::sync() { file_.sync(); }
void CsvOutput::close() { file_.close(); }

}  // namespace dem::io
