// Case: a spherical body put through the aspherical rotation path gives the spherical path's result.
// Scenario:  sphere (R = 0.1 m, 2600 kg/m^3), q0 = 0.9 rad about (0.3, -1, 0.5), T = 10 s,
//            dt = 0.01 ... 0.00125, adjusted start. The scene integrates it with the spherical update
//            q(t+dt) = Quaternion(w dt) q(t); beside it, rotateAspherical() (solver/rotation.hpp) is
//            stepped with the same inertia: (a) constant spin w = (0.3, -1.2, 2) rad/s, all four
//            algorithms; (b) SPIRAL with a constant space torque (alpha = (0.5, 1, -2) rad/s^2)
//            from rest.
// Reference: the spherical path. For I1 = I2 = I3 Euler's equations have no gyroscopic term, so:
//            SPIRAL's omega update is the spherical kick (also with the adjusted half step) and its
//            quaternion update q Quaternion(w_b dt) = Quaternion(R w_b dt) q is the spherical one: equal
//            to round-off. Fincham and Omelyan replace the exact increment by a truncated one whose
//            rotation angle per step differs by a known amount (expanding tan(phi/2)): with
//            x = |w| dt/2 the increments are x + 3x^3/8 (A&T, normalised q(t+dt/2)),
//            x + x^3/2 (Yade/Woo variant) in tan(phi/2), and the Cayley angle 4 atan(|w| dt/4) (Omelyan),
//            instead of tan(x) and |w| dt: phase lags |w| T (|w| dt)^2 / 96, / 24 and / 48 respectively.
// Tolerance: SPIRAL: 100 eps N rad (round-off of N quaternion compositions, theory 0.3).
//            Fincham/Omelyan: |difference / predicted lag - 1| <= 0.02 (the next term of the expansion
//            is O((|w| dt)^2) relative, 4e-4 at the coarsest level; round-off is < 1e-6 of the lag).
//            No order: the difference is the predicted one at every level.
#include "cases/registry.hpp"
#include "cases/rigid_common.hpp"

#include <limits>

namespace dem::verify {

Case sphericalThroughAsphericalCase() {
  using namespace rigid;
  Case c;
  c.name = "spherical_through_aspherical";
  c.title = "Sphere through the aspherical update: SPIRAL = spherical path; Fincham/Omelyan by their known lag";
  c.dts = halvings(0.01, 4);
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const double T = 10.0;
  const Vec3 w(0.3, -1.2, 2.0), alpha(0.5, 1.0, -2.0);
  const double W = w.norm();
  const Quat q0 = arbitraryQ0();
  const auto roundOff = [=](double dt) { return 100 * eps * (T / dt); };
  for (RotationAlgorithm a : kAlgorithms) {
    if (a == RotationAlgorithm::Spiral)
      c.quantities.push_back(
          roundOffTolerance({qname(a, "spin_err"), roundOff, std::nullopt}, "100 eps N (N quaternion compositions)"));
    else
      c.quantities.push_back(theoryBound("next term O((|w| dt)^2): 2 %",
                                         {qname(a, "lag_rel_dev"), [](double) { return 0.02; }, std::nullopt}));
  }
  c.quantities.push_back(
      roundOffTolerance({"spiral_torque_err", roundOff, std::nullopt}, "100 eps N (N quaternion compositions)"));

  const auto lagDivisor = [](RotationAlgorithm a) {
    switch (a) {
      case RotationAlgorithm::FinchamAT: return 96.0;
      case RotationAlgorithm::FinchamYade: return 24.0;
      case RotationAlgorithm::Omelyan: return 48.0;
      case RotationAlgorithm::Spiral: break;
    }
    return 0.0;
  };
  const auto runAspherical = [](RotationAlgorithm a, const Scene& s0, int n, const Vec3& torque) {
    RotationInput in;
    in.ori = s0.particles.ori[0];
    in.angVel = s0.particles.angVel[0];
    in.inertia = s0.particles.inertia[0];
    in.torque = torque;
    in.dt = s0.dt();
    in.first = true;
    for (int k = 0; k < n; ++k) {
      const RotationOutput o = rotateAspherical(a, in);
      in.ori = o.ori;
      in.angVel = o.angVel;
      in.angMom = o.angMom;
      in.first = false;
    }
    return in.ori;
  };

  c.run = [=](double dt) {
    RunOutput out;
    const int n = stepsFor(T, dt);
    {
      Scene s = singleSphereScene(Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), dt);
      s.particles.ori[0] = q0;
      s.particles.angVel[0] = w;
      const Scene start = s;
      s.run(static_cast<std::uint64_t>(n));
      for (RotationAlgorithm a : kAlgorithms) {
        const double diff = rotationAngleBetween(runAspherical(a, start, n, Vec3::Zero()), s.particles.ori[0]);
        if (a == RotationAlgorithm::Spiral) {
          out.errors[qname(a, "spin_err")] = diff;
        } else {
          const double lag = W * T * (W * dt) * (W * dt) / lagDivisor(a);
          out.errors[qname(a, "lag_rel_dev")] = std::abs(diff / lag - 1.0);  // relative to the predicted lag
        }
      }
    }
    {
      Scene s = singleSphereScene(Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), dt);
      s.particles.ori[0] = q0;
      const Vec3 torque = s.particles.inertia[0][0] * alpha;
      s.externalForces = [=](Particles& p, double) { p.torque[0] += torque; };
      const Scene start = s;
      s.run(static_cast<std::uint64_t>(n));
      out.errors["spiral_torque_err"] =
          rotationAngleBetween(runAspherical(RotationAlgorithm::Spiral, start, n, torque), s.particles.ori[0]);
    }
    return out;
  };
  return c;
}

}  // namespace dem::verify
