#pragma once
// Linear oscillator with Cundall local (non-viscous) damping (verification theory, section 5.2):
//
//   m x'' = -k x (1 - lambda sgn(-k x v))  =  -k x (1 + lambda sgn(x v))            seed eq. (34)
//
// While the mass moves toward the equilibrium (x v < 0) the force drives the motion and is reduced
// by (1 - lambda); moving away (x v > 0) it opposes the motion and is amplified by (1 + lambda).
// Each phase is a harmonic motion with w_f = w sqrt(1 -+ lambda); phases switch at the zero
// crossings (x = 0) and at the turning points (v = 0). Two independent references:
//  * DampedOscillatorClosedForm: the piecewise-harmonic closed form, switch by switch;
//  * odeintDampedOscillator: Boost.Odeint (controlled dopri5, tol 1e-12) on the same piecewise
//    ODE, integrated piecewise between events located by a bracketed Newton iteration on freshly
//    integrated states (no dense-output interpolation, no step across a switch).
// Header-only; depends on nothing of the solver.

#include <boost/numeric/odeint.hpp>

#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

namespace dem::ref {

// Amplitude ratio per half cycle, sqrt((1 - lambda)/(1 + lambda)) (theory 5.2).
inline double dampedHalfCycleRatio(double lambda) { return std::sqrt((1.0 - lambda) / (1.0 + lambda)); }

// Half period, pi/(2w) (1/sqrt(1 - lambda) + 1/sqrt(1 + lambda)) (theory 5.2).
inline double dampedHalfPeriod(double omega, double lambda) {
  return std::numbers::pi / (2.0 * omega) * (1.0 / std::sqrt(1.0 - lambda) + 1.0 / std::sqrt(1.0 + lambda));
}

// A switch of the damping factor: a zero crossing (x = 0, |v| = peak speed of the half cycle) or a
// turning point (v = 0, |x| = amplitude).
struct DampedEvent {
  enum Kind { ZeroCrossing, TurningPoint } kind;
  double t, x, v;
};

// Effective squared frequency of the phase entered from (x, v): w^2 (1 + lambda sgn(x v)), and at
// a pure turning point (v = 0) the motion goes toward the equilibrium, at x = 0 away from it.
inline double dampedPhaseOmega(double omega, double lambda, double x, double v) {
  const double xv = (v == 0.0) ? -1.0 : (x == 0.0 ? 1.0 : x * v);
  return omega * std::sqrt(1.0 + lambda * (xv > 0 ? 1.0 : -1.0));
}

// The piecewise closed form from (x0, v0) at t = 0.
class DampedOscillatorClosedForm {
 public:
  DampedOscillatorClosedForm(double omega, double lambda, double x0, double v0, double tEnd) {
    if (!(omega > 0 && lambda >= 0 && lambda < 1)) throw std::invalid_argument("DampedOscillatorClosedForm: bad omega/lambda");
    double t = 0, x = x0, v = v0;
    while (t < tEnd && (x != 0.0 || v != 0.0)) {
      const double w = dampedPhaseOmega(omega, lambda, x, v);
      segments_.push_back({t, x, v, w});
      // x(tau) = R cos(w tau + phi0), v(tau) = -R w sin(w tau + phi0).
      const double R = std::hypot(x, v / w), phi0 = std::atan2(-v / w, x);
      const bool toward = x != 0.0 && (v == 0.0 || x * v < 0);
      const double pi = std::numbers::pi;
      // toward: next zero of cos (angle = pi/2 mod pi); away: next zero of sin (angle = 0 mod pi).
      const double target = toward ? pi / 2 : 0.0;
      double ang = std::fmod(target - phi0, pi);
      if (ang <= 0) ang += pi;
      t += ang / w;
      if (toward) {
        events_.push_back({DampedEvent::ZeroCrossing, t, 0.0, (x > 0 ? -1.0 : 1.0) * R * w});
        x = 0.0;
        v = events_.back().v;
      } else {
        events_.push_back({DampedEvent::TurningPoint, t, (v > 0 ? 1.0 : -1.0) * R, 0.0});
        x = events_.back().x;
        v = 0.0;
      }
    }
  }

  const std::vector<DampedEvent>& events() const { return events_; }

  double position(double t) const {
    const Segment& s = segmentAt(t);
    const double tau = t - s.t0;
    return s.x0 * std::cos(s.w * tau) + s.v0 / s.w * std::sin(s.w * tau);
  }
  double velocity(double t) const {
    const Segment& s = segmentAt(t);
    const double tau = t - s.t0;
    return -s.x0 * s.w * std::sin(s.w * tau) + s.v0 * std::cos(s.w * tau);
  }

 private:
  struct Segment {
    double t0, x0, v0, w;
  };
  std::vector<Segment> segments_;
  std::vector<DampedEvent> events_;

  const Segment& segmentAt(double t) const {
    if (segments_.empty()) throw std::logic_error("DampedOscillatorClosedForm: at rest, no segments");
    std::size_t k = 0;
    while (k + 1 < segments_.size() && segments_[k + 1].t0 <= t) ++k;
    return segments_[k];
  }
};

struct DampedOdeintResult {
  std::vector<DampedEvent> events;
  std::vector<double> samples;  // x at the requested sample times
};

// Boost.Odeint on the piecewise ODE from (x0, v0) at t = 0 to tEnd; sampleTimes ascending in [0, tEnd].
inline DampedOdeintResult odeintDampedOscillator(double omega, double lambda, double x0, double v0, double tEnd,
                                                 const std::vector<double>& sampleTimes = {}, double tol = 1e-12) {
  namespace odeint = boost::numeric::odeint;
  using State = std::array<double, 2>;
  DampedOdeintResult out;
  double w2 = 0;  // squared frequency of the current phase (fixed between events)
  const auto rhs = [&](const State& s, State& ds, double) {
    ds[0] = s[1];
    ds[1] = -w2 * s[0];
  };
  // Integrates from (s, t0) to t1 > t0 with a fresh controlled stepper (an interval end point).
  const auto advance = [&](State s, double t0, double t1) {
    if (t1 > t0) {
      auto st = odeint::make_controlled(tol, tol, odeint::runge_kutta_dopri5<State>());
      odeint::integrate_adaptive(st, rhs, s, t0, t1, (t1 - t0) / 4);
    }
    return s;
  };

  State s{x0, v0};
  double t = 0.0;
  std::size_t nextSample = 0;
  bool toward = false;
  const auto startPhase = [&] {
    const double w = dampedPhaseOmega(omega, lambda, s[0], s[1]);
    w2 = w * w;
    toward = s[0] != 0.0 && (s[1] == 0.0 || s[0] * s[1] < 0);
  };
  // Event function of the current phase and its time derivative.
  const auto g = [&](const State& z) { return toward ? z[0] : z[1]; };
  const auto dg = [&](const State& z) { return toward ? z[1] : -w2 * z[0]; };

  startPhase();
  auto stepper = odeint::make_controlled(tol, tol, odeint::runge_kutta_dopri5<State>());
  double h = 1e-3 / omega;
  while (t < tEnd && (s[0] != 0.0 || s[1] != 0.0)) {
    while (nextSample < sampleTimes.size() && sampleTimes[nextSample] <= t) {
      out.samples.push_back(s[0]);  // only when a sample time coincides with t (t = 0)
      ++nextSample;
    }
    const double stop = nextSample < sampleTimes.size() ? std::min(sampleTimes[nextSample], tEnd) : tEnd;
    const State sOld = s;
    const double tOld = t;
    double hTry = std::min(h, stop - t);
    const bool toStop = hTry == stop - t;
    if (stepper.try_step(rhs, s, t, hTry) == odeint::fail) {
      h = hTry;
      continue;
    }
    if (!toStop) h = hTry;
    if (toStop && t >= stop) t = stop;  // land exactly on the stop time
    const double gOld = g(sOld), gNew = g(s);
    const bool crossed = (gOld > 0 && gNew <= 0) || (gOld < 0 && gNew >= 0);
    if (crossed) {
      // Bracketed Newton for the event time in (tOld, t], on states integrated from (sOld, tOld).
      double a = 0.0, b = t - tOld, tau = b * gOld / (gOld - gNew);
      State z = s;
      for (int it = 0; it < 60; ++it) {
        if (!(tau > a && tau < b)) tau = 0.5 * (a + b);
        z = advance(sOld, tOld, tOld + tau);
        const double gz = g(z);
        if ((gz > 0) == (gOld > 0) && gz != 0.0) a = tau; else b = tau;
        const double step = gz / dg(z);
        const double next = tau - step;
        if (std::abs(step) <= 4e-16 * (tOld + tau) || b - a <= 4e-16 * (tOld + b)) {
          tau = next > a && next < b ? next : tau;
          break;
        }
        tau = next;
      }
      z = advance(sOld, tOld, tOld + tau);
      t = tOld + tau;
      if (toward) {
        z[0] = 0.0;
        out.events.push_back({DampedEvent::ZeroCrossing, t, 0.0, z[1]});
      } else {
        z[1] = 0.0;
        out.events.push_back({DampedEvent::TurningPoint, t, z[0], 0.0});
      }
      s = z;
      startPhase();
      stepper.reset();  // dopri5 is FSAL: its stored derivative belongs to the old phase
      continue;
    }
    if (t >= stop && nextSample < sampleTimes.size() && sampleTimes[nextSample] == stop) {
      out.samples.push_back(s[0]);
      ++nextSample;
    }
  }
  return out;
}

}  // namespace dem::ref
