// Case: normal impact of a glass sphere on a fixed wall, linear Cundall law, no damping
//       (verification theory section 6.2).
// Scenario:  wall z = 0 (normal +z), R = 0.01 m, E = 4.8e10 Pa, rho = 2800 kg/m^3; the sphere-wall
//            stiffness is kn = E R = 4.8e8 N/m (a wall of the sphere's material, laws/cundall.hpp);
//            the sphere approaches at 10 m/s, no gravity. Onset at 16 sub-step phases
//            s = (j + 1/2)/16, every error is the maximum over the phases.
// Reference: one mass on a spring, m* = m: t_c = pi sqrt(m/kn), e = 1, maximum overlap v sqrt(m/kn),
//            peak force v sqrt(m kn).
// Tolerance: as for two spheres (theory 6.1-6.2: the same one-degree-of-freedom problem):
//            |e - 1| <= 12.5 (dt/t_c)^3, t_c error <= 2.5 (dt/t_c)^2, peak overlap and force
//            <= 5 (dt/t_c)^2 at t_c/dt = 50 ... 400, fitted slopes 3 +- 0.2 and 2 +- 0.2.
#include "cases/impact_tools.hpp"
#include "cases/registry.hpp"
#include "solver/laws.hpp"
#include "solver/builders.hpp"

#include <cmath>
#include <numbers>

namespace dem::verify {

Case normalImpactSphereWallCase() {
  const double R = 0.01, vRel = 10.0;
  const Material glass{2800.0, 4.8e10, 2.0 / 7.0, 0.35};
  const double m = sphereMass(R, glass.density), mStar = m, kn = Cundall::normalStiffness(glass, R, glass, 0.0, true);
  const double tc = std::numbers::pi * std::sqrt(mStar / kn);
  Case c;
  c.name = "normal_impact_sphere_wall";
  c.title = "normal impact on a wall: e = 1, t_c = pi sqrt(m/kn), peak overlap and force";
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
      Scene sc = sphereWallScene(glass, R, Vec3(0, 0, R + gap0), Vec3(0, 0, -vRel), Vec3::Zero(), dt);
      const auto gap = [R](const Scene& q) { return q.particles.pos[1].z() - R; };
      const ImpactRecord r = runImpact(sc, 0, 1, gap, static_cast<std::uint64_t>(10 * tc / dt));
      if (!r.separated) throw std::runtime_error("normal_impact_sphere_wall: the sphere did not separate");
      const double e = r.vB.z() / vRel;
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
