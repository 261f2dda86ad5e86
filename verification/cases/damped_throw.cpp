// Case: a sphere thrown upward under Cundall damping (verification theory, section 5.3).
// Scenario:  v0 = 5 m/s up, g = -9.81 z, lambda = 0.3, dt = 1e-4 s, adjusted start.
// Reference: the body decelerates at g (1 + lambda) until the apex, height v0^2 / (2 g (1 + lambda))
//            (closed form; the Odeint integration of the piecewise ODE agrees, see the reference
//            unit tests).
// Tolerance: relative 1e-4 at dt = 1e-4 s (theory section 5.3): the damping sign switches a whole
//            step at a time at the apex, an O(lambda g dt^2) effect, plus the sampling of the apex on
//            the step grid, O(g dt^2 / 8); both are far below 1e-4 of 0.98 m.
#include "cases/registry.hpp"
#include "solver/builders.hpp"

#include <dem_reference/free_fall.hpp>

namespace dem::verify {

Case dampedThrowCase() {
  Case c;
  c.name = "damped_throw";
  c.title = "Cundall damping: thrown-up apex height v0^2/(2 g (1+lambda))";
  c.dts = {1e-4};
  c.quantities.push_back(theoryBound("damping switch O(lambda g dt^2) + apex sampling (theory 5.3)",
                                     {"apex_height_rel", [](double) { return 1e-4; }, std::nullopt}));
  c.run = [](double dt) {
    const double v0 = 5.0, g = 9.81, lambda = 0.3;
    Scene s = singleSphereScene(Vec3::Zero(), Vec3(0, 0, v0), Vec3(0, 0, -g), dt);
    s.setDamping(lambda);
    double apex = 0.0;
    Series ts{"trajectory", {"t", "z"}, {}};
    while (s.time < 2 * v0 / g) {
      s.step();
      apex = std::max(apex, s.particles.pos[0].z());
      if (s.stepCount % 50 == 0) ts.rows.push_back({s.time, s.particles.pos[0].z()});
    }
    RunOutput out;
    const double ref = ref::dampedApexHeight(v0, g, lambda);
    out.errors["apex_height_rel"] = std::abs(apex - ref) / ref;
    out.series.push_back(std::move(ts));
    return out;
  };
  return c;
}

}  // namespace dem::verify
