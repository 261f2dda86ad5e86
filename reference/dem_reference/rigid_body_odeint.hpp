#pragma once
// Boost.Odeint reference for a rigid body: Euler's equations in the principal (body) frame plus
// quaternion kinematics (verification theory, section 3.4, "Odeint reference for any case"):
//   state (q_w, q_x, q_y, q_z, w1, w2, w3),  qdot = 1/2 q (0, w),
//   I_i w_i' = T_i + (I_j - I_k) w_j w_k   (T: body-frame torque, any function of t, q, w),
// integrated by a controlled Runge-Kutta-Dormand-Prince 5(4) stepper at abs/rel tolerance 1e-12; q is
// normalised only at output. q maps body to space. Header-only; includes nothing of the solver.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <boost/numeric/odeint.hpp>

#include <array>
#include <vector>

namespace dem::ref {

struct RigidBodyState {
  Eigen::Quaterniond q = Eigen::Quaterniond::Identity();  // body -> space
  Eigen::Vector3d w = Eigen::Vector3d::Zero();            // body-frame angular velocity
};

struct NoTorque {
  Eigen::Vector3d operator()(double, const Eigen::Quaterniond&, const Eigen::Vector3d&) const {
    return Eigen::Vector3d::Zero();
  }
};

// States at the requested increasing times (times[0] >= 0 is reached from t = 0). The integration
// runs from one output time to the next, so no dense-output interpolation enters the reference.
template <class TorqueBody = NoTorque>
std::vector<RigidBodyState> odeintRigidBody(const RigidBodyState& s0, const Eigen::Vector3d& I,
                                            const std::vector<double>& times, TorqueBody torque = {},
                                            double tol = 1e-12) {
  using State = std::array<double, 7>;
  namespace odeint = boost::numeric::odeint;
  auto rhs = [&](const State& s, State& ds, double t) {
    const Eigen::Quaterniond q(s[0], s[1], s[2], s[3]);
    const Eigen::Vector3d w(s[4], s[5], s[6]);
    const Eigen::Vector3d T = torque(t, q, w);
    // qdot = 1/2 q (0, w)
    ds[0] = 0.5 * (-q.x() * w[0] - q.y() * w[1] - q.z() * w[2]);
    ds[1] = 0.5 * (q.w() * w[0] - q.z() * w[1] + q.y() * w[2]);
    ds[2] = 0.5 * (q.z() * w[0] + q.w() * w[1] - q.x() * w[2]);
    ds[3] = 0.5 * (-q.y() * w[0] + q.x() * w[1] + q.w() * w[2]);
    ds[4] = (T[0] + (I[1] - I[2]) * w[1] * w[2]) / I[0];
    ds[5] = (T[1] + (I[2] - I[0]) * w[2] * w[0]) / I[1];
    ds[6] = (T[2] + (I[0] - I[1]) * w[0] * w[1]) / I[2];
  };
  State s{s0.q.w(), s0.q.x(), s0.q.y(), s0.q.z(), s0.w[0], s0.w[1], s0.w[2]};
  auto stepper = odeint::make_controlled(tol, tol, odeint::runge_kutta_dopri5<State>());
  std::vector<RigidBodyState> out;
  double t = 0.0;
  for (double tOut : times) {
    if (tOut > t) odeint::integrate_adaptive(stepper, rhs, s, t, tOut, (tOut - t) * 1e-2);
    t = tOut;
    RigidBodyState r;
    r.q = Eigen::Quaterniond(s[0], s[1], s[2], s[3]).normalized();
    r.w = Eigen::Vector3d(s[4], s[5], s[6]);
    out.push_back(r);
  }
  return out;
}

}  // namespace dem::ref
