// Case: flipping the cell changes no contact (seed "Collision detection in periodic cell", Yade's
//       flipCell): the same lattice in another basis gives the same contacts and forces.
// Scenario:  densePacking (64 spheres, r = 0.13 m +- 5 %, overlapping) in the sheared cell
//            H = [[1, .8, 0], [0, 1, 0], [0, 0, 1]], 3 steps; then two copies, b flipped
//            (Scene::flipCell: H' = H F with F = [[1, -1, 0], [0, 1, 0], [0, 0, 1]], cellDist
//            k' = F^{-1} k, the collider rebuilt), both run 3 more steps.
// Reference: flipped H'_xy = 0.8 - 1 = -0.2; after every step the same real contacts with the same
//            image positions (H k = H' k') and the same forces on every particle.
// Tolerance: H'_xy: one subtraction, eps. Contacts: exact (0 mismatches; the image positions agree
//            to 16 eps (|H k| + 1), the rounding of H F and of the products). Forces: the images
//            H k and H' k' differ by round-off (2 eps |x|_max, |x|_max <= max |x_i| + |H|), which enters each contact as in
//            periodic_replicated_contacts: |dF| <= 14 x 8 x steps x kn eps |x|_max, reported as
//            force_ulps = |dF| / (kn eps |x|_max), tolerance 336 for 3 steps. No timestep sweep.
#include "cases/periodic_scenes.hpp"
#include "cases/registry.hpp"

#include <cmath>
#include <limits>

namespace dem::verify {

namespace {

// Real contacts of a that have no real counterpart in b with the same image position.
double contactMismatches(const Scene& a, const Scene& b) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  double miss = std::abs(static_cast<double>(a.contacts.countReal()) - static_cast<double>(b.contacts.countReal()));
  for (const Contact& c : a.contacts.records()) {
    if (!c.real) continue;
    const std::int64_t m = b.contacts.find(c.id1, c.id2);
    const Vec3 ia = a.cell->H() * c.cellDist.cast<double>();
    bool same = false;
    if (m >= 0) {
      const Contact& d = b.contacts.get(static_cast<std::size_t>(m));
      same = d.real && (ia - b.cell->H() * d.cellDist.cast<double>()).norm() <= 16 * eps * (ia.norm() + 1.0);
    }
    miss += !same;
  }
  return miss;
}

}  // namespace

Case cellFlipInvarianceCase() {
  Case c;
  c.name = "cell_flip_invariance";
  c.title = "cell flip changes no contact: same real contacts, images and forces in the flipped basis";
  c.dts = {0.0};
  constexpr double eps = std::numeric_limits<double>::epsilon();
  c.quantities.push_back(
      roundOffTolerance({"flipped_H_xy_err", [](double) { return eps; }, std::nullopt, "m"}, "eps: one subtraction"));
  c.quantities.push_back(roundOffTolerance({"not_flipped", [](double) { return 0.0; }, std::nullopt}));
  c.quantities.push_back(roundOffTolerance({"contact_mismatches", [](double) { return 0.0; }, std::nullopt}));
  c.quantities.push_back(roundOffTolerance({"force_ulps", [](double) { return 14.0 * 8.0 * 3.0; }, std::nullopt},
                                           "336 = 14 x 8 x 3 steps in units of kn eps |x|max"));
  c.run = [](double) {
    RunOutput out;
    Mat3 H;
    H << 1, 0.8, 0, 0, 1, 0, 0, 0, 1;
    Scene a = periodicLatticeScene(densePacking(H, 1));
    a.run(3);
    Scene b = a;
    out.errors["not_flipped"] = b.flipCell() ? 0.0 : 1.0;
    out.errors["flipped_H_xy_err"] = std::abs(b.cell->H()(0, 1) + 0.2);
    double xMax = 0.0, miss = 0.0, ulps = 0.0;
    for (std::size_t i = 0; i < a.particles.size(); ++i) xMax = std::max(xMax, a.particles.pos[i].norm());
    xMax += a.cell->H().norm();  // images x + H k
    for (int k = 0; k < 3; ++k) {
      a.step();
      b.step();
      miss += contactMismatches(a, b);
      double kn = 0.0;
      for (const Contact& q : a.contacts.records()) kn = std::max(kn, q.params[0]);
      for (std::size_t i = 0; i < a.particles.size(); ++i)
        ulps = std::max(ulps, (a.particles.force[i] - b.particles.force[i]).norm() / (kn * eps * xMax));
    }
    out.errors["contact_mismatches"] = miss;
    out.errors["force_ulps"] = ulps;
    return out;
  };
  return c;
}

}  // namespace dem::verify
