#pragma once
// Torque-free symmetric top (I1 = I2 != I3) in closed form (verification theory, section 3.3):
//   body frame  w3 = const, (w1 + i w2)(t) = (w1 + i w2)(0) exp(i Omega t), Omega = (I3 - I1) w3 / I1;
//   space frame L = R(q0) I w0 constant; the symmetry axis e3 precesses about L at |L|/I1 on a cone
//               of half-angle acos(L3/|L|);
//   orientation q(t) = Q(L/|L|, |L| t / I1) q0 Q(e3, psidot t), psidot = L3 (I1 - I3)/(I1 I3) = -Omega.
// q maps body to space. Header-only; includes nothing of the solver.

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <cmath>
#include <stdexcept>

namespace dem::ref {

struct SymmetricTop {
  double I1, I3;            // I = (I1, I1, I3)
  Eigen::Vector3d w0;       // body-frame angular velocity at t = 0
  Eigen::Quaterniond q0;    // orientation at t = 0

  SymmetricTop(double i1, double i3, const Eigen::Vector3d& w, const Eigen::Quaterniond& q)
      : I1(i1), I3(i3), w0(w), q0(q.normalized()) {
    if (!(I1 > 0 && I3 > 0)) throw std::invalid_argument("SymmetricTop: moments must be > 0");
  }

  double bodyPrecessionRate() const { return (I3 - I1) * w0[2] / I1; }  // Omega
  Eigen::Vector3d angularMomentum() const {                              // space frame
    return q0 * Eigen::Vector3d(I1 * w0[0], I1 * w0[1], I3 * w0[2]);
  }
  double spacePrecessionRate() const { return angularMomentum().norm() / I1; }  // |L| / I1
  double coneHalfAngle() const { return std::acos(I3 * w0[2] / angularMomentum().norm()); }

  Eigen::Vector3d omegaBody(double t) const {
    const double a = bodyPrecessionRate() * t;
    const double c = std::cos(a), s = std::sin(a);
    return Eigen::Vector3d(w0[0] * c - w0[1] * s, w0[0] * s + w0[1] * c, w0[2]);
  }

  Eigen::Quaterniond orientation(double t) const {
    const Eigen::Vector3d L = angularMomentum();
    const Eigen::Quaterniond space(Eigen::AngleAxisd(spacePrecessionRate() * t, L.normalized()));
    const Eigen::Quaterniond body(Eigen::AngleAxisd(-bodyPrecessionRate() * t, Eigen::Vector3d::UnitZ()));
    return (space * q0 * body).normalized();
  }

  double energy() const { return 0.5 * (I1 * (w0[0] * w0[0] + w0[1] * w0[1]) + I3 * w0[2] * w0[2]); }
};

}  // namespace dem::ref
