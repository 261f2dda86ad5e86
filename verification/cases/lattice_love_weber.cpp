// Case: Love-Weber stress of affinely strained lattices in the periodic cell (verification theory 2,
//       section 7.2; Love 1927, Weber 1966, Christoffersen et al. 1981).
// Scenario:  spheres R = 0.01 m (E = 1e8 Pa: kn = E R = 1e6 N/m, Cundall law) on lattices filling a
//            periodic cell, at rest; one step of dem::Scene (periodic collider, contact stage, the
//            stress it sums, Scene::stress). Lattices: simple cubic (4^3 sites, spacing a = 2R - u0,
//            u0 = 0.02 R), simple cubic strained along the axes (spacings 2R - u0 (1, 0.5, 2)), and FCC
//            (2^3 conventional cubes of side sqrt2 a, 32 spheres, nearest distance a).
// Reference: sigma = -(1/V) sum_c f_c (x) l_c (tension positive; the solver's F on particle 1 with
//            l = x2 - x1 is the same): simple cubic, diagonal spacings a_x, a_y, a_z:
//              sigma_xx = -kn (2R - a_x)/(a_y a_z)  (and cyclic), off-diagonal 0;
//            isotropic simple cubic p = kn u0/a^2; FCC (6 contacts and a^3/sqrt2 per sphere)
//            p = 2 sqrt2 kn u0/a^2 (theory 2, 7.2; exact at any size for the linear law).
// Tolerance: round-off, relative to the largest stress component: each overlap is 2R minus a
//            distance computed from positions of size <= x_max, so it carries a few eps x_max: the
//            forces are exact to 4 eps x_max/u_min relative, and the stress, a sum of terms of one
//            sign per component, inherits that; 16 eps more for the products and the sum
//            (x_max/u_min = 0.08 m / 1e-4 m = 800 here: 7.1e-13).
#include "cases/registry.hpp"
#include "solver/scene.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace dem::verify {

namespace {

constexpr double kLwR = 0.01, kLwU0 = 0.02 * kLwR;

// A periodic scene with spheres at `sites` in the cell diag(size); one step at rest.
Mat3 latticeStress(const std::vector<Vec3>& sites, const Vec3& size) {
  Scene s;
  s.materials = {Material{2500.0, 1e8, 0.2, 0.5, 0.25, 1.0}};
  s.setCell(Cell(size.asDiagonal()));
  for (const Vec3& x : sites) s.particles.add(sphereSpec(x, kLwR, 2500.0));
  s.setDt(1e-6);
  s.setDamping(0.0);
  s.step();
  return s.stress;
}

std::vector<Vec3> cubicSites(const Vec3& a, int m) {
  std::vector<Vec3> x;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j)
      for (int k = 0; k < m; ++k) x.emplace_back((i + 0.5) * a.x(), (j + 0.5) * a.y(), (k + 0.5) * a.z());
  return x;
}

// FCC: m^3 conventional cubes of side b, 4 sites each.
std::vector<Vec3> fccSites(double b, int m) {
  const Vec3 basis[4] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
  std::vector<Vec3> x;
  for (const Vec3& c : cubicSites(Vec3(b, b, b), m))
    for (const Vec3& f : basis) x.push_back(c + b * f);
  return x;
}

double relativeError(const Mat3& sigma, const Mat3& ref) {
  return (sigma - ref).cwiseAbs().maxCoeff() / ref.cwiseAbs().maxCoeff();
}

}  // namespace

Case latticeLoveWeberCase() {
  const double eps = std::numeric_limits<double>::epsilon(), kn = 1e8 * kLwR;
  Case c;
  c.name = "lattice_love_weber";
  c.title = "Love-Weber stress of simple cubic (isotropic, diagonal strain) and FCC lattices in the periodic cell";
  c.dts = {0.0};
  // x_max: the largest coordinate (4 spacings of the widest axis) over the smallest overlap u0/2
  const double roundOff = 4.0 * eps * (4.0 * 2.0 * kLwR) / (0.5 * kLwU0) + 16.0 * eps;
  const auto tol = [roundOff](double) { return roundOff; };
  const std::string multiple = "4 eps x_max/u_min + 16 eps";
  c.quantities = {roundOffTolerance({"sc_isotropic", tol, std::nullopt}, multiple),
                  roundOffTolerance({"sc_diagonal", tol, std::nullopt}, multiple),
                  roundOffTolerance({"fcc_isotropic", tol, std::nullopt}, multiple)};
  c.run = [kn](double) {
    RunOutput out;
    const double a = 2 * kLwR - kLwU0;
    out.errors["sc_isotropic"] = relativeError(latticeStress(cubicSites(Vec3(a, a, a), 4), Vec3(4 * a, 4 * a, 4 * a)),
                                               -(kn * kLwU0 / (a * a)) * Mat3::Identity());  // p = kn u0/a^2
    const Vec3 ad = Vec3::Constant(2 * kLwR) - kLwU0 * Vec3(1.0, 0.5, 2.0);
    Mat3 diag = Mat3::Zero();
    for (int w = 0; w < 3; ++w)
      diag(w, w) = -kn * (2 * kLwR - ad[w]) / (ad[(w + 1) % 3] * ad[(w + 2) % 3]);  // theory 2, 7.2
    out.errors["sc_diagonal"] = relativeError(latticeStress(cubicSites(ad, 4), 4 * ad), diag);
    const double b = std::sqrt(2.0) * a;
    out.errors["fcc_isotropic"] =
        relativeError(latticeStress(fccSites(b, 2), Vec3(2 * b, 2 * b, 2 * b)),
                      -(2 * std::sqrt(2.0) * kn * kLwU0 / (a * a)) * Mat3::Identity());  // p = 2 sqrt2 kn u0/a^2
    return out;
  };
  return c;
}

}  // namespace dem::verify
