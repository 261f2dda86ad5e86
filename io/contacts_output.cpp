#include "contacts_output.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

namespace dem::io {

namespace {
void appendNumber(std::string& s, double v) {
  char buf[40];
  const int k = std::snprintf(buf, sizeof buf, ",%.17g", v);
  s.append(buf, static_cast<std::size_t>(k));
}

void appendVec(std::string& s, const Vec3& v) {
  for (int k = 0; k < 3; ++k) appendNumber(s, v[k]);
}

AppendFile::Mode openMode(bool append, const OutputRecord* restore) {
  if (restore) return AppendFile::Mode::Restore;
  return append ? AppendFile::Mode::Append : AppendFile::Mode::Replace;
}
}  // namespace

std::vector<std::size_t> realContactsByUserIds(const Particles& p, const ContactStore& c) {
  std::vector<std::size_t> idx;
  c.forEachRealInUserOrder(p, [&](std::size_t k) { idx.push_back(k); });
  return idx;
}

ContactsOutput::ContactsOutput(const std::string& path, bool append, const OutputRecord* restore,
                               const std::string& checkpoint)
    : file_(path, openMode(append, restore), restore, checkpoint) {
  if (file_.size() == 0)
    file_.write("step,ledger_time,id1,id2,cx,cy,cz,nx,ny,nz,fn_x,fn_y,fn_z,fs_x,fs_y,fs_z,overlap\n");
}

// fn = (F2 . n) n, fs = F2 - fn with F2 = -F the force on particle 2 (Yade's normalForce, shearForce)
void ContactsOutput::write(const Scene& s) {
  const ContactStore& c = s.contacts;
  rows_.clear();
  const Particles& p = s.particles;
  for (const std::size_t k : realContactsByUserIds(p, c)) {
    const Vec3 n = c.normal(k), f2 = -c.vec(col::fx, k);
    const Vec3 fn = f2.dot(n) * n;
    rows_ += std::to_string(s.stepCount);
    appendNumber(rows_, s.energy.time);
    rows_ += ',' + std::to_string(p.userId[c.id1(k)]) + ',' + std::to_string(p.userId[c.id2(k)]);
    appendVec(rows_, c.vec(col::px, k));
    appendVec(rows_, n);
    appendVec(rows_, fn);
    appendVec(rows_, f2 - fn);
    appendNumber(rows_, -c.at(col::ux, k));
    rows_ += '\n';
  }
  file_.write(rows_);
}

}  // namespace dem::io
