#pragma once
// Symmetric top driven by a constant body-frame torque along its symmetry axis: the check of
// Yade's three rotation algorithms (del Valle et al. 2023; Yade's checkAsphericalRotation test: a
// steel cylinder with its axis along body x, I = (Ia, It, It), torque (tau, 0, 0) in the body).
// Euler's equations: Ia w1' = tau, It w2' = (It - Ia) w3 w1, It w3' = -(It - Ia) w1 w2, so
//   w1(t) = w1(0) + tau t / Ia,
//   (w2 + i w3)(t) = (w2 + i w3)(0) exp(-i c Phi(t)),  c = (It - Ia)/It,  Phi = w1(0) t + tau t^2/(2 Ia).
// (Closed form for the body angular velocity; the orientation has no elementary closed form and is
// taken from the Odeint reference, rigid_body_odeint.hpp.) Header-only; nothing of the solver.

#include <Eigen/Core>

#include <cmath>

namespace dem::ref {

struct TorqueDrivenTop {
  double Ia, It, tau;
  Eigen::Vector3d w0;  // body frame

  Eigen::Vector3d inertia() const { return Eigen::Vector3d(Ia, It, It); }
  Eigen::Vector3d torqueBody() const { return Eigen::Vector3d(tau, 0, 0); }

  Eigen::Vector3d omegaBody(double t) const {
    const double c = (It - Ia) / It;
    const double phi = c * (w0[0] * t + tau * t * t / (2 * Ia));
    const double cs = std::cos(phi), sn = std::sin(phi);
    return Eigen::Vector3d(w0[0] + tau * t / Ia, w0[1] * cs + w0[2] * sn, w0[2] * cs - w0[1] * sn);
  }
};

}  // namespace dem::ref
