#include "stop_condition.hpp"

#include "solver/unbalanced_force.hpp"

#include <sstream>

namespace dem::io {

namespace {
std::string below(const char* what, double value, double bound) {
  std::ostringstream s;
  s.precision(6);
  s << what << " " << value << " < " << bound;
  return s.str();
}
}  // namespace

// time >= T - 1e-9 dt
bool timeReached(const Scene& scene, const StopSpec& stop) {
  return stop.time && scene.time >= *stop.time - 1e-9 * scene.dt();
}

// time >= T - 1e-9 dt; unbalanced force < F; kinetic + rotational energy < E
std::optional<std::string> stopReason(const Scene& scene, const StopSpec& stop) {
  if (timeReached(scene, stop)) {
    std::ostringstream s;
    s.precision(9);
    s << "t = " << scene.time << " s reached the stop time " << *stop.time << " s";
    return s.str();
  }
  if (stop.interval == 0 || scene.stepCount % stop.interval != 0) return std::nullopt;
  if (stop.unbalancedForce) {
    const double f = unbalancedForce(scene.particles, scene.contacts);
    if (f < *stop.unbalancedForce) return below("unbalanced force", f, *stop.unbalancedForce);
  }
  if (stop.kineticEnergy) {
    const double e = scene.energy.kinetic + scene.energy.rotational;
    if (e < *stop.kineticEnergy) return below("kinetic energy", e, *stop.kineticEnergy);
  }
  return std::nullopt;
}

}  // namespace dem::io
