#pragma once
// The spring column of spring_column.hpp with unilateral contacts (verification theory 2, section 5,
// "When a contact opens"; MFIX DEM03 type): N equal spheres on a wall under gravity, the force of
// contact i is k_i max(u_i, 0) (u_0 = R - z_0 at the wall with k_w, u_i = 2R - (z_i - z_{i-1}) with
// k_s), frictionless, undamped. Contacts close and open as the overlaps change sign: a piecewise-linear
// system with a continuous (Lipschitz) force.
//
// Reference by Boost.Odeint: between two sign changes the set of closed contacts is fixed and the
// right-hand side is linear and smooth; a dense-output Runge-Kutta-Dormand-Prince 5(4) stepper
// integrates it (abs/rel tolerance `tol` on the state scaled by the static overlap L = m g / k_s and
// the velocity L sqrt(k_s/m)), continuing each closed contact's spring (and each open contact's zero
// force) across u = 0 within a step. After every step the overlaps are checked at 8 points of the step;
// the first sign change against the contact's state is located by bisection on the dense output (to a
// few ulps of t), the contact switched there, and the stepper restarted at that time (an overlap that
// changes sign and back within an eighth of a step, a graze, would be missed). Outputs at the
// requested times come from the dense output. Heights are integrated as displacements from the
// touching column (z = R + 2R i + y), so that overlaps are differences of small numbers. Its error is
// checked in the case column_release, against the solution at tol/10 and by the constant energy (a
// missed sign change would leave a spring pulling), and against closed forms in the unit suite
// unilateral_column_reference. Header-only; depends on nothing of the solver.

#include <dem_reference/spring_column.hpp>

#include <Eigen/Core>
#include <boost/numeric/odeint.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace dem::ref {

// One sign change of an overlap.
struct ColumnEvent {
  double t = 0;        // time of u_i = 0
  int contact = 0;     // 0: the wall; i: spheres i-1 and i
  bool closes = true;  // the overlap turns positive
  double rate = 0;     // du_i/dt at t
};

struct UnilateralColumnSolution {
  std::vector<Eigen::VectorXd> z, v, u;  // heights, velocities and overlaps at the requested times
  std::vector<ColumnEvent> events;
};

// Integrates from heights z0 and velocities v0 at t = 0 and returns the state at `times` (ascending,
// >= 0). A contact with u = 0 at t = 0 starts closed (a closed contact that should open is switched at
// once by the event search).
inline UnilateralColumnSolution solveUnilateralColumn(const SpringColumn& col, const Eigen::VectorXd& z0,
                                                      const Eigen::VectorXd& v0, const std::vector<double>& times,
                                                      double tol = 1e-12) {
  namespace odeint = boost::numeric::odeint;
  constexpr std::size_t kMax = 8;  // spheres at most; unused entries stay 0
  using State = std::array<double, 2 * kMax>;
  const Eigen::Index n = col.size();
  if (n < 1 || n > static_cast<Eigen::Index>(kMax))
    throw std::invalid_argument("solveUnilateralColumn: 1 to 8 spheres");
  const auto N = static_cast<std::size_t>(n);
  const double L = col.m * col.g / col.ks, w = std::sqrt(col.ks / col.m);
  const Eigen::VectorXd zt = col.touching();
  std::array<bool, kMax> closed{};

  // Overlap of contact i in the scaled state (units of L).
  const auto overlap = [](const State& s, std::size_t i) { return i == 0 ? -s[0] : s[i - 1] - s[i]; };
  // State: Y = y/L (first kMax), V = v/(L w) (last kMax); Y' = w V, V' = a/(L w).
  const double cg = col.g / (L * w), cw = col.kw / (col.m * w), cs = col.ks / (col.m * w);
  const auto rhs = [&](const State& s, State& ds, double) {
    ds.fill(0.0);
    for (std::size_t i = 0; i < N; ++i) {
      ds[i] = w * s[kMax + i];
      ds[kMax + i] = -cg;
    }
    if (closed[0]) ds[kMax] += cw * overlap(s, 0);
    for (std::size_t i = 1; i < N; ++i)
      if (closed[i]) {
        const double f = cs * overlap(s, i);
        ds[kMax + i] += f;
        ds[kMax + i - 1] -= f;
      }
  };
  // Index of the first contact whose overlap disagrees with its state, or -1.
  const auto mismatch = [&](const State& s) {
    for (std::size_t i = 0; i < N; ++i) {
      const double u = overlap(s, i);
      if ((closed[i] && u < 0) || (!closed[i] && u > 0)) return static_cast<int>(i);
    }
    return -1;
  };

  State s{};
  for (std::size_t i = 0; i < N; ++i) {
    const auto k = static_cast<Eigen::Index>(i);
    s[i] = (z0[k] - zt[k]) / L;
    s[kMax + i] = v0[k] / (L * w);
  }
  for (std::size_t i = 0; i < N; ++i) closed[i] = overlap(s, i) >= 0;

  UnilateralColumnSolution out;
  const auto record = [&](const State& x) {
    Eigen::VectorXd z(n), v(n), u(n);
    for (std::size_t i = 0; i < N; ++i) {
      const auto k = static_cast<Eigen::Index>(i);
      z[k] = zt[k] + L * x[i];
      v[k] = L * w * x[kMax + i];
      u[k] = L * overlap(x, i);
    }
    out.z.push_back(z);
    out.v.push_back(v);
    out.u.push_back(u);
  };

  auto stepper = odeint::make_dense_output(tol, tol, odeint::runge_kutta_dopri5<State>());
  const double tEnd = times.empty() ? 0.0 : times.back();
  stepper.initialize(s, 0.0, 1e-3 / w);
  std::size_t next = 0;
  State x{};
  while (next < times.size() && times[next] <= 0.0) record(s), ++next;
  for (long steps = 0; next < times.size(); ++steps) {
    if (steps > 10000000) throw std::runtime_error("solveUnilateralColumn: too many steps");
    const auto [t0, t1] = stepper.do_step(rhs);
    // The first sub-interval [a, b] of the step whose end disagrees with the contact states.
    double a = t0, b = t1;
    bool event = false;
    for (int j = 1; j <= 8 && !event; ++j) {
      const double tj = j == 8 ? t1 : t0 + (t1 - t0) * j / 8.0;
      stepper.calc_state(tj, x);
      if (mismatch(x) >= 0) event = true, b = tj;
      else a = tj;
    }
    if (event) {
      for (int it = 0; it < 200; ++it) {
        const double mid = 0.5 * (a + b);
        if (mid <= a || mid >= b) break;
        stepper.calc_state(mid, x);
        (mismatch(x) >= 0 ? b : a) = mid;
      }
    }
    const double tStop = event ? b : t1;
    while (next < times.size() && times[next] <= tStop) {
      stepper.calc_state(times[next], x);
      record(x);
      ++next;
    }
    if (!event) continue;
    stepper.calc_state(b, x);
    for (int i; (i = mismatch(x)) >= 0;) {
      const auto k = static_cast<std::size_t>(i);
      closed[k] = !closed[k];
      const double rate = L * w * (i == 0 ? -x[kMax] : x[kMax + k - 1] - x[kMax + k]);
      out.events.push_back({b, i, closed[k] != 0, rate});
    }
    if (b < tEnd) stepper.initialize(x, b, stepper.current_time_step());
  }
  return out;
}

}  // namespace dem::ref
