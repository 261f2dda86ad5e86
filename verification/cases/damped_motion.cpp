// Case: Cundall numerical damping on free motion (seed eq. (34); verification theory, section 5.3).
// Scenario:  lambda = 0.3, T = 1 s, dt = 1e-2 ... 1.25e-3, adjusted start:
//            (a) a sphere falling from rest under g = -9.81 z;
//            (b) a sphere in uniform motion v = (2.5, -1, 0.5) with no force, lambda = 0.8;
//            (c) a sphere at rest under a constant torque about z (no gravity): angular motion.
// Reference: (a) z(T) = z0 + g (1 - lambda) T^2/2, exact for the scheme when the first half-step
//            uses the damped acceleration (theory finding 10); (b) velocity unchanged, bitwise;
//            (c) angle = alpha (1 - lambda) T^2/2 about z, alpha = T_z/I.
// Tolerance: (a) relative 1e-12 of the drop (round-off); (b) exactly 0; (c) 100 eps N theta
//            (round-off of N quaternion compositions, theory section 0.3). No orders: all exact.
#include "cases/registry.hpp"
#include "solver/builders.hpp"

#include <dem_reference/free_fall.hpp>

#include <limits>

namespace dem::verify {

Case dampedMotionCase() {
  Case c;
  c.name = "damped_motion";
  c.title = "Cundall damping: fall at g(1-lambda), no effect on uniform motion, rotation damped alike";
  c.dts = halvings(1e-2, 4);
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const double lambda = 0.3, T = 1.0, alpha = 2.0;
  const double theta = alpha * (1 - lambda) * T * T / 2;
  c.quantities.push_back(roundOffTolerance({"fall_z_rel", [](double) { return 1e-12; }, std::nullopt}));
  c.quantities.push_back(roundOffTolerance({"uniform_velocity_change", [](double) { return 0.0; }, std::nullopt}));
  c.quantities.push_back(roundOffTolerance(
      {"rotation_angle_err", [=](double dt) { return 100 * eps * std::round(T / dt) * theta; }, std::nullopt},
      "100 eps N theta (N quaternion compositions)"));
  c.run = [=](double dt) {
    RunOutput out;
    const int n = static_cast<int>(std::lround(T / dt));
    {
      const Vec3 g(0, 0, -9.81), x0(0, 0, 10);
      Scene s = singleSphereScene(x0, Vec3::Zero(), g, dt);
      s.setDamping(lambda);
      s.run(n);
      const auto ref = ref::dampedFallFromRest(x0, g, lambda);
      out.errors["fall_z_rel"] = std::abs(s.particles.pos[0].z() - ref.position(T).z()) / (9.81 * T * T / 2);
    }
    {
      const Vec3 v0(2.5, -1.0, 0.5);
      Scene s = singleSphereScene(Vec3::Zero(), v0, Vec3::Zero(), dt);
      s.setDamping(0.8);
      s.run(n);
      out.errors["uniform_velocity_change"] = (s.particles.vel[0] - v0).cwiseAbs().maxCoeff();
    }
    {
      Scene s = singleSphereScene(Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), dt);
      s.setDamping(lambda);
      const double I = s.particles.inertia[0][0];
      Series ts{"rotation", {"t", "angle", "angle_ref"}, {}};
      s.externalForces = [=](Particles& p, double) { p.torque[0] += Vec3(0, 0, alpha * I); };
      for (int k = 1; k <= n; ++k) {
        s.step();
        const double t = k * dt;
        const Quat q = s.particles.ori[0];
        ts.rows.push_back({t, 2 * std::atan2(q.z(), q.w()), alpha * (1 - lambda) * t * t / 2});
      }
      const Quat qRef(Eigen::AngleAxisd(theta, Vec3::UnitZ()));
      out.errors["rotation_angle_err"] = rotationAngleBetween(s.particles.ori[0], qRef);
      out.series.push_back(std::move(ts));
    }
    return out;
  };
  return c;
}

}  // namespace dem::verify
