// Case: free fall and projectile without the first-step adjustment (what Yade and Woo do by default
//            when adjVel0 is off: the user's v0 is taken as v(-dt/2)).
// Scenario:  as free_fall_adjusted (x0 = (0,0,10), v0 = 0 and (3,0,5), g = -9.81 z, T = 1 s).
// Reference: the scheme's discrete solution x_n = x(t_n) + g dt t_n/2 (verification theory,
//            section 1): the trajectory of a body launched with v0 + g dt/2.
// Tolerance: the offset formula holds to round-off, relative 1e-12 of the position scale. Against
//            the continuum the error is exactly |g| dt T/2: first order, gated as slope 1 +- 0.02
//            and error <= (1 + 1e-9) |g| dt T / 2 at every dt; the horizontal motion is exact (1e-12).
#include "cases/registry.hpp"
#include "solver/builders.hpp"

#include <dem_reference/free_fall.hpp>

namespace dem::verify {

Case freeFallUnadjustedCase() {
  Case c;
  c.name = "free_fall_unadjusted";
  c.title = "free fall without first-step adjustment: offset g dt t/2, order 1";
  c.dts = halvings(1e-2, 4);
  const double T = 1.0, g = 9.81;
  const auto exact = [](double) { return 1e-12; };
  c.quantities.push_back(roundOffTolerance({"offset_formula_rel", exact, std::nullopt}));
  c.quantities.push_back(roundOffTolerance({"projectile_horizontal_rel", exact, std::nullopt}));
  c.quantities.push_back({"position_error_vs_continuum", [=](double dt) { return (1 + 1e-9) * g * dt * T / 2; },
                          OrderSpec{1.0, 0.98, 1.02, 1e-12}});
  c.run = [=](double dt) {
    RunOutput out;
    const Vec3 gv(0, 0, -g), x0(0, 0, 10);
    double offsetErr = 0, horizErr = 0, contErr = 0;
    for (const Vec3& v0 : {Vec3(0, 0, 0), Vec3(3, 0, 5)}) {
      Scene s = singleSphereScene(x0, v0, gv, dt);
      s.setAdjVel0(false);
      const int n = static_cast<int>(std::lround(T / dt));
      s.run(n);
      const ref::LeapfrogConstantAcceleration lf{{x0, v0, gv}, false};
      const double xScale = x0.norm() + v0.norm() * T + g * T * T / 2;
      offsetErr = std::max(offsetErr, (s.particles.pos[0] - lf.position(n, dt)).norm() / xScale);
      horizErr = std::max(horizErr, std::abs(s.particles.pos[0].x() - lf.exact.position(n * dt).x()) / xScale);
      contErr = std::max(contErr, (s.particles.pos[0] - lf.exact.position(n * dt)).norm());
    }
    out.errors["offset_formula_rel"] = offsetErr;
    out.errors["projectile_horizontal_rel"] = horizErr;
    out.errors["position_error_vs_continuum"] = contErr;
    return out;
  };
  return c;
}

}  // namespace dem::verify
