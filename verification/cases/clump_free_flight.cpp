// Case: a two-sphere clump thrown with spin in free flight (seed "Clumps"; theory 1 and 3.2).
// Scenario:  spheres R1 = 0.1 m (2600 kg/m^3) at (0,0,1) and R2 = 0.06 m (7800 kg/m^3) at
//            (0.16,0,1), a rigid dumbbell; clump velocity (2, 0.5, 4) m/s and angular velocity
//            (3, -4, 6) rad/s (space), gravity (0, 0, -9.81); T = 1 s, dt = 2e-3 ... 2.5e-4,
//            adjusted start, default rotation algorithm (Fincham A&T; the dumbbell is a symmetric
//            top with its axis along the line of centres).
// Reference: momentum of the members sum m_i v_i = m v_c(t) with v_c(t) = v0 + g t (exact: the
//            centroid is in free fall, theory 1); the clump's space-frame angular momentum L0
//            (gravity gives no torque about the centroid); the distance between the members;
//            orientation by Boost.Odeint (Euler + quaternion kinematics, the clump's principal inertia).
// Tolerance: momentum and centroid: round-off, 1e-12 relative (theory 1, adjusted start);
//            L: 1e-14 |L0| (Fincham conserves it step by step, theory 3.2); member distance 1e-14
//            relative (rigid placement); orientation: 0.1 (|w| dt)^2 (|w| T) (A&T scale, theory 3.2),
//            slope 2 +- 0.15.
#include "cases/registry.hpp"
#include "cases/rigid_common.hpp"

#include <dem_reference/rigid_body_odeint.hpp>

namespace dem::verify {

Case clumpFreeFlightCase() {
  using namespace rigid;
  Case c;
  c.name = "clump_free_flight";
  c.title = "Two-sphere clump thrown with spin: momentum, angular momentum, rigidity, orientation";
  c.dts = halvings(2e-3, 4);
  const Vec3 g(0, 0, -9.81), v0(2, 0.5, 4), w0(3, -4, 6);
  const double T = 1.0, W = w0.norm();
  c.quantities.push_back(roundOffTolerance({"momentum_rel", [](double) { return 1e-12; }, std::nullopt}));
  c.quantities.push_back(roundOffTolerance({"centroid_rel", [](double) { return 1e-12; }, std::nullopt}));
  c.quantities.push_back(roundOffTolerance({"angmom_change_rel", [](double) { return 1e-14; }, std::nullopt}));
  c.quantities.push_back(roundOffTolerance({"member_distance_rel", [](double) { return 1e-14; }, std::nullopt}));
  c.quantities.push_back({"orientation_err", [=](double dt) { return 0.1 * (W * dt) * (W * dt) * (W * T); },
                          OrderSpec{2.0, 1.85, 2.15, 0.0}});
  c.run = [=](double dt) {
    RunOutput out;
    Scene s;
    s.materials.push_back(Material{});
    s.particles.add(sphereSpec(Vec3(0, 0, 1), 0.1, 2600));
    s.particles.add(sphereSpec(Vec3(0.16, 0, 1), 0.06, 7800));
    const std::size_t b = s.addClump({0, 1});
    s.gravity = g;
    s.setDt(dt);
    Particles& p = s.particles;
    p.vel[b] = v0;
    p.angVel[b] = w0;
    const Quat q0 = p.ori[b];
    const Vec3 I = p.inertia[b], x0 = p.pos[b];
    const double m = p.mass[b], dist0 = (p.pos[0] - p.pos[1]).norm();
    const Vec3 L0 = q0 * I.cwiseProduct(q0.conjugate() * w0);
    const int n = stepsFor(T, dt);
    double maxP = 0, maxL = 0, maxD = 0;
    for (int k = 0; k < n; ++k) {
      s.step();
      const Vec3 P = p.mass[0] * p.vel[0] + p.mass[1] * p.vel[1];  // members, mid-step t_{k+1/2}
      maxP = std::max(maxP, (P - m * (v0 + g * (k + 0.5) * dt)).norm() / (m * v0.norm()));
      maxL = std::max(maxL, (p.angMomOf(b) - L0).norm() / L0.norm());
      maxD = std::max(maxD, std::abs((p.pos[0] - p.pos[1]).norm() / dist0 - 1));
    }
    const Vec3 xRef = x0 + v0 * T + 0.5 * g * T * T;
    out.errors["momentum_rel"] = maxP;
    out.errors["centroid_rel"] = (p.pos[b] - xRef).norm() / (v0.norm() * T + 0.5 * g.norm() * T * T);
    out.errors["angmom_change_rel"] = maxL;
    out.errors["member_distance_rel"] = maxD;
    const auto ref = ref::odeintRigidBody({q0, q0.conjugate() * w0}, I, {T}).front();
    out.errors["orientation_err"] = rotationAngleBetween(p.ori[b], ref.q);
    return out;
  };
  return c;
}

}  // namespace dem::verify
