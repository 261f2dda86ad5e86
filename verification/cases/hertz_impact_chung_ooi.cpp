// Case: elastic Hertz normal impacts, Chung & Ooi (2011) tests 1 and 2, Hertz-Mindlin law, no
//       damping, no gravity, frictionless (verification theory 2, sections 1.1, 1.2, 1.4).
// Scenario:  test 1: two glass spheres (E = 4.8e10 Pa, nu = 0.20, rho = 2800 kg/m^3, R = 0.01 m)
//            head-on at +-10 m/s (relative speed 20 m/s): E* = E/(2(1 - nu^2)), R* = R/2, m* = m/2.
//            test 2: an Al alloy sphere (E = 7.0e10 Pa, nu = 0.30, rho = 2699 kg/m^3, R = 0.1 m) on
//            a plane wall of a 1000x stiffer material (E = 7.0e13 Pa, nu = 0.30; Yade's test-2 wall)
//            at 0.2 m/s: E* from both materials (ref::effectiveModulus), R* = R, m* = m. Onset at
//            32 sub-step phases s = (j + 1/2)/32; every error is the maximum over the phases.
//            Levels t_c/dt = 50.37, 100.37, 200.37, 400.37: generic (not integer) ratios with one
//            fractional part, since the phase maximum of the crossing defect depends on frac(t_c/dt)
//            as well as on dt (theory 2, 1.3: (th^2/2) c (1 - c) for the linear law), and the fit
//            must see the order only (halvings from 50.37 gave coefficients 0.49-1.03).
// Reference: closed forms of dem_reference/hertz_impact.hpp: e = 1, t_c = 2.94328 d_max/v,
//            d_max = (5 m* v^2/(4 K))^(2/5), F_max = K d_max^(3/2), K = (4/3) E* sqrt(R*).
// Tolerance: theory 2, 1.4 (CI gates, not tuned): the restitution defect is the potential energy of
//            one step of penetration, K (v dt)^(5/2), measured ~1.0 (dt/t_c)^2.5 over phases: gate
//            abs(e - 1) <= 2 (dt/t_c)^2.5, slope 2.5 +- 0.15. Contact time (interpolated zero
//            crossings) measured 0.52 (dt/t_c)^2: gate 1.0 (dt/t_c)^2; sampled peak overlap: the
//            sampling bound F_max dt^2/(8 m* d_max) = 1.354 (dt/t_c)^2 plus the linear envelope
//            bound 1.23 (dt/t_c)^2 (1.3): gate 2.6 (dt/t_c)^2; sampled peak force (3/2 of the
//            overlap's relative error, plus sampling): gate 3.9 (dt/t_c)^2; slopes 2 +- 0.15.
//            The gates are for the maximum over phases; the order is fitted on it over all levels.
#include "cases/impact_tools.hpp"
#include "cases/registry.hpp"
#include "solver/builders.hpp"

#include <dem_reference/hertz_impact.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

namespace dem::verify {

namespace {

struct HertzErrors {
  double e = 0, tc = 0, dmax = 0, fmax = 0;
};

// One Chung & Ooi test at dt = ratio t_c: the maximum errors over `phases` onset phases.
// wall == nullptr: two spheres of `mat` head-on at relative speed v; else `mat` on the wall.
HertzErrors hertzImpactErrors(const Material& mat, const Material* wall, double R, double v, double ratio, int phases) {
  const double m = sphereMass(R, mat.density);
  const double Estar = wall ? ref::effectiveModulus(mat.young, mat.poisson, wall->young, wall->poisson)
                            : ref::effectiveModulus(mat.young, mat.poisson, mat.young, mat.poisson);
  const double Rstar = wall ? R : ref::effectiveRadius(R, R), mStar = wall ? m : ref::effectiveMass(m, m);
  const ref::HertzImpact h(Estar, Rstar, mStar, v);
  const double tc = h.contactTime(), dt = ratio * tc, dRef = h.maxOverlap(), fRef = h.maxForce();
  HertzErrors err;
  for (int j = 0; j < phases; ++j) {
    const double s = (j + 0.5) / phases, gap0 = v * dt * (3 + s);
    ImpactRecord r;
    double e = 0;
    if (wall) {
      Scene sc = lawWallScene(ContactLaw::HertzMindlin, mat, *wall, R, Vec3(0, 0, R + gap0), Vec3(0, 0, -v), Vec3::Zero(), dt);
      const auto gap = [R](const Scene& q) { return q.particles.pos[1].z() - R; };
      r = runImpact(sc, 0, 1, gap, static_cast<std::uint64_t>(10 / ratio));
      e = r.vB.z() / v;
    } else {
      const Vec3 x(R + gap0 / 2, 0, 0), u(v / 2, 0, 0);
      Scene sc = twoSphereScene(mat, R, -x, u, Vec3::Zero(), x, -u, Vec3::Zero(), dt);
      sc.law = ContactLaw::HertzMindlin;
      const auto gap = [R](const Scene& q) { return (q.particles.pos[1] - q.particles.pos[0]).norm() - 2 * R; };
      r = runImpact(sc, 0, 1, gap, static_cast<std::uint64_t>(10 / ratio));
      e = (r.vB - r.vA).x() / v;
    }
    if (!r.separated) throw std::runtime_error("hertz_impact_chung_ooi: the bodies did not separate");
    err.e = std::max(err.e, std::abs(e - 1));
    err.tc = std::max(err.tc, std::abs((r.tEnd - r.tStart) / tc - 1));
    err.dmax = std::max(err.dmax, std::abs(r.maxOverlap / dRef - 1));
    err.fmax = std::max(err.fmax, std::abs(r.maxForce / fRef - 1));
  }
  return err;
}

}  // namespace

Case hertzImpactChungOoiCase() {
  Material glass{2800.0, 4.8e10, 0.3, 0.0};
  glass.poisson = 0.20;
  Material al{2699.0, 7.0e10, 0.3, 0.0};
  al.poisson = 0.30;
  Material stiffWall{2699.0, 7.0e13, 0.3, 0.0};
  stiffWall.poisson = 0.30;
  Case c;
  c.name = "hertz_impact_chung_ooi";
  c.title = "Hertz impacts (Chung & Ooi 1, 2): e = 1, t_c, d_max, F_max against the closed forms";
  // levels: dt/t_c (dimensionless; each test sets dt = level x its own t_c)
  c.dts = {1.0 / 50.37, 1.0 / 100.37, 1.0 / 200.37, 1.0 / 400.37};
  const auto p25 = [](double r) { return std::pow(r, 2.5); };
  const auto p2 = [](double r) { return r * r; };
  for (const std::string t : {"t1_", "t2_"}) {
    c.quantities.push_back({t + "restitution_err", [=](double r) { return 2.0 * p25(r); }, OrderSpec{2.5, 2.35, 2.65, 1e-13}});
    c.quantities.push_back({t + "contact_time_rel", [=](double r) { return 1.0 * p2(r); }, OrderSpec{2.0, 1.85, 2.15, 1e-13}});
    c.quantities.push_back({t + "max_overlap_rel", [=](double r) { return 2.6 * p2(r); }, OrderSpec{2.0, 1.85, 2.15, 1e-13}});
    c.quantities.push_back({t + "max_force_rel", [=](double r) { return 3.9 * p2(r); }, OrderSpec{2.0, 1.85, 2.15, 1e-13}});
  }
  c.run = [=](double ratio) {
    RunOutput out;
    const HertzErrors t1 = hertzImpactErrors(glass, nullptr, 0.01, 20.0, ratio, 32);
    const HertzErrors t2 = hertzImpactErrors(al, &stiffWall, 0.1, 0.2, ratio, 32);
    for (const auto& [t, e] : {std::pair{std::string("t1_"), t1}, std::pair{std::string("t2_"), t2}}) {
      out.errors[t + "restitution_err"] = e.e;
      out.errors[t + "contact_time_rel"] = e.tc;
      out.errors[t + "max_overlap_rel"] = e.dmax;
      out.errors[t + "max_force_rel"] = e.fmax;
    }
    return out;
  };
  return c;
}

}  // namespace dem::verify
