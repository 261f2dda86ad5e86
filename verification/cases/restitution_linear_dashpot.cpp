// Case: head-on impact of a sphere on a wall, linear Cundall law with dashpots set from a coefficient
//       of restitution e (linear spring-dashpot, tension allowed; verification theory 2, section 2.1).
// Scenario:  glass sphere R = 0.01 m, rho = 2800 kg/m^3, E = 4.8e10 Pa on a wall of the same material
//            (kn = E R, laws/cundall.hpp), both of restitution e = 0.5 and 0.9 (zeta = 0.2155,
//            0.0335), impact speeds 0.1 and 10 m/s, no gravity, frictionless. 8 onset phases
//            s = (j + 1/2)/8. Levels t_c/dt = 100.37, 200.37, 400.37, 800.37, t_c = pi/w_d: generic
//            ratios with one fractional part c = 0.37, since the end falls at sx = frac(s + c) + O(dt),
//            so the bracket below takes the values 2c + ln e/(2(1 - zeta^2)) and that minus 2 over the
//            phases; with c fixed the maximum carries the order only (halvings from 100.37 gave
//            a non-monotone maximum).
// Reference: tension allowed: e exactly, for any speed (Schwager & Poschel 2007), and the leapfrog's
//            first-order deviation (theory 2, 2.1: the dashpot force jumps at the onset and the end;
//            the dashpot acts on v_{n-1/2}):
//              e_num/e - 1 = zeta w0 dt [2 (sx - s) + ln e/(2 (1 - zeta^2))] + O(dt^2),
//            s: the onset's fraction of its step (last free overlap -s v dt), sx: the end's fraction
//            after the last contact sample (linear interpolation), both taken from the run.
// Tolerance: theory 2, 2.1: the residual of that formula <= (w0 dt)^2 (1/8 + zeta) (crossing bound
//            th^2/8 of 1.3 plus the damping terms); e_num/e - 1 itself <= its worst case over phases
//            zeta w0 dt (2 + abs(ln e)/(2 (1 - zeta^2))) plus the same residual bound, slope of the
//            maximum over phases 1 +- 0.15.
//            Ledger: the kinetic energy lost, m (v^2 - v_out^2)/2, against viscousDissipated. The
//            leapfrog's kinetic energy changes by the trapezoidal work of the total force over each
//            full step (energy.hpp, exact once the force is zero at both ends), so with the dashpot
//            booked by the same trapezoid the difference is the spring's: a linear spring's
//            trapezoid equals the change of kn u^2/2 on every step but the two crossing steps, where
//            it differs by kn d1 s v dt/2 <= kn (v dt)^2/8 (onset, d1 = (1 - s) v dt the first
//            overlap) and kn dx g/2 <= kn (v_out dt)^2/8 (end). Relative to m v^2/2:
//              abs(lost - viscousDissipated)/(m v^2/2) <= (w0 dt)^2 (1 + e^2)/4.
#include "cases/impact_tools.hpp"
#include "cases/registry.hpp"
#include "solver/builders.hpp"
#include "solver/laws.hpp"

#include <dem_reference/damped_restitution.hpp>

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace dem::verify {

namespace {

struct LsdErrors {
  double residual = 0, rel = 0, ledger = 0;
};

Material lsdGlass(double e) {
  Material m{2800.0, 4.8e10, 0.3, 0.0};
  m.restitution = e;
  return m;
}

// w0 = sqrt(kn/m), zeta(e) (tension allowed), t_c = pi/w_d for the glass sphere on the glass wall.
struct LsdParams {
  double m, kn, w0, zeta, tc;
  LsdParams(double e, double R) {
    const Material g = lsdGlass(e);
    m = sphereMass(R, g.density);
    kn = Cundall::normalStiffness(g, R, g, 0.0, true);
    w0 = std::sqrt(kn / m);
    zeta = ref::lsdZetaTension(e);
    tc = ref::lsdContactTimeTension(zeta) / w0;
  }
};

LsdErrors lsdErrors(double e, double R, double v, double ratio, int phases) {
  const Material g = lsdGlass(e);
  const LsdParams p(e, R);
  const double dt = ratio * p.tc, w0dt = p.w0 * dt;
  LsdErrors err;
  for (int j = 0; j < phases; ++j) {
    const double s0 = (j + 0.5) / phases, gap0 = v * dt * (3 + s0);
    Scene sc = lawWallScene(ContactLaw::Cundall, g, g, R, Vec3(0, 0, R + gap0), Vec3(0, 0, -v), Vec3::Zero(), dt);
    sc.step();  // the ledger refers to t_0 after the first step (no force yet)
    const double KE0 = 0.5 * p.m * v * v;
    const auto gap = [R](const Scene& q) { return q.particles.pos[1].z() - R; };
    const ImpactRecord r = runImpact(sc, 0, 1, gap, static_cast<std::uint64_t>(10 / ratio));
    if (!r.separated) throw std::runtime_error("restitution_linear_dashpot: the sphere did not separate");
    const double eNum = r.vB.z() / v, s = r.startFraction, sx = r.endFraction;
    const double pred = p.zeta * w0dt * (2 * (sx - s) + std::log(e) / (2 * (1 - p.zeta * p.zeta)));
    err.residual = std::max(err.residual, std::abs(eNum / e - 1 - pred));
    err.rel = std::max(err.rel, std::abs(eNum / e - 1));
    const double lost = KE0 - 0.5 * p.m * r.vB.squaredNorm();
    const double ledgerBound = w0dt * w0dt * (1 + e * e) / 4;
    err.ledger = std::max(err.ledger, std::abs(lost - sc.energy.viscousDissipated) / KE0 / ledgerBound);
  }
  return err;
}

}  // namespace

Case restitutionLinearDashpotCase() {
  const double R = 0.01;
  Case c;
  c.name = "restitution_linear_dashpot";
  c.title = "linear spring-dashpot impact on a wall: e_num against e and theory 2.1's O(dt) formula; ledger";
  // levels: dt/t_c (dimensionless; each e sets dt = level x its own t_c)
  c.dts = {1.0 / 100.37, 1.0 / 200.37, 1.0 / 400.37, 1.0 / 800.37};
  for (const double e : {0.5, 0.9}) {
    const LsdParams p(e, R);
    const std::string t = e == 0.5 ? "e05_" : "e09_";
    const double w0tc = p.w0 * p.tc, z = p.zeta;
    const auto resBound = [=](double r) { return (w0tc * r) * (w0tc * r) * (0.125 + z); };
    c.quantities.push_back(theoryBound("crossing residual (w0 dt)^2 (1/8 + zeta) (theory 2 section 2.1)",
                                       {t + "formula_residual", resBound, std::nullopt}));
    c.quantities.push_back({t + "restitution_rel",
                            [=](double r) { return z * w0tc * r * (2 + std::abs(std::log(e)) / (2 * (1 - z * z))) + resBound(r); },
                            OrderSpec{1.0, 0.85, 1.15, 1e-13}});
    c.quantities.push_back(theoryBound("spring trapezoid at the crossings (w0 dt)^2 (1 + e^2)/4",
                                       {t + "ledger_over_bound", [](double) { return 1.0; }, std::nullopt}));
  }
  c.run = [=](double ratio) {
    RunOutput out;
    for (const double e : {0.5, 0.9}) {
      const std::string t = e == 0.5 ? "e05_" : "e09_";
      LsdErrors m;
      for (const double v : {0.1, 10.0}) {
        const LsdErrors x = lsdErrors(e, R, v, ratio, 8);
        m.residual = std::max(m.residual, x.residual);
        m.rel = std::max(m.rel, x.rel);
        m.ledger = std::max(m.ledger, x.ledger);
      }
      out.errors[t + "formula_residual"] = m.residual;
      out.errors[t + "restitution_rel"] = m.rel;
      out.errors[t + "ledger_over_bound"] = m.ledger;
    }
    return out;
  };
  return c;
}

}  // namespace dem::verify
