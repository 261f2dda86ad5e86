// Case: Cundall local damping on the linear oscillator (seed eq. (34); verification theory, 5.2).
// Scenario:  one mass m = 1 kg on k = 1 N/m to an anchor (Scene::externalForces), motion along the
//            diagonal (2,-1,2)/3 (every component switches together, so it decays like the 1D
//            oscillator, theory 5.3), x0 = 1 m, v0 = 0, adjusted start, lambda = 0.2 and 0.8,
//            w dt = 0.005, 0.0025, 0.00125, six half cycles.
// Reference: closed form: half-cycle amplitude ratio sqrt((1 - lambda)/(1 + lambda)) and half
//            period pi/(2w) (1/sqrt(1 - lambda) + 1/sqrt(1 + lambda)); and Boost.Odeint (dopri5,
//            tol 1e-12) on the same piecewise ODE, integrated between its switches
//            (dem_reference/damped_oscillator.hpp), whose zero crossings give the same quantities.
//            Measured: the ratio from the peak mid-step speeds of each pair of consecutive half
//            cycles (worst of 5), the half period as the mean over 5 half cycles between linearly
//            interpolated zero crossings of x, (z_6 - z_1)/5, as theory 5.2 measured it.
// Tolerance: the scheme applies each switch a whole step at a time: the ratio error is irregular,
//            ~O(dt^2), the half-period error O(lambda w dt) with irregular sign, so no slope is
//            gated; theory 5.2 CI at w dt = 0.005: ratio 1e-4 (relative), half period 1e-3
//            (lambda = 0.2) and 5e-3 (lambda = 0.8); the smaller steps must meet the same bounds.
//            (Single half periods scatter more, up to 4.9e-3 at lambda = 0.8, w dt = 0.005: a
//            switch late by a fraction s of a step at a turning point shifts the next zero crossing
//            by ~2 lambda s dt/(1 - lambda); they are kept in the half_periods series, not gated.)
#include "cases/registry.hpp"
#include "cases/spring_system.hpp"

#include <dem_reference/damped_oscillator.hpp>

namespace dem::verify {

namespace {

struct DampedMeasurement {
  std::vector<double> peakSpeeds;     // per half cycle
  std::vector<double> zeroCrossings;  // times
};

}  // namespace

Case dampedOscillatorCase() {
  Case c;
  c.name = "damped_oscillator";
  c.title = "Cundall damping on an oscillator: half-cycle ratio and half period vs closed form and Odeint";
  c.dts = {0.005, 0.0025, 0.00125};
  const double omega = 1.0, x0 = 1.0;
  const std::vector<std::pair<double, std::string>> lambdas{{0.2, "l02"}, {0.8, "l08"}};
  for (const auto& [lambda, tag] : lambdas) {
    const double periodTol = lambda < 0.5 ? 1e-3 : 5e-3;
    for (const char* ref : {"closed", "odeint"}) {
      c.quantities.push_back(theoryBound("theory 5.2 CI: ratio 1e-4", {"ratio_" + std::string(ref) + "_" + tag,
                                                                       [](double) { return 1e-4; }, std::nullopt}));
      c.quantities.push_back(theoryBound(
          "theory 5.2 CI: half period O(lambda w dt)",
          {"half_period_" + std::string(ref) + "_" + tag, [=](double) { return periodTol; }, std::nullopt}));
    }
  }
  c.quantities.push_back(
      theoryBound("Odeint accuracy", {"odeint_vs_closed_form", [](double) { return 1e-9; }, std::nullopt}));

  c.run = [=](double dt) {
    RunOutput out;
    double refAgreement = 0;
    for (const auto& [lambda, tag] : lambdas) {
      const double Th = ref::dampedHalfPeriod(omega, lambda), r = ref::dampedHalfCycleRatio(lambda);
      const double T = 6.2 * Th;
      const long N = std::lround(T / dt);
      SpringSystem sys;
      sys.masses = {1.0};
      sys.kLinks = {omega * omega, 0.0};
      Scene s = sys.build(dt, {x0}, {0.0});
      s.setDamping(lambda);

      // Simulation: peak speeds between velocity sign changes, interpolated zero crossings of x.
      DampedMeasurement sim;
      double peak = 0, vPrev = 0;
      std::vector<double> times, xs;
      for (long n = 0; n < N; ++n) {
        const double xn = sys.xi(s.particles, 0);
        times.push_back(static_cast<double>(n) * dt);
        xs.push_back(xn);
        s.step();
        const double v = sys.dir.dot(s.particles.vel[0]);  // v_{n+1/2}
        if (n > 0 && v * vPrev < 0) {
          sim.peakSpeeds.push_back(peak);
          peak = 0;
        }
        peak = std::max(peak, std::abs(v));
        vPrev = v;
        const double xn1 = sys.xi(s.particles, 0);
        if (xn * xn1 < 0 || (xn1 == 0 && xn != 0))
          sim.zeroCrossings.push_back((static_cast<double>(n) + xn / (xn - xn1)) * dt);
      }

      // References.
      std::vector<double> sampleT;
      for (std::size_t j = 0; j < times.size(); j += 16) sampleT.push_back(times[j]);
      const auto ode = ref::odeintDampedOscillator(omega, lambda, x0, 0.0, T, sampleT);
      const ref::DampedOscillatorClosedForm closed(omega, lambda, x0, 0.0, T);
      DampedMeasurement odeM;
      for (const auto& e : ode.events)
        if (e.kind == ref::DampedEvent::ZeroCrossing) {
          odeM.peakSpeeds.push_back(std::abs(e.v));
          odeM.zeroCrossings.push_back(e.t);
        }
      for (std::size_t j = 0; j < sampleT.size(); ++j)
        refAgreement = std::max(refAgreement, std::abs(ode.samples[j] - closed.position(sampleT[j])) / x0);

      double ratioClosed = 0, ratioOde = 0;
      Series halves{"half_periods_" + tag, {"half_cycle", "half_period", "half_period_closed_form", "half_period_odeint"}, {}};
      for (std::size_t j = 0; j < 5; ++j) {
        const double rs = sim.peakSpeeds.at(j + 1) / sim.peakSpeeds.at(j);
        ratioClosed = std::max(ratioClosed, std::abs(rs / r - 1));
        ratioOde = std::max(ratioOde, std::abs(rs / (odeM.peakSpeeds.at(j + 1) / odeM.peakSpeeds.at(j)) - 1));
        halves.rows.push_back({static_cast<double>(j + 1), sim.zeroCrossings.at(j + 1) - sim.zeroCrossings.at(j), Th,
                               odeM.zeroCrossings.at(j + 1) - odeM.zeroCrossings.at(j)});
      }
      const double meanSim = (sim.zeroCrossings.at(5) - sim.zeroCrossings.at(0)) / 5;
      const double meanOde = (odeM.zeroCrossings.at(5) - odeM.zeroCrossings.at(0)) / 5;
      const double perClosed = std::abs(meanSim / Th - 1), perOde = std::abs(meanSim / meanOde - 1);
      out.series.push_back(std::move(halves));
      out.errors["ratio_closed_" + tag] = ratioClosed;
      out.errors["ratio_odeint_" + tag] = ratioOde;
      out.errors["half_period_closed_" + tag] = perClosed;
      out.errors["half_period_odeint_" + tag] = perOde;

      Series ts{"x_" + tag, {"t", "x", "x_closed_form", "x_odeint", "envelope"}, {}};
      for (std::size_t j = 0; j < sampleT.size(); ++j) {
        const double t = sampleT[j];
        ts.rows.push_back({t, xs[16 * j], closed.position(t), ode.samples[j], x0 * std::pow(r, t / Th)});
      }
      Series peaks{"peak_speeds_" + tag, {"half_cycle", "peak_speed", "peak_speed_closed_form"}, {}};
      for (std::size_t j = 0; j < sim.peakSpeeds.size(); ++j)
        peaks.rows.push_back({static_cast<double>(j + 1), sim.peakSpeeds[j],
                              omega * std::sqrt(1 - lambda) * x0 * std::pow(r, static_cast<double>(j))});
      out.series.push_back(std::move(ts));
      out.series.push_back(std::move(peaks));
    }
    out.errors["odeint_vs_closed_form"] = refAgreement;
    return out;
  };
  return c;
}

}  // namespace dem::verify
