// Case: hard-sphere limit of a ball bouncing on a wall (MFIX V&V manual DEM02 type; verification
//       theory 2, section 6), linear Cundall law with dashpots from e (spring-dashpot, tension
//       allowed, theory 2, 2.1), gravity, frictionless, no Cundall damping.
// Scenario:  sphere d = 0.2 m, rho = 2600 kg/m^3 (m = 10.89 kg), centre released at rest 0.5 m above
//            the wall z = 0 (bottom apex h0 = 0.4 m), g = 9.81 m/s^2, e = 0.9 for sphere and wall
//            (zeta = 0.0335). Sphere and wall share E = kn/R, so the mixing rule (laws/cundall.hpp)
//            gives kn exactly. Levels: x = 5e4/kn with kn = 5e8, 5e7, 5e6, 5e5, 1.58e5, 5e4 N/m; per
//            level the step is dt = t_c/N, t_c = pi/w_d, N = 50, 100, 200 at the stiff levels (cost:
//            the flights take 1.3 s of simulated time) and N = 2000 at the three soft ones (there the
//            scheme bound must stay below 10 % of the physical error for the fit, see below). Three
//            bounces; the apex of each flight is the exact ballistic apex of the leapfrog's samples:
//            after the first free step, bottom height z_b and mid-step velocity v give
//            h = z_b + (v - g dt/2)^2/(2 g) (free-flight samples lie exactly on that parabola).
// Reference: (i) the exact soft-sphere solution: in contact d'' = -w0^2 d - 2 zeta w0 d' + g from
//            d = 0, d' = v until d = 0 again (closed form, end by bisection), flights ballistic;
//            (ii) the hard sphere, h_n = e^(2n) h0, which (i) approaches like kn^(-1/2):
//              h_n/(e^(2n) h0) - 1 = -(4 zeta (1 + e)/(e w0)) sqrt(g/2) sum_{k<n} h_k^(-1/2) + O(1/kn).
// Tolerance: theory 2, 6: the leapfrog adds twice its restitution error (2.1) per bounce to
//            h_n/h_n,exact - 1, independent of kn: at most
//              B_n = 2 n [zeta w0 dt (2 + abs(ln e)/(2 (1 - zeta^2))) + (w0 dt)^2 (1/8 + zeta)],
//            the worst case over onset phases of 2.1's first-order formula plus 2.1's bound on its
//            residual (section 6 writes the first term as zeta (pi dt/t_c)(2 + abs(ln e)/2), 0.06 %
//            smaller; the residual matters at N = 50, where the first bounce's onset phase gives
//            0.93 of the first-order term), so
//              hN_vs_soft = abs(h_n/h_n,soft - 1) <= that bound (n = 1, 3) at every level, and
//              h3_vs_hard = abs(h_3/(e^6 h0) - 1) <= abs(h_3,soft/(e^6 h0) - 1) + the bound.
//            Order in stiffness: h3_vs_hard is fitted against x = 5e4/kn over the three soft levels
//            only, where the bound B is <= beta P of the physical error P (beta = max B/P there,
//            asserted <= 0.1). Each measured error is P (1 + delta), abs(delta) <= beta, so the
//            least-squares slope is the exact solution's slope s_P (over the same levels, from (i);
//            0.5 plus its O(1/kn) part) within sum_i abs(w_i) ln((1 + beta)/(1 - beta)), w_i the
//            least-squares weights; band s_P +- that.
#include "cases/registry.hpp"
#include "solver/laws.hpp"
#include "solver/particles.hpp"
#include "solver/scene.hpp"

#include <dem_reference/damped_restitution.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

namespace dem::verify {

namespace {

constexpr double kR = 0.1, kRho = 2600.0, kG = 9.81, kH0 = 0.4, kE = 0.9, kKnRef = 5e4;
constexpr int kBounces = 3;
constexpr std::size_t kFitFrom = 3;
const std::array<double, 6> kLevels{5e4 / 5e8, 5e4 / 5e7, 5e4 / 5e6, 5e4 / 5e5, 5e4 / 1.58e5, 1.0};

// Steps per contact time at a level: coarse at the stiff levels, fine where the slope is fitted.
double stepsPerContact(double x) {
  if (x < 5e4 / 1e8) return 50;
  if (x < 5e4 / 1e7) return 100;
  if (x < 5e4 / 1e6) return 200;
  return 2000;
}

Material ballMaterial(double kn) {
  Material m{kRho, kn / kR, 0.3, 0.0};  // kn = series(2 E R, 2 E R) = E R; frictionless
  m.restitution = kE;
  return m;
}

struct Params {
  double kn, m, w0, zeta, wd, tc;
  explicit Params(double x) {
    const Material b = ballMaterial(kKnRef / x);
    kn = Cundall::normalStiffness(b, kR, b, 0.0, true);
    m = 4.0 / 3.0 * std::numbers::pi * kR * kR * kR * kRho;
    w0 = std::sqrt(kn / m);
    zeta = ref::lsdZetaTension(kE);
    wd = w0 * std::sqrt(1 - zeta * zeta);
    tc = std::numbers::pi / wd;
  }
};

// Theory 2, 6 with 2.1's terms: bound on the leapfrog's part of h_n/h_n,exact - 1 (twice the
// restitution's, per bounce): first-order worst case over phases plus the O(dt^2) residual bound.
double schemeBound(double x, int n) {
  const Params p(x);
  const double w0dt = p.w0 * p.tc / stepsPerContact(x), z = p.zeta;
  const double first = z * w0dt * (2 + std::abs(std::log(kE)) / (2 * (1 - z * z)));
  return 2.0 * n * (first + w0dt * w0dt * (0.125 + z));
}

// Exact soft-sphere exit speed for an impact at speed v (overlap d from 0 with d' = v, gravity g).
double softExitSpeed(const Params& p, double v) {
  const double A = -kG / (p.w0 * p.w0), B = (v + p.zeta * p.w0 * A) / p.wd;
  const auto d = [&](double t) {
    return kG / (p.w0 * p.w0) + std::exp(-p.zeta * p.w0 * t) * (A * std::cos(p.wd * t) + B * std::sin(p.wd * t));
  };
  const double h = p.tc / 256;
  double a = h;
  if (!(d(a) > 0)) throw std::runtime_error("hard_sphere_limit: no overlap at the start");
  while (d(a + h) > 0) {
    a += h;
    if (a > 4 * p.tc) throw std::runtime_error("hard_sphere_limit: the exact solution does not lift off");
  }
  double b = a + h;
  for (int i = 0; i < 200; ++i) {
    const double c = 0.5 * (a + b);
    (d(c) > 0 ? a : b) = c;
  }
  const double t = 0.5 * (a + b), ez = std::exp(-p.zeta * p.w0 * t);
  const double dd = -p.zeta * p.w0 * ez * (A * std::cos(p.wd * t) + B * std::sin(p.wd * t)) +
                    ez * p.wd * (-A * std::sin(p.wd * t) + B * std::cos(p.wd * t));
  return -dd;
}

// Exact soft-sphere apex heights h_1 .. h_n (bottom above the wall).
std::vector<double> softHeights(double x, int n) {
  const Params p(x);
  std::vector<double> h;
  double v = std::sqrt(2 * kG * kH0);
  for (int k = 0; k < n; ++k) {
    v = softExitSpeed(p, v);
    h.push_back(v * v / (2 * kG));
  }
  return h;
}

double hardHeight(int n) { return std::pow(kE, 2 * n) * kH0; }

// DEM apex heights h_1 .. h_n through dem::Scene.
std::vector<double> demHeights(double x, int n) {
  const Params p(x);
  const Material b = ballMaterial(p.kn);
  const double dt = p.tc / stepsPerContact(x);
  Scene s;
  s.materials = {b, b};
  s.law = ContactLaw::Cundall;
  s.gravity = Vec3(0, 0, -kG);
  s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 1);
  ParticleSpec a = sphereSpec(Vec3(0, 0, kR + kH0), kR, kRho);
  a.material = 0;
  s.particles.add(a);
  s.setDt(dt);
  s.setDamping(0.0);
  const auto gap = [&] { return s.particles.pos[1].z() - kR; };
  std::vector<double> h;
  bool inContact = false;
  const auto maxSteps = static_cast<std::uint64_t>(5.0 / dt);
  for (std::uint64_t k = 0; k < maxSteps && static_cast<int>(h.size()) < n; ++k) {
    s.step();
    const double g = gap();
    if (!inContact && g < 0) inContact = true;
    if (inContact && g >= 0) {  // first free sample: its force is gravity only
      inContact = false;
      const double u = s.particles.vel[1].z() - kG * dt / 2;  // on-step velocity at this sample
      if (u <= 0) throw std::runtime_error("hard_sphere_limit: no lift-off");
      h.push_back(g + u * u / (2 * kG));
    }
  }
  if (static_cast<int>(h.size()) < n) throw std::runtime_error("hard_sphere_limit: too few bounces");
  return h;
}

// Least-squares slope of log(y) against log(x) and the sum of the absolute weights.
std::array<double, 2> logSlope(const std::vector<double>& x, const std::vector<double>& y) {
  const auto n = static_cast<double>(x.size());
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    mx += std::log(x[i]) / n;
    my += std::log(y[i]) / n;
  }
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += (std::log(x[i]) - mx) * (std::log(x[i]) - mx);
    sxy += (std::log(x[i]) - mx) * (std::log(y[i]) - my);
  }
  double w = 0;
  for (std::size_t i = 0; i < x.size(); ++i) w += std::abs(std::log(x[i]) - mx) / sxx;
  return {sxy / sxx, w};
}

double softVsHard(double x) { return std::abs(softHeights(x, kBounces).back() / hardHeight(kBounces) - 1); }

}  // namespace

Case hardSphereLimitCase() {
  // The fit's band (banner): the exact solution's slope over the fitted levels, widened by the
  // scheme bound's share beta of the physical error.
  std::vector<double> xs, ps;
  double beta = 0;
  for (std::size_t i = kFitFrom; i < kLevels.size(); ++i) {
    xs.push_back(kLevels[i]);
    ps.push_back(softVsHard(kLevels[i]));
    beta = std::max(beta, schemeBound(kLevels[i], kBounces) / ps.back());
  }
  if (beta > 0.1) throw std::logic_error("hard_sphere_limit: the scheme bound exceeds 10 % of the physical error");
  const auto [sP, w] = logSlope(xs, ps);
  const double halfBand = w * std::log((1 + beta) / (1 - beta));

  Case c;
  c.name = "hard_sphere_limit";
  c.title =
      "ball bouncing on a wall, spring-dashpot e = 0.9: heights against the exact soft sphere and the hard-sphere "
      "limit";
  c.dts.assign(kLevels.begin(), kLevels.end());  // x = 5e4/kn (stiffness levels, not timesteps)
  c.quantities.push_back(theoryBound("leapfrog restitution error per bounce B_n (theory 2 section 6)",
                                     {"h1_vs_soft", [](double x) { return schemeBound(x, 1); }, std::nullopt}));
  c.quantities.push_back(theoryBound("leapfrog restitution error per bounce B_n (theory 2 section 6)",
                                     {"h3_vs_soft", [](double x) { return schemeBound(x, kBounces); }, std::nullopt}));
  c.quantities.push_back({"h3_vs_hard", [](double x) { return softVsHard(x) + schemeBound(x, kBounces); },
                          OrderSpec{0.5, sP - halfBand, sP + halfBand, 0.0, kFitFrom}});
  c.run = [](double x) {
    RunOutput out;
    const std::vector<double> dem = demHeights(x, kBounces), soft = softHeights(x, kBounces);
    out.errors["h1_vs_soft"] = std::abs(dem[0] / soft[0] - 1);
    out.errors["h3_vs_soft"] = std::abs(dem[2] / soft[2] - 1);
    out.errors["h3_vs_hard"] = std::abs(dem[2] / hardHeight(kBounces) - 1);
    Series sr{"heights", {"n", "h_dem", "h_soft", "h_hard"}, {}};
    for (int n = 1; n <= kBounces; ++n) sr.rows.push_back({double(n), dem[n - 1], soft[n - 1], hardHeight(n)});
    out.series.push_back(sr);
    return out;
  };
  return c;
}

}  // namespace dem::verify
