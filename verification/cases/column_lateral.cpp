// Case: lateral modes of a frictional column (verification theory 2, section 5, "Lateral perturbation";
//       MFIX DEM03 type): four spheres on a wall under gravity at their static heights, pushed
//       sideways in one lateral mode. The tangential springs of all four contacts carry the motion
//       at once, every one stuck.
// Scenario:  the column of column_modes (R = 0.01 m, rho = 2500 kg/m^3, kn = 1e6 N/m between spheres,
//            kw = 1.9998e6 N/m at the wall, g = 9.81 m/s^2) with friction angle 0.5 rad and
//            ks = 0.2 kn (Cundall), rotations blocked: with free rotations the column has N - 1
//            rolling modes with w^2 < 0 (no rolling resistance; theory 2, 5). Start: at the static
//            heights and x = 0 (where the shear springs form) with v = A w_j phi_j (largest |x| A =
//            1e-8 m: k_t |s| <= 4e-3 N, far below the smallest Coulomb cap 0.056 N of the top
//            contact), first-step adjustment; 30 periods of mode j, dt = 0.1/w_4 through dem::Scene.
// Reference: the lateral stiffness K = sum_c k_t b_c b_c^T - sum_sphere contacts (N_c/L_c) b_c b_c^T
//            (slip s_0 = x_0 at the wall, s_i = x_i - x_{i-1}; reference/spring_column.hpp), modes
//            K phi = w^2 m phi. The leapfrog turns mode j by th_j = 2 asin(w_j dt/2) per step;
//            measured by the projection q_n = phi_j^T M x_n and the three-point identity
//            cos th = sum q_n (q_{n+1} + q_{n-1}) / (2 sum q_n^2) (theory 2, 7.1).
// Tolerance: 1e-4 relative on th (theory 2, 5: the convention-dependent terms, -N/L, the material
//            point, are O(u/R) = 1.6e-5 relative to k_t; gate frequencies at 1e-4). The geometric
//            term itself is 2.5e-5 of k_t. Measured: 1e-11 ... 1e-14, the linear model with the
//            geometric term to round-off (with rotations blocked the arm and material-point
//            conventions do not enter). Every contact stays real and stuck: the ledger books
//            0 J of friction (exactly: the Coulomb return never acts).
#include "cases/column_scene.hpp"
#include "cases/registry.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

namespace dem::verify {

namespace {

struct LateralColumn {
  Material sphere{2500.0, 1e8, 0.2, 0.5}, wall{2500.0, 1e12, 0.2, 0.5};
  ref::SpringColumn col = cundallColumn(sphere, wall);
  Eigen::VectorXd omega;
  Eigen::MatrixXd phi;  // mass-normalised lateral modes
  LateralColumn() {
    // ks = ksRatio kn for equal ksRatio (the mixing rule of kn applied to ksRatio K_i, laws/cundall.hpp)
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(col.lateralStiffness(0.2 * col.kw, 0.2 * col.ks) / col.m);
    omega = es.eigenvalues().cwiseSqrt();
    phi = es.eigenvectors() / std::sqrt(col.m);
  }
  double dt() const { return 0.1 / omega[col.size() - 1]; }
};

// th of lateral mode j measured from a run (projection + three-point identity); throws if a
// contact opens or slides.
double lateralTheta(const LateralColumn& c, Eigen::Index j) {
  // (the shear springs start at the formation: the mode is started by its velocity, x(0) = 0)
  const Eigen::VectorXd zs = c.col.heights(c.col.staticOverlaps()),
                        v0 = 1e-8 * c.omega[j] * c.phi.col(j) / c.phi.col(j).cwiseAbs().maxCoeff();
  Scene s = columnScene(c.sphere, c.wall, c.col, zs, v0, dof::rotation, c.dt());
  const auto project = [&] {
    double q = 0;
    for (Eigen::Index i = 0; i < c.col.size(); ++i)
      q += c.col.m * c.phi(i, j) * s.particles.pos[static_cast<std::size_t>(i + 1)].x();
    return q;
  };
  std::vector<double> q{project()};
  const long steps = std::lround(30 * 2 * std::numbers::pi / (c.omega[j] * c.dt()));
  for (long n = 0; n < steps; ++n) {
    s.step();
    if (s.contacts.countReal() != static_cast<std::size_t>(c.col.size()))
      throw std::runtime_error("column_lateral: a contact opened");
    q.push_back(project());
  }
  if (s.energy.frictionDissipated != 0.0) throw std::runtime_error("column_lateral: a contact slid");
  double num = 0, den = 0;
  for (std::size_t n = 1; n + 1 < q.size(); ++n) {
    num += q[n] * (q[n + 1] + q[n - 1]);
    den += 2 * q[n] * q[n];
  }
  return std::acos(num / den);
}

}  // namespace

Case columnLateralCase() {
  const LateralColumn setup;
  Case c;
  c.name = "column_lateral";
  c.title =
      "lateral modes of a stuck frictional column of 4 spheres on a wall (rotations blocked): frequencies of all four "
      "modes";
  c.dts = {setup.dt()};
  for (Eigen::Index j = 0; j < setup.col.size(); ++j)
    c.quantities.push_back(
        theoryBound("convention terms O(u/R) of k_t (theory 2 section 5)",
                    {"mode" + std::to_string(j + 1) + "_frequency_rel", [](double) { return 1e-4; }, std::nullopt}));
  c.run = [setup](double dt) {
    RunOutput out;
    Series modes{"lateral_modes", {"mode", "w_model", "w_measured"}, {}, "lateral modes: model and measured", "mode",
                 "w [rad/s]"};
    for (Eigen::Index j = 0; j < setup.col.size(); ++j) {
      const double th = lateralTheta(setup, j), thRef = 2 * std::asin(setup.omega[j] * dt / 2);
      out.errors["mode" + std::to_string(j + 1) + "_frequency_rel"] = std::abs(th - thRef) / thRef;
      modes.rows.push_back({static_cast<double>(j + 1), setup.omega[j], 2 * std::sin(th / 2) / dt});
    }
    out.series.push_back(std::move(modes));
    return out;
  };
  return c;
}

}  // namespace dem::verify
