// Case: energy ledger of a 1,000-sphere deposition (poured into a box of walls), with friction and
//       Cundall damping, and with both off.
// Scenario:  depositionScene(n = 1000): R = 0.01 m, rho = 2600, E = 1e7 Pa (kn = E R = 1e5 N/m for
//            two spheres, 2 E R against a wall), ks/kn = 0.2; the spheres fall from a loose jittered
//            lattice onto the floor and each other for T = 0.03 s (contacts from t ~ 0.014 s).
//            Run A: friction angle 0.3 rad, damping 0.2 (seed 1). Run B: frictionless, undamped,
//            the maximum over two lattice jitters (seeds 1, 2).
//            Levels dt = 0.4, 0.2, 0.1, 0.05 x R sqrt(rho/E) (the p-wave time).
// Reference: kinetic + rotational + gravitational + elastic + damping and friction dissipation is
//            constant (energy.hpp: on-step velocities, trapezoidal work; contact_law.hpp: slip
//            dissipation as trapezoidal work minus the change of stored shear energy).
// Tolerance: the leapfrog's energy error of a linear contact oscillator is bounded by
//            (w dt)^2/4 of its energy, with no drift (theory 2.2); contact onsets add O(dt^3) per
//            event (theory 6.1) and the damping and slip terms O(dt^2) remainders (energy.hpp). Gate:
//            max_t |E(t) - E(t_1)| <= (w dt)^2/4 x max_t (kinetic + rotational), with
//            w = sqrt(2 kn/m) the frequency of an isolated sphere-sphere (and sphere-wall) contact,
//            at every level; fitted slope 2 with a band of +-0.4, wider than for a single
//            oscillator because each level's maximum is taken over a different chaotic history of
//            contact events (theory 0.3 on noisy event-driven errors; measured slopes over single
//            seeds ranged 1.7-2.1).
#include "cases/registry.hpp"
#include "solver/builders.hpp"

#include <cmath>

namespace dem::verify {

namespace {

// Max |E(t) - E(t_1)| over the run, relative to the largest kinetic energy.
double ledgerError(double frictionAngle, double damping, double dtFactor, double T, std::uint64_t seed,
                   Series* ts) {
  DepositionSpec spec;
  spec.seed = seed;
  spec.n = 1000;
  spec.material.frictionAngle = frictionAngle;
  spec.damping = damping;
  spec.dtFactor = dtFactor;
  Scene s = depositionScene(spec);
  s.step();
  const double E0 = s.energy.total();
  double maxErr = 0.0, maxKin = 0.0;
  while (s.time < T) {
    s.step();
    maxErr = std::max(maxErr, std::abs(s.energy.total() - E0));
    maxKin = std::max(maxKin, s.energy.kinetic + s.energy.rotational);
    if (ts && s.stepCount % 20 == 0) {
      const EnergyLedger& e = s.energy;
      ts->rows.push_back({e.time, e.kinetic + e.rotational, e.gravity, e.elastic, e.dampingDissipated,
                          e.frictionDissipated, e.total() - E0});
    }
  }
  return maxErr / maxKin;
}

}  // namespace

Case energyDepositionCase() {
  const DepositionSpec spec;
  const double R = spec.radius, rho = spec.material.density, E = spec.material.young;
  const double tP = R * std::sqrt(rho / E), m = sphereMass(R, rho), w = std::sqrt(2 * E * R / m);
  const double T = 0.03;
  Case c;
  c.name = "energy_deposition";
  c.title = "energy ledger of a 1000-sphere deposition, friction + damping and frictionless undamped";
  c.dts = halvings(0.4 * tP, 4);
  const auto bound = [w](double dt) { return std::pow(w * dt, 2) / 4; };
  c.quantities.push_back({"friction_damping_total_rel", bound, OrderSpec{2.0, 1.6, 2.4, 1e-12}});
  c.quantities.push_back({"elastic_total_rel", bound, OrderSpec{2.0, 1.6, 2.4, 1e-12}});
  c.seriesLevel = 1;
  c.run = [=](double dt) {
    RunOutput out;
    Series ts{"ledger", {"t", "kinetic", "gravity", "elastic", "damping", "friction", "total_minus_E1"}, {}};
    out.errors["friction_damping_total_rel"] = ledgerError(0.3, 0.2, dt / tP, T, 1, &ts);
    out.errors["elastic_total_rel"] =
        std::max(ledgerError(0.0, 0.0, dt / tP, T, 1, nullptr), ledgerError(0.0, 0.0, dt / tP, T, 2, nullptr));
    out.series.push_back(std::move(ts));
    return out;
  };
  return c;
}

}  // namespace dem::verify
