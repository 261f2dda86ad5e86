#pragma once
// Boost.Odeint reference for a point mass under a constant force with Cundall local damping,
//   m x'' = F (1 - lambda sgn(F_w v_w))   per component w   (seed eq. (34), continuum form),
// integrated by a controlled Runge-Kutta-Dormand-Prince 5(4) stepper at abs/rel tolerance 1e-12.
// With lambda = 0 it is plain free fall / projectile motion: the second, independent reference.

#include <Eigen/Core>
#include <boost/numeric/odeint.hpp>

#include <array>
#include <cmath>

namespace dem::ref {

struct OdeintBallisticState {
  Eigen::Vector3d x, v;
};

inline OdeintBallisticState odeintBallistic(const Eigen::Vector3d& x0, const Eigen::Vector3d& v0,
                                            const Eigen::Vector3d& accel, double lambda, double tEnd,
                                            double tol = 1e-12) {
  using State = std::array<double, 6>;
  namespace odeint = boost::numeric::odeint;
  auto rhs = [&](const State& s, State& ds, double /*t*/) {
    for (int w = 0; w < 3; ++w) {
      const double v = s[3 + w];
      const double sgn = (accel[w] * v > 0) - (accel[w] * v < 0);
      ds[w] = v;
      ds[3 + w] = accel[w] * (1.0 - lambda * sgn);
    }
  };
  State s{x0[0], x0[1], x0[2], v0[0], v0[1], v0[2]};
  auto stepper = odeint::make_controlled(tol, tol, odeint::runge_kutta_dopri5<State>());
  odeint::integrate_adaptive(stepper, rhs, s, 0.0, tEnd, tEnd * 1e-3);
  return {Eigen::Vector3d(s[0], s[1], s[2]), Eigen::Vector3d(s[3], s[4], s[5])};
}

}  // namespace dem::ref
