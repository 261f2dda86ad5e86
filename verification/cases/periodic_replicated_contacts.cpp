// Case: periodic contacts == replicated contacts (3x3x3 copies without periodicity, central copy).
// Scenario:  densePacking (64 spheres, r = 0.13 m +- 5 % on a 0.25 m lattice: overlapping from the
//            first step, friction 0.4 rad, ks/kn = 0.2) in (a) a sheared cell at rest
//            H = [[1, .4, .1], [0, 1, .2], [0, 0, 1]], 3 steps (shear history included); (b) a
//            deforming cell H = [[1, .3, 0], [0, 1.1, 0], [0, 0, .95]] started on the affine field of
//            L = [[.5, 3, 0], [0, -.2, 1], [0, 0, -.3]] /s, 1 step (contacts formed with relative
//            velocities across the boundary). The replica holds copy k in {-1, 0, 1}^3 of particle i at
//            x_i + H k with velocity v_i + V k (V the cell's image velocity), the aperiodic collider.
// Reference: the periodic scene's real contacts (i, j, cellDist) equal the replica's real contacts
//            touching the central copy (with the copies' offset difference), and the forces and
//            torques on the central copy equal the periodic ones.
// Tolerance: contact sets: exact (0 mismatching steps). Forces: only round-off differs, the image
//            x_j + H k is rounded (2 eps |x|_max per coordinate, |x|_max the largest replica
//            position) and enters the branch vector, overlap, normal and (through the normal's
//            rotation) the shear force of each contact, each by at most kn times that error, and the
//            sums over a particle's contacts run in another order: per step and contact <= 8 kn eps
//            |x|_max; z <= 14 contacts per sphere, errors of earlier steps carried by the positions
//            (damped by (w dt)^2 < 1): |dF| <= 14 x 8 x steps x kn eps |x|_max. The error is reported
//            in these units (force_ulps = |dF| / (kn eps |x|_max), torque_ulps = |dT| / (kn eps
//            |x|_max r_max)) with the tolerance 112 x steps (336 for 3 steps). No timestep sweep.
#include "cases/periodic_scenes.hpp"
#include "cases/registry.hpp"

#include <cmath>
#include <limits>
#include <set>

namespace dem::verify {

namespace {

// The periodic scene replicated 3x3x3 without a cell; copy c (0..26, offsets k in {-1,0,1}^3) of
// particle i has index c n + i; the central copy is c = 13.
Scene replicate(const Scene& periodic, std::vector<Eigen::Vector3i>& offsets) {
  Scene r;
  r.materials = periodic.materials;
  r.setDt(periodic.dt());
  r.setDamping(periodic.damping());
  r.collider.verletDist = periodic.periodicCollider.verletDist;
  const Mat3 H = periodic.cell->H(), V = periodic.cell->imageVelocity();
  const Particles& p = periodic.particles;
  offsets.clear();
  for (int kz = -1; kz <= 1; ++kz)
    for (int ky = -1; ky <= 1; ++ky)
      for (int kx = -1; kx <= 1; ++kx) {
        const Eigen::Vector3i k(kx, ky, kz);
        offsets.push_back(k);
        for (std::size_t i = 0; i < p.size(); ++i) {
          ParticleSpec q = sphereSpec(p.pos[i] + H * k.cast<double>(), p.radius[i], periodic.materials[0].density);
          q.vel = p.vel[i] + V * k.cast<double>();
          q.angVel = p.angVel[i];
          r.particles.add(q);
          r.particles.velMidstep.back() = p.velMidstep[i];
        }
      }
  return r;
}

using RealSet = std::set<std::tuple<std::uint32_t, std::uint32_t, int, int, int>>;

RealSet periodicReal(const Scene& s) {
  RealSet set;
  for (const Contact& c : s.contacts.records())
    if (c.real) set.emplace(c.id1, c.id2, c.cellDist[0], c.cellDist[1], c.cellDist[2]);
  return set;
}

RealSet replicatedReal(const Scene& r, std::size_t n, const std::vector<Eigen::Vector3i>& offsets) {
  RealSet set;
  for (const Contact& c : r.contacts.records()) {
    if (!c.real) continue;
    const std::size_t ca = c.id1 / n, cb = c.id2 / n;
    if (ca != 13 && cb != 13) continue;
    const auto i = static_cast<std::uint32_t>(c.id1 % n), j = static_cast<std::uint32_t>(c.id2 % n);
    const Eigen::Vector3i d = offsets[cb] - offsets[ca];  // offset of the second body's image
    if (i < j) set.emplace(i, j, d[0], d[1], d[2]);
    else set.emplace(j, i, -d[0], -d[1], -d[2]);
  }
  return set;
}

struct Comparison {
  double setMismatches = 0, notDense = 0, forceUlps = 0, torqueUlps = 0;
};

Comparison compareWithReplicated(Scene& s, int steps) {
  std::vector<Eigen::Vector3i> offsets;
  Scene r = replicate(s, offsets);
  const std::size_t n = s.particles.size();
  double xMax = 0.0, rMax = 0.0;
  for (std::size_t i = 0; i < r.particles.size(); ++i) {
    xMax = std::max(xMax, r.particles.pos[i].norm());
    rMax = std::max(rMax, r.particles.radius[i]);
  }
  Comparison out;
  for (int k = 0; k < steps; ++k) {
    s.step();
    r.step();
    const RealSet ps = periodicReal(s);
    out.notDense += ps.size() <= n;  // dense: more than one real contact per particle
    out.setMismatches += ps != replicatedReal(r, n, offsets);
    double kn = 0.0;
    for (const Contact& c : s.contacts.records()) kn = std::max(kn, c.params[0]);
    const double unit = kn * std::numeric_limits<double>::epsilon() * xMax;
    for (std::size_t i = 0; i < n; ++i) {
      out.forceUlps = std::max(out.forceUlps, (s.particles.force[i] - r.particles.force[13 * n + i]).norm() / unit);
      out.torqueUlps =
          std::max(out.torqueUlps, (s.particles.torque[i] - r.particles.torque[13 * n + i]).norm() / (unit * rMax));
    }
  }
  return out;
}

void record(RunOutput& out, const std::string& tag, const Comparison& c) {
  out.errors[tag + "_set_mismatches"] = c.setMismatches;
  out.errors[tag + "_not_dense"] = c.notDense;
  out.errors[tag + "_force_ulps"] = c.forceUlps;
  out.errors[tag + "_torque_ulps"] = c.torqueUlps;
}

}  // namespace

Case periodicReplicatedContactsCase() {
  Case c;
  c.name = "periodic_replicated_contacts";
  c.title = "periodic contacts == 3x3x3 replicated contacts (set, forces, torques): sheared and deforming cell";
  c.dts = {0.0};
  const auto zero = [](double) { return 0.0; };
  for (const auto& [tag, steps] : {std::pair{std::string("sheared"), 3}, {std::string("deforming"), 1}}) {
    const double ulps = 14.0 * 8.0 * steps;
    c.quantities.push_back(roundOffTolerance({tag + "_set_mismatches", zero, std::nullopt}));
    c.quantities.push_back(roundOffTolerance({tag + "_not_dense", zero, std::nullopt}));
    c.quantities.push_back(roundOffTolerance({tag + "_force_ulps", [ulps](double) { return ulps; }, std::nullopt},
                                             "112 x steps in units of kn eps |x|max"));
    c.quantities.push_back(roundOffTolerance({tag + "_torque_ulps", [ulps](double) { return ulps; }, std::nullopt},
                                             "112 x steps in units of kn eps |x|max r_max"));
  }
  c.run = [](double) {
    RunOutput out;
    Mat3 H;
    H << 1, 0.4, 0.1, 0, 1, 0.2, 0, 0, 1;
    Scene sheared = periodicLatticeScene(densePacking(H));
    record(out, "sheared", compareWithReplicated(sheared, 3));
    H << 1, 0.3, 0, 0, 1.1, 0, 0, 0, 0.95;
    Scene deforming = periodicLatticeScene(densePacking(H));
    Mat3 L;
    L << 0.5, 3.0, 0, 0, -0.2, 1.0, 0, 0, -0.3;
    deforming.cell->setVelGrad(L);
    deforming.startOnAffineField();
    record(out, "deforming", compareWithReplicated(deforming, 1));
    return out;
  };
  return c;
}

}  // namespace dem::verify
