#include "clump_report.hpp"

#include <cstdio>

namespace dem::io {

namespace {
// The values with 6 (brief) or 17 (exact) significant digits, joined by `separator`.
std::string numbers(std::initializer_list<double> values, bool exact, const char* separator) {
  std::string s;
  char buf[40];
  for (const double v : values) {
    if (!s.empty()) s += separator;
    const int k = exact ? std::snprintf(buf, sizeof buf, "%.17g", v) : std::snprintf(buf, sizeof buf, "%.6g", v);
    s.append(buf, static_cast<std::size_t>(k));
  }
  return s;
}
}  // namespace

// m_c, x_c, principal I_c, q_c of each clump body (solver/clump.hpp)
std::string formatClumpReport(const Scene& scene) {
  const Particles& p = scene.particles;
  std::string s;
  for (const Clump& c : scene.clumps.list) {
    const std::size_t b = c.body;
    const Vec3 &x = p.pos[b], &I = p.inertia[b];
    const Quat& q = p.ori[b];
    s += "clump " + std::to_string(p.userId[b]) + ": " + std::to_string(c.members.size()) + " members, mass " +
         numbers({p.mass[b]}, false, "") + " kg, centroid (" + numbers({x[0], x[1], x[2]}, false, ", ") +
         ") m, principal inertia (" + numbers({I[0], I[1], I[2]}, false, ", ") + ") kg m^2, orientation (" +
         numbers({q.w(), q.x(), q.y(), q.z()}, false, ", ") + ")\n";
  }
  return s;
}

std::string clumpTable(const Scene& scene) {
  const Particles& p = scene.particles;
  std::string s = "id,members,mass,x,y,z,I1,I2,I3,qw,qx,qy,qz\n";
  for (const Clump& c : scene.clumps.list) {
    const std::size_t b = c.body;
    const Vec3 &x = p.pos[b], &I = p.inertia[b];
    const Quat& q = p.ori[b];
    s += std::to_string(p.userId[b]) + "," + std::to_string(c.members.size()) + "," +
         numbers({p.mass[b], x[0], x[1], x[2], I[0], I[1], I[2], q.w(), q.x(), q.y(), q.z()}, true, ",") + "\n";
  }
  return s;
}

}  // namespace dem::io
