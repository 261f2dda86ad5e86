// Case: critical timestep of a damped contact: a sphere resting on a wall, linear Cundall law with
//       dashpots from a restitution e < 1 (verification theory 2, section 8, "Damping").
// Scenario:  the contact oscillator of critical_timestep_sphere_wall (R = 0.01 m, 2600 kg/m^3, oblique
//            wall normal (2,-1,2)/3, gravity along -normal, static overlap 0.1 R, start 0.05 R above
//            equilibrium at rest) with a material (sphere and wall) of restitution e = 0.5 and 0.2:
//            kn = E R, m* = m, cn = 2 zeta sqrt(m kn), zeta = -ln e/sqrt(pi^2 + ln^2 e) (0.2155,
//            0.4559). The contact stays closed while the scheme is stable.
// Reference: the dashpot acts on v_{n-1/2}; the recurrence's characteristic polynomial
//            l^2 - (2 - 2 zeta h - h^2) l + 1 - 2 zeta h, h = omega dt, has a root at -1 when
//            h = 2 (sqrt(1 + zeta^2) - zeta) (Jury; Belytschko, Liu & Moran 2000, 6.3):
//            dt_cr = (2/omega)(sqrt(1 + zeta^2) - zeta), omega = sqrt(kn/m) (0.807 and 0.643 of
//            2/omega). The solver's estimate (Scene::criticalTimestep) is the global-stiffness value
//            sqrt(2 m/kn) times the same factor: on a wall exactly 1/sqrt2 of dt_cr (as undamped,
//            critical_timestep_sphere_wall).
// Tolerance: as critical_timestep_sphere_wall (theory 2.3, 8): the growth detector G < 1.1 at
//            0.99 dt_cr and G > 1.1 at 1.01 dt_cr (reported as 1.1/G <= 1); the bisected limit within
//            1e-3 of dt_cr (near the limit the root at -1 moves by dl/dh = -(h + 2 zeta)/(zeta h),
//            4.8 to 9.5 x the relative step change here: the detector's 400 steps resolve far below
//            1e-3); estimate / (dt_cr/sqrt2) to 1e-12 (closed forms, round-off); estimate / bisected
//            limit within the bisection's 1e-3 (+ margin).
// Status:    the bisection gates fail (limit found 1.0012 and 1.0028 x dt_cr, while G(0.99) and
//            G(1.01) pass): the 400-step detector from rest excites the l = -1 mode weakly and the
//            opening contact caps the growth; a scalar model of the same recurrence with the same
//            detector bisects at 1.007 and 1.073. A detector that starts in that mode is needed.
#include "cases/contact_oscillator.hpp"
#include "cases/registry.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace dem::verify {

Case criticalTimestepDampedCase() {
  Case c;
  c.name = "critical_timestep_damped";
  c.title = "critical timestep of a damped contact (sphere on a wall): (2/omega)(sqrt(1+zeta^2)-zeta), estimate";
  c.dts = {0.0};
  const std::vector<double> es{0.5, 0.2};
  for (const double e : es) {
    const std::string t = e == 0.5 ? "e05_" : "e02_";
    const auto q = [&c, &t](const char* name, double tol) {
      c.quantities.push_back({t + name, [tol](double) { return tol; }, std::nullopt});
    };
    q("growth_at_0_99", 1.1);
    q("inverse_growth_at_1_01", 1.0);
    q("bisected_limit_rel", 1e-3);
    q("estimate_ratio_rel", 1e-12);
    q("estimate_vs_bisected_rel", 1.1e-3);
  }
  c.run = [es](double) {
    RunOutput out;
    Series lim{"limits", {"restitution", "zeta", "dt_cr_over_2_over_omega", "bisected_over_dt_cr", "estimate_over_dt_cr"}, {}};
    for (const double e : es) {
      const std::string t = e == 0.5 ? "e05_" : "e02_";
      ContactOscillator o;
      o.kind = ContactOscillator::Kind::SphereOnWall;
      o.restitution = e;
      const double zeta = dampingRatioFromRestitution(e);
      const double factor = std::sqrt(1 + zeta * zeta) - zeta, dtCr = o.dtCritical() * factor;
      const auto growth = [&o](double dt) { return contactGrowthRatio(o, dt); };
      out.errors[t + "growth_at_0_99"] = growth(0.99 * dtCr);
      out.errors[t + "inverse_growth_at_1_01"] = 1.1 / growth(1.01 * dtCr);
      StabilityBisection bis = bisectStabilityLimit(growth, dtCr, t + "contact");
      out.errors[t + "bisected_limit_rel"] = bis.bracketed ? std::abs(bis.limit / dtCr - 1.0) : 1.0;
      Scene s = o.build(0.5 * dtCr, o.amplitude());
      s.step();
      const TimestepEstimate est = s.criticalTimestep();
      const double ratio = 1.0 / std::sqrt(2.0);
      out.errors[t + "estimate_ratio_rel"] = est.fromContacts ? std::abs(est.dt / dtCr / ratio - 1.0) : 1.0;
      out.errors[t + "estimate_vs_bisected_rel"] = bis.bracketed ? std::abs(est.dt / bis.limit / ratio - 1.0) : 1.0;
      lim.rows.push_back({e, zeta, factor, bis.limit / dtCr, est.dt / dtCr});
      out.series.push_back(std::move(bis.history));
    }
    out.series.push_back(std::move(lim));
    return out;
  };
  return c;
}

}  // namespace dem::verify
