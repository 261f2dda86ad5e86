#pragma once
// Hertz normal impact, elastic (verification theory 2, section 1.1; Johnson 1985, section 11.4):
//
//   m* d'' = -K d^(3/2),  K = (4/3) E* sqrt(R*),  d(0) = 0,  d'(0) = v  (v: relative approach speed)
//
// Energy m* v^2/2 = (2/5) K d_max^(5/2) gives d_max and F_max; the contact time is
// t_c = 2 (d_max/v) int_0^1 (1 - x^(5/2))^(-1/2) dx = (4/5) B(2/5, 1/2) d_max / v, and e = 1.
// The effective properties use the Hertz-Mindlin conventions of section 3.1. A rigid plane is body 2
// with E2 = G2 = R2 = m2 = +inf (the sums of reciprocals then drop its term). Header-only; depends on
// nothing of the solver.

#include <boost/math/special_functions/beta.hpp>

#include <cmath>

namespace dem::ref {

// Shear modulus of an isotropic material, G = E / (2 (1 + nu)).
inline double shearModulus(double E, double nu) { return E / (2.0 * (1.0 + nu)); }

// Effective modulus, 1/E* = (1 - nu1^2)/E1 + (1 - nu2^2)/E2 (theory 2, 1.1); rigid plane: E2 = inf.
inline double effectiveModulus(double E1, double nu1, double E2, double nu2) {
  return 1.0 / ((1.0 - nu1 * nu1) / E1 + (1.0 - nu2 * nu2) / E2);
}

// Effective shear modulus, 1/G* = (2 - nu1)/G1 + (2 - nu2)/G2 (theory 2, 3.1); rigid plane: G2 = inf.
inline double effectiveShearModulus(double G1, double nu1, double G2, double nu2) {
  return 1.0 / ((2.0 - nu1) / G1 + (2.0 - nu2) / G2);
}

// Effective radius, 1/R* = 1/R1 + 1/R2 (theory 2, 1.1); plane: R2 = inf.
inline double effectiveRadius(double R1, double R2) { return 1.0 / (1.0 / R1 + 1.0 / R2); }

// Effective mass, m* = m1 m2 / (m1 + m2) (theory 2, 1.1); fixed plane: m2 = inf.
inline double effectiveMass(double m1, double m2) { return 1.0 / (1.0 / m1 + 1.0 / m2); }

// Hertz stiffness, F = K d^(3/2) with K = (4/3) E* sqrt(R*) (theory 2, 1.1).
inline double hertzStiffness(double Estar, double Rstar) { return 4.0 / 3.0 * Estar * std::sqrt(Rstar); }

// Contact-duration constant, t_c = c d_max / v with c = (4/5) B(2/5, 1/2) = 2.94328 (theory 2, 1.1).
inline double hertzDurationConstant() { return 0.8 * boost::math::beta(0.4, 0.5); }

// The closed forms of one elastic Hertz impact (theory 2, 1.1).
struct HertzImpact {
  double K, mstar, v;

  HertzImpact(double Estar, double Rstar, double mstar_, double v_)
      : K(hertzStiffness(Estar, Rstar)), mstar(mstar_), v(v_) {}

  // d_max = (5 m* v^2 / (4 K))^(2/5), from m* v^2/2 = (2/5) K d_max^(5/2).
  double maxOverlap() const { return std::pow(5.0 * mstar * v * v / (4.0 * K), 0.4); }
  // F_max = K d_max^(3/2).
  double maxForce() const { return K * std::pow(maxOverlap(), 1.5); }
  // t_c = (4/5) B(2/5, 1/2) d_max / v.
  double contactTime() const { return hertzDurationConstant() * maxOverlap() / v; }
  // Length and time scales of the normalised form y'' = -y^(3/2) (theory 2, 2.2):
  // d* = (m* v^2 / K)^(2/5), tau = d*/v.
  double overlapScale() const { return std::pow(mstar * v * v / K, 0.4); }
  double timeScale() const { return overlapScale() / v; }
};

}  // namespace dem::ref
