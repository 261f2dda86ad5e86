// Unit: walls and facet meshes in a periodic cell (periodic_collider.hpp, "Boundaries in a cell").
// - A sphere sliding into rolling on, and one bouncing on, a floor wall in a cell periodic in x and y
//   whose period along the wall's normal is large moves with the same bits as without the cell,
//   crossing the periodic boundary in x and y (the contact sees the floor at k = 0, or at k = e_z
//   when the wall's point lies one period below: x_wall + H k is then exactly the plane z = 0).
// - A sphere sliding into rolling on a mesh floor made of facets narrower than half the cell, across
//   the periodic seams, moves as on the analytic wall to round-off (16 eps per step, facet_tools.hpp):
//   the closest point and velocity of the facet's image, one contact at a time, and the spring
//   carried across the seam (sharePeriodicVertices; without it the spring restarts at the seam and
//   the difference is ~1e-3).
// - A layer on a floor in a cell sheared in the xz plane (with flips) keeps working: every step the
//   collider holds every pair whose true boxes overlap (the brute-force oracle, walls and facets
//   included), the floor's contacts use k = 0 (the third column is never subtracted from the
//   others: Cell::flip's kept columns), and no sphere crosses the floor.
// - A wall not parallel to two side vectors: refused at the first run, and as soon as a deforming
//   cell makes it so (std::invalid_argument naming the wall and what was expected).
#include "cases/facet_tools.hpp"
#include "cases/periodic_oracle.hpp"
#include "solver/builders.hpp"
#include "solver/periodic_collider.hpp"
#include "unit/same_bits.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>

using namespace dem;
using dem::test::sameValue;

namespace {

constexpr double kR = 0.01, kMu = 0.3, kG = 9.81;

Material floorMaterial(double restitution) {
  Material m{2800.0, 1e7, 2.0 / 7.0, std::atan(kMu)};
  m.restitution = restitution;
  return m;
}

double sphereM() { return sphereMass(kR, floorMaterial(1.0).density); }
double stepLength() { return 0.1 * std::sqrt(sphereM() / (floorMaterial(1.0).young * kR)); }

// One sphere at x with velocity v over a floor: the wall through wallPoint with normal z, or (mesh)
// the grid of n x n squares of side h from the origin; in the cell `size` when given.
Scene floorScene(const Vec3& x, const Vec3& v, double restitution, const Vec3& wallPoint, bool mesh, double h, int n,
                 const std::optional<Vec3>& size) {
  Scene s;
  s.materials = {floorMaterial(restitution)};
  if (mesh) s.particles.addMesh(verify::gridMesh(0.0, 0.0, 0.0, h, n), 0);
  else s.particles.addWall(wallPoint, Vec3::UnitZ(), 0);
  ParticleSpec a = sphereSpec(x, kR, s.materials[0].density);
  a.vel = v;
  s.particles.add(a);
  s.gravity = Vec3(0, 0, -kG);
  s.setDt(stepLength());
  s.setDamping(0.0);
  if (size) s.setCell(Cell::box(*size));
  return s;
}

// Steps a (in a cell) and b (without) side by side; counts the steps where the sphere's position,
// velocity or angular velocity differ in any bit. Also the least and largest x reached, the facet
// contacts with a non-zero cellDist and the most real contacts the sphere had at once.
struct Comparison {
  int differing = 0, realSteps = 0, imageSteps = 0;
  double xMax = -1e300, yMax = -1e300;
};
Comparison compareBits(Scene& a, Scene& b, std::uint64_t steps) {
  Comparison c;
  const std::size_t i = a.particles.size() - 1;
  for (std::uint64_t k = 0; k < steps; ++k) {
    a.step();
    b.step();
    const Particles &p = a.particles, &q = b.particles;
    c.differing +=
        !(sameValue(p.pos[i], q.pos[i]) && sameValue(p.vel[i], q.vel[i]) && sameValue(p.angVel[i], q.angVel[i]));
    c.realSteps += a.contacts.countReal() > 0;
    for (std::size_t m = 0; m < a.contacts.size(); ++m)
      c.imageSteps += a.contacts.real(m) && !a.contacts.cellDist(m).isZero();
    c.xMax = std::max(c.xMax, p.pos[i].x());
    c.yMax = std::max(c.yMax, p.pos[i].y());
  }
  return c;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(periodic_boundaries)

BOOST_AUTO_TEST_CASE(wall_floor_in_a_cell_gives_the_same_bits) {
  const double m = sphereM(), kn = floorMaterial(1.0).young * kR;
  const auto steps = static_cast<std::uint64_t>(std::ceil(0.15 / stepLength()));
  const Vec3 cell(0.05, 0.05, 1.0);  // sphere box 2 (R + dL) / L_x = 0.44 < 1/2; period 100 R along z
  struct Run {
    const char* what;
    Vec3 x, v;
    double restitution;
    Vec3 wallPoint;
    bool image;        // the contact sees the image k = e_z
    int minRealSteps;  // steps on the floor at least
  };
  const Run runs[] = {
      {"sliding into rolling", Vec3(0.03, 0.02, kR - m * kG / kn), Vec3(1.0, 0.35, 0.0), 1.0, Vec3(0.01, 0.02, 0.0),
       false, static_cast<int>(steps)},
      {"bouncing", Vec3(0.03, 0.02, 3 * kR), Vec3(1.0, 0.35, -0.5), 0.7, Vec3(0.01, 0.02, 0.0), false, 40},
      {"sliding on the image one period up", Vec3(0.03, 0.02, kR - m * kG / kn), Vec3(1.0, 0.35, 0.0), 1.0,
       Vec3(0.01, 0.02, -1.0), true, static_cast<int>(steps)},
  };
  for (const Run& r : runs) {
    BOOST_TEST_CONTEXT(r.what) {
      Scene a = floorScene(r.x, r.v, r.restitution, r.wallPoint, false, 0, 0, cell);
      Scene b = floorScene(r.x, r.v, r.restitution, Vec3(0.01, 0.02, 0.0), false, 0, 0, std::nullopt);
      const Comparison c = compareBits(a, b, steps);
      BOOST_TEST(c.differing == 0);
      BOOST_TEST(c.realSteps >= r.minRealSteps);
      BOOST_TEST(c.xMax > 0.03 + 2 * cell.x());  // crossed the boundary in x twice
      BOOST_TEST(c.yMax > cell.y());             // and in y
      BOOST_TEST((c.imageSteps > 0) == r.image);
      BOOST_TEST(a.periodicCollider.runs() < steps);  // the Verlet skip worked with the wall
    }
  }
}

BOOST_AUTO_TEST_CASE(mesh_floor_in_a_cell_matches_the_wall_across_the_seams) {
  const double m = sphereM(), kn = floorMaterial(1.0).young * kR;
  const auto steps = static_cast<std::uint64_t>(std::ceil(0.15 / stepLength()));
  // 4 x 4 squares of side 2R: facet box (2R + 2 dL) / L = 0.275, sphere box 0.275 (< 1/2)
  const Vec3 cell(0.08, 0.08, 1.0);
  const Vec3 x(0.05, 0.05, kR - m * kG / kn), v(1.0, 0.35, 0.0);
  Scene mesh = floorScene(x, v, 1.0, Vec3::Zero(), true, 2 * kR, 4, cell);
  Scene wall = floorScene(x, v, 1.0, Vec3::Zero(), false, 0, 0, cell);
  const auto sphere = static_cast<std::uint32_t>(mesh.particles.size() - 1);
  verify::Divergence d;
  int extra = 0, images = 0;
  for (std::uint64_t k = 0; k < steps; ++k) {
    mesh.step();
    wall.step();
    verify::accumulate(d, mesh, sphere, wall, 1, kR, kR, v.norm(), m * kG);
    extra += verify::realFacetContacts(mesh, sphere) > 1;
    for (std::size_t c = 0; c < mesh.contacts.size(); ++c)
      images += mesh.contacts.real(c) && !mesh.contacts.cellDist(c).isZero();
  }
  const double bound = verify::roundOffBound(steps);
  BOOST_TEST_MESSAGE("mesh vs wall over " << steps << " steps: position " << d.pos << ", velocity " << d.vel
                                          << ", spin " << d.spin << ", force " << d.force << " (bound " << bound
                                          << ")");
  BOOST_TEST(d.pos <= bound);
  BOOST_TEST(d.vel <= bound);
  BOOST_TEST(d.spin <= bound);
  BOOST_TEST(d.force <= bound);
  BOOST_TEST(extra == 0);
  BOOST_TEST(images > 0);  // the sphere rolled over the facets' images
  BOOST_TEST(mesh.particles.pos[sphere].x() > x.x() + cell.x());
  BOOST_TEST(mesh.particles.pos[sphere].y() > cell.y());
}

namespace {

// A 4 x 4 layer of spheres at rest on a floor z = 0 (a wall, or a mesh of 4 x 4 squares), spaced
// 2.1 R in the cell (8.4 R, 8.4 R, 40 R) (neighbours within the Verlet distance, across the
// boundary too), sheared in the xz plane (L_xz = rate) from the affine field, flipped when
// flippable (the floor's axis z kept); wallNormal != z adds a second wall (particle 1).
Scene shearedLayer(double rate, const Vec3& wallNormal, bool meshFloor = false) {
  Scene s;
  s.materials = {floorMaterial(0.5)};
  const double a = 2.1 * kR, L = 4 * a;
  if (meshFloor) s.particles.addMesh(verify::gridMesh(0.0, 0.0, 0.0, a, 4), 0);
  else s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
  if (wallNormal != Vec3::UnitZ()) s.particles.addWall(Vec3(0.5 * L, 0.5 * L, 0.05), wallNormal, 0);
  const double z = kR - sphereM() * kG / (floorMaterial(1.0).young * kR);  // the static overlap
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      s.particles.add(sphereSpec(Vec3(0.5 * a + a * i, 0.5 * a + a * j, z), kR, s.materials[0].density));
  s.gravity = Vec3(0, 0, -kG);
  s.setDt(stepLength());
  s.setDamping(0.0);
  s.setCell(Cell::box(Vec3(L, L, 40 * kR)));
  Mat3 Lgrad = Mat3::Zero();
  Lgrad(0, 2) = rate;
  s.cell->setVelGrad(Lgrad);
  s.cell->flipFlippable = true;
  s.startOnAffineField();
  return s;
}

}  // namespace

BOOST_AUTO_TEST_CASE(layer_on_a_floor_in_a_cell_sheared_in_xz) {
  for (const bool meshFloor : {false, true}) {
    BOOST_TEST_CONTEXT((meshFloor ? "mesh floor" : "wall floor")) {
      Scene s = shearedLayer(10.0, Vec3::UnitZ(), meshFloor);
      const std::size_t first = meshFloor ? 32 : 1;  // the first sphere
      const int steps = 2000;  // strain 0.68: h_3x = 0.27 m before the flips, which keep |h_3x| <= L_x / 2
      int missing = 0, runMismatches = 0, floorImagesZ = 0, shifted = 0, sphereSphere = 0;
      std::size_t floorMin = 1000;
      double zMin = 1e300;
      for (int k = 0; k < steps; ++k) {
        const verify::OracleStep o = verify::stepAgainstOracle(s);
        missing += o.missing;
        runMismatches += o.runMismatch;
        std::size_t onFloor = 0;
        for (const Contact& c : s.contacts.records()) {
          shifted += !c.cellDist.isZero();
          sphereSphere += c.type == ContactType::SphereSphere && !c.cellDist.isZero();
          if (c.type == ContactType::SphereSphere) continue;
          floorImagesZ += c.cellDist[2] != 0;
          onFloor += c.real;
        }
        floorMin = std::min(floorMin, onFloor);
        for (std::size_t i = first; i < s.particles.size(); ++i) zMin = std::min(zMin, s.particles.pos[i].z());
      }
      BOOST_TEST(missing == 0);
      BOOST_TEST(runMismatches == 0);
      BOOST_TEST(floorImagesZ == 0);
      BOOST_TEST(floorMin == 16u);   // every sphere on the floor at every step, one contact each
      BOOST_TEST(zMin > 0.9 * kR);   // none sinks in
      BOOST_TEST(sphereSphere > 0);  // pairs across the boundary were found
      BOOST_TEST(shifted > 0);
      BOOST_TEST(s.periodicCollider.fullRuns() >= 3u);  // flips (each a full rebuild) happened
      BOOST_TEST(std::abs(s.cell->H()(0, 2)) <= 0.5 * s.cell->H()(0, 0));
      BOOST_TEST(s.cell->H()(2, 0) == 0.0);  // the floor's plane keeps the first two columns
      BOOST_TEST(s.cell->H()(2, 1) == 0.0);
    }
  }
}

// The error names the wall and what was expected.
static void checkNotParallel(Scene& s, std::uint64_t steps) {
  try {
    s.run(steps);
    BOOST_ERROR("no exception for a wall not parallel to two of the cell's side vectors");
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    BOOST_TEST_INFO("message: " << m);
    BOOST_TEST(m.find("wall (particle 1") != std::string::npos);
    BOOST_TEST(m.find("not parallel to two of the periodic cell's side vectors") != std::string::npos);
    BOOST_TEST(m.find("expected n . h_j = 0 for exactly two columns") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(wall_not_parallel_to_two_side_vectors_is_refused) {
  // normal (1, 0, 1)/sqrt 2: parallel to h_2 only
  Scene oblique = shearedLayer(0.0, Vec3(1, 0, 1));
  checkNotParallel(oblique, 1);
  // a side wall normal to x is parallel to h_2 and h_3 until the xz shear tilts h_3
  Scene side = shearedLayer(10.0, Vec3::UnitX());
  BOOST_TEST(periodicBodyProblem(side.particles, 1, *side.cell, 0.0).empty());
  checkNotParallel(side, 3);
  BOOST_TEST(side.stepCount >= 1u);  // (refused when the cell had deformed, not at the start)
}

BOOST_AUTO_TEST_CASE(facet_wider_than_half_the_cell_is_refused) {
  Scene s = floorScene(Vec3(0.03, 0.02, 2 * kR), Vec3::Zero(), 1.0, Vec3::Zero(), true, 0.04, 2, Vec3(0.08, 0.08, 1.0));
  try {
    s.run(1);
    BOOST_ERROR("no exception for a facet as wide as half the cell");
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    BOOST_TEST_INFO("message: " << m);
    BOOST_TEST(m.find("facet (particle 0, triangle 0 of mesh 0)") != std::string::npos);
    BOOST_TEST(m.find("subdivide the mesh") != std::string::npos);
  }
}

BOOST_AUTO_TEST_SUITE_END()
