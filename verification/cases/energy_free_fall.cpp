// Case: energy ledger in free fall, undamped and damped, over 10^5 steps.
// Scenario:  x0 = (0,0,10), spin w0 = (0,4,1) rad/s, g = -9.81 z, dt = 1e-4 s, N = 10^5 steps
//            (T = 10 s); undamped projectile v0 = (3,0,5); damped (lambda = 0.3) fall with
//            v0 = (3,0,0), so the damped force is constant (a throw upward would switch the damping
//            sign at the apex and leave the bounded O(m g^2 lambda dt^2) remainder of energy.hpp).
// Reference: kinetic + rotational + gravitational potential + damping dissipation = E(t_0).
//            The ledger uses on-step velocities and the trapezoidal damping work; for constant
//            forces the leapfrog's energy identity then has no remainder (energy.hpp), so the sum is
//            exact up to round-off.
// Tolerance: round-off of N accumulated steps: 100 eps N relative to the largest term's magnitude
//            (theory section 0.3), i.e. 2.2e-9 at N = 10^5.
#include "cases/registry.hpp"
#include "solver/builders.hpp"

#include <limits>

namespace dem::verify {

Case energyFreeFallCase() {
  Case c;
  c.name = "energy_free_fall";
  c.title = "energy ledger constant in undamped and damped free flight over 1e5 steps";
  c.dts = {1e-4};
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const int N = 100000;
  c.quantities.push_back(roundOffTolerance({"undamped_total_rel", [=](double) { return 100 * eps * N; }, std::nullopt},
                                           "100 eps N (N steps)"));
  c.quantities.push_back(roundOffTolerance({"damped_total_rel", [=](double) { return 100 * eps * N; }, std::nullopt},
                                           "100 eps N (N steps)"));
  c.run = [=](double dt) {
    RunOutput out;
    for (double lambda : {0.0, 0.3}) {
      const Vec3 v0 = lambda > 0 ? Vec3(3, 0, 0) : Vec3(3, 0, 5);
      Scene s = singleSphereScene(Vec3(0, 0, 10), v0, Vec3(0, 0, -9.81), dt);
      s.particles.angVel[0] = Vec3(0, 4, 1);
      s.setDamping(lambda);
      s.step();
      const double e0 = s.energy.total();
      double worst = 0.0, scale = 0.0;
      Series ts{lambda > 0 ? "damped" : "undamped", {"t", "kinetic", "rotational", "gravity", "damping", "total"}, {}};
      for (int k = 1; k < N; ++k) {
        s.step();
        const EnergyLedger& e = s.energy;
        scale = std::max({scale, std::abs(e.kinetic), std::abs(e.gravity), std::abs(e.dampingDissipated),
                          std::abs(e.rotational)});
        worst = std::max(worst, std::abs(e.total() - e0));
        if (k % 2000 == 0)
          ts.rows.push_back({e.time, e.kinetic, e.rotational, e.gravity, e.dampingDissipated, e.total()});
      }
      out.errors[lambda > 0 ? "damped_total_rel" : "undamped_total_rel"] = worst / scale;
      out.series.push_back(std::move(ts));
    }
    return out;
  };
  return c;
}

}  // namespace dem::verify
