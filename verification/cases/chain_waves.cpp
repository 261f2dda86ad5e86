// Case: waves in a pre-compressed periodic chain (verification theory 2, section 7.1): the leapfrog's
//       dispersion relation on the contact stage, measured from runs.
// Scenario:  16 spheres R = 0.01 m, rho = 2500 kg/m^3, in a row along x through a periodic cell
//            diag(16 a, 5R, 5R), spacing a = 2R - u0, u0 = 0.05 R, linear Cundall law kn = E R = 1e6 N/m,
//            no gravity, through dem::Scene (periodic collider, contact stage). One run per mode
//            j = 1 ... 8 (k = 2 pi j/(16 a)): x_i = site_i + A cos(k i a), A = 0.3 u0 (neighbours'
//            relative motion <= 0.6 u0: every contact stays closed), from rest with the first-step
//            adjustment, for 9 ms (20 periods of mode 4). Levels w_max dt = 0.4 ... 0.05.
// Reference: w(k) = 2 sqrt(kn/m) |sin(k a/2)|; the leapfrog carries the mode exactly,
//            x_i^n = A cos(k i a) cos(n th), th = 2 asin(w dt/2) (theory 2, 7.1), and
//            th/(w dt) - 1 = s(w dt) + O((w dt)^6), s(x) = x^2/24 + 3 x^4/640.
//            Measurement: the projection q_n = sum_i xi_i cos(k i a) (exact mode separation), then
//            cos(th) = sum_n q_n (q_{n+1} + q_{n-1}) / (2 sum_n q_n^2) (exact for a pure mode).
// Tolerance: discrete relation: round-off. Each q_n carries the rounding of the coordinates
//            (x_max = 8 a) in the displacements, eps x_max per sphere, and the identity's residual is
//            that in three projections plus what each step injects (eps x_max/2 per sphere);
//            Cauchy-Schwarz gives |d cos th| <= 8 eps x_max/A, so |d th|/th <= 8 eps x_max/(A th sin th)
//            (theory 2, 7.1 measured 5e-12 with displacements near zero; here the coordinates are
//            about 1e3 A). Continuum: |th/(w dt) - 1 - s| <= 1e-3 s (the next term,
//            5 x^6/7168, is below 1e-3 s for x < 0.5; theory 2, 7.1) plus that round-off;
//            the zone-boundary mode's frequency error, (th/dt - w)/w, gated with slope 2 +- 0.05.
#include "cases/registry.hpp"
#include "solver/laws.hpp"
#include "solver/scene.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

namespace dem::verify {

namespace {

constexpr double kChR = 0.01, kChU0 = 0.05 * kChR, kChA = 0.3 * kChU0, kChEnd = 9e-3;
constexpr int kChN = 16;

struct ChainParams {
  Material mat{2500.0, 1e8, 0.2, 0.0, 0.25, 1.0};
  double m = sphereMass(kChR, 2500.0), kn = Cundall::normalStiffness(mat, kChR, mat, kChR, false);
  double a = 2 * kChR - kChU0;
  double wMax() const { return 2 * std::sqrt(kn / m); }
  double k(int j) const { return 2 * std::numbers::pi * j / (kChN * a); }
  double omega(int j) const { return wMax() * std::abs(std::sin(k(j) * a / 2)); }  // theory 2, 7.1
  double site(int i) const { return (i + 0.5 - kChN / 2.0) * a; }
  // Round-off bound on |d th|/th (banner).
  double roundOff(double th) const {
    return 8 * std::numeric_limits<double>::epsilon() * (kChN / 2.0 * a) / (kChA * th * std::sin(th));
  }
};

// th measured from a run of mode j (projection + three-point identity).
double measuredTheta(const ChainParams& p, int j, double dt) {
  Scene s;
  s.materials = {p.mat};
  s.setCell(Cell(Vec3(kChN * p.a, 5 * kChR, 5 * kChR).asDiagonal()));
  for (int i = 0; i < kChN; ++i)
    s.particles.add(
        sphereSpec(Vec3(p.site(i) + kChA * std::cos(p.k(j) * i * p.a), 2.5 * kChR, 2.5 * kChR), kChR, 2500.0));
  s.setDt(dt);
  s.setDamping(0.0);
  const auto project = [&] {
    double q = 0;
    for (int i = 0; i < kChN; ++i)
      q += (s.particles.pos[static_cast<std::size_t>(i)].x() - p.site(i)) * std::cos(p.k(j) * i * p.a);
    return q;
  };
  std::vector<double> q{project()};
  for (long n = std::lround(kChEnd / dt); n > 0; --n) {
    s.step();
    q.push_back(project());
  }
  double num = 0, den = 0;
  for (std::size_t n = 1; n + 1 < q.size(); ++n) {
    num += q[n] * (q[n + 1] + q[n - 1]);
    den += 2 * q[n] * q[n];
  }
  return std::acos(num / den);
}

double series(double x) { return x * x / 24 + 3 * std::pow(x, 4) / 640; }

}  // namespace

Case chainWavesCase() {
  const ChainParams p;
  Case c;
  c.name = "chain_waves";
  c.title = "waves in a pre-compressed periodic chain: measured frequencies against the leapfrog's dispersion relation";
  c.dts = halvings(0.4 / p.wMax(), 4);
  const auto one = [](double) { return 1.0; };
  c.quantities = {
      roundOffTolerance({"discrete_relation_over_roundoff", one, std::nullopt},
                        "8 eps x_max/(A th sin th) (error / that)"),
      theoryBound("next series term: 1e-3 s + round-off (theory 2 section 7.1)",
                  {"continuum_series_over_bound", one, std::nullopt}),
      {"zone_boundary_frequency_error",
       [p](double dt) {
         const double x = p.omega(kChN / 2) * dt;
         return series(x) * (1 + 1e-3) + p.roundOff(2 * std::asin(x / 2));
       },
       OrderSpec{2.0, 1.95, 2.05}},
  };
  c.run = [p](double dt) {
    RunOutput out;
    Series disp{
        "dispersion", {"ka", "w_measured_over_wmax", "w_continuum_over_wmax"},
        {},           "dispersion: measured th/dt against the continuum w, at w_max dt = 0.4 (the series level)",
        "k a",        "w / w_max"};
    double discrete = 0, cont = 0, zone = 0;
    for (int j = 1; j <= kChN / 2; ++j) {
      const double w = p.omega(j), x = w * dt, th = measuredTheta(p, j, dt), thRef = 2 * std::asin(x / 2);
      discrete = std::max(discrete, std::abs(th - thRef) / thRef / p.roundOff(thRef));
      cont = std::max(cont, std::abs(th / x - 1 - series(x)) / (1e-3 * series(x) + p.roundOff(thRef)));
      if (j == kChN / 2) zone = th / x - 1;
      disp.rows.push_back({p.k(j) * p.a, th / dt / p.wMax(), w / p.wMax()});
    }
    out.errors["discrete_relation_over_roundoff"] = discrete;
    out.errors["continuum_series_over_bound"] = cont;
    out.errors["zone_boundary_frequency_error"] = zone;
    out.series.push_back(std::move(disp));
    return out;
  };
  return c;
}

}  // namespace dem::verify
