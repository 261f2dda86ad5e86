// Case: kinetic energy in a moving (deforming) periodic cell: fluctuation vs total velocity.
// Scenario:  27 non-interacting spheres (r = 1 mm) at random points of a unit cell under simple shear
//            L_xy = 2 /s plus a stretch L_yy = -0.5 /s, started on the affine field
//            (Scene::startOnAffineField); particle 0 has in addition a fluctuation velocity
//            u = (0.3, -0.2, 0.1) m/s. 200 steps, dt = 1e-3 ... 1.25e-4 s.
// Reference: as in Yade's periodic-cell tests, the ledger's kinetic energy is that of the
//            fluctuation velocity v - L x: (1/2) m0 |u|^2 (the particles on the field contribute 0), while
//            the total-velocity energy is sum (1/2) m |L x_n + u_i|^2. With the consistent start the
//            discrete fluctuation velocity obeys m dv_f/dt = F exactly (the homoDeform update, integrator.hpp),
//            so without forces it stays u: both energies are exact to round-off at every dt.
// Tolerance: 1e-12 relative (round-off of 200 steps). No order (exact).
#include "cases/registry.hpp"
#include "solver/scene.hpp"

#include <random>

namespace dem::verify {

Case kineticEnergyMovingCellCase() {
  Case c;
  c.name = "kinetic_energy_moving_cell";
  c.title = "kinetic energy in a deforming cell: fluctuation and total velocity, exact";
  c.dts = halvings(1e-3, 4);
  c.quantities.push_back(roundOffTolerance({"fluctuation_rel", [](double) { return 1e-12; }, std::nullopt}));
  c.quantities.push_back(roundOffTolerance({"total_rel", [](double) { return 1e-12; }, std::nullopt}));
  c.run = [](double dt) {
    RunOutput out;
    Scene s;
    s.materials.push_back(Material{2600.0, 1e7, 0.2, 0.4});
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> u(0.05, 0.95);
    for (int i = 0; i < 27; ++i) s.particles.add(sphereSpec(Vec3(u(rng), u(rng), u(rng)), 1e-3, 2600.0));
    const Vec3 uf(0.3, -0.2, 0.1);
    s.particles.vel[0] = uf;
    s.setDt(dt);
    Mat3 L = Mat3::Zero();
    L(0, 1) = 2.0;
    L(1, 1) = -0.5;
    Cell cell = Cell::box(Vec3(1, 1, 1));
    cell.setVelGrad(L);
    s.setCell(cell);
    s.startOnAffineField();
    double errF = 0.0, errT = 0.0;
    const double ek0 = 0.5 * s.particles.mass[0] * uf.squaredNorm();
    for (int k = 0; k < 200; ++k) {
      s.step();
      errF = std::max(errF, std::abs(s.energy.kinetic - ek0) / ek0);
      // Total on-step energy at t_n (the ledger's level): x_n = x_{n+1} - dt v_{n+1/2}.
      double ref = 0.0;
      for (std::size_t i = 0; i < s.particles.size(); ++i) {
        const Vec3 xn = s.particles.pos[i] - dt * s.particles.vel[i];
        const Vec3 v = L * xn + (i == 0 ? uf : Vec3::Zero());
        ref += 0.5 * s.particles.mass[i] * v.squaredNorm();
      }
      errT = std::max(errT, std::abs(s.energy.kineticTotal - ref) / ref);
    }
    out.errors["fluctuation_rel"] = errF;
    out.errors["total_rel"] = errT;
    return out;
  };
  return c;
}

}  // namespace dem::verify
