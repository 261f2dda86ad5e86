// Case: normal impact of two equal glass spheres, linear Cundall law, no damping (Chung & Ooi 2011
//       test 1 with the linear law; verification theory section 6.1).
// Scenario:  R = 0.01 m, E = 4.8e10 Pa, rho = 2800 kg/m^3 (kn = E R = 4.8e8 N/m), velocities +-10 m/s
//            along x, no gravity. The initial gap puts the contact onset at a fraction s of a step;
//            16 phases s = (j + 1/2)/16, and every error is the maximum over the phases.
// Reference: relative coordinate of reduced mass m* = m/2: t_c = pi sqrt(m*/kn), restitution e = 1,
//            maximum overlap v_rel sqrt(m*/kn), peak force v_rel sqrt(m* kn).
// Tolerance: levels t_c/dt = 50, 100, 200, 400. Theory 6.1 measured |e - 1| ~ 2 (dt/t_c)^3,
//            t_c error ~ 0.4 (dt/t_c)^2 (interpolated onset and end), peak values
//            ~ (pi dt/t_c)^2/8 = 1.2 (dt/t_c)^2 (sampling of the peak on the step grid); the gates
//            are the theory's CI values at t_c/dt = 50 (1e-4, 1e-3, 2e-3) scaled with the expected
//            order, i.e. 12.5 (dt/t_c)^3, 2.5 (dt/t_c)^2 and 5 (dt/t_c)^2 (about 6x, 6x and 4x the
//            measured coefficients), and the fitted slopes must be 3 +- 0.2 and 2 +- 0.2.
#include "cases/impact_tools.hpp"
#include "cases/registry.hpp"
#include "solver/builders.hpp"

#include <cmath>
#include <numbers>

namespace dem::verify {

Case normalImpactSphereSphereCase() {
  const double R = 0.01, vRel = 20.0;
  const Material glass{2800.0, 4.8e10, 2.0 / 7.0, 0.35};
  const double m = sphereMass(R, glass.density), mStar = m / 2, kn = glass.young * R;
  const double tc = std::numbers::pi * std::sqrt(mStar / kn);
  Case c;
  c.name = "normal_impact_sphere_sphere";
  c.title = "normal impact of two spheres: e = 1, t_c = pi sqrt(m*/kn), peak overlap and force";
  c.dts = halvings(tc / 50, 4);
  const auto cube = [tc](double dt) { return std::pow(dt / tc, 3); };
  const auto square = [tc](double dt) { return std::pow(dt / tc, 2); };
  c.quantities.push_back({"restitution_err", [=](double dt) { return 12.5 * cube(dt); }, OrderSpec{3.0, 2.8, 3.2, 1e-12}});
  c.quantities.push_back({"contact_time_rel", [=](double dt) { return 2.5 * square(dt); }, OrderSpec{2.0, 1.8, 2.2, 1e-12}});
  c.quantities.push_back({"max_overlap_rel", [=](double dt) { return 5.0 * square(dt); }, OrderSpec{2.0, 1.8, 2.2, 1e-12}});
  c.quantities.push_back({"peak_force_rel", [=](double dt) { return 5.0 * square(dt); }, OrderSpec{2.0, 1.8, 2.2, 1e-12}});
  c.run = [=](double dt) {
    RunOutput out;
    double eErr = 0, tErr = 0, uErr = 0, fErr = 0;
    const double uRef = vRel * std::sqrt(mStar / kn), fRef = vRel * std::sqrt(mStar * kn);
    for (int j = 0; j < 16; ++j) {
      const double s = (j + 0.5) / 16, gap0 = vRel * dt * (3 + s);
      const Vec3 x(R + gap0 / 2, 0, 0), v(vRel / 2, 0, 0);
      Scene sc = twoSphereScene(glass, R, -x, v, Vec3::Zero(), x, -v, Vec3::Zero(), dt);
      const auto gap = [R](const Scene& q) { return (q.particles.pos[1] - q.particles.pos[0]).norm() - 2 * R; };
      const ImpactRecord r = runImpact(sc, 0, 1, gap, static_cast<std::uint64_t>(10 * tc / dt));
      if (!r.separated) throw std::runtime_error("normal_impact_sphere_sphere: the spheres did not separate");
      const double e = (r.vB - r.vA).x() / vRel;
      eErr = std::max(eErr, std::abs(e - 1));
      tErr = std::max(tErr, std::abs((r.tEnd - r.tStart) / tc - 1));
      uErr = std::max(uErr, std::abs(r.maxOverlap / uRef - 1));
      fErr = std::max(fErr, std::abs(r.maxForce / fRef - 1));
    }
    out.errors["restitution_err"] = eErr;
    out.errors["contact_time_rel"] = tErr;
    out.errors["max_overlap_rel"] = uErr;
    out.errors["peak_force_rel"] = fErr;
    return out;
  };
  return c;
}

}  // namespace dem::verify
