// Case: periodic cell under stretch and shear + stretch: Cayley update second order, T first order.
// Scenario:  (a) pure stretch L = diag(0.3, -0.1, -0.2) of the unit box, (b) L = [[.1,.8,0],
//            [0,-.05,0],[0,0,-.05]] on a skewed H0; t = 2, dt = 0.02 ... 0.0025.
// Reference: H(t) = expm(L t) H0; the exact Hencky strain of (a) is e_i t; the exact T is expm(L t).
// Tolerance: verification theory 4.1-4.2.
//            - |H - expm(Lt) H0|/|H|: per-step error L^3 dt^3/12, so global second order; bound
//              |L|^3 t dt^2/12 times a factor 2 for growth (|L| <= 0.82 in (b)); slope 2 +- 0.05.
//            - Hencky strain of (a) from H (Cell::henckyStrain): per step the log-stretch is
//              2 atanh(e dt/2) = e dt (1 + (e dt)^2/12 + ...), so its relative error is (e dt)^2/12
//              independent of t: the ratio measured/predicted must lie within 1 % of 1 (the next term
//              changes it by (e dt)^2 12/80 < 1e-4).
//            - T of (a): ln T_ii = n ln(1 + e dt), relative error -e dt/2 + (e dt)^2/3: slope 1 +- 0.05,
//              and the ratio to -e dt/2 within 5 % of 1 (deviation 2 e dt/3 <= 0.4 %).
#include "cases/registry.hpp"
#include "solver/cell.hpp"

#include <unsupported/Eigen/MatrixFunctions>

namespace dem::verify {

Case cellStretchConvergenceCase() {
  Case c;
  c.name = "cell_stretch_convergence";
  c.title = "cell H under stretch (2nd order), Hencky (e dt)^2/12, T first order";
  c.dts = halvings(0.02, 4);
  const double T = 2.0;
  c.quantities.push_back({"stretch_H_rel", [T](double dt) { return 2.0 * std::pow(0.3, 3) * T * dt * dt / 12; },
                          OrderSpec{2.0, 1.95, 2.05}});
  c.quantities.push_back({"general_H_rel", [T](double dt) { return 2.0 * std::pow(0.82, 3) * T * dt * dt / 12; },
                          OrderSpec{2.0, 1.95, 2.05}});
  c.quantities.push_back(theoryBound("Hencky strain ratio within 1 % (theory 4.1)",
                                     {"hencky_ratio_dev", [](double) { return 0.01; }, std::nullopt}));
  c.quantities.push_back({"T_stretch_log_rel", [](double dt) { return 1.05 * 0.3 * dt / 2; }, OrderSpec{1.0, 0.95, 1.05}});
  c.quantities.push_back(theoryBound("T ratio to -e dt/2 within 5 % (theory 4.2)",
                                     {"T_ratio_dev", [](double) { return 0.05; }, std::nullopt}));
  c.run = [T](double dt) {
    RunOutput out;
    const int n = static_cast<int>(std::lround(T / dt));
    const Vec3 e(0.3, -0.1, -0.2);
    const Mat3 Ls = e.asDiagonal();
    Cell a = Cell::box(Vec3(1, 1, 1));
    a.setVelGrad(Ls);
    Series ts{"stretch", {"t", "hencky_xx", "hencky_xx_ref", "lnT_xx"}, {}};
    for (int k = 1; k <= n; ++k) {
      a.advance(dt);
      if (k % std::max(1, n / 50) == 0)
        ts.rows.push_back({k * dt, a.henckyStrain()(0, 0), e[0] * k * dt, std::log(a.trsf()(0, 0))});
    }
    out.errors["stretch_H_rel"] = (a.H() - (Ls * T).exp() * a.H0()).norm() / a.H().norm();
    const double henckyRel = (a.henckyStrain()(0, 0) - e[0] * T) / (e[0] * T);
    out.errors["hencky_ratio_dev"] = std::abs(henckyRel / (std::pow(e[0] * dt, 2) / 12) - 1.0);
    const double tRel = (std::log(a.trsf()(0, 0)) - e[0] * T) / (e[0] * T);
    out.errors["T_stretch_log_rel"] = std::abs(tRel);
    out.errors["T_ratio_dev"] = std::abs(tRel / (-e[0] * dt / 2) - 1.0);

    Mat3 Lg, H0;
    Lg << .1, .8, 0, 0, -.05, 0, 0, 0, -.05;
    H0 << 1.0, 0.3, -0.2, 0.1, 1.2, 0.25, -0.05, 0.15, 0.9;
    Cell b(H0);
    b.setVelGrad(Lg);
    for (int k = 1; k <= n; ++k) b.advance(dt);
    out.errors["general_H_rel"] = (b.H() - (Lg * T).exp() * H0).norm() / b.H().norm();
    ts.xLabel = "t [s]";
    out.series.push_back(std::move(ts));
    return out;
  };
  return c;
}

}  // namespace dem::verify
