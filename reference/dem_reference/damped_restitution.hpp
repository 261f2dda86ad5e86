#pragma once
// Restitution of damped normal impacts (verification theory 2, sections 1.3, 2.1 and 2.2).
//
//  * Linear spring-dashpot (LSD), m* d'' + c d' + k d = 0, zeta = c/(2 sqrt(k m*)), two conventions:
//    TensionAllowed (contact until d = 0) and ForceZero (F = max(0, k d + c d'), contact until the
//    force vanishes; Schwager & Poschel 2007). Closed forms, the inverse zeta(e) by bisection.
//  * The exact restitution of the undamped linear impact under the kick-drift leapfrog (1.3).
//  * Hertz with Tsuji damping, F = K d^(3/2) + alpha sqrt(m* K) d^(1/4) d'. Normalised by
//    d* = (m* v^2/K)^(2/5), tau = d*/v (y = d/d*, s = t/tau) it reads
//      y'' + alpha max(y,0)^(1/4) y' + max(y,0)^(3/2) = 0,  y(0) = 0, y'(0) = 1      (theory 2, 2.2)
//    and e_Hertz(alpha) = e_LSD(alpha/sqrt5) in both conventions (Antypov & Elliott 2011): the closed
//    form, and an independent Boost.Odeint integration (controlled dopri5 with dense output, tol
//    1e-12; the end located by bisection on the dense output to 1e-14 in s). Its e agrees with the
//    closed form to 1e-10..3e-10 (limited by the non-Lipschitz y^(1/4) at the start; 2e-12 at tol
//    1e-14), the elastic contact time to 1e-11.
// Header-only; depends on nothing of the solver.

#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace dem::ref {

enum class ContactEnd { TensionAllowed, ForceZero };

// Tension allowed: e = exp(-pi zeta / sqrt(1 - zeta^2)), zeta < 1 (theory 2, 2.1).
inline double lsdRestitutionTension(double zeta) {
  if (!(zeta >= 0 && zeta < 1)) throw std::invalid_argument("lsdRestitutionTension: need 0 <= zeta < 1");
  return std::exp(-std::numbers::pi * zeta / std::sqrt(1.0 - zeta * zeta));
}

// Tension allowed: zeta = -ln e / sqrt(pi^2 + ln^2 e) (theory 2, 2.1).
inline double lsdZetaTension(double e) {
  const double L = std::log(e);
  return -L / std::sqrt(std::numbers::pi * std::numbers::pi + L * L);
}

// Tension allowed: w0 t_c = pi / sqrt(1 - zeta^2) (t_c = pi/w_d, theory 2, 2.1).
inline double lsdContactTimeTension(double zeta) {
  if (!(zeta >= 0 && zeta < 1)) throw std::invalid_argument("lsdContactTimeTension: need 0 <= zeta < 1");
  return std::numbers::pi / std::sqrt(1.0 - zeta * zeta);
}

// Force zero: w0 t_c, the first zero of k d + c d' (theory 2, 2.1):
//   zeta < 1: phi / sqrt(1 - zeta^2), phi = atan2(2 zeta sqrt(1-zeta^2), 2 zeta^2 - 1);
//   zeta = 1: 2;   zeta > 1: atanh(2 zeta s / (2 zeta^2 - 1)) / s, s = sqrt(zeta^2 - 1).
inline double lsdContactTimeForceZero(double zeta) {
  if (!(zeta > 0)) throw std::invalid_argument("lsdContactTimeForceZero: need zeta > 0");
  if (zeta < 1) {
    const double r = std::sqrt(1.0 - zeta * zeta);
    return std::atan2(2.0 * zeta * r, 2.0 * zeta * zeta - 1.0) / r;
  }
  if (zeta == 1) return 2.0;
  const double s = std::sqrt(zeta * zeta - 1.0);
  return std::atanh(2.0 * zeta * s / (2.0 * zeta * zeta - 1.0)) / s;
}

// Force zero: e = exp(-zeta w0 t_c), the velocity at the force zero (theory 2, 2.1); e(1) = e^-2.
inline double lsdRestitutionForceZero(double zeta) {
  if (zeta == 0) return 1.0;
  return std::exp(-zeta * lsdContactTimeForceZero(zeta));
}

// Force zero: zeta(e) by bisection of the decreasing e(zeta) to round-off (no closed inverse, 2.1).
inline double lsdZetaForceZero(double e) {
  if (!(e > 0 && e <= 1)) throw std::invalid_argument("lsdZetaForceZero: need 0 < e <= 1");
  if (e == 1) return 0.0;
  double a = 0.0, b = 1.0;
  while (lsdRestitutionForceZero(b) > e) b *= 2.0;
  for (int it = 0; it < 200 && b - a > 1e-16 * b; ++it) {
    const double m = 0.5 * (a + b);
    (lsdRestitutionForceZero(m) > e ? a : b) = m;
  }
  return 0.5 * (a + b);
}

inline double lsdRestitution(double zeta, ContactEnd end) {
  return end == ContactEnd::TensionAllowed ? lsdRestitutionTension(zeta) : lsdRestitutionForceZero(zeta);
}
inline double lsdZeta(double e, ContactEnd end) {
  return end == ContactEnd::TensionAllowed ? lsdZetaTension(e) : lsdZetaForceZero(e);
}

// Exact restitution of the undamped linear impact under the leapfrog (theory 2, 1.3), from the
// phase advance th = 2 asin(w dt/2) (leapfrogTheta, oscillator.hpp) and the last free overlap -s v dt, 0 <= s < 1:
//   tan(th sig) = s sin th / (1 - s + s cos th),  sig' = frac(sig + pi/th),
//   e_num = cos(th (sig' - 1/2)) / cos(th (sig - 1/2)).
inline double leapfrogLinearRestitution(double theta, double s) {
  if (!(s >= 0 && s < 1 && theta > 0 && theta < std::numbers::pi))
    throw std::invalid_argument("leapfrogLinearRestitution: need 0 <= s < 1, 0 < theta < pi");
  const double sig = std::atan2(s * std::sin(theta), 1.0 - s + s * std::cos(theta)) / theta;
  const double x = sig + std::numbers::pi / theta;
  const double sigp = x - std::floor(x);
  return std::cos(theta * (sigp - 0.5)) / std::cos(theta * (sig - 0.5));
}

// Its maximum over entry phases, max abs(e_num - 1) = (th^2/2) c (1 - c), c = frac(pi/th) (1.3).
inline double leapfrogLinearRestitutionMaxError(double theta) {
  const double x = std::numbers::pi / theta, c = x - std::floor(x);
  return theta * theta / 2.0 * c * (1.0 - c);
}

// Tsuji coefficient giving restitution e: alpha = sqrt(5) zeta_LSD(e) in either convention (2.2).
// (The "standard" 2 sqrt(5/6) beta sqrt(S_n m*) dashpot is alpha = sqrt(5) beta.)
inline double hertzDampingAlpha(double e, ContactEnd end) { return std::sqrt(5.0) * lsdZeta(e, end); }

// Closed-form restitution of damped Hertz: e_Hertz(alpha) = e_LSD(alpha / sqrt5) (theory 2, 2.2).
inline double dampedHertzRestitution(double alpha, ContactEnd end) {
  return lsdRestitution(alpha / std::sqrt(5.0), end);
}

struct DampedHertzImpactResult {
  double e;            // -d'(t_c) / v
  double contactTime;  // t_c [s]
  double sEnd;         // t_c / tau, tau = d*/v
};

// Boost.Odeint on the damped Hertz impact, m* d'' = -K d^(3/2) - alpha sqrt(m* K) d^(1/4) d',
// d(0) = 0, d'(0) = v. The state is scaled, (y, y') = (d/d*, d'/v), time s = t/tau; the force is
// evaluated in physical units. End: d = 0 (TensionAllowed) or F = 0, i.e. y^(5/4) + alpha y' = 0
// (ForceZero), bisected on the dense output to 1e-14 in s (theory 2, 2.2). Defaults: normalised.
inline DampedHertzImpactResult odeintDampedHertzImpact(double alpha, ContactEnd end, double K = 1.0,
                                                       double mstar = 1.0, double v = 1.0, double tol = 1e-12) {
  namespace odeint = boost::numeric::odeint;
  using State = std::array<double, 2>;
  const double dstar = std::pow(mstar * v * v / K, 0.4), tau = dstar / v, eta0 = alpha * std::sqrt(mstar * K);
  const auto rhs = [&](const State& z, State& dz, double) {
    const double d = std::max(z[0], 0.0) * dstar, dd = z[1] * v;
    const double F = K * std::pow(d, 1.5) + eta0 * std::pow(d, 0.25) * dd;
    dz[0] = z[1];
    dz[1] = -F / mstar * tau / v;
  };
  const auto ended = [&](const State& z) {
    const double y = std::max(z[0], 0.0);
    return z[0] <= 0.0 || (end == ContactEnd::ForceZero && std::pow(y, 1.25) + alpha * z[1] <= 0.0);
  };
  auto stepper = odeint::make_dense_output(tol, tol, odeint::runge_kutta_dopri5<State>());
  stepper.initialize(State{0.0, 1.0}, 0.0, 1e-3);
  for (int n = 0; n < 1000000 && stepper.current_time() < 100.0; ++n) {
    const auto [s0, s1] = stepper.do_step(rhs);
    if (!ended(stepper.current_state())) continue;
    double a = s0, b = s1;  // not ended at a, ended at b
    State z;
    while (b - a > 1e-14) {
      const double m = 0.5 * (a + b);
      if (m <= a || m >= b) break;
      stepper.calc_state(m, z);
      (ended(z) ? b : a) = m;
    }
    stepper.calc_state(b, z);
    return {-z[1], b * tau, b};
  }
  throw std::runtime_error("odeintDampedHertzImpact: contact did not end");
}

}  // namespace dem::ref
