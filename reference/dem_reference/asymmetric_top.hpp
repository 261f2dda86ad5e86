#pragma once
// Torque-free asymmetric top, I1 < I2 < I3, body angular velocity with Jacobi elliptic functions
// (verification theory, section 3.4; Landau & Lifshitz, Mechanics, section 37). Requires
// w2(0) = 0 and w1(0), w3(0) > 0 so that every sign below is +.
//   L^2 = sum (I_i w_i)^2, 2E = sum I_i w_i^2;
//   case A (L^2 > 2 E I2): w1 = a1 cn, w2 = a2 sn, w3 = a3 dn, with
//     a1 = sqrt((2EI3 - L^2)/(I1(I3-I1))), a2 = sqrt((2EI3 - L^2)/(I2(I3-I2))),
//     a3 = sqrt((L^2 - 2EI1)/(I3(I3-I1))), lambda = sqrt((I3-I2)(L^2-2EI1)/(I1 I2 I3)),
//     k^2 = (I2-I1)(2EI3-L^2) / ((I3-I2)(L^2-2EI1));
//   case B (L^2 < 2 E I2): w1 = a1 dn, w2 = a2 sn, w3 = a3 cn, with
//     a1 = sqrt((2EI3 - L^2)/(I1(I3-I1))), a2 = sqrt((L^2-2EI1)/(I2(I2-I1))),
//     a3 = sqrt((L^2 - 2EI1)/(I3(I3-I1))), lambda = sqrt((I2-I1)(2EI3-L^2)/(I1 I2 I3)),
//     k^2 = (I3-I2)(L^2-2EI1) / ((I2-I1)(2EI3-L^2));
//   argument tau = lambda t; period of w: 4 K(k)/lambda; w2 changes sign every 2 K(k)/lambda.
// Boost.Math jacobi_elliptic and ellint_1 take the modulus k (not m = k^2).
// Header-only; includes nothing of the solver.

#include <Eigen/Core>
#include <boost/math/special_functions/ellint_1.hpp>
#include <boost/math/special_functions/jacobi_elliptic.hpp>

#include <cmath>
#include <stdexcept>

namespace dem::ref {

// lambda, k and the case from the invariants alone (any phase, e.g. w2(0) != 0).
struct AsymmetricTopInvariants {
  bool caseA;
  double lambda, k;
  double flipInterval() const { return 2 * boost::math::ellint_1(k) / lambda; }  // 2 K(k)/lambda
  double period() const { return 4 * boost::math::ellint_1(k) / lambda; }
};

inline AsymmetricTopInvariants asymmetricTopInvariants(const Eigen::Vector3d& I, const Eigen::Vector3d& w) {
  const double L2 = I.cwiseProduct(w).squaredNorm(), E2 = w.dot(I.cwiseProduct(w));
  const double I1 = I[0], I2 = I[1], I3 = I[2];
  if (L2 > E2 * I2)
    return {true, std::sqrt((I3 - I2) * (L2 - E2 * I1) / (I1 * I2 * I3)),
            std::sqrt((I2 - I1) * (E2 * I3 - L2) / ((I3 - I2) * (L2 - E2 * I1)))};
  return {false, std::sqrt((I2 - I1) * (E2 * I3 - L2) / (I1 * I2 * I3)),
          std::sqrt((I3 - I2) * (L2 - E2 * I1) / ((I2 - I1) * (E2 * I3 - L2)))};
}

struct AsymmetricTop {
  Eigen::Vector3d I, w0;
  bool caseA = true;  // L^2 > 2 E I2
  double a1 = 0, a2 = 0, a3 = 0, lambda = 0, k = 0;

  AsymmetricTop(const Eigen::Vector3d& inertia, const Eigen::Vector3d& omega0) : I(inertia), w0(omega0) {
    if (!(I[0] > 0 && I[0] < I[1] && I[1] < I[2]))
      throw std::invalid_argument("AsymmetricTop: need 0 < I1 < I2 < I3");
    if (!(w0[1] == 0.0 && w0[0] > 0.0 && w0[2] > 0.0))
      throw std::invalid_argument("AsymmetricTop: need w2(0) = 0, w1(0) > 0, w3(0) > 0");
    const double L2 = angularMomentumSquared(), E2 = 2 * energy();
    const double I1 = I[0], I2 = I[1], I3 = I[2];
    const AsymmetricTopInvariants inv = asymmetricTopInvariants(I, w0);
    caseA = inv.caseA;
    lambda = inv.lambda;
    k = inv.k;
    a1 = std::sqrt((E2 * I3 - L2) / (I1 * (I3 - I1)));
    a3 = std::sqrt((L2 - E2 * I1) / (I3 * (I3 - I1)));
    a2 = caseA ? std::sqrt((E2 * I3 - L2) / (I2 * (I3 - I2))) : std::sqrt((L2 - E2 * I1) / (I2 * (I2 - I1)));
  }

  double angularMomentumSquared() const { return I.cwiseProduct(w0).squaredNorm(); }
  double energy() const { return 0.5 * w0.dot(I.cwiseProduct(w0)); }

  Eigen::Vector3d omegaBody(double t) const {
    double cn = 0, dn = 0;
    const double sn = boost::math::jacobi_elliptic(k, lambda * t, &cn, &dn);
    return caseA ? Eigen::Vector3d(a1 * cn, a2 * sn, a3 * dn) : Eigen::Vector3d(a1 * dn, a2 * sn, a3 * cn);
  }

  double period() const { return 4 * boost::math::ellint_1(k) / lambda; }
  // Time between sign changes of w2 (intermediate-axis flips): 2 K(k) / lambda.
  double flipInterval() const { return 2 * boost::math::ellint_1(k) / lambda; }
};

}  // namespace dem::ref
