// Case: periodic cell under a nilpotent velocity gradient or a rigid spin: the Cayley update is exact.
// Scenario:  a skewed cell H0 deformed for 1000 steps by (a) simple shear L_xy = 0.7, (b) the
//            nilpotent L = [[0,.8,.3],[0,0,-.5],[0,0,0]] (L^2 != 0, L^3 = 0), (c) a rigid spin
//            L = [[0,-W,0],[W,0,0],[0,0,0]], W = 0.9; dt = 1e-3 ... 2.5e-4 (t = 1 ... 0.25).
// Reference: H(t) = expm(L t) H0 (Eigen MatrixFunctions). For nilpotent L the Cayley factor
//            (I - L dt/2)^{-1}(I + L dt/2) equals expm(L dt) exactly (verification theory 4.1, finding
//            6); T_{n+1} = T_n + L T_n dt equals expm(L t) = I + L t exactly iff L^2 = 0 (theory 4.2);
//            det C = 1 exactly for nilpotent and skew L, so the volume is constant.
// Tolerance: round-off only, no order. Every step multiplies by the same rounded factor C (an inverse and
//            two 3x3 products: relative round-off k eps, k <= 4), so its round-off is systematic and
//            grows linearly: bound k n eps = 8.9e-13 after n = 1000 steps, for H (nilpotent) and for the
//            volume (det C - 1 is the same rounded number every step). Theory 4.1's gates (1e-13 for H,
//            1e-14 for det H) are below this bound; measured up to 2.8e-13 with this skewed H0 (noted in
//            the report). T (simple shear): n additions of L T dt, bound 2 n eps |T| = 4.4e-13.
#include "cases/registry.hpp"
#include "solver/cell.hpp"

#include <unsupported/Eigen/MatrixFunctions>

namespace dem::verify {

namespace {
Mat3 skewedCell() {
  Mat3 H;
  H << 1.0, 0.3, -0.2, 0.1, 1.2, 0.25, -0.05, 0.15, 0.9;
  return H;
}
}  // namespace

Case cellNilpotentExactCase() {
  Case c;
  c.name = "cell_nilpotent_exact";
  c.title = "cell H and T under nilpotent L / rigid spin: Cayley update exact to round-off";
  c.dts = halvings(1e-3, 3);
  const auto h = [](double) { return 4.0 * 1000 * 2.2e-16; };
  const auto t = [](double) { return 2.0 * 1000 * 2.2e-16; };
  c.quantities.push_back(roundOffTolerance({"shear_H_rel", h, std::nullopt}, "4 n eps (n steps)"));
  c.quantities.push_back(roundOffTolerance({"shear_T_rel", t, std::nullopt}, "2 n eps (n steps)"));
  c.quantities.push_back(roundOffTolerance({"shear_volume_rel", h, std::nullopt}, "4 n eps (n steps)"));
  c.quantities.push_back(roundOffTolerance({"nilpotent_H_rel", h, std::nullopt}, "4 n eps (n steps)"));
  c.quantities.push_back(roundOffTolerance({"nilpotent_volume_rel", h, std::nullopt}, "4 n eps (n steps)"));
  c.quantities.push_back(roundOffTolerance({"spin_volume_rel", h, std::nullopt}, "4 n eps (n steps)"));
  c.run = [](double dt) {
    RunOutput out;
    const int n = 1000;
    Mat3 shear = Mat3::Zero(), nil, spin = Mat3::Zero();
    shear(0, 1) = 0.7;
    nil << 0, .8, .3, 0, 0, -.5, 0, 0, 0;
    spin(0, 1) = -0.9;
    spin(1, 0) = 0.9;
    const Mat3 H0 = skewedCell();
    Series ts{"shear", {"t", "H_xy", "H_xy_ref"}, {}};
    for (const auto& [tag, L] : {std::pair{std::string("shear"), shear}, {std::string("nilpotent"), nil},
                                 {std::string("spin"), spin}}) {
      Cell cell(H0);
      cell.setVelGrad(L);
      for (int k = 1; k <= n; ++k) {
        cell.advance(dt);
        if (tag == "shear" && k % 20 == 0) {
          const Mat3 ex = (L * (k * dt)).exp() * H0;
          ts.rows.push_back({k * dt, cell.H()(0, 1), ex(0, 1)});
        }
      }
      const Mat3 E = (L * (n * dt)).exp();
      if (tag != "spin") out.errors[tag + "_H_rel"] = (cell.H() - E * H0).norm() / cell.H().norm();
      if (tag == "shear") out.errors["shear_T_rel"] = (cell.trsf() - E).norm() / E.norm();
      out.errors[tag + "_volume_rel"] = std::abs(cell.volume() - std::abs(H0.determinant())) / std::abs(H0.determinant());
    }
    ts.xLabel = "t [s]";
    out.series.push_back(std::move(ts));
    return out;
  };
  return c;
}

}  // namespace dem::verify
