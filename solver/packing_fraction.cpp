#include "packing_fraction.hpp"

#include <numbers>

namespace dem {

namespace {
// V = 4/3 pi r^3
double sphereVolume(double r) { return 4.0 / 3.0 * std::numbers::pi * r * r * r; }

bool hasSphere(const Particles& p, std::size_t i) { return !p.isBoundary(i) && !p.isClump[i] && p.radius[i] > 0.0; }
}  // namespace

// phi = sum_{x_i in [lo, hi)} V_i / prod (hi - lo)
double packingFractionInBox(const Particles& p, const Vec3& lo, const Vec3& hi) {
  double v = 0.0;
  for (std::size_t u = 0; u < p.size(); ++u) {  // (in the order of user ids)
    const std::size_t i = p.slotOf[u];
    if (!hasSphere(p, i)) continue;
    const Vec3& x = p.pos[i];
    if ((x.array() >= lo.array()).all() && (x.array() < hi.array()).all()) v += sphereVolume(p.radius[i]);
  }
  return v / (hi - lo).prod();
}

// phi = sum_i V_i / det H
double packingFractionInCell(const Particles& p, const Cell& cell) {
  double v = 0.0;
  for (std::size_t u = 0; u < p.size(); ++u)  // (in the order of user ids)
    if (hasSphere(p, p.slotOf[u])) v += sphereVolume(p.radius[p.slotOf[u]]);
  return v / cell.volume();
}

}  // namespace dem
