#include "critical_dt.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace dem::io {

double estimateCriticalDt(const Scene& s) {
  const Particles& p = s.particles;
  std::vector<double> K(p.size(), 0.0);
  for (const Contact& c : s.contacts.items) {
    if (!c.real) continue;
    const double k = std::max(c.phys.kn, c.phys.ks);
    K[c.id1] += k;
    K[c.id2] += k;
  }
  double dt = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p.isWall(i) || p.isClump[i] || !(p.radius[i] > 0.0)) continue;
    const double m = p.isClumpMember(i) ? p.mass[static_cast<std::size_t>(p.clump[i])] : p.mass[i];
    if (K[i] > 0.0) {
      dt = std::min(dt, std::sqrt(m / K[i]));  // global stiffness
    } else if (p.material[i] < s.materials.size()) {
      const double r = p.radius[i], rho = p.mass[i] / (4.0 / 3.0 * std::numbers::pi * r * r * r);
      dt = std::min(dt, r * std::sqrt(rho / s.materials[p.material[i]].young));  // p-wave
    }
  }
  return dt;
}

}  // namespace dem::io
