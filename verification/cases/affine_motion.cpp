// Case: non-interacting particles in a deforming periodic cell (homoDeform) follow the affine field.
// Scenario:  8 small spheres (r = 1 mm, no contacts) at random points of a skewed cell H0, no
//            gravity, t = 1, dt = 0.02 ... 0.0025, under five constant gradients: simple shear,
//            nilpotent (L^2 != 0), stretch diag(.3,-.1,-.2), shear + stretch, rigid spin.
//            (a) consistent start (Scene::startOnAffineField): v(-dt/2) = (I + L dt/2)^{-1} L x0;
//            (b) switch-on from rest: particles at rest (on-step v(0) = 0, the first-step adjustment on),
//                cell gradient 0 before t = 0 and L after.
// Reference: verification theory 4.3. (a) x_n = H_n H0^{-1} x0 exactly, i.e. the fractional
//            coordinates s = H^{-1} x are constant, for any constant L; against the continuum
//            x(t) = expm(L t) x0 the particles then carry the cell's error: second order for stretch.
//            (b) simple shear (L^2 = 0): the particles acquire the affine velocity L x at once and
//            then x_n = expm(L t) x0 exactly; for stretch the start is first order.
// Tolerance: (a) |s_n - s_0| <= 1e-12 (theory's CI gate; round-off of n = 400 steps ~ 1e-14);
//            continuum error of stretch: bound 2 |L|^3 t dt^2/12 |x| (cell's per-step Cayley error,
//            theory 4.1), slope 2 +- 0.1. (b) shear: |x - expm(Lt)x0| and |v - L x| relative 1e-12
//            (round-off); stretch: fractional error below e dt (the first step's O(e dt) offset of
//            the fractional coordinate, theory 4.3: 1 + e dt/2), slope 1 +- 0.1.
#include "cases/registry.hpp"
#include "solver/scene.hpp"

#include <unsupported/Eigen/MatrixFunctions>

#include <random>

namespace dem::verify {

namespace {

Mat3 skewedCell() {
  Mat3 H;
  H << 1.0, 0.3, -0.2, 0.1, 1.2, 0.25, -0.05, 0.15, 0.9;
  return H;
}

// Eight spheres at fixed random fractional coordinates of H0.
Scene gasInCell(const Mat3& L, double dt) {
  Scene s;
  s.materials.push_back(Material{2600.0, 1e7, 0.2, 0.4});
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0.05, 0.95);
  const Mat3 H0 = skewedCell();
  for (int i = 0; i < 8; ++i) s.particles.add(sphereSpec(H0 * Vec3(u(rng), u(rng), u(rng)), 1e-3, 2600.0));
  s.setDt(dt);
  Cell cell(H0);
  cell.setVelGrad(L);
  s.setCell(cell);
  return s;
}

double maxFractionalDrift(const Scene& s, const std::vector<Vec3>& s0) {
  double e = 0.0;
  for (std::size_t i = 0; i < s0.size(); ++i) e = std::max(e, (s.cell->invH() * s.particles.pos[i] - s0[i]).norm());
  return e;
}

}  // namespace

Case affineMotionCase() {
  Case c;
  c.name = "affine_motion";
  c.title = "particles in a deforming cell: on the affine field (consistent start exact, switch-on)";
  c.dts = halvings(0.02, 4);
  const double T = 1.0;
  const auto exact = [](double) { return 1e-12; };
  for (const char* tag : {"shear", "nilpotent", "stretch", "shear_stretch", "spin"})
    c.quantities.push_back(roundOffTolerance({std::string("consistent_") + tag + "_ds", exact, std::nullopt}));
  c.quantities.push_back({"consistent_stretch_vs_expm",
                          [T](double dt) { return 2.0 * std::pow(0.3, 3) * T * dt * dt / 12 * 2.0; },
                          OrderSpec{2.0, 1.9, 2.1}});
  c.quantities.push_back(roundOffTolerance({"switch_on_shear_x_rel", exact, std::nullopt}));
  c.quantities.push_back(roundOffTolerance({"switch_on_shear_v_rel", exact, std::nullopt}));
  c.quantities.push_back({"switch_on_stretch_ds", [](double dt) { return 0.3 * dt; }, OrderSpec{1.0, 0.9, 1.1}});
  c.run = [T](double dt) {
    RunOutput out;
    const int n = static_cast<int>(std::lround(T / dt));
    Mat3 shear = Mat3::Zero(), nil, stretch, ss, spin = Mat3::Zero();
    shear(0, 1) = 0.7;
    nil << 0, .8, .3, 0, 0, -.5, 0, 0, 0;
    stretch = Vec3(0.3, -0.1, -0.2).asDiagonal();
    ss << .1, .8, 0, 0, -.05, 0, 0, 0, -.05;
    spin(0, 1) = -0.9;
    spin(1, 0) = 0.9;
    Series ts{"stretch_consistent", {"t", "x0", "x0_ref"}, {}};
    for (const auto& [tag, L] : {std::pair{std::string("shear"), shear}, {std::string("nilpotent"), nil},
                                 {std::string("stretch"), stretch}, {std::string("shear_stretch"), ss},
                                 {std::string("spin"), spin}}) {
      Scene s = gasInCell(L, dt);
      s.startOnAffineField();
      std::vector<Vec3> s0, x0 = s.particles.pos;
      for (const Vec3& x : x0) s0.push_back(s.cell->invH() * x);
      double drift = 0.0;
      for (int k = 1; k <= n; ++k) {
        s.step();
        drift = std::max(drift, maxFractionalDrift(s, s0));
        if (tag == "stretch" && k % std::max(1, n / 50) == 0)
          ts.rows.push_back({k * dt, s.particles.pos[0].x(), ((L * (k * dt)).exp() * x0[0]).x()});
      }
      out.errors["consistent_" + tag + "_ds"] = drift;
      if (tag == "stretch") {
        const Mat3 E = (L * T).exp();
        double e = 0.0;
        for (std::size_t i = 0; i < x0.size(); ++i)
          e = std::max(e, (s.particles.pos[i] - E * x0[i]).norm() / (E * x0[i]).norm());
        out.errors["consistent_stretch_vs_expm"] = e;
      }
    }
    // Switch-on from rest.
    {
      Scene s = gasInCell(shear, dt);
      const std::vector<Vec3> x0 = s.particles.pos;
      s.run(static_cast<std::uint64_t>(n));
      const Mat3 E = (shear * T).exp();
      double ex = 0.0, ev = 0.0;
      for (std::size_t i = 0; i < x0.size(); ++i) {
        ex = std::max(ex, (s.particles.pos[i] - E * x0[i]).norm() / x0[i].norm());
        ev = std::max(ev, (s.particles.vel[i] - shear * s.particles.pos[i]).norm() / (shear * x0[i]).norm());
      }
      out.errors["switch_on_shear_x_rel"] = ex;
      out.errors["switch_on_shear_v_rel"] = ev;
    }
    {
      Scene s = gasInCell(stretch, dt);
      std::vector<Vec3> s0;
      for (const Vec3& x : s.particles.pos) s0.push_back(s.cell->invH() * x);
      s.run(static_cast<std::uint64_t>(n));
      out.errors["switch_on_stretch_ds"] = maxFractionalDrift(s, s0);
    }
    ts.xLabel = "t [s]";
    out.series.push_back(std::move(ts));
    return out;
  };
  return c;
}

}  // namespace dem::verify
