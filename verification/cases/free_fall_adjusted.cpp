// Case: free fall and projectile, first-step adjustment on (Woo's adjVel0).
// Scenario:  one sphere, g = (0,0,-9.81), x0 = (0,0,10), v0 = 0 (free fall) or (3,0,5) (projectile),
//            no damping, T = 1 s, dt = 1e-2 ... 1.25e-3.
// Reference: x(t) = x0 + v0 t + g t^2/2 (verification theory, section 1); the stored velocity after
//            n steps is compared with v((n - 1/2) dt), the mid-step it represents.
// Tolerance: the adjusted leapfrog is exact for constant acceleration, so only round-off remains:
//            relative 1e-12 of the scale |x0| + |v0| T + |g| T^2/2 (velocity: |v0| + |g| T), the gate
//            of theory section 1 (about 100 eps N_steps at N = 800). No order: exact at every dt.
#include "cases/registry.hpp"
#include "solver/builders.hpp"

#include <dem_reference/free_fall.hpp>

namespace dem::verify {

Case freeFallAdjustedCase() {
  Case c;
  c.name = "free_fall_adjusted";
  c.title = "free fall and projectile, adjusted start: exact to round-off";
  c.dts = halvings(1e-2, 4);
  const auto exact = [](double) { return 1e-12; };
  for (const char* q : {"fall_x_rel", "fall_v_rel", "projectile_x_rel", "projectile_v_rel"})
    c.quantities.push_back(roundOffTolerance({q, exact, std::nullopt}));
  c.run = [](double dt) {
    RunOutput out;
    const double T = 1.0;
    const Vec3 g(0, 0, -9.81), x0(0, 0, 10);
    for (const Vec3& v0 : {Vec3(0, 0, 0), Vec3(3, 0, 5)}) {
      const std::string tag = v0.isZero() ? "fall" : "projectile";
      Scene s = singleSphereScene(x0, v0, g, dt);
      const int n = static_cast<int>(std::lround(T / dt));
      const ref::LeapfrogConstantAcceleration lf{{x0, v0, g}, true};
      Series ts{tag, {"t", "z", "z_ref", "vz_mid", "vz_ref"}, {}};
      for (int k = 1; k <= n; ++k) {
        s.step();
        if (k % std::max(1, n / 50) == 0)
          ts.rows.push_back({k * dt, s.particles.pos[0].z(), lf.position(k, dt).z(), s.particles.vel[0].z(),
                             lf.midStepVelocity(k, dt).z()});
      }
      const double xScale = x0.norm() + v0.norm() * T + g.norm() * T * T / 2;
      const double vScale = v0.norm() + g.norm() * T;
      out.errors[tag + "_x_rel"] = (s.particles.pos[0] - lf.position(n, dt)).norm() / xScale;
      out.errors[tag + "_v_rel"] = (s.particles.vel[0] - lf.midStepVelocity(n, dt)).norm() / vScale;
      out.series.push_back(std::move(ts));
    }
    return out;
  };
  return c;
}

}  // namespace dem::verify
