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

}  // namespace

void validateMaterial(std::size_t i, const Material& m) {
  if (!(std::isfinite(m.density) && m.density > 0.0)) badMaterial(i, "density", m.density, "a finite value > 0");
  if (!(std::isfinite(m.young) && m.young > 0.0)) badMaterial(i, "young", m.young, "a finite value > 0");
  if (!(std::isfinite(m.ksRatio) && m.ksRatio >= 0.0)) badMaterial(i, "ksRatio", m.ksRatio, "a finite value >= 0");
  if (!(m.poisson >= 0.0 && m.poisson <= 0.5)) badMaterial(i, "poisson", m.poisson, "0 <= poisson <= 0.5");
  if (!(m.restitution >= 0.0 && m.restitution <= 1.0)) badMaterial(i, "restitution", m.restitution, "0 <= restitution <= 1");
  if (!(std::isfinite(m.frictionAngle) && m.frictionAngle >= 0.0 && m.frictionAngle < std::numbers::pi / 2))
    badMaterial(i, "frictionAngle", m.frictionAngle, "0 <= frictionAngle < pi/2 (radians)");
}

}  // namespace dem
