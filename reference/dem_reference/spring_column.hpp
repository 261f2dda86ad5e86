#pragma once
// A column of N equal spheres stacked on a wall under gravity, linear contact springs (verification
// theory 2, section 5; MFIX DEM03 type): sphere i (0 = bottom) has height z_i; the wall spring kw
// acts on the overlap R - z_0, the spring ks between i-1 and i on 2R - (z_i - z_{i-1}), each only
// while its overlap is positive. While every contact is closed the system is linear,
// M (z - z_s)'' = -K (z - z_s), K tridiagonal (K_00 = kw + ks, K_ii = 2 ks, K_{N-1,N-1} = ks,
// off-diagonal -ks), and both the continuum and the leapfrog's solution are sums of modes:
//   continuum  z(t) = z_s + sum_j phi_j q_j cos(w_j t)
//   leapfrog   z_n  = z_s + sum_j phi_j q_j cos(n th_j),  sin(th_j/2) = w_j dt/2
// (released from rest with the first-step adjustment, theory 2, 2.1 and 5). Header-only; depends on
// nothing of the solver.

#include <Eigen/Core>
#include <Eigen/Eigenvalues>

#include <cmath>
#include <cstddef>

namespace dem::ref {

struct SpringColumn {
  int n = 4;
  double m = 1, R = 1, kw = 1, ks = 1, g = 9.81;

  Eigen::Index size() const { return n; }
  // z of the unstressed column (every contact just touching): R, 3R, 5R, ...
  Eigen::VectorXd touching() const {
    Eigen::VectorXd z(n);
    for (Eigen::Index i = 0; i < n; ++i) z[i] = R + 2.0 * R * static_cast<double>(i);
    return z;
  }
  Eigen::MatrixXd stiffness() const {
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n, n);
    if (n < 1) return K;  // no spheres, no springs
    K(0, 0) = kw;
    for (Eigen::Index i = 1; i < n; ++i) {
      K(i - 1, i - 1) += ks;
      K(i, i) += ks;
      K(i - 1, i) -= ks;
      K(i, i - 1) -= ks;
    }
    return K;
  }
  // Static overlaps: the contact under sphere i carries (N - i) m g (theory 2, 5).
  Eigen::VectorXd staticOverlaps() const {
    Eigen::VectorXd u(n);
    for (Eigen::Index i = 0; i < n; ++i) u[i] = static_cast<double>(n - i) * m * g / (i == 0 ? kw : ks);
    return u;
  }
  // Heights from the overlaps under each sphere: z_i = z_{i-1} + 2R - u_i (z_{-1} = -R).
  Eigen::VectorXd heights(const Eigen::VectorXd& u) const {
    Eigen::VectorXd z(n);
    double below = -R;
    for (Eigen::Index i = 0; i < n; ++i) below = z[i] = below + 2.0 * R - u[i];
    return z;
  }
  // Lateral stiffness with rotations blocked (theory 2, 5, "Lateral perturbation"): slip s_0 = x_0 at
  // the wall, s_i = x_i - x_{i-1} above; K = sum k_t b b^T plus the geometric term -N_i/L_i of each
  // sphere contact's normal force tilting with s_i (N_i = (N - i) m g, L_i = 2R - u_i at rest).
  Eigen::MatrixXd lateralStiffness(double ktWall, double ktSphere) const {
    const Eigen::VectorXd u = staticOverlaps();
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n, n);
    K(0, 0) = ktWall;
    for (Eigen::Index i = 1; i < n; ++i) {
      const double k = ktSphere - static_cast<double>(n - i) * m * g / (2.0 * R - u[i]);
      K(i - 1, i - 1) += k;
      K(i, i) += k;
      K(i - 1, i) -= k;
      K(i, i - 1) -= k;
    }
    return K;
  }
  // Overlap under each sphere (contact i: wall for i = 0, else spheres i-1 and i).
  Eigen::VectorXd overlaps(const Eigen::VectorXd& z) const {
    Eigen::VectorXd u(n);
    for (Eigen::Index i = 0; i < n; ++i) u[i] = 2.0 * R - (z[i] - (i == 0 ? -R : z[i - 1]));
    return u;
  }
};

// Modal solution of the closed column released from rest at heights z0 (theory 2, 5).
struct ColumnModes {
  SpringColumn col;
  Eigen::VectorXd omega;  // w_j, ascending
  Eigen::MatrixXd phi;    // mass-normalised mode shapes (columns): phi^T M phi = I
  Eigen::VectorXd q;      // modal amplitudes q_j = phi_j^T M (z0 - z_s)
  Eigen::VectorXd zs;     // static heights

  ColumnModes(const SpringColumn& c, const Eigen::VectorXd& z0) : col(c) {
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(c.stiffness() / c.m);  // equal masses: K phi = w^2 m phi
    omega = es.eigenvalues().cwiseSqrt();
    phi = es.eigenvectors() / std::sqrt(c.m);
    zs = c.heights(c.staticOverlaps());
    q = c.m * phi.transpose() * (z0 - zs);
  }
  // Displacement from z_s: sum_j phi_j q_j f_j with f_j = cos(phase_j) (the phase modal-wise).
  template <class Phase>
  Eigen::VectorXd displacement(Phase phase) const {
    Eigen::VectorXd d = Eigen::VectorXd::Zero(col.size());
    for (Eigen::Index j = 0; j < col.size(); ++j) d += phi.col(j) * (q[j] * std::cos(phase(j)));
    return d;
  }
  // Continuum z(t) - z_s.
  Eigen::VectorXd continuum(double t) const {
    return displacement([&](Eigen::Index j) { return omega[j] * t; });
  }
  // Leapfrog z_n - z_s: th_j = 2 asin(w_j dt/2) (theory 2, 2.1).
  Eigen::VectorXd discrete(long step, double dt) const {
    return displacement(
        [&](Eigen::Index j) { return static_cast<double>(step) * 2.0 * std::asin(omega[j] * dt / 2.0); });
  }
  // Overlap displacement of mode j in contact i, c_ij (overlaps are linear in z).
  Eigen::MatrixXd overlapAmplitudes() const {
    Eigen::MatrixXd c(col.size(), col.size());
    for (Eigen::Index j = 0; j < col.size(); ++j) {
      const Eigen::VectorXd dz = phi.col(j) * q[j];
      for (Eigen::Index i = 0; i < col.size(); ++i) c(i, j) = -(dz[i] - (i == 0 ? 0.0 : dz[i - 1]));
    }
    return c;
  }
  // Sufficient condition for every contact to stay closed: sum_j |c_ij| < u_static,i (theory 2, 5).
  bool staysClosed() const {
    const Eigen::VectorXd us = col.staticOverlaps();
    const Eigen::MatrixXd c = overlapAmplitudes();
    for (Eigen::Index i = 0; i < col.size(); ++i)
      if (c.row(i).cwiseAbs().sum() >= us[i]) return false;
    return true;
  }
  // Bound on max_i |z_n,i - z_i(t_n)| up to time t: sum_j max_i |phi_ij q_j| |th_j/dt - w_j| t
  // (|cos a - cos b| <= |a - b|; theory 2, 5).
  double continuumBound(double dt, double t) const {
    double b = 0;
    for (Eigen::Index j = 0; j < col.size(); ++j)
      b += (phi.col(j) * q[j]).cwiseAbs().maxCoeff() * std::abs(2.0 * std::asin(omega[j] * dt / 2.0) / dt - omega[j]) *
           t;
    return b;
  }
};

}  // namespace dem::ref
