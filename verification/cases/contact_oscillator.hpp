#pragma once
// Oscillators on real contacts (verification theory, sections 2.1, 2.3-2.5): the linear Cundall law
// gives F_N = kn u_N exactly, so a contact that stays closed is a linear spring. A constant load
// presses the bodies together (static overlap delta = load/kn = 0.1 R); they start displaced by
// A = delta/2 from equilibrium along the normal, at rest, with the first-step adjustment, so the
// contact never opens while the scheme is stable and the displacement xi from equilibrium obeys
// the leapfrog's discrete solution xi_n = A cos(n theta), sin(theta/2) = omega dt/2, exactly.
//
//   SphereOnWall  one sphere on a fixed wall through the origin with the oblique normal nw; the load
//                 is gravity -g nw (so the ledger is closed); E is chosen so that m g/kn = 0.1 R;
//                 kn = E R (a wall of the sphere's material), omega^2 = kn/m: one mass on a spring.
//   TwoSpheres    two equal free spheres on the line through the origin along nw, pressed together
//                 by a constant central load F = kn 0.1 R along their line of centres
//                 (Scene::externalForces); kn = E R
//                 (equal spheres), relative coordinate omega^2 = kn/m* = 2 kn/m: two masses.
// The normal nw = (2,-1,2)/3 is oblique, so every component of the contact machinery and of the
// timestep estimator's 3x3 blocks takes part.

#include "cases/stability_bisection.hpp"
#include "harness/case.hpp"
#include "solver/laws.hpp"
#include "solver/scene.hpp"

#include <dem_reference/oscillator.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace dem::verify {

struct ContactOscillator {
  enum class Kind { SphereOnWall, TwoSpheres };
  Kind kind = Kind::SphereOnWall;
  Vec3 nw = Vec3(2.0, -1.0, 2.0) / 3.0;
  double R = 0.01, density = 2600.0, g = 9.81;
  double overlapRatio = 0.1;    // static overlap / R
  double amplitudeRatio = 0.5;  // A / static overlap
  double ksRatio = 0.2;         // ks/kn of the material
  double frictionAngle = 0.5;   // of the material (rad)
  double restitution = 1.0;     // of the material (dashpots, laws/cundall.hpp); 1 = none
  // The law: Cundall (above), or Hertz-Mindlin for SphereOnWall only: F = K d^(3/2) with
  // K = m g/delta^(3/2) (E from K = (4/3) E* sqrt(R), E* = E/(2 (1 - nu^2)) for a wall of the
  // sphere's material, laws/hertz_mindlin.hpp); kn() is then the tangent stiffness at the static
  // overlap, dF/dd = (3/2) K sqrt(delta) = (3/2) m g/delta, and the oscillator is linear only for
  // amplitudes small against delta.
  ContactLaw law = ContactLaw::Cundall;

  double mass() const { return sphereMass(R, density); }
  double staticOverlap() const { return overlapRatio * R; }
  double amplitude() const { return amplitudeRatio * staticOverlap(); }
  // Young's modulus giving the static overlap: sphere-wall kn = E R = m g/delta (a wall of the sphere's
  // material: laws/cundall.hpp); two spheres any modulus works (the load follows kn), E = m g/(2 R delta).
  double young() const {
    if (law == ContactLaw::HertzMindlin) {
      const double K = mass() * g / std::pow(staticOverlap(), 1.5), nu = Material{}.poisson;
      return 2.0 * (1.0 - nu * nu) * 0.75 * K / std::sqrt(R);
    }
    return mass() * g / staticOverlap() / ((kind == Kind::SphereOnWall ? 1.0 : 2.0) * R);
  }
  Material material() const {
    Material m{density, young(), ksRatio, frictionAngle};
    m.restitution = restitution;
    return m;
  }
  double kn() const {
    if (law == ContactLaw::HertzMindlin) return 1.5 * mass() * g / staticOverlap();
    const Material m = material();
    return Cundall::normalStiffness(m, R, m, R, kind == Kind::SphereOnWall);
  }
  double omega() const { return std::sqrt((kind == Kind::SphereOnWall ? 1.0 : 2.0) * kn() / mass()); }
  double dtCritical() const { return 2.0 / omega(); }  // theory 2.1, 2.4: 2/omega_max

  // The scene with the bodies displaced by xi0 from equilibrium (along the normal), at rest.
  Scene build(double dt, double xi0) const {
    if (law == ContactLaw::HertzMindlin && kind != Kind::SphereOnWall)
      throw std::logic_error("ContactOscillator: Hertz-Mindlin only for a sphere on a wall");
    Scene s;
    s.law = law;
    s.materials.push_back(material());
    const double delta = staticOverlap();
    if (kind == Kind::SphereOnWall) {
      s.particles.addWall(Vec3::Zero(), nw, 0);
      s.particles.add(sphereSpec((R - delta + xi0) * nw, R, density));
      s.gravity = -g * nw;
    } else {
      const double d = 2.0 * R - delta + xi0;  // centre distance
      s.particles.add(sphereSpec(-0.5 * d * nw, R, density));
      s.particles.add(sphereSpec(0.5 * d * nw, R, density));
      // A central load along the current line of centres: a load of fixed direction ("dead" load)
      // would make the pressed pair buckle in the free rolling mode (lateral relative
      // displacement y turns the contact force by y/d: negative stiffness F/d, growth
      // ~ exp(sqrt(F/(d m*)) t), physical and seen at any dt), which is not what this measures.
      const double load = kn() * delta;
      s.externalForces = [load](Particles& p, double) {
        const Vec3 f = load * (p.pos[1] - p.pos[0]).normalized();
        p.force[0] += f;
        p.force[1] -= f;
      };
    }
    s.setDt(dt);
    s.setDamping(0.0);
    return s;
  }
  // Displacement from equilibrium along the normal (the relative coordinate for two spheres).
  double xi(const Scene& s) const {
    const double delta = staticOverlap();
    if (kind == Kind::SphereOnWall) return s.particles.pos[1].dot(nw) - (R - delta);
    return (s.particles.pos[1] - s.particles.pos[0]).dot(nw) - (2.0 * R - delta);
  }
};

// The solver's estimate (timestep.hpp) for a sphere of mass m, inertia I and arm r with one contact of
// stiffnesses kn, ks and dashpots cn, cs (a sphere on a wall, or each of two equal spheres), written
// from the modes of one contact: the normal one (kn/m, cn/m) and the tangential one, displacement and
// rotation together (ks t, cs t with t = 1/m + r^2/I; verification theory 2, section 8):
// lambda = max(kn/m, ks t), kappa = max(cn/m, cs t), dt = 2/(kappa + sqrt(kappa^2 + 2 lambda)).
inline double singleContactEstimate(double m, double I, double r, double kn, double ks, double cn, double cs) {
  const double t = 1.0 / m + r * r / I;
  const double lambda = std::max(kn / m, ks * t), kappa = std::max(cn / m, cs * t);
  return 2.0 / (kappa + std::sqrt(kappa * kappa + 2.0 * lambda));
}

// The theory 2.3 detector on a contact oscillator: 400 steps from xi0 = A, G = max |xi| over the
// last 50 / max over the first 50 (which include the initial A). A RunawayError (the scene's own
// detector, runaway.hpp) also means unstable: G = inf.
inline double contactGrowthRatio(const ContactOscillator& o, double dt) {
  Scene s = o.build(dt, o.amplitude());
  double first = 0, last = 0;
  try {
    for (int n = 0; n < 400; ++n) {
      const double a = std::abs(o.xi(s));
      if (n < 50) first = std::max(first, a);
      if (n >= 350) last = std::max(last, std::isfinite(a) ? a : std::numeric_limits<double>::infinity());
      s.step();
    }
  } catch (const RunawayError&) {
    return std::numeric_limits<double>::infinity();
  }
  return last / first;
}

// The critical-timestep case on a contact oscillator (one file per configuration registers it with
// its banner): expected ratio of the global-stiffness estimate to the true limit 2/omega.
struct CriticalTimestepSpec {
  ContactOscillator osc;
  double estimateRatio = 1.0;  // global-stiffness estimate / (2/omega), from theory
};

inline void addCriticalTimestepQuantities(Case& c) {
  c.dts = {0.0};
  // bound: the name of a theory bound; nullptr: round-off.
  const auto q = [&c](const char* name, double tol, const char* bound) {
    const QuantitySpec spec{name, [tol](double) { return tol; }, std::nullopt};
    c.quantities.push_back(bound ? theoryBound(bound, spec) : roundOffTolerance(spec));
  };
  q("discrete_solution_rel", 1e-10, nullptr);
  q("discrete_frequency_rel", 1e-9, nullptr);
  q("growth_at_0_99", 1.1, "stable: G < 1.1 at 0.99 dt_cr (theory 2.3)");
  q("inverse_growth_at_1_01", 1.0, "unstable: G > 1.1 at 1.01 dt_cr (contact caps the growth)");
  q("bisected_limit_rel", 1e-3, "bisection to 1e-3 of dt_cr (theory 2.3)");
  q("estimate_ratio_rel", 1e-12, nullptr);
  q("estimate_vs_bisected_rel", 1.1e-3, "the bisection's 1e-3 + margin");
  q("pwave_ratio_rel", 1e-12, nullptr);
}

inline RunOutput runCriticalTimestep(const CriticalTimestepSpec& spec) {
  const ContactOscillator& o = spec.osc;
  RunOutput out;
  const double omega = o.omega(), dtCr = o.dtCritical(), A = o.amplitude();
  // (1) Discrete solution and frequency below the limit: xi_n = A cos(n theta), and the frequency
  // measured from xi_{n+1} + xi_{n-1} = 2 cos(theta) xi_n (least squares) against
  // (2/dt) asin(omega dt/2); 20 periods at each ratio.
  double solErr = 0, freqErr = 0;
  Series freq{"discrete_frequency", {"dt_over_dt_cr", "omega_num_over_omega_measured", "omega_num_over_omega_theory"}, {}};
  for (double r : {0.99, 0.7, 0.3, 0.02}) {
    const double dt = r * dtCr;
    const ref::LeapfrogOscillator lf{omega, A, 0.0, true};
    Scene s = o.build(dt, A);
    const long N = std::lround(20.0 * 2.0 * std::numbers::pi / ref::numericalFrequency(omega, dt) / dt);
    std::vector<double> xi;
    for (long n = 0; n <= N; ++n) {
      xi.push_back(o.xi(s));
      solErr = std::max(solErr, std::abs(xi.back() - lf.position(n, dt)) / A);
      if (n < N) s.step();
    }
    double num = 0, den = 0;
    for (std::size_t n = 1; n + 1 < xi.size(); ++n) {
      num += xi[n] * (xi[n + 1] + xi[n - 1]);
      den += 2.0 * xi[n] * xi[n];
    }
    const double measured = std::acos(num / den) / dt, theory = ref::numericalFrequency(omega, dt);
    freqErr = std::max(freqErr, std::abs(measured / theory - 1.0));
    freq.rows.push_back({r, measured / omega, theory / omega});
  }
  out.errors["discrete_solution_rel"] = solErr;
  out.errors["discrete_frequency_rel"] = freqErr;
  out.series.push_back(std::move(freq));
  // (2) Stability: detector at 0.99 / 1.01 dt_cr and bisection (theory 2.3).
  const auto growth = [&o](double dt) { return contactGrowthRatio(o, dt); };
  out.errors["growth_at_0_99"] = growth(0.99 * dtCr);
  out.errors["inverse_growth_at_1_01"] = 1.1 / growth(1.01 * dtCr);
  StabilityBisection bis = bisectStabilityLimit(growth, dtCr, "contact");
  out.errors["bisected_limit_rel"] = bis.bracketed ? std::abs(bis.limit / dtCr - 1.0) : 1.0;
  out.series.push_back(std::move(bis.history));
  // (3) Estimators: global stiffness before the first step (overlap found geometrically) and after
  // one step (the real contact's stored normal); p-wave against theory 2.5's 2 sqrt(2 pi/3).
  Scene s = o.build(0.5 * dtCr, A);
  s.collider.update(s.particles, s.materials, s.contacts);
  const double before = s.criticalTimestep().dt;
  s.step();
  const TimestepEstimate after = s.criticalTimestep();
  out.errors["estimate_ratio_rel"] =
      std::max(std::abs(before / dtCr / spec.estimateRatio - 1.0), after.fromContacts ? std::abs(after.dt / dtCr / spec.estimateRatio - 1.0) : 1.0);
  out.errors["estimate_vs_bisected_rel"] = bis.bracketed ? std::abs(after.dt / bis.limit / spec.estimateRatio - 1.0) : 1.0;
  // theory 2.5: dt_cr/dt_p = 2 sqrt(m/(c kn)) / (R sqrt(rho/E)) = 2 sqrt((4 pi/3) E R/(c kn)), c = 1 on a wall,
  // 2 for two spheres (omega^2 = c kn/m): 2 sqrt(2 pi/3) for two spheres, 2 sqrt(4 pi/3) on a wall of the
  // sphere's material (kn = E R, laws/cundall.hpp)
  const double c = o.kind == ContactOscillator::Kind::SphereOnWall ? 1.0 : 2.0;
  const double pwaveRatio = 2.0 * std::sqrt(4.0 * std::numbers::pi / 3.0 * o.young() * o.R / (c * o.kn()));
  out.errors["pwave_ratio_rel"] = std::abs(dtCr / s.pWaveTimestep().dt / pwaveRatio - 1.0);
  out.series.push_back({"estimates", {"quantity_index", "dt_over_dt_cr"},
                        {{0, 1.0}, {1, bis.limit / dtCr}, {2, after.dt / dtCr}, {3, s.pWaveTimestep().dt / dtCr}},
                        "0: 2/omega, 1: bisected limit, 2: global stiffness, 3: p-wave"});
  return out;
}

}  // namespace dem::verify
