#pragma once
// Linear oscillator references (verification theory, section 2): the continuum solution, the
// leapfrog's own discrete solution (exact for the scheme, with and without the first-step
// adjustment), the numerical frequency, the growth factor above the critical timestep, and the
// critical timestep of a general linear system. Header-only; depends on nothing of the solver.
//
// The scheme:  x_{n+1} - 2 x_n + x_{n-1} = -(w dt)^2 x_n, roots lambda^2 - c lambda + 1 = 0 with
// c = 2 - (w dt)^2; for w dt < 2, lambda = exp(+-i theta), sin(theta/2) = w dt / 2 (theory 2.1).

#include <Eigen/Core>
#include <Eigen/Eigenvalues>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace dem::ref {

// Continuum solution of x'' = -w^2 x: x(t) = x0 cos wt + (v0/w) sin wt (theory 2.1).
struct HarmonicOscillator {
  double omega, x0, v0;
  double position(double t) const { return x0 * std::cos(omega * t) + v0 / omega * std::sin(omega * t); }
  double velocity(double t) const { return -x0 * omega * std::sin(omega * t) + v0 * std::cos(omega * t); }
  double energy(double m) const { return 0.5 * m * (v0 * v0 + omega * omega * x0 * x0); }
};

// Phase advance per step of the leapfrog, theta = 2 asin(w dt / 2) (theory 2.1); requires w dt <= 2.
inline double leapfrogTheta(double omega, double dt) { return 2.0 * std::asin(omega * dt / 2.0); }

// Numerical frequency w_num = theta / dt = (2/dt) asin(w dt/2) = w (1 + (w dt)^2/24 + ...) (theory 2.1).
inline double numericalFrequency(double omega, double dt) { return leapfrogTheta(omega, dt) / dt; }

// Critical timestep of a single mode, dt_cr = 2 / w (theory 2.1).
inline double criticalTimestep(double omega) { return 2.0 / omega; }

// Per-step growth factor |lambda| of the leapfrog on a mode w: 1 for w dt <= 2, else
// |c|/2 + sqrt(c^2/4 - 1) with c = 2 - (w dt)^2 (theory 2.3).
inline double growthFactor(double omega, double dt) {
  const double c = 2.0 - (omega * dt) * (omega * dt);
  if (std::abs(c) <= 2.0) return 1.0;
  return std::abs(c) / 2.0 + std::sqrt(c * c / 4.0 - 1.0);
}

// The leapfrog's discrete solution x_n for initial (on-step) x0, v0 (theory 2.1), w dt < 2:
//   adjusted   v_{1/2} = v0 - w^2 x0 dt/2:  x_n = x0 cos n theta + v0 / (w cos(theta/2)) sin n theta
//   unadjusted v_{1/2} = v0 - w^2 x0 dt  :  x_n = x0 cos n theta + (v0/w - x0 sin(theta/2)) / cos(theta/2) sin n theta
// (for v0 = 0 the latter is x0/cos(theta/2) cos(theta (n + 1/2)), theory 2.1).
struct LeapfrogOscillator {
  double omega, x0, v0;
  bool adjusted;

  double sinCoefficient(double dt) const {
    const double s = omega * dt / 2.0, c = std::sqrt(1.0 - s * s);  // sin, cos of theta/2
    return adjusted ? v0 / (omega * c) : (v0 / omega - x0 * s) / c;
  }
  double position(long n, double dt) const {
    if (!(omega * dt < 2.0)) throw std::invalid_argument("LeapfrogOscillator: w dt must be < 2");
    const double th = leapfrogTheta(omega, dt) * static_cast<double>(n);
    return x0 * std::cos(th) + sinCoefficient(dt) * std::sin(th);
  }
  // Stored (mid-step) velocity after n+1 steps, v_{n+1/2} = (x_{n+1} - x_n)/dt, in closed form.
  double midStepVelocity(long n, double dt) const {
    const double theta = leapfrogTheta(omega, dt), b = sinCoefficient(dt);
    const double a = theta * (static_cast<double>(n) + 0.5);
    // cos((n+1)th) - cos(n th) = -2 sin(a) sin(th/2); sin((n+1)th) - sin(n th) = 2 cos(a) sin(th/2)
    const double s = std::sin(theta / 2.0);
    return 2.0 * s * (-x0 * std::sin(a) + b * std::cos(a)) / dt;
  }
  // Discrete amplitude sqrt(x0^2 + b^2) of x_n = x0 cos n theta + b sin n theta.
  double amplitude(double dt) const { return std::hypot(x0, sinCoefficient(dt)); }
};

// Relative energy error of the adjusted, v0 = 0 oscillator with the on-step velocity
// v_n = (v_{n-1/2} + v_{n+1/2})/2: E_n/E_0 - 1 = -(w dt/2)^2 sin^2(n theta) (theory 2.2).
inline double leapfrogEnergyError(double omega, double dt, long n) {
  const double s = omega * dt / 2.0, sn = std::sin(leapfrogTheta(omega, dt) * static_cast<double>(n));
  return -s * s * sn * sn;
}

// Critical timestep of the linear system M x'' = -K x: dt_cr = 2 / sqrt(lambda_max(M^-1 K)),
// computed from the symmetric M^-1/2 K M^-1/2 (theory 2.4). M is diagonal (masses), K symmetric
// positive semi-definite. Returns +inf if K = 0.
inline double criticalTimestep(const Eigen::VectorXd& masses, const Eigen::MatrixXd& K) {
  if (K.rows() != masses.size() || K.cols() != masses.size())
    throw std::invalid_argument("criticalTimestep: K must be n x n for n masses");
  const Eigen::VectorXd s = masses.cwiseSqrt().cwiseInverse();
  const Eigen::MatrixXd A = s.asDiagonal() * K * s.asDiagonal();
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(A, Eigen::EigenvaluesOnly);
  const double lmax = eig.eigenvalues().maxCoeff();
  return lmax > 0.0 ? 2.0 / std::sqrt(lmax) : std::numeric_limits<double>::infinity();
}

}  // namespace dem::ref
