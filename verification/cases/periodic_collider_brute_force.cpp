// Case: periodic collider == brute force (minimum image in transformed coordinates) at every step,
//       with the Verlet skip, in simple shear to strain 3 with flips and in stretch/compression.
// Scenario:  gasInCell (216 spheres, r = 0.07 m +- 20 %, velocities in [-1, 1] m/s, unit cell,
//            dt = 0.3 r_min sqrt(rho/E), verletDist = -0.1), started on the affine field of
//            (a) simple shear L_xy = 3 / (600 dt), 600 steps (strain 3), the cell flipped after every
//                step (Scene::flipCell: three flips, each a full rebuild);
//            (b) L = [[2, 1, 0], [0, -1.5, 0.5], [0, 0, -0.5]] /s, 500 steps (stretch x by ~30 %,
//                compression y by ~18 %, with shear components);
//            (c) 216 spheres, r = 0.05 m +- 20 %, jitter 5 % (none touching), at rest on the affine field
//                (no fluctuation velocity) of L = [[1, 2, 0], [0, -4, 0], [0, 0, 1]] /s, 500 steps
//                (y compressed by ~30 %, until they touch): they keep their fractional coordinates
//                until they touch, so only the change of H can trigger the collider (a criterion on
//                displacements alone never runs and misses every new contact: checked by mutation).
//            (d) facets: the spheres of (c) moving at up to 0.05 m/s under gravity (9.81 m/s^2 along
//                -z), with a mesh just below the layer z = 0.75 m (some of its spheres within 2 dL,
//                a few touching by < 2 mm: the layer lands on it), the plane z = 0.684 m as 4 x 4
//                squares of side 0.25 m (32 facets, each box 0.27 of the cell), translating at
//                (3, 1, 0) m/s and turning at 0.5 rad/s about z under the resting spheres, in the
//                static unit cell, 500 steps: sphere-facet pairs with the facet's image k, and the
//                facets' own displacement triggering most runs (criterion (V) with the vertices'
//                box; without it 79 pairs are missed: checked by mutation). (Walls: the unit test
//                periodic_boundaries, a layer on a floor in a sheared cell; a wall in a gas is met
//                from behind, where it is a half-space.)
// Reference: the O(N^2) oracle bruteForcePeriodicPairs of the configuration each step's collider saw:
//            - after EVERY step, skipped or not: every pair (with its image k) whose true boxes
//              (dL = 0; the spheres' own extent in transformed coordinates, a superset of the
//              overlapping spheres) overlap is in the contact store with cellDist = k
//              (periodic_collider.hpp, criterion (V) and its proof);
//            - after every step where the collider ran: the store equals the oracle's pair set at
//              the collider's dL exactly (pairs and images).
//            Also: the collider skipped some steps (runs < steps; runs per step as a time series), and
//            the shear run flipped three times (strain 0.5, 1.5, 2.5), each flip forcing a full rebuild.
// Tolerance: 0 (counts of missing pairs, of mismatching runs, and an indicator). The oracle builds
//            boxes with the collider's own function (same floating-point operations, so no
//            round-off margin enters the comparison at run steps), and criterion (V) carries its own
//            round-off margin; any miss is a defect. No timestep sweep: one level.
#include "cases/facet_tools.hpp"
#include "cases/periodic_oracle.hpp"
#include "cases/periodic_scenes.hpp"
#include "cases/registry.hpp"
#include "solver/periodic_collider.hpp"

#include <algorithm>
#include <cmath>

namespace dem::verify {

namespace {

struct Tally {
  double missing = 0, runMismatches = 0;
  std::uint64_t steps = 0, runs = 0, shifted = 0, real = 0;
  std::uint64_t facetImages = 0;  // sphere-facet pairs with k != 0 (step sums)
};

// Runs `steps` steps of s comparing with the oracle; with flip, Scene::flipCell after each comparison
// (as flipFlippable does inside step(), but after the check, so that both refer to the same basis).
Tally compareEveryStep(Scene& s, int steps, bool flip, Series& runs) {
  Tally t;
  const std::uint64_t runs0 = s.periodicCollider.runs();
  for (int k = 0; k < steps; ++k) {
    const OracleStep o = stepAgainstOracle(s);
    t.missing += o.missing;
    t.runMismatches += o.runMismatch;
    for (const Contact& c : s.contacts.records()) {
      t.shifted += !c.cellDist.isZero();
      t.real += c.real;
      t.facetImages += c.type == ContactType::SphereFacet && !c.cellDist.isZero();
    }
    if (flip) s.flipCell();
    runs.rows.push_back({static_cast<double>(k + 1), static_cast<double>(s.periodicCollider.runs() - runs0)});
  }
  t.steps = static_cast<std::uint64_t>(steps);
  t.runs = s.periodicCollider.runs() - runs0;
  return t;
}

void record(RunOutput& out, const std::string& tag, const Tally& t) {
  out.errors[tag + "_missing_pairs"] = t.missing;
  out.errors[tag + "_run_mismatches"] = t.runMismatches;
  out.errors[tag + "_no_skip"] = t.runs >= t.steps ? 1.0 : 0.0;
  // informative (not gated): the skip ratio, and that boundary-crossing and real contacts occurred
  out.errors[tag + "_runs_per_step"] = static_cast<double>(t.runs) / static_cast<double>(t.steps);
  out.errors[tag + "_no_shifted_or_real"] = t.shifted > 0 && t.real > 0 ? 0.0 : 1.0;
  if (tag == "facets") out.errors[tag + "_no_facet_images"] = t.facetImages > 0 ? 0.0 : 1.0;
}

}  // namespace

Case periodicColliderBruteForceCase() {
  Case c;
  c.name = "periodic_collider_brute_force";
  c.title =
      "periodic collider (Verlet skip) == brute-force minimum image, every step: shear 3 + flips, stretch, affine, "
      "a moving mesh";
  c.dts = {0.0};
  c.onRanks = false;  // (one scene's collider lists against brute force)
  for (const char* tag : {"shear", "stretch", "affine", "facets"})
    for (const char* q : {"_missing_pairs", "_run_mismatches", "_no_skip", "_no_shifted_or_real"})
      c.quantities.push_back(roundOffTolerance({std::string(tag) + q, [](double) { return 0.0; }, std::nullopt}));
  c.quantities.push_back(roundOffTolerance({"shear_flip_count_err", [](double) { return 0.0; }, std::nullopt}));
  c.quantities.push_back(roundOffTolerance({"facets_no_facet_images", [](double) { return 0.0; }, std::nullopt}));
  c.run = [](double) {
    RunOutput out;
    Series shearRuns{"shear_runs", {"step", "collider_runs"}, {}};
    Series stretchRuns{"stretch_runs", {"step", "collider_runs"}, {}}, affineRuns{"affine_runs", {"step", "collider_runs"}, {}};
    Series facetRuns{"facets_runs", {"step", "collider_runs"}, {}};
    {
      Scene s = gasInCell();
      const int steps = 600;
      Mat3 L = Mat3::Zero();
      L(0, 1) = 3.0 / (steps * s.dt());  // shear strain 3: boxes wider than half the cell without flips
      s.cell->setVelGrad(L);
      s.startOnAffineField();
      record(out, "shear", compareEveryStep(s, steps, true, shearRuns));
      // strain 3 from 0 with |H_xy| <= 1/2 kept: flips at strain 0.5, 1.5, 2.5, each a full rebuild
      // (besides the first run, and the runs made full because an incremental one would cost more)
      const PeriodicCollider& collider = s.periodicCollider;
      out.errors["shear_flip_count_err"] =
          std::abs(static_cast<double>(collider.fullRuns() - collider.fullRunsForCost()) - 4.0);
    }
    {
      Scene s = gasInCell();
      Mat3 L;
      L << 2, 1, 0, 0, -1.5, .5, 0, 0, -.5;
      s.cell->setVelGrad(L);
      s.startOnAffineField();
      record(out, "stretch", compareEveryStep(s, 500, false, stretchRuns));
    }
    {
      PeriodicLatticeSpec spec;
      spec.m = 6;
      spec.radius = 0.05;
      spec.spread = 0.2;
      spec.jitter = 0.05;
      Scene s = periodicLatticeScene(spec);
      Mat3 L;
      L << 1, 2, 0, 0, -4, 0, 0, 0, 1;
      s.cell->setVelGrad(L);
      s.startOnAffineField();
      record(out, "affine", compareEveryStep(s, 500, false, affineRuns));
    }
    {
      PeriodicLatticeSpec spec;  // as (c), slow
      spec.m = 6;
      spec.radius = 0.05;
      spec.spread = 0.2;
      spec.jitter = 0.05;
      spec.speed = 0.05;
      Scene s = periodicLatticeScene(spec);
      MeshMotion motion;
      motion.centre = Vec3(0.5, 0.5, 0.684);
      motion.vel = Vec3(3.0, 1.0, 0.0);
      motion.angVel = Vec3(0.0, 0.0, 0.5);
      s.particles.addMesh(gridMesh(0.0, 0.0, 0.684, 0.25, 4), 0, motion);
      s.gravity = Vec3(0, 0, -9.81);  // (the layer lands and stays on the mesh, which slides under it)
      record(out, "facets", compareEveryStep(s, 500, false, facetRuns));
    }
    for (Series* r : {&shearRuns, &stretchRuns, &affineRuns, &facetRuns}) {
      r->xLabel = "step";
      r->yLabel = "collider runs";
      out.series.push_back(std::move(*r));
    }
    return out;
  };
  return c;
}

}  // namespace dem::verify
