#pragma once
// Oblique elastic impact under Hertz-Mindlin with an incremental no-slip tangential spring and a
// Coulomb cap (verification theory 2, section 3; Thornton's normalisation after Maw, Barber &
// Fawcett 1976). With y = d/d*, s = t/tau (as in damped_restitution.hpp), W = Psi(s) =
// kappa v_ct/(mu v_n0), g = F_t/(mu K d*^(3/2)):
//
//   y'' = -y^(3/2);  W' = 2 chi g;  stick: g' = -(3/2) y^(1/2) W;  slip: g = sig y^(3/2)     (3.1)
//   stick -> slip when abs(g) reaches y^(3/2) (sig = sign g); slip -> stick when -sig W < y';
//   start (y, y', W, g) = (0, 1, Psi1, 0), slipping (sig = -sign Psi1) iff abs(Psi1) > 1; end at y = 0.
//
// Psi2 = W(s_end) depends on Psi1 and chi only. Boost.Odeint, controlled dopri5 with dense output
// (tol 1e-12), each regime integrated separately, switches and the end located by bisection on the
// dense output to 1e-14 in s. Accuracy: Psi2 within 1e-10 (against the exact gross-sliding value and
// against tol 1e-14 runs; see verification/unit/hertz_references.cpp). Header-only; depends on
// nothing of the solver.

#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace dem::ref {

// Tangential-to-normal stiffness ratio kappa = k_t/(dF_n/dd) = 4 G*/E* = 2(1 - nu)/(2 - nu) for
// equal materials or a rigid wall (theory 2, 3.1).
inline double mindlinStiffnessRatio(double nu) { return 2.0 * (1.0 - nu) / (2.0 - nu); }

// Tangential effective mass, 1/m_t = sum_i (1/m_i + r_i^2/I_i) (3.1); a fixed wall: m2 = I2 = inf.
inline double tangentialMass(double m1, double r1, double I1, double m2, double r2, double I2) {
  return 1.0 / (1.0 / m1 + r1 * r1 / I1 + 1.0 / m2 + r2 * r2 / I2);
}

// chi = kappa m_n / (2 m_t) (3.1); (7/2)(1 - nu)/(2 - nu) for a solid sphere on a wall.
inline double obliqueChi(double kappa, double mn, double mt) { return kappa * mn / (2.0 * mt); }

// Psi = kappa v_ct / (mu v_n0), v_ct the tangential velocity of the contact point (3.1).
inline double normalisedTangentialVelocity(double kappa, double vct, double mu, double vn0) {
  return kappa * vct / (mu * vn0);
}

// Gross sliding (capped throughout) iff Psi1 >= 4 chi - 1, and then Psi2 = Psi1 - 4 chi exactly (3.2).
inline double grossSlidingThreshold(double chi) { return 4.0 * chi - 1.0; }
inline double grossSlidingPsi2(double psi1, double chi) { return psi1 - 4.0 * chi; }

struct ObliqueRegime {
  double s;   // start of the regime
  bool slip;  // capped (slip) or elastic (stick)
};

struct ObliqueImpactResult {
  double psi2;
  double sEnd;                         // normalised contact time
  std::vector<ObliqueRegime> regimes;  // the first starts at s = 0
};

// The normalised switching ODE of 3.1 for given Psi1 and chi.
inline ObliqueImpactResult obliqueHertzMindlinImpact(double psi1, double chi, double tol = 1e-12) {
  namespace odeint = boost::numeric::odeint;
  using State = std::array<double, 4>;  // y, y', W, g
  bool slip = std::abs(psi1) > 1.0;
  double sig = slip ? (psi1 > 0 ? -1.0 : 1.0) : 0.0;
  const auto rhs = [&](const State& z, State& dz, double) {
    const double y = std::max(z[0], 0.0), r = std::sqrt(y);
    dz[0] = z[1];
    dz[1] = -y * r;
    if (slip) {  // g = sig y^(3/2), kept in the state for continuity only
      dz[2] = 2.0 * chi * sig * y * r;
      dz[3] = 1.5 * sig * r * z[1];
    } else {
      dz[2] = 2.0 * chi * z[3];
      dz[3] = -1.5 * r * z[2];
    }
  };
  const auto contactOver = [](const State& z) { return z[0] <= 0.0; };
  const auto regimeOver = [&](const State& z) {
    const double y = std::max(z[0], 0.0);
    return slip ? -sig * z[2] - z[1] <= 0.0 : std::abs(z[3]) - y * std::sqrt(y) >= 0.0;
  };
  const auto stop = [&](const State& z) { return contactOver(z) || regimeOver(z); };

  ObliqueImpactResult out{0.0, 0.0, {{0.0, slip}}};
  auto stepper = odeint::make_dense_output(tol, tol, odeint::runge_kutta_dopri5<State>());
  stepper.initialize(State{0.0, 1.0, psi1, 0.0}, 0.0, 1e-3);
  for (int n = 0; n < 1000000 && stepper.current_time() < 20.0; ++n) {
    const auto [s0, s1] = stepper.do_step(rhs);
    if (!stop(stepper.current_state())) continue;
    double a = s0, b = s1;  // running at a, stopped at b
    State z;
    while (b - a > 1e-14) {
      const double m = 0.5 * (a + b);
      if (m <= a || m >= b) break;
      stepper.calc_state(m, z);
      (stop(z) ? b : a) = m;
    }
    stepper.calc_state(b, z);
    if (contactOver(z)) {
      out.psi2 = z[2];
      out.sEnd = b;
      return out;
    }
    if (out.regimes.size() > 100) throw std::runtime_error("obliqueHertzMindlinImpact: too many switches");
    if (!slip) sig = z[3] >= 0 ? 1.0 : -1.0;
    slip = !slip;
    const double y = std::max(z[0], 0.0);
    z[3] = sig * y * std::sqrt(y);  // on the cap at the switch
    out.regimes.push_back({b, slip});
    stepper.initialize(z, b, stepper.current_time_step());
  }
  throw std::runtime_error("obliqueHertzMindlinImpact: contact did not end");
}

}  // namespace dem::ref
