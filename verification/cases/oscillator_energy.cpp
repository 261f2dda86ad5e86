// Case: energy of the leapfrog linear oscillator (verification theory, section 2.2).
// Scenario:  one mass m = 2 kg on k = 50 N/m (Scene::externalForces), w = 5 rad/s, x0 = A = 0.1 m,
//            v0 = 0, adjusted start, T = 100 s, dt = 4e-3 (w dt = 0.02) ... 5e-4.
// Reference: E0 = k A^2/2. E_n = ledger kinetic (on-step velocity v_n) + k x_n^2/2; the scheme
//            gives E_n/E0 - 1 = -(w dt/2)^2 sin^2(n theta): bounded, no drift. The shadow energy
//            m v_{n+1/2}^2/2 + k x_n . x_{n+1}/2 is conserved exactly by the scheme.
// Tolerance: max |E_n/E0 - 1| <= 1.001 (w dt)^2/4 with slope 2 +- 0.05 (the formula is exact;
//            theory 2.2 CI); drift: mean of E_n over the last 5 periods vs the first 5 within
//            1e-7 E0 (theory 2.2: residual from averaging over a non-integer number of discrete
//            periods, measured 1e-8); shadow energy: round-off, 100 eps N (theory 0.3).
#include "cases/registry.hpp"
#include "cases/spring_system.hpp"

#include <dem_reference/oscillator.hpp>

#include <limits>
#include <numbers>

namespace dem::verify {

Case oscillatorEnergyCase() {
  Case c;
  c.name = "oscillator_energy";
  c.title = "linear oscillator energy: bounded (w dt)^2/4 error, no drift, shadow energy exact";
  c.dts = halvings(4e-3, 4);
  const double m = 2.0, k = 50.0, A = 0.1, T = 100.0, omega = std::sqrt(k / m);
  constexpr double eps = std::numeric_limits<double>::epsilon();
  c.quantities.push_back({"energy_max_rel_dev", [=](double dt) { return 1.001 * std::pow(omega * dt, 2) / 4; },
                          OrderSpec{2.0, 1.95, 2.05, 1e-12}});
  c.quantities.push_back(theoryBound("averaging residual 1e-7 E0 (theory 2.2)",
                                     {"energy_drift_rel", [](double) { return 1e-7; }, std::nullopt}));
  c.quantities.push_back(
      roundOffTolerance({"shadow_energy_rel", [=](double dt) { return 100 * eps * std::round(T / dt); }, std::nullopt},
                        "100 eps N (N steps)"));

  c.run = [=](double dt) {
    RunOutput out;
    const long N = std::lround(T / dt);
    SpringSystem sys;
    sys.masses = {m};
    sys.kLinks = {k, 0.0};
    Scene s = sys.build(dt, {A}, {0.0});
    const double E0 = 0.5 * k * A * A;
    const double P = 2 * std::numbers::pi / omega;
    double maxDev = 0, shadow0 = 0, shadowDev = 0, sumFirst = 0, sumLast = 0;
    long nFirst = 0, nLast = 0;
    Series ts{"energy", {"t", "rel_dev", "rel_dev_formula"}, {}};
    const long stride = std::max(1L, N / 2000);
    for (long n = 0; n < N; ++n) {
      const Vec3 xn = s.particles.pos[0] - sys.restPos(0);
      s.step();  // the ledger now refers to t_n
      const Vec3 xn1 = s.particles.pos[0] - sys.restPos(0);
      const double E = s.energy.kinetic + 0.5 * k * xn.squaredNorm();
      const double tn = static_cast<double>(n) * dt;
      maxDev = std::max(maxDev, std::abs(E / E0 - 1));
      if (tn < 5 * P) { sumFirst += E; ++nFirst; }
      if (tn >= T - 5 * P) { sumLast += E; ++nLast; }
      const double shadow = 0.5 * m * s.particles.vel[0].squaredNorm() + 0.5 * k * xn.dot(xn1);
      if (n == 0) shadow0 = shadow;
      shadowDev = std::max(shadowDev, std::abs(shadow - shadow0) / E0);
      if (n % stride == 0) ts.rows.push_back({tn, E / E0 - 1, ref::leapfrogEnergyError(omega, dt, n)});
    }
    out.errors["energy_max_rel_dev"] = maxDev;
    out.errors["energy_drift_rel"] = std::abs(sumLast / static_cast<double>(nLast) - sumFirst / static_cast<double>(nFirst)) / E0;
    out.errors["shadow_energy_rel"] = shadowDev;
    out.series.push_back(std::move(ts));
    return out;
  };
  return c;
}

}  // namespace dem::verify
