// Case: mass properties of a clump of non-overlapping spheres (seed "Clumps": parallel-axis theorem;
// principal axes by Eigen::SelfAdjointEigenSolver; members keep their global positions).
// Scenario:  three spheres, radii 0.1, 0.15, 0.08 m, densities 2600, 1000, 7800 kg/m^3, centres
//            (0,0,0), (0.3,0.1,0), (-0.05,0.25,0.12) m (no two overlap), member orientations arbitrary.
// Reference: m = sum m_i, x_c = sum m_i x_i / m, I_c = sum (2/5 m_i r_i^2 E + m_i (|d_i|^2 E - d_i d_i^T)),
//            written out here independently of the solver.
// Tolerance: round-off, 1e-14 relative (a few dozen flops per entry; the eigen-decomposition of a
//            3x3 symmetric matrix is backward stable to ~10 eps); member positions 1e-15 m x 10.
//            No timestep: one level.
#include "cases/registry.hpp"
#include "solver/builders.hpp"

namespace dem::verify {

Case clumpParallelAxisCase() {
  Case c;
  c.name = "clump_parallel_axis";
  c.title = "Clump of non-overlapping spheres: mass, centroid, inertia tensor (parallel axis), principal frame";
  c.dts = {0.0};
  for (const char* q : {"mass_rel", "centroid_err", "inertia_rel", "members_moved", "principal_diag_rel"})
    c.quantities.push_back(roundOffTolerance({q, [](double) { return 1e-14; }, std::nullopt}));
  c.run = [](double) {
    RunOutput out;
    Scene s;
    const std::array<Vec3, 3> x{Vec3(0, 0, 0), Vec3(0.3, 0.1, 0), Vec3(-0.05, 0.25, 0.12)};
    const std::array<double, 3> r{0.1, 0.15, 0.08}, rho{2600, 1000, 7800};
    double m = 0;
    Vec3 S1 = Vec3::Zero();
    for (int k = 0; k < 3; ++k) {
      ParticleSpec p = sphereSpec(x[k], r[k], rho[k]);
      p.ori = Quat(Eigen::AngleAxisd(0.3 + k, Vec3(1, k, 2).normalized()));
      s.particles.add(p);
      m += p.mass;
      S1 += p.mass * x[k];
    }
    const Vec3 xc = S1 / m;
    Mat3 I = Mat3::Zero();
    for (int k = 0; k < 3; ++k) {
      const double mk = s.particles.mass[static_cast<std::size_t>(k)];
      const Vec3 d = x[k] - xc;
      I += 0.4 * mk * r[k] * r[k] * Mat3::Identity() + mk * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
    }
    const std::size_t body = s.addClump({0, 1, 2});
    const Particles& p = s.particles;
    out.errors["mass_rel"] = std::abs(p.mass[body] / m - 1);
    out.errors["centroid_err"] = (p.pos[body] - xc).norm() / xc.norm();
    const Mat3 R = p.ori[body].toRotationMatrix();
    out.errors["inertia_rel"] = (R * p.inertia[body].asDiagonal() * R.transpose() - I).norm() / I.norm();
    double moved = 0;
    for (int k = 0; k < 3; ++k) moved = std::max(moved, (p.pos[static_cast<std::size_t>(k)] - x[k]).norm());
    out.errors["members_moved"] = moved / 10.0;  // tolerance 1e-14 <=> 1e-13 m
    // In the principal frame the tensor is diagonal.
    const Mat3 Ib = R.transpose() * I * R;
    out.errors["principal_diag_rel"] = (Ib - Mat3(Ib.diagonal().asDiagonal())).norm() / I.norm();
    return out;
  };
  return c;
}

}  // namespace dem::verify
