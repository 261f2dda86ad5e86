// Case: a two-sphere clump with spin dropped onto a frictional wall bounces (seed "Clumps";
//       theory 2.2, 6.1 and the ledger of energy.hpp).
// Scenario:  members R1 = 0.01 m at (0,0,z0) and R2 = 0.008 m at (0.015,0,z0), 2600 kg/m^3: they
//            overlap (centre distance 0.015 < R1 + R2), so the collider would pair them unless
//            members of one clump are excluded; mass properties by the grid (Auto). Wall z = 0,
//            E = 1e6 Pa (kn = E R against a wall of the same material), ks/kn = 0.2, friction angle 0.5 rad, no
//            damping; gravity (0,0,-9.81). The clump starts 3 mm above the wall with velocity
//            (0.3, 0, -0.5) m/s and angular velocity (2, 25, -10) rad/s: its members hit the wall
//            sliding (dissipation is booked), the clump bounces and lands again; T = 0.15 s.
//            Levels dt = 0.1 x 2/w ... (halving, 5 levels: the error of each level depends on where
//            the contact onsets fall, so more levels steady the fitted slope), w defined below.
// Reference: (a) the contact store never holds a contact between the two members, nor one with the
//            clump body (checked after every step); (b) kinetic + rotational + gravitational +
//            elastic + friction dissipation is constant (energy.hpp).
// Tolerance: (a) exactly zero such contacts; (b) the ledger's error of a linear contact oscillation
//            is bounded by (w dt)^2/4 of the oscillation energy (theory 2.2), contact onsets and slip
//            add O(dt^3) / O(dt^2) remainders (theory 6.1, energy.hpp): gate max_t |E - E(t_1)| <=
//            (w dt)^2/4 x max_t (kinetic + rotational) with w the fastest contact mode of a member
//            on the wall, w^2 = kn (1/M + R1'^2/I_min), R1' = (largest member reach from the
//            centroid) - an upper bound of kn/m_eff for any contact point; the aspherical rotation
//            in flight adds only the Fincham A&T drift O(t dt^3) (theory 3.2). Fitted slope 2
//            +- 0.4 (the same band as energy_deposition: contact events fall differently at each
//            level). (c) the friction dissipation booked is > 0 (the slip happened): reported as
//            0 when booked, 1 otherwise.
#include "cases/registry.hpp"
#include "cases/rigid_common.hpp"
#include "solver/laws.hpp"

#include <cmath>

namespace dem::verify {

namespace {

struct ClumpBounce {
  Material mat{2600.0, 1e6, 0.2, 0.5};
  double R1 = 0.01, R2 = 0.008, sep = 0.015, z0 = 0.013;
  Vec3 v0 = Vec3(0.3, 0.0, -0.5), w0 = Vec3(2.0, 25.0, -10.0);

  Scene build(double dt) const {
    Scene s;
    s.materials.push_back(mat);
    s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
    s.particles.add(sphereSpec(Vec3(0, 0, z0), R1, mat.density));
    s.particles.add(sphereSpec(Vec3(sep, 0, z0), R2, mat.density));
    const std::size_t b = s.addClump({1, 2});
    s.particles.vel[b] = v0;
    s.particles.angVel[b] = w0;
    s.gravity = Vec3(0, 0, -9.81);
    s.setDt(dt);
    s.setDamping(0.0);
    return s;
  }
  // Upper bound of the contact frequency of a member on the wall.
  double omega() const {
    const Scene s = build(1.0);
    const Particles& p = s.particles;
    const double M = p.mass[3], Imin = p.inertia[3].minCoeff();
    const double reach = std::max((p.pos[1] - p.pos[3]).norm() + R1, (p.pos[2] - p.pos[3]).norm() + R2);
    const double kn = Cundall::normalStiffness(mat, R1, mat, 0.0, true);
    return std::sqrt(kn * (1.0 / M + reach * reach / Imin));
  }
};

}  // namespace

Case clumpBounceCase() {
  const ClumpBounce setup;
  const double w = setup.omega(), T = 0.15;
  Case c;
  c.name = "clump_bounce";
  c.title = "two-sphere clump with spin bouncing on a frictional wall: no member-member contact, energy ledger";
  c.dts = halvings(0.1 * 2.0 / w, 5);
  c.quantities.push_back(roundOffTolerance({"member_contacts", [](double) { return 0.0; }, std::nullopt}));
  c.quantities.push_back({"ledger_total_rel", [w](double dt) { return std::pow(w * dt, 2) / 4; },
                          OrderSpec{2.0, 1.6, 2.4, 1e-13}});
  c.quantities.push_back(roundOffTolerance({"friction_not_booked", [](double) { return 0.0; }, std::nullopt}));
  c.seriesLevel = 1;
  c.run = [setup, T](double dt) {
    RunOutput out;
    Scene s = setup.build(dt);
    Series ts{"ledger", {"t", "z_clump", "kinetic", "rotational", "gravity", "elastic", "friction", "total_minus_E1"}, {}};
    double bad = 0;
    const auto check = [&s, &bad] {
      if (s.contacts.find(1, 2) >= 0) bad += 1;
      for (const Contact& k : s.contacts.records())
        if (k.id1 == 3 || k.id2 == 3) bad += 1;
    };
    s.step();
    check();
    const double E1 = s.energy.total();
    double maxErr = 0, maxKin = 0;
    const int n = rigid::stepsFor(T, dt);
    for (int k = 1; k < n; ++k) {
      s.step();
      check();
      const EnergyLedger& e = s.energy;
      maxErr = std::max(maxErr, std::abs(e.total() - E1));
      maxKin = std::max(maxKin, e.kinetic + e.rotational);
      if (k % 10 == 0)
        ts.rows.push_back({e.time, s.particles.pos[3].z(), e.kinetic, e.rotational, e.gravity, e.elastic,
                           e.frictionDissipated, e.total() - E1});
    }
    out.errors["member_contacts"] = bad;
    out.errors["ledger_total_rel"] = maxErr / maxKin;
    out.errors["friction_not_booked"] = s.energy.frictionDissipated > 0.0 ? 0.0 : 1.0;
    out.series.push_back(std::move(ts));
    return out;
  };
  return c;
}

}  // namespace dem::verify
