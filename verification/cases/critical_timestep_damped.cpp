// Case: critical timestep of a damped contact: a sphere resting on a wall, linear Cundall law with
//       dashpots from a restitution e < 1 (verification theory 2, section 8, "Damping").
// Scenario:  the contact oscillator of critical_timestep_sphere_wall (R = 0.01 m, 2600 kg/m^3, oblique
//            wall normal (2,-1,2)/3, gravity along -normal, static overlap delta = 0.1 R) with a
//            material (sphere and wall) of restitution e = 0.5 and 0.2: kn = E R, m* = m,
//            cn = 2 zeta sqrt(m kn), zeta = -ln e/sqrt(pi^2 + ln^2 e) (0.2155, 0.4559).
// Reference: the dashpot acts on v_{n-1/2} = (x_n - x_{n-1})/dt, so the displacement xi from the static
//            equilibrium obeys xi_{n+1} = (2 - 2 zeta h - h^2) xi_n - (1 - 2 zeta h) xi_{n-1},
//            h = omega dt, omega = sqrt(kn/m). Its characteristic polynomial has a root at -1 when
//            h = 2 (sqrt(1 + zeta^2) - zeta) (Jury; Belytschko, Liu & Moran 2000, 6.3):
//            dt_cr = (2/omega)(sqrt(1 + zeta^2) - zeta) (0.807 and 0.643 of 2/omega). Checked step
//            by step first: (1) the run's xi_n satisfies the recurrence (residual / max |xi|) at
//            0.5, 0.99 and 1.01 dt_cr (from rest at 0.1 delta, closed throughout; at 1.01 from
//            1e-6 delta until |xi| reaches delta/2). The contact's tangential mode (displacement
//            and rotation together, omega_t^2 = ks t, t = 1/m + r^2/I, damping ratio
//            zeta_t = cs sqrt(t/ks)/2 = zeta sqrt(m t) = 1.80 zeta; theory 2, section 8) has the limit
//            (2/omega_t)(sqrt(1 + zeta_t^2) - zeta_t): 1.05 (e = 0.5) and 0.91 (e = 0.2) of dt_cr;
//            it is removed here by a frictionless contact (tan phi = 0: no tangential force), as a
//            round-off tangential velocity would otherwise grow where it is the less stable mode
//            (critical_timestep_hertz). The solver's estimate (independent of friction)
//            (Scene::criticalTimestep, timestep.hpp) is the per-body bound
//            2/(kappa + sqrt(kappa^2 + 2 lambda)), lambda = max(kn/m, ks t), kappa = max(cn/m, cs t)
//            (singleContactEstimate): it must not exceed the smaller of the two limits.
// Detector:  near h_cr the roots are real, l1 = -1 and l2 = -(1 - 2 zeta h) (-0.30, +0.17): the root at
//            -1 is simple, so rho = |l1| = 1 + k eps at dt = (1 + eps) dt_cr with
//            k = (h + 2 zeta)/zeta = 9.49 (e = 0.5), 4.82 (e = 0.2) (dl/dh = -(h + 2 zeta)/(zeta h)),
//            not the square-root growth of the undamped double root (theory 2.3). Start in the l1
//            mode: xi0 = 1e-3 delta with the velocity that makes xi1 = -xi0 on the solver's adjusted
//            first step (v_1/2 = v0 + (dt/2)(-omega^2 xi0 - 2 zeta omega v0): dt v0 =
//            -xi0 (2 - h^2/2)/(1 - zeta h)), so c1 = xi0 (xi1/xi0 - l2)/(l1 - l2) = xi0 at h_cr.
//            A start from rest is unsound here: its first step gives xi1 = (1 - h^2/2) xi0, which at
//            h_cr is exactly l2 xi0 (2 - 2 zeta h - h^2/2 = 0): the l1 mode is not excited at the
//            limit (c1 = O(eps)), and the detector reads round-off there. 400 steps,
//            G = max |xi| over steps 350-399 / max over steps 20-69 (l2^20 < 4e-11: only the l1 mode
//            is left, |xi_n| ~ rho^n monotone, so G = rho^330). A stable recurrence keeps |xi| below
//            a few xi0 (< 1e-2 delta), so |xi| > delta/2 (before the contact
//            could open and cap the growth) counts as unstable (G = inf), as a RunawayError does.
//            Unstable iff G > 1.1 (theory 2.3's threshold): rho > 1.1^(1/330), eps > ln(1.1)/(330 k)
//            = 3.0e-5 (e = 0.5), 6.0e-5 (e = 0.2): the bisected limit lies in
//            [dt_cr, dt_cr (1 + 6.0e-5)] up to the bracket (0.2 x 2^-30). The window starts at step
//            20 and xi0 is not smaller because far below the limit the mode decays fast
//            (|l| = sqrt(1 - 2 zeta h) = 0.61 at 0.9 dt_cr, e = 0.5): with xi0 = 1e-6 delta and the
//            window at 50-99 both windows sat at the positions' round-off (1e-18 m) and G(0.9) > 1.1.
// Tolerance: recurrence residual 1e-10 of max |xi| (round-off of the positions, ~1e-14, as
//            discrete_solution_rel); G < 1.1 at 0.99 dt_cr (rho^300 ~ 1e-13, 5e-7) and G > 1.1 at
//            1.01 dt_cr (reported as 1.1/G <= 1); bisected limit within 1e-3 of dt_cr (theory 8; the
//            derived bias is <= 6.0e-5); estimate against singleContactEstimate at the overlap of
//            the start to 1e-12 (closed forms, round-off); estimate / min(bisected limit, tangential
//            limit) <= 1 (a safe estimate).
// History:   the first version used the undamped detector (from rest at delta/2, first 50 vs last 50
//            steps) and bisected 1.0012 and 1.0028 dt_cr: the l1 mode at 0.93 delta opens the contact
//            as soon as it grows, and the opened contact caps the growth.
#include "cases/contact_oscillator.hpp"
#include "cases/registry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace dem::verify {

namespace {

// G = max |xi| over steps 350-399 / max over steps 20-69, started in the l = -1 mode at 1e-3 delta (banner).
double dampedGrowthRatio(const ContactOscillator& o, double zeta, double dt) {
  const double xi0 = 1e-3 * o.staticOverlap(), h = o.omega() * dt;
  Scene s = o.build(dt, xi0);
  s.particles.vel[1] = (-xi0 * (2.0 - 0.5 * h * h) / (1.0 - zeta * h) / dt) * o.nw;
  const double open = 0.5 * o.staticOverlap();
  double first = 0, last = 0;
  try {
    for (int n = 0; n < 400; ++n) {
      const double a = std::abs(o.xi(s));
      if (!(a <= open)) return std::numeric_limits<double>::infinity();
      if (n >= 20 && n < 70) first = std::max(first, a);
      if (n >= 350) last = std::max(last, a);
      s.step();
    }
  } catch (const RunawayError&) {
    return std::numeric_limits<double>::infinity();
  }
  return last / first;
}

// max_n |xi_{n+1} - (2 - 2 zeta h - h^2) xi_n + (1 - 2 zeta h) xi_{n-1}| / max |xi| over the run.
double recurrenceResidual(const ContactOscillator& o, double zeta, double dt, double xi0, int steps) {
  const double h = o.omega() * dt, a = 2 - 2 * zeta * h - h * h, b = 1 - 2 * zeta * h;
  Scene s = o.build(dt, xi0);
  std::vector<double> xi{o.xi(s)};
  for (int n = 0; n < steps && std::abs(xi.back()) < 0.5 * o.staticOverlap(); ++n) {
    s.step();
    xi.push_back(o.xi(s));
  }
  double res = 0, big = 0;
  for (double x : xi) big = std::max(big, std::abs(x));
  for (std::size_t n = 1; n + 1 < xi.size(); ++n) res = std::max(res, std::abs(xi[n + 1] - a * xi[n] + b * xi[n - 1]));
  return xi.size() > 10 ? res / big : 1.0;
}

}  // namespace

Case criticalTimestepDampedCase() {
  Case c;
  c.name = "critical_timestep_damped";
  c.title = "critical timestep of a damped contact (sphere on a wall): (2/omega)(sqrt(1+zeta^2)-zeta), estimate";
  c.dts = {0.0};
  const std::vector<double> es{0.5, 0.2};
  for (const double e : es) {
    const std::string t = e == 0.5 ? "e05_" : "e02_";
    // bound: the name of a theory bound; nullptr: round-off.
    const auto q = [&c, &t](const char* name, double tol, const char* bound) {
      const QuantitySpec spec{t + name, [tol](double) { return tol; }, std::nullopt};
      c.quantities.push_back(bound ? theoryBound(bound, spec) : roundOffTolerance(spec));
    };
    q("recurrence_rel", 1e-10, nullptr);
    q("growth_at_0_99", 1.1, "stable: G < 1.1 at 0.99 dt_cr (theory 8)");
    q("inverse_growth_at_1_01", 1.0, "unstable: G > 1.1 at 1.01 dt_cr (theory 8)");
    q("bisected_limit_rel", 1e-3, "bisection to 1e-3 of dt_cr (theory 8)");
    q("estimate_ratio_rel", 1e-12, nullptr);
    q("estimate_over_limit", 1.0, "a safe estimate: estimate <= limit (theory 8)");
  }
  c.run = [es](double) {
    RunOutput out;
    Series lim{"limits",
               {"restitution", "zeta", "dt_cr_over_2_over_omega", "bisected_over_dt_cr", "estimate_over_dt_cr", "recurrence_residual"},
               {}};
    for (const double e : es) {
      const std::string t = e == 0.5 ? "e05_" : "e02_";
      ContactOscillator o;
      o.kind = ContactOscillator::Kind::SphereOnWall;
      o.restitution = e;
      o.frictionAngle = 0.0;  // no tangential force (banner)
      const double zeta = dampingRatioFromRestitution(e);
      const double factor = std::sqrt(1 + zeta * zeta) - zeta, dtCr = o.dtCritical() * factor;
      const double delta = o.staticOverlap();
      const double res = std::max({recurrenceResidual(o, zeta, 0.5 * dtCr, 0.1 * delta, 400),
                                   recurrenceResidual(o, zeta, 0.99 * dtCr, 0.1 * delta, 400),
                                   recurrenceResidual(o, zeta, 1.01 * dtCr, 1e-6 * delta, 400)});
      out.errors[t + "recurrence_rel"] = res;
      const auto growth = [&o, zeta](double dt) { return dampedGrowthRatio(o, zeta, dt); };
      out.errors[t + "growth_at_0_99"] = growth(0.99 * dtCr);
      out.errors[t + "inverse_growth_at_1_01"] = 1.1 / growth(1.01 * dtCr);
      StabilityBisection bis = bisectStabilityLimit(growth, dtCr, t + "contact");
      out.errors[t + "bisected_limit_rel"] = bis.bracketed ? std::abs(bis.limit / dtCr - 1.0) : 1.0;
      Scene s = o.build(0.5 * dtCr, o.amplitude());
      s.updateCollider();  // before a step: the positions' geometry
      const TimestepEstimate est = s.criticalTimestep();
      const double m = o.mass(), I = s.particles.inertia[1][0], kn = o.kn(), ks = o.ksRatio * kn;
      const double r = o.R - 0.5 * (delta - o.amplitude());  // arm to the middle of the overlap
      const double cn = 2 * zeta * std::sqrt(m * kn), cs = 2 * zeta * std::sqrt(m * ks), tt = 1 / m + r * r / I;
      const double zetaT = cs * std::sqrt(tt / ks) / 2, dtT = 2 / std::sqrt(ks * tt) * (std::sqrt(1 + zetaT * zetaT) - zetaT);
      const double expected = singleContactEstimate(m, I, r, kn, ks, cn, cs);
      out.errors[t + "estimate_ratio_rel"] = est.fromContacts ? std::abs(est.dt / expected - 1.0) : 1.0;
      out.errors[t + "estimate_over_limit"] = bis.bracketed ? est.dt / std::min(bis.limit, dtT) : 2.0;
      lim.rows.push_back({e, zeta, factor, bis.limit / dtCr, est.dt / dtCr, res});
      out.series.push_back(std::move(bis.history));
    }
    out.series.push_back(std::move(lim));
    return out;
  };
  return c;
}

}  // namespace dem::verify
