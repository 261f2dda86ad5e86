// Case: the torque on a turning drum (a mesh wall with a prescribed rotation) balances the change of
//       the bed's angular momentum (issue 21: "torque on the drum balances the bed's angular-momentum
//       change").
// Scenario:  a closed drum (cylinder mesh of 24 segments, radius 0.05 m, length 0.03 m, axis y)
//            turning at 3 rad/s about its axis, with 60 frictional spheres (R = 3 mm, Cundall law,
//            mu = 0.5, no damping, gravity -z), dt = 1e-5 s, 20000 steps from rest.
// Reference: the leapfrog's momentum balance, exact in exact arithmetic: each sphere's kick is
//            m (v_n+1/2 - v_n-1/2) = F_n dt and I (w_n+1/2 - w_n-1/2) = T_n dt, so about the
//            drum's centre c, sum_i [m (x_i - c) x dv_i + I dw_i] = dt sum_i [(x_i - c) x F_i + T_i]
//            at each step. Contacts between spheres add nothing to the sum (both torque arms end at
//            the same contact point), so it equals dt [T_gravity - T_drum], T_drum the moment of the
//            contacts' reaction on the drum about c (meshLoads: what the CSV writes as m0_t*).
// Tolerance: round-off. The error is the residual of the identity summed over the steps, in units
//            of eps times the sum of the magnitudes of every term that entered it (each sphere's
//            momenta before and after the kick, the gravity and drum moments): each term is
//            rounded a few times, so the residual stays below 16 such units. A missing or doubled
//            facet contact, or a moment about the wrong point, would leave O(1) of the drum's
//            torque. The case also checks that the drum carried the bed: its centre of mass ends
//            displaced towards -x (the side the drum's bottom moves to) by more than a radius.
#include "cases/facet_tools.hpp"
#include "cases/registry.hpp"
#include "solver/builders.hpp"
#include "solver/mesh_generators.hpp"
#include "solver/wall_loads.hpp"

#include <cmath>
#include <limits>

namespace dem::verify {

Case drumTorqueBalanceCase() {
  Case c;
  c.name = "drum_torque_balance";
  c.title = "turning drum: the moment on the drum balances the bed's angular-momentum change";
  c.dts = {1e-5};
  const std::uint64_t steps = 20000;
  c.quantities.push_back(roundOffTolerance({"balance_ulps", [](double) { return 16.0; }, std::nullopt},
                                           "16 eps x the summed magnitudes of the terms"));
  c.quantities.push_back(roundOffTolerance({"bed_not_carried", [](double) { return 0.0; }, std::nullopt}));
  c.run = [=](double dt) {
    Scene s;
    const Material mat{2600.0, 1e7, 0.25, std::atan(0.5)};
    s.materials = {mat};
    const Vec3 centre = Vec3::Zero(), w(0, 3.0, 0);
    s.particles.addMesh(cylinderMesh(centre, Vec3::UnitY(), 0.05, 0.03, 24, true, true), 0,
                        {centre, Vec3::Zero(), w, 0.0}, "drum");
    const double R = 0.003;
    for (int i = 0; i < 60; ++i) {  // a loose lattice in the drum's lower half
      const Vec3 x(-0.03 + 0.0075 * (i % 9), 0.006 + 0.009 * ((i / 9) % 3), -0.04 + 0.0075 * (i / 27));
      s.particles.add(sphereSpec(x, R, mat.density));
    }
    s.gravity = Vec3(0, 0, -9.81);
    s.setDt(dt);
    s.setDamping(0.0);
    Particles& p = s.particles;
    const std::size_t first = p.meshes[0].count;  // the spheres follow the facets
    const auto momentum = [&](const std::vector<Vec3>& x, std::size_t i, const Vec3& v, const Vec3& om) {
      return Vec3(p.mass[i] * (x[i] - centre).cross(v) + p.inertia[i][0] * om);
    };
    s.step();  // (the first step starts from on-step velocities: the identity holds from the second)
    Vec3 lhs = Vec3::Zero(), rhs = Vec3::Zero();
    double scale = 0.0;  // the summed magnitudes of the terms
    std::vector<Vec3> x, v, om;
    for (std::uint64_t n = 1; n < steps; ++n) {
      x.assign(p.pos.begin(), p.pos.end());
      v.assign(p.vel.begin(), p.vel.end());
      om.assign(p.angVel.begin(), p.angVel.end());
      const double tn = s.time;
      s.step();
      Vec3 gravity = Vec3::Zero();
      for (std::size_t i = first; i < p.size(); ++i) {
        const Vec3 after = momentum(x, i, p.vel[i], p.angVel[i]), before = momentum(x, i, v[i], om[i]);
        lhs += after - before;
        scale += after.norm() + before.norm();
        gravity += (x[i] - centre).cross(p.mass[i] * s.gravity);
      }
      const Vec3 drum = meshLoads(p, s.contacts, tn)[0].torque;
      rhs += dt * (gravity - drum);
      scale += dt * (gravity.norm() + drum.norm());
    }
    RunOutput out;
    out.errors["balance_ulps"] = (lhs - rhs).norm() / (std::numeric_limits<double>::epsilon() * scale);
    double meanX = 0.0;
    for (std::size_t i = first; i < p.size(); ++i) meanX += p.pos[i].x() / static_cast<double>(p.size() - first);
    out.errors["bed_not_carried"] = meanX < -R ? 0.0 : 1.0;
    return out;
  };
  return c;
}

}  // namespace dem::verify
