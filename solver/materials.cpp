#include "materials.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>

namespace dem {

namespace {
[[noreturn]] void badMaterial(std::size_t i, const std::string& field, double v, const std::string& expected) {
  std::ostringstream s;
  s.precision(17);
  s << "material " << i << ": " << field << " = " << v << " is invalid; expected " << expected;
  throw std::invalid_argument(s.str());
}

// Two springs in series (seed: K_N = K1 K2 / (K1 + K2)); zero if either is zero.
double series(double k1, double k2) { return (k1 > 0.0 && k2 > 0.0) ? k1 * k2 / (k1 + k2) : 0.0; }
}  // namespace

void validateMaterial(std::size_t i, const Material& m) {
  if (!(std::isfinite(m.density) && m.density > 0.0)) badMaterial(i, "density", m.density, "a finite value > 0");
  if (!(std::isfinite(m.young) && m.young > 0.0)) badMaterial(i, "young", m.young, "a finite value > 0");
  if (!(std::isfinite(m.ksRatio) && m.ksRatio >= 0.0)) badMaterial(i, "ksRatio", m.ksRatio, "a finite value >= 0");
  if (!(std::isfinite(m.frictionAngle) && m.frictionAngle >= 0.0 && m.frictionAngle < std::numbers::pi / 2))
    badMaterial(i, "frictionAngle", m.frictionAngle, "0 <= frictionAngle < pi/2 (radians)");
}

ContactPhysics sphereSpherePhysics(const Material& m1, double r1, const Material& m2, double r2) {
  const double k1 = m1.young * 2.0 * r1, k2 = m2.young * 2.0 * r2;  // seed: K_i = E_i l_i, l_i = 2 r_i
  ContactPhysics ph;
  ph.kn = series(k1, k2);
  ph.ks = series(m1.ksRatio * k1, m2.ksRatio * k2);
  ph.tanPhi = std::tan(std::min(m1.frictionAngle, m2.frictionAngle));  // seed: phi = min(phi1, phi2)
  return ph;
}

ContactPhysics sphereWallPhysics(const Material& sphere, double r, const Material& wall) {
  ContactPhysics ph;
  ph.kn = sphere.young * 2.0 * r;
  ph.ks = sphere.ksRatio * ph.kn;
  ph.tanPhi = std::tan(std::min(sphere.frictionAngle, wall.frictionAngle));
  return ph;
}

}  // namespace dem
