// Case: oblique impact of two equal glass spheres with Coulomb friction, linear Cundall law with
//       ks/kn = 2/7 (Chung & Ooi 2011 tests 6-8 analogue; verification theory sections 6.4, 6.6).
// Scenario:  R = 0.01 m, E = 4.8e10 Pa (kn = E R), rho = 2800 kg/m^3, mu = 0.3; line of centres x;
//            sphere 1 moves with (v_n/2, v_t/2, 0), sphere 2 with (-v_n/2, -v_t/2, 0),
//            v_n = 1e-3 m/s, no spin, no gravity; stick: v_t = 0.5 v_n, gross slip: v_t = 3 v_n.
//            The spheres touch at (-+R, 0, 0) at the onset, which falls at 8 phases within a step;
//            every error is the maximum over the phases.
// Reference: relative normal motion has m* = m/2; the contact points' relative tangential motion
//            has 1/m_t = 2 (1/m + R^2/I) = 7/m, so ks/kn = 2/7 makes the two frequencies equal (the
//            sphere-wall argument of theory 6.4 with m*). Stick (v_t/v_n <= 3.5 mu): the relative
//            contact-point tangential velocity is reversed, e_t = -1. Gross slip (>= 7 mu): each
//            sphere receives |J_t| = mu J_n = mu m v_n: v_1y,out = v_t/2 - mu v_n and both spheres
//            end with R w_z = -5/2 mu v_n (same sign: theory 6.6, equal and opposite impulses at
//            opposite arms). Normal restitution e = 1.
// Tolerance: as for the wall (theory 6.4, third order): 12.5 (dt/t_c)^3 for e_t and e,
//            1.25 (dt/t_c)^3 v_n for v_1y, 3.125 (dt/t_c)^3 v_n for R w_z, at t_c/dt = 50 ... 400.
//            The closed forms are small-displacement limits: while sliding, the line of centres
//            turns by theta = v_t t_c/(2R) = 1.6e-6 (and the arm is R - overlap/2, overlap/R =
//            2.5e-7), which tilts the impulses by O(theta); 3 theta is added to the tolerances of
//            the comparisons with the closed forms. The order is gated on the self-convergence
//            differences |q(dt) - q(dt/2)|, which carry no such model floor: slope 3 +- 0.25.
#include "cases/impact_tools.hpp"
#include "cases/registry.hpp"
#include "solver/builders.hpp"

#include <array>
#include <cmath>
#include <numbers>

namespace dem::verify {

namespace {

struct PairImpact {
  double vct, v1y, spin1, spin2, e;
};

PairImpact pairImpact(const Material& mat, double R, double vn, double vt, double dt, double phase, double tc) {
  // Start t0 before the spheres touch at (-+R, 0, 0), the same onset configuration at every dt.
  const double t0 = dt * (3 + phase);
  const Vec3 x(R, 0, 0), v(vn / 2, vt / 2, 0);
  Scene sc = twoSphereScene(mat, R, -x - v * t0, v, Vec3::Zero(), x + v * t0, -v, Vec3::Zero(), dt);
  const auto gap = [R](const Scene& q) { return (q.particles.pos[1] - q.particles.pos[0]).norm() - 2 * R; };
  const ImpactRecord r = runImpact(sc, 0, 1, gap, static_cast<std::uint64_t>(10 * tc / dt));
  if (!r.separated) throw std::runtime_error("oblique_impact_sphere_sphere: the spheres did not separate");
  // Relative tangential velocity of the contact points (sphere 1 at +R x, sphere 2 at -R x).
  const double vct = ((r.vB + r.wB.cross(Vec3(-R, 0, 0))) - (r.vA + r.wA.cross(Vec3(R, 0, 0)))).y();
  return {vct, r.vA.y(), R * r.wA.z(), R * r.wB.z(), (r.vB - r.vA).x() / vn};
}

}  // namespace

Case obliqueImpactSphereSphereCase() {
  const double R = 0.01, vn = 1e-3, mu = 0.3;
  const Material glass{2800.0, 4.8e10, 2.0 / 7.0, std::atan(mu)};
  const double m = sphereMass(R, glass.density), kn = glass.young * R;
  const double tc = std::numbers::pi * std::sqrt(m / 2 / kn), theta = 3 * vn * tc / (2 * R);
  Case c;
  c.name = "oblique_impact_sphere_sphere";
  c.title = "oblique impact of two spheres, ks/kn = 2/7: stick reverses v_ct, gross slip J_t = mu J_n";
  c.dts = halvings(tc / 50, 4);
  const auto cube = [tc](double dt) { return std::pow(dt / tc, 3); };
  const OrderSpec third{3.0, 2.75, 3.25, 1e-13};
  c.quantities.push_back(
      theoryBound("impact c (dt/t_c)^3 + 3 theta (theory 6.4)",
                  {"stick_et_err", [=](double dt) { return 12.5 * cube(dt) + 3 * theta; }, std::nullopt}));
  c.quantities.push_back(
      theoryBound("impact c (dt/t_c)^3 + 3 theta (theory 6.4)",
                  {"slip_vt_err", [=](double dt) { return 1.25 * cube(dt) + 3 * theta; }, std::nullopt}));
  c.quantities.push_back(
      theoryBound("impact c (dt/t_c)^3 + 3 theta (theory 6.4)",
                  {"slip_spin_err", [=](double dt) { return 3.125 * cube(dt) + 3 * theta; }, std::nullopt}));
  c.quantities.push_back(
      theoryBound("impact c (dt/t_c)^3 + 3 theta (theory 6.4)",
                  {"restitution_err", [=](double dt) { return 12.5 * cube(dt) + 3 * theta; }, std::nullopt}));
  c.quantities.push_back({"stick_et_selfconv", [=](double dt) { return 12.5 * cube(dt); }, third});
  c.quantities.push_back({"slip_vt_selfconv", [=](double dt) { return 1.25 * cube(dt); }, third});
  c.quantities.push_back({"slip_spin_selfconv", [=](double dt) { return 3.125 * cube(dt); }, third});
  c.run = [=](double dt) {
    std::array<double, 7> err{};
    for (int j = 0; j < 8; ++j) {
      const double phase = (j + 0.5) / 8;
      const PairImpact st = pairImpact(glass, R, vn, 0.5 * vn, dt, phase, tc);
      const PairImpact st2 = pairImpact(glass, R, vn, 0.5 * vn, dt / 2, 2 * phase, tc);
      const PairImpact sl = pairImpact(glass, R, vn, 3.0 * vn, dt, phase, tc);
      const PairImpact sl2 = pairImpact(glass, R, vn, 3.0 * vn, dt / 2, 2 * phase, tc);
      const double vct0 = -0.5 * vn;
      const std::array<double, 7> e{
          std::abs(st.vct / vct0 + 1),
          std::abs(sl.v1y - (1.5 * vn - mu * vn)) / vn,
          std::max(std::abs(sl.spin1 + 2.5 * mu * vn), std::abs(sl.spin2 + 2.5 * mu * vn)) / vn,
          std::max(std::abs(st.e - 1), std::abs(sl.e - 1)),
          std::abs(st.vct - st2.vct) / std::abs(vct0),
          std::abs(sl.v1y - sl2.v1y) / vn,
          std::max(std::abs(sl.spin1 - sl2.spin1), std::abs(sl.spin2 - sl2.spin2)) / vn};
      for (std::size_t k = 0; k < e.size(); ++k) err[k] = std::max(err[k], e[k]);
    }
    RunOutput out;
    const char* names[] = {"stick_et_err", "slip_vt_err", "slip_spin_err", "restitution_err",
                           "stick_et_selfconv", "slip_vt_selfconv", "slip_spin_selfconv"};
    for (std::size_t k = 0; k < err.size(); ++k) out.errors[names[k]] = err[k];
    return out;
  };
  return c;
}

}  // namespace dem::verify
