#include "runaway.hpp"

#include <algorithm>
#include <cmath>

namespace dem {

RunawayMonitor::Verdict RunawayMonitor::check(const EnergyLedger& e, double liftScale, bool closed, bool nonFinite,
                                              std::size_t nParticles) {
  if (nonFinite) return Verdict::NonFinite;
  if (!energyCheck || !closed || nParticles != nParticles_) {
    haveRef_ = false;
    nParticles_ = nParticles;
    if (!energyCheck || !closed) return Verdict::Ok;
  }
  const double total = e.total(), mech = e.kinetic + e.rotational + e.elastic;
  if (!haveRef_) {
    haveRef_ = true;
    eRef_ = total;
    maxMech_ = mech;
  }
  maxMech_ = std::max(maxMech_, mech);
  gain_ = total - eRef_;
  bound_ = 0.5 * (maxMech_ + liftScale) + 1e-9 * (std::abs(eRef_) + std::abs(e.gravity));
  return gain_ > bound_ ? Verdict::EnergyGrowth : Verdict::Ok;
}

}  // namespace dem
