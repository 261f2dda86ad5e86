// Case: quasi-static use of Cundall damping: a mass on a spring under gravity settles at the exact
//            static equilibrium (verification theory, section 5.5).
// Scenario:  m = 1 kg hanging from an anchor on k = 100 N/m along z (Scene::externalForces),
//            g = -9.81 z (damped, as part of the net force), start at rest at the spring's rest
//            position, i.e. A0 = m g/k = 0.0981 m above equilibrium; lambda = 0.2 and 0.7;
//            w dt = 0.005 (dt = 5e-4 s); T = 20 s.
// Reference: about x_eq = m g/k the motion is the damped oscillator of theory 5.2: amplitude ratio
//            sqrt((1 - lambda)/(1 + lambda)) per half cycle, and damping scales the net force,
//            which vanishes at x_eq, so the rest state is the exact static equilibrium.
// Tolerance: ratio from the peak speeds of the first 5 half cycles, 1e-4 relative (theory 5.2 CI
//            at w dt = 0.005). Final |x - x_eq| <= 1.1 A0 r^K + 1e-12 A0, K = completed half cycles
//            in T: the residual amplitude after K half cycles; 1.1 covers K half cycles of the 1e-4
//            ratio error (K <= 63), and 1e-12 A0 the round-off floor (measured 1e-16 at 0.7).
#include "cases/registry.hpp"
#include "cases/spring_system.hpp"

#include <dem_reference/damped_oscillator.hpp>

namespace dem::verify {

Case quasiStaticSpringCase() {
  Case c;
  c.name = "quasi_static_spring";
  c.title = "Cundall damping, mass on a spring under gravity: decay ratio and exact static equilibrium";
  c.dts = {5e-4};
  const double m = 1.0, k = 100.0, g = 9.81, T = 20.0, omega = std::sqrt(k / m);
  const double A0 = m * g / k;
  const std::vector<std::pair<double, std::string>> lambdas{{0.2, "l02"}, {0.7, "l07"}};
  for (const auto& [lambda, tag] : lambdas) {
    const double r = ref::dampedHalfCycleRatio(lambda);
    const double K = std::floor(T / ref::dampedHalfPeriod(omega, lambda));
    c.quantities.push_back(
        theoryBound("theory 5.2 CI: ratio 1e-4", {"ratio_" + tag, [](double) { return 1e-4; }, std::nullopt}));
    c.quantities.push_back(
        theoryBound("residual amplitude 1.1 A0 r^K + 1e-12 A0",
                    {"equilibrium_rel_" + tag, [=](double) { return 1.1 * std::pow(r, K) + 1e-12; }, std::nullopt}));
  }
  c.run = [=](double dt) {
    RunOutput out;
    for (const auto& [lambda, tag] : lambdas) {
      SpringSystem sys;
      sys.dir = Vec3::UnitZ();
      sys.origin = Vec3(0, 0, 1);
      sys.spacing = -1.0;  // the mass hangs 1 m below the anchor
      sys.masses = {m};
      sys.kLinks = {k, 0.0};
      Scene s = sys.build(dt, {0.0}, {0.0}, Vec3(0, 0, -g));
      s.setDamping(lambda);
      const long N = std::lround(T / dt);
      // Displacement along +z from the rest position is xi; the equilibrium is xi_eq = -m g/k.
      std::vector<double> peaks;
      double peak = 0, vPrev = 0;
      Series ts{"z_" + tag, {"t", "z_minus_eq", "envelope"}, {}};
      const double r = ref::dampedHalfCycleRatio(lambda), Th = ref::dampedHalfPeriod(omega, lambda);
      for (long n = 0; n < N; ++n) {
        if (n % 20 == 0)
          ts.rows.push_back({static_cast<double>(n) * dt, sys.xi(s.particles, 0) + A0, A0 * std::pow(r, static_cast<double>(n) * dt / Th)});
        s.step();
        const double v = s.particles.vel[0].z();
        if (n > 0 && v * vPrev < 0) {
          peaks.push_back(peak);
          peak = 0;
        }
        peak = std::max(peak, std::abs(v));
        vPrev = v;
      }
      double ratioErr = 0;
      for (std::size_t j = 0; j < 5; ++j) ratioErr = std::max(ratioErr, std::abs(peaks.at(j + 1) / peaks.at(j) / r - 1));
      out.errors["ratio_" + tag] = ratioErr;
      const Vec3 d = s.particles.pos[0] - (sys.restPos(0) - A0 * Vec3::UnitZ());
      out.errors["equilibrium_rel_" + tag] = d.norm() / A0;
      out.series.push_back(std::move(ts));
    }
    return out;
  };
  return c;
}

}  // namespace dem::verify
