// Case: linear oscillator against the leapfrog's own discrete solution (verification theory, 2.1, 2.4).
// Scenario:  a linear spring applied through Scene::externalForces (spring_system.hpp), motion along
//            the diagonal (2,-1,2)/3. (a) one mass m = 2 kg on k = 50 N/m to a fixed anchor
//            (w = 5 rad/s, dt_cr = 0.4 s), x0 = 0.1 m with v0 = 0 and v0 = 0.3 m/s, with and without
//            the first-step adjustment; (b) two free masses 2 kg and 3 kg joined by k = 50 N/m, the
//            relative coordinate (w^2 = k/m*) displaced 0.1 m, the centre of mass moving at 0.2 m/s.
//            20 s at dt/dt_cr = 0.99, 0.7, 0.3, 0.02.
// Reference: x_n = x0 cos n theta + b sin n theta, sin(theta/2) = w dt/2, with b from the start
//            (dem_reference/oscillator.hpp); the centre of mass moves uniformly.
// Tolerance: the closed form is exact for the scheme, so only round-off remains: 1e-11 of the
//            discrete amplitude at any dt (theory 2.1 CI; measured 1e-14..1e-13 there). No order.
#include "cases/registry.hpp"
#include "cases/spring_system.hpp"

#include <dem_reference/oscillator.hpp>

namespace dem::verify {

Case oscillatorDiscreteCase() {
  Case c;
  c.name = "oscillator_discrete";
  c.title = "linear oscillator vs the leapfrog's discrete solution (one and two masses), any dt";
  const double m = 2.0, k = 50.0, A = 0.1, T = 20.0;
  const double omega = std::sqrt(k / m), dtCr = ref::criticalTimestep(omega);
  for (double f : {0.99, 0.7, 0.3, 0.02}) c.dts.push_back(f * dtCr);
  c.seriesLevel = 2;
  const auto exact = [](double) { return 1e-11; };
  for (const char* q : {"adjusted_rel", "unadjusted_rel", "adjusted_moving_rel", "unadjusted_moving_rel",
                        "midstep_velocity_rel", "two_mass_relative_rel", "two_mass_centre_rel"})
    c.quantities.push_back(roundOffTolerance({q, exact, std::nullopt}));

  c.run = [=](double dt) {
    RunOutput out;
    const long N = std::lround(T / dt);
    SpringSystem one;
    one.masses = {m};
    one.kLinks = {k, 0.0};
    for (bool adjusted : {true, false}) {
      for (double v0 : {0.0, 0.3}) {
        Scene s = one.build(dt, {A}, {v0});
        s.setAdjVel0(adjusted);
        const ref::LeapfrogOscillator lf{omega, A, v0, adjusted};
        const double amp = lf.amplitude(dt);
        double err = 0, velErr = 0;
        Series ts{adjusted ? "x_adjusted" : "x_unadjusted", {"t", "x", "x_discrete", "x_continuum"}, {}};
        const ref::HarmonicOscillator cont{omega, A, v0};
        for (long n = 0; n <= N; ++n) {
          const Vec3 expected = one.restPos(0) + lf.position(n, dt) * one.dir;
          err = std::max(err, (s.particles.pos[0] - expected).norm() / amp);
          if (n > 0) {
            const double vRef = lf.midStepVelocity(n - 1, dt);
            velErr = std::max(velErr, (s.particles.vel[0] - vRef * one.dir).norm() / (omega * amp));
          }
          if (v0 == 0.0 && n <= 400)
            ts.rows.push_back({static_cast<double>(n) * dt, one.xi(s.particles, 0), lf.position(n, dt),
                               cont.position(static_cast<double>(n) * dt)});
          if (n < N) s.step();
        }
        const std::string key = std::string(adjusted ? "adjusted" : "unadjusted") + (v0 == 0.0 ? "_rel" : "_moving_rel");
        out.errors[key] = err;
        if (adjusted && v0 != 0.0) out.errors["midstep_velocity_rel"] = velErr;
        if (v0 == 0.0) out.series.push_back(std::move(ts));
      }
    }
    // Two free masses: k/m* gives the relative frequency; same dt/dt_cr ratio as the single mass.
    {
      SpringSystem two;
      two.masses = {2.0, 3.0};
      const double mStar = 2.0 * 3.0 / 5.0;
      const double k2 = k * mStar / m;  // so that w and dt_cr equal the single mass's
      two.kLinks = {0.0, k2, 0.0};
      const double vc = 0.2;
      // Relative displacement A split so that the centre of mass starts at rest position.
      const double xi0a = -A * 3.0 / 5.0, xi0b = A * 2.0 / 5.0;
      Scene s = two.build(dt, {xi0a, xi0b}, {vc, vc});
      const ref::LeapfrogOscillator lf{std::sqrt(k2 / mStar), A, 0.0, true};
      double err = 0, comErr = 0;
      for (long n = 0; n <= N; ++n) {
        const double rel = two.xi(s.particles, 1) - two.xi(s.particles, 0);
        // Off-axis components of the displacements must stay zero too.
        const Vec3 d0 = s.particles.pos[0] - two.restPos(0), d1 = s.particles.pos[1] - two.restPos(1);
        err = std::max({err, std::abs(rel - lf.position(n, dt)) / A, (d1 - d1.dot(two.dir) * two.dir).norm() / A,
                        (d0 - d0.dot(two.dir) * two.dir).norm() / A});
        const double com = (2.0 * two.xi(s.particles, 0) + 3.0 * two.xi(s.particles, 1)) / 5.0;
        const double tn = static_cast<double>(n) * dt;
        comErr = std::max(comErr, std::abs(com - vc * tn) / (A + vc * T));
        if (n < N) s.step();
      }
      out.errors["two_mass_relative_rel"] = err;
      out.errors["two_mass_centre_rel"] = comErr;
    }
    return out;
  };
  return c;
}

}  // namespace dem::verify
