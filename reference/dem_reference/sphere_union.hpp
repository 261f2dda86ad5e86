#pragma once
// Mass properties of the union of two equal spheres (radius R, density rho, centres a distance d
// apart on the x axis, 0 <= d <= 2R): the reference for the overlapping-clump grid integration.
// The union is axisymmetric about x; at abscissa x (origin at the midpoint) its cross-section is
// the larger of the two disks, r(x)^2 = R^2 - (|x| - d/2)^2 (for |x| >= d/2 or while the nearer
// sphere is the larger disk, which holds for all x since the far centre is farther). Then
//   m = rho int pi r^2 dx,  I_axial = rho int pi r^4 / 2 dx,  I_trans = rho int pi (r^4/4 + r^2 x^2) dx,
// piecewise polynomials of degree <= 6 on [0, d/2 + R] (doubled by symmetry), integrated exactly by
// 4-point Gauss-Legendre quadrature on [0, d/2] and [d/2, d/2 + R]. Header-only; nothing of the solver.

#include <array>
#include <cmath>
#include <numbers>

namespace dem::ref {

struct UnionMassProperties {
  double mass, axial, transverse;  // inertia about the centroid (the midpoint)
};

inline UnionMassProperties twoSphereUnion(double R, double d, double rho) {
  // 4-point Gauss-Legendre nodes/weights on [-1, 1]: exact for polynomials of degree <= 7.
  const std::array<double, 4> x4{-0.8611363115940526, -0.3399810435848563, 0.3399810435848563, 0.8611363115940526};
  const std::array<double, 4> w4{0.3478548451374538, 0.6521451548625461, 0.6521451548625461, 0.3478548451374538};
  UnionMassProperties u{0, 0, 0};
  const auto integrate = [&](double a, double b) {
    for (int k = 0; k < 4; ++k) {
      const double x = 0.5 * (a + b) + 0.5 * (b - a) * x4[static_cast<std::size_t>(k)];
      const double w = 0.5 * (b - a) * w4[static_cast<std::size_t>(k)];
      const double s = x - d / 2;
      const double r2 = R * R - s * s;
      u.mass += w * std::numbers::pi * r2;
      u.axial += w * std::numbers::pi * r2 * r2 / 2;
      u.transverse += w * std::numbers::pi * (r2 * r2 / 4 + r2 * x * x);
    }
  };
  if (d > 0) integrate(0.0, d / 2);
  integrate(d / 2, d / 2 + R);
  u.mass *= 2 * rho;
  u.axial *= 2 * rho;
  u.transverse *= 2 * rho;
  return u;
}

}  // namespace dem::ref
