// Case: oblique elastic impact of a sphere on a wall, Hertz-Mindlin law with Coulomb friction, in
//       Thornton's normalised form (Chung & Ooi 2011 test 4; verification theory 2, section 3).
// Scenario:  Al2O3 sphere (E = 3.8e11 Pa, nu = 0.23, rho = 4000 kg/m^3, R = 2.5 mm, mu = 0.092), no
//            spin, on a plane wall of a 1000x stiffer material with the same nu (rigid-like), no
//            damping, no gravity. The incidence angles of test 4 enter through
//            Psi1 = kappa tan(theta)/mu, kappa = 4 G*/E* of the actual pair (ref::effectiveModulus,
//            ref::effectiveShearModulus), chi = kappa m/(2 m_t), m_t = 2m/7 (= 1.5226). Psi2(Psi1)
//            depends on Psi1 and chi only (3.1), so the normal speed is taken as 1e-6 m/s rather than
//            3.9 cos(theta) m/s: the code's torque arm R - d/2 differs from the model's R by
//            d_max/(2R) = 8.6e-9 there (1.6e-3 at 3.9 m/s, above the gates), bounding the
//            difference in Psi2 by 2.5 kappa d_max/R (spin change 5/2 of the impulse times the arm
//            change); that floor is added to each tolerance. 8 onset phases. Levels
//            t_c/dt = 50.37, 100.37, 200.37, 400.37 (one fractional part, as hertz_impact_chung_ooi:
//            the crossing defect's phase maximum depends on it), t_c the elastic Hertz contact time of the normal impact.
// Reference: gross sliding (theta = 40, 60 deg: Psi1 >= 4 chi - 1): Psi2 = Psi1 - 4 chi exactly (3.2,
//            MBF's line). Stick/transition (Psi1 = 0.50, theory 3.3's point, and theta = 5, 10, 20,
//            25 deg): the normalised switching ODE of the same incremental model
//            (ref::obliqueHertzMindlinImpact, 1e-10).
// Tolerance: theory 2, 3.3: gross slip F_t = mu F_n on every step, so abs(dPsi2) <= 2 chi abs(e_num - 1)
//            (order 2.5, 1.4): gate 4 chi (dt/t_c)^2.5, slope 2.5 +- 0.15. Stick: the incremental
//            spring with k_t at the current overlap is an end-point quadrature of int k_t du, first
//            order; its coefficient is measured, not derived: theory's 1.1 at Psi1 = 0.50 with the
//            gate 1.6 dt/t_c, slope 1 +- 0.1, applied at Psi1 = 0.50 only (stick_psi2_err). The test 4
//            stick/transition angles (test4_stick_psi2_err, max over 5, 10, 20, 25 deg) are gated with
//            a coefficient MEASURED on a scheme model (kick-drift leapfrog, Hertz, incremental spring
//            F_t -= k_t(d_n) v_ct,{n-1/2} dt, Coulomb cap, v_n = 1e-6 m/s, 8 phases, these levels;
//            identical for the first increment over dt (theory's script) or over the time since
//            onset (the solver's formation) wherever the first step caps, i.e. for theta >= 5 deg;
//            at Psi1 = 0.50 1.13 and 1.02-1.11 respectively): max err t_c/dt = 1.81, 1.91, 2.02, 2.10, 2.16 at
//            t_c/dt = 50.37 ... 800.37 for theta = 5 deg (Psi1 = 0.83; at most 0.27, 0.87, 1.06 at
//            10, 20, 25 deg), slope 0.92-0.96: gate 3.2 dt/t_c (2.16 times
//            theory's own margin 1.6/1.1), slope 1 +- 0.1. Maxima over phases (and angles).
// Finding:   (for theory 2, 3.3) the stick coefficient is a property of the scheme and not uniform in
//            Psi1: the scheme model gives 1.8-2.2 dt/t_c at Psi1 = 0.83 (rising slowly with t_c/dt,
//            slope 0.92-0.96 up to t_c/dt = 800), so "1.6 dt/t_c" is covered only at its measured
//            point Psi1 = 0.50; the gate for other Psi1 < 4 chi - 1 has to be measured there (here
//            3.2). The solver reproduces the scheme model to all printed digits at every level and
//            angle (max errors 3.5947e-2, 1.9064e-2, 1.0081e-2, 5.2439e-3 at 5 deg; 2.0314e-2 ...
//            2.7490e-3 at Psi1 = 0.50; series stick_err_per_angle): no code error.
#include "cases/impact_tools.hpp"
#include "cases/registry.hpp"
#include "solver/builders.hpp"

#include <dem_reference/hertz_impact.hpp>
#include <dem_reference/oblique_hertz_mindlin.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <vector>

namespace dem::verify {

namespace {

struct ObliqueSetup {
  Material sphere, wall;
  double R = 2.5e-3, mu = 0.092, vn = 1e-6;
  double m, kappa, chi, tc, dmax;
  ObliqueSetup() {
    sphere = Material{4000.0, 3.8e11, 0.3, std::atan(mu)};
    sphere.poisson = 0.23;
    wall = Material{4000.0, 3.8e14, 0.3, std::atan(mu)};
    wall.poisson = 0.23;
    m = sphereMass(R, sphere.density);
    const double Estar = ref::effectiveModulus(sphere.young, sphere.poisson, wall.young, wall.poisson);
    const double Gstar = ref::effectiveShearModulus(ref::shearModulus(sphere.young, sphere.poisson), sphere.poisson,
                                                    ref::shearModulus(wall.young, wall.poisson), wall.poisson);
    kappa = 4 * Gstar / Estar;
    const double inf = std::numeric_limits<double>::infinity();
    chi = ref::obliqueChi(kappa, m, ref::tangentialMass(m, R, 0.4 * m * R * R, inf, 0.0, inf));
    const ref::HertzImpact h(Estar, R, m, vn);
    tc = h.contactTime();
    dmax = h.maxOverlap();
  }
  double psi1(double thetaDeg) const { return kappa * std::tan(thetaDeg * std::numbers::pi / 180) / mu; }
  // Psi2 of one impact at dt = ratio t_c with the onset `phase` of a step after a whole step.
  double psi2(double psi1v, double ratio, double phase) const {
    const double dt = ratio * tc, vt = psi1v * mu * vn / kappa, gap0 = vn * dt * (3 + phase);
    Scene sc = lawWallScene(ContactLaw::HertzMindlin, sphere, wall, R, Vec3(0, 0, R + gap0), Vec3(vt, 0, -vn), Vec3::Zero(), dt);
    const auto gap = [this](const Scene& q) { return q.particles.pos[1].z() - R; };
    const ImpactRecord r = runImpact(sc, 0, 1, gap, static_cast<std::uint64_t>(10 / ratio));
    if (!r.separated) throw std::runtime_error("oblique_hertz_mindlin: the sphere did not separate");
    return kappa * (r.vB.x() - R * r.wB.y()) / (mu * vn);
  }
};

}  // namespace

Case obliqueHertzMindlinCase() {
  const ObliqueSetup o;
  const std::vector<double> stickAngles{5, 10, 20, 25}, slipAngles{40, 60};
  std::vector<double> stickPsi1{0.5}, stickRef;  // theory 3.3's measured point first, then test 4's angles
  for (double th : stickAngles) stickPsi1.push_back(o.psi1(th));
  for (double p1 : stickPsi1) stickRef.push_back(ref::obliqueHertzMindlinImpact(p1, o.chi).psi2);
  const double armFloor = 2.5 * o.kappa * o.dmax / o.R;
  Case c;
  c.name = "oblique_hertz_mindlin";
  c.title = "oblique Hertz-Mindlin impact (Chung & Ooi 4): Psi2(Psi1), gross slip Psi1 - 4 chi, stick vs ODE";
  // levels: dt/t_c (dimensionless)
  c.dts = {1.0 / 50.37, 1.0 / 100.37, 1.0 / 200.37, 1.0 / 400.37};
  const double chi = o.chi;
  c.quantities.push_back({"gross_slip_psi2_err", [=](double r) { return 4 * chi * std::pow(r, 2.5) + armFloor; },
                          OrderSpec{2.5, 2.35, 2.65, 1e-13}});
  c.quantities.push_back({"stick_psi2_err", [=](double r) { return 1.6 * r + armFloor; }, OrderSpec{1.0, 0.9, 1.1, 1e-13}});
  c.quantities.push_back({"test4_stick_psi2_err", [=](double r) { return 3.2 * r + armFloor; }, OrderSpec{1.0, 0.9, 1.1, 1e-13}});
  c.run = [=](double ratio) {
    RunOutput out;
    double slipErr = 0;
    std::vector<double> stickErr(stickPsi1.size(), 0.0);
    Series psi{"psi2_vs_psi1", {"psi1", "psi2_dem", "psi2_reference"}, {}, "Psi2(Psi1), first phase", "Psi1", "Psi2"};
    for (int j = 0; j < 8; ++j) {
      const double phase = (j + 0.5) / 8;
      for (double th : slipAngles) {
        const double p1 = o.psi1(th), p2 = o.psi2(p1, ratio, phase), pr = ref::grossSlidingPsi2(p1, o.chi);
        if (p1 < ref::grossSlidingThreshold(o.chi)) throw std::logic_error("oblique_hertz_mindlin: not a gross-slip angle");
        slipErr = std::max(slipErr, std::abs(p2 - pr));
        if (j == 0) psi.rows.push_back({p1, p2, pr});
      }
      for (std::size_t k = 0; k < stickPsi1.size(); ++k) {
        const double p1 = stickPsi1[k], p2 = o.psi2(p1, ratio, phase);
        stickErr[k] = std::max(stickErr[k], std::abs(p2 - stickRef[k]));
        if (j == 0) psi.rows.push_back({p1, p2, stickRef[k]});
      }
    }
    std::sort(psi.rows.begin(), psi.rows.end());
    out.errors["gross_slip_psi2_err"] = slipErr;
    out.errors["stick_psi2_err"] = stickErr[0];
    out.errors["test4_stick_psi2_err"] = *std::max_element(stickErr.begin() + 1, stickErr.end());
    Series per{"stick_err_per_angle", {"psi1", "max_err", "max_err_over_dt_tc"}, {}, "stick/transition error per Psi1 (ungated detail)"};
    for (std::size_t k = 0; k < stickPsi1.size(); ++k) per.rows.push_back({stickPsi1[k], stickErr[k], stickErr[k] / ratio});
    out.series.push_back(std::move(per));
    out.series.push_back(std::move(psi));
    return out;
  };
  return c;
}

}  // namespace dem::verify
