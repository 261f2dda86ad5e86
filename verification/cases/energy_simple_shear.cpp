// Case: energy ledger of a quasi-static simple shear of a dense frictional periodic packing.
// Scenario:  periodicLatticeScene: 5^3 = 125 spheres in a unit periodic cell, r = 0.104 m (1.04 x half
//            the lattice spacing: overlapping, dense) +- 5 %, jitter 5 %, rho = 2600, E = 1e7 Pa,
//            ks/kn = 0.2, friction angle 0.5 rad, Cundall damping 0.2; started on the affine field of
//            simple shear L_xy = 0.2 /s (Scene::startOnAffineField) and sheared for T = 0.4 s (shear
//            strain 0.08, affine speeds <= 0.2 m/s, far below the contact wave speed: quasi-static).
//            Levels dt = 4e-4 ... 5e-5 s (0.24 ... 0.03 of the p-wave time r sqrt(rho/E)).
// Reference: cell work = change of elastic energy + friction dissipation + damping dissipation +
//            change of the fluctuation kinetic (translational and rotational) energy (energy.hpp:
//            the cell work is the trapezoidal sum of dt D : V sigma with the Love-Weber stress,
//            stress.hpp; its derivation: the fluctuation velocity v - L x obeys m dv_f/dt = F exactly
//            in the discrete homoDeform update, and a contact's relative velocity from the affine field
//            and medium spin is D l).
// Tolerance: as the deposition ledger (energy_deposition.cpp): the leapfrog's energy error is bounded
//            by (w dt)^2/4 of the oscillating energy (theory 2.2), w = sqrt(2 kn/m) of one contact,
//            with O(dt^3) per contact event and O(dt^2) remainders of the damping and slip terms:
//            max_t |E(t) - E(t_0)| <= (w dt)^2/4 x max_t (elastic + kinetic + rotational); slope 2
//            +- 0.4 (event-driven, theory 0.3). The relative gate is meaningful: the cell work itself
//            is of the order of the elastic energy (time series cell_work).
#include "cases/registry.hpp"
#include "solver/builders.hpp"

#include <cmath>

namespace dem::verify {

Case energySimpleShearCase() {
  Case c;
  c.name = "energy_simple_shear";
  c.title = "energy ledger with cell work: quasi-static simple shear of a periodic frictional packing";
  c.dts = halvings(4e-4, 4);
  const double r = 0.104, rho = 2600.0, E = 1e7;
  const double kn = E * r, m = rho * 4.0 / 3.0 * M_PI * r * r * r;
  const double w = std::sqrt(2.0 * kn / m);
  c.quantities.push_back({"ledger_rel", [w](double dt) { return std::pow(w * dt, 2) / 4; }, OrderSpec{2.0, 1.6, 2.4}});
  c.run = [](double dt) {
    RunOutput out;
    PeriodicLatticeSpec spec;
    spec.m = 5;
    spec.radius = 0.104;
    spec.spread = 0.05;
    spec.jitter = 0.05;
    spec.material = Material{2600.0, 1e7, 0.2, 0.5};
    spec.damping = 0.2;
    Scene s = periodicLatticeScene(spec);
    s.setDt(dt);
    Mat3 L = Mat3::Zero();
    L(0, 1) = 0.2;
    s.cell->setVelGrad(L);
    s.startOnAffineField();
    const double T = 0.4;
    const auto n = static_cast<std::uint64_t>(std::lround(T / dt));
    s.step();
    const double e0 = s.energy.total();
    double maxErr = 0.0, scale = 0.0;
    Series ts{"ledger", {"t", "cell_work", "elastic", "friction", "damping", "kinetic", "error"}, {}};
    for (std::uint64_t k = 1; k < n; ++k) {
      s.step();
      const EnergyLedger& g = s.energy;
      maxErr = std::max(maxErr, std::abs(g.total() - e0));
      scale = std::max(scale, g.elastic + g.kinetic + g.rotational);
      if (k % std::max<std::uint64_t>(1, n / 100) == 0)
        ts.rows.push_back({g.time, g.cellWork, g.elastic, g.frictionDissipated, g.dampingDissipated,
                           g.kinetic + g.rotational, g.total() - e0});
    }
    out.errors["ledger_rel"] = maxErr / scale;
    ts.xLabel = "t [s]";
    ts.yLabel = "energy [J]";
    out.series.push_back(std::move(ts));
    return out;
  };
  return c;
}

}  // namespace dem::verify
