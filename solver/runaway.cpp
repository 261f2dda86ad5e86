#include "runaway.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace dem {

// Criterion 1 on the ledger: every term finite (the total then is, up to an overflow of the sum).
LedgerTerm nonFiniteLedgerTerm(const EnergyLedger& e) {
  const std::pair<const char*, double> terms[] = {
      {"kinetic", e.kinetic},
      {"rotational", e.rotational},
      {"gravity", e.gravity},
      {"elastic", e.elastic},
      {"damping_dissipated", e.dampingDissipated},
      {"friction_dissipated", e.frictionDissipated},
      {"viscous_dissipated", e.viscousDissipated},
      {"spring_dissipated", e.springDissipated},
      {"cell_work", e.cellWork},
      {"boundary_work", e.boundaryWork},
      {"kinetic_total", e.kineticTotal},
      {"total", e.total()},
  };
  for (const auto& [name, value] : terms)
    if (!std::isfinite(value)) return {name, value};
  return {};
}

RunawayMonitor::Verdict RunawayMonitor::check(const EnergyLedger& e, double liftScale, bool closed, bool nonFinite,
                                              std::size_t nParticles) {
  if (nonFinite) return Verdict::NonFinite;
  if (nonFiniteLedgerTerm(e).name) return Verdict::NonFiniteEnergy;
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
  // round-off floor: the ledger's size, and in a deforming cell the total (affine) kinetic energy,
  // from which the fluctuation velocities v - L x are taken (runaway.hpp)
  bound_ = 0.5 * (maxMech_ + liftScale) + 1e-9 * (std::abs(eRef_) + std::abs(e.gravity) + e.kineticTotal);
  return gain_ > bound_ ? Verdict::EnergyGrowth : Verdict::Ok;
}

}  // namespace dem
