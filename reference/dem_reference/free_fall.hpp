#pragma once
// Closed-form references for a body under constant acceleration (verification theory, section 1
// and 5.3). Header-only; depends on nothing of the solver.

#include <Eigen/Core>

namespace dem::ref {

using V3 = Eigen::Vector3d;

// Continuum solution x(t) = x0 + v0 t + a t^2 / 2, v(t) = v0 + a t.
struct Ballistic {
  V3 x0, v0, a;
  V3 position(double t) const { return x0 + v0 * t + 0.5 * a * t * t; }
  V3 velocity(double t) const { return v0 + a * t; }
};

// The leapfrog's own discrete solution for constant acceleration a after n steps of size dt.
//  adjusted start   v(-dt/2) = v0 - a dt/2: x_n = x(t_n) exactly, v_{n+1/2} = v((n+1/2) dt);
//  unadjusted start v(-dt/2) = v0:          x_n = x(t_n) + a dt t_n / 2, v_{n+1/2} = v((n+1/2)dt) + a dt/2.
struct LeapfrogConstantAcceleration {
  Ballistic exact;
  bool adjusted;
  V3 position(int n, double dt) const {
    const double t = n * dt;
    return exact.position(t) + (adjusted ? V3::Zero().eval() : (0.5 * dt * t * exact.a).eval());
  }
  // Stored velocity after n steps, i.e. at the mid-step t_{n-1/2} (n >= 1).
  V3 midStepVelocity(int n, double dt) const {
    const double t = (n - 0.5) * dt;
    return exact.velocity(t) + (adjusted ? V3::Zero().eval() : (0.5 * dt * exact.a).eval());
  }
};

// Cundall local damping on a body falling from rest (or moving along g): the acceleration is
// g (1 - lambda) while force and motion are aligned (section 5.3).
inline Ballistic dampedFallFromRest(const V3& x0, const V3& g, double lambda) {
  return Ballistic{x0, V3::Zero(), g * (1.0 - lambda)};
}

// Thrown against gravity with speed v0 (along -g): decelerates at |g| (1 + lambda) to the apex.
inline double dampedApexHeight(double v0, double g, double lambda) {
  return v0 * v0 / (2.0 * g * (1.0 + lambda));
}

}  // namespace dem::ref
