#include "csv_output.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace dem::io {

namespace {
constexpr const char* kAxes[3] = {"x", "y", "z"};
}  // namespace

CsvOutput::CsvOutput(const std::string& path, std::vector<std::size_t> particles, bool append, bool cell)
    : path_(path), particles_(std::move(particles)), cell_(cell) {
  f_ = std::fopen(path.c_str(), append ? "a" : "w");
  if (!f_) throw std::runtime_error(path + ": cannot open for writing: " + std::strerror(errno));
  std::fseek(f_, 0, SEEK_END);
  if (std::ftell(f_) > 0) return;
  std::fputs("step,time,ledger_time,kinetic,rotational,gravity,elastic,damping_dissipated,friction_dissipated,"
             "viscous_dissipated,total,contacts",
             f_);
  if (cell_) {
    std::fputs(",cell_work", f_);
    for (const char* m : {"H", "stress"})
      for (const char* r : kAxes)
        for (const char* c : kAxes) std::fprintf(f_, ",%s_%s%s", m, r, c);
  }
  for (const std::size_t id : particles_)
    for (const char* c : {"x", "y", "z", "vx", "vy", "vz", "wx", "wy", "wz"}) std::fprintf(f_, ",p%zu_%s", id, c);
  std::fputc('\n', f_);
}

CsvOutput::~CsvOutput() {
  if (f_) std::fclose(f_);
}

void CsvOutput::write(const Scene& s) {
  const EnergyLedger& e = s.energy;
  std::fprintf(f_, "%llu,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%zu",
               static_cast<unsigned long long>(s.stepCount), s.time, e.time, e.kinetic, e.rotational, e.gravity,
               e.elastic, e.dampingDissipated, e.frictionDissipated, e.viscousDissipated, e.total(), s.contacts.countReal());
  if (cell_) {
    if (!s.cell) throw std::logic_error(path_ + ": cell columns requested for a scene without a cell");
    std::fprintf(f_, ",%.17g", e.cellWork);
    for (const Mat3* m : {&s.cell->H(), &s.stress})
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) std::fprintf(f_, ",%.17g", (*m)(r, c));
  }
  const Particles& p = s.particles;
  for (const std::size_t id : particles_) {
    for (const Vec3* v : {&p.pos[id], &p.vel[id], &p.angVel[id]})
      std::fprintf(f_, ",%.17g,%.17g,%.17g", (*v)[0], (*v)[1], (*v)[2]);
  }
  std::fputc('\n', f_);
  if (std::ferror(f_)) throw std::runtime_error(path_ + ": write error");
}

void CsvOutput::flush() { std::fflush(f_); }

}  // namespace dem::io
