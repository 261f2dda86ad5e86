// Unit: critical timestep estimators (solver/timestep.hpp) on configurations with closed-form
// values (verification theory 2.4-2.5), Scene::setDtFromStiffness, and bad input.
#include "cases/contact_oscillator.hpp"
#include "solver/laws.hpp"
#include "solver/builders.hpp"

#include <dem_reference/oscillator.hpp>


#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <numbers>

using namespace dem;

namespace {
const double kNaN = std::numeric_limits<double>::quiet_NaN();

bool close(double a, double b, double rel) { return std::abs(a - b) <= rel * std::abs(b); }

template <class F>
void expectInvalid(F&& f, const std::string& needle) {
  try {
    f();
    BOOST_ERROR("no exception; expected one mentioning '" << needle << "'");
  } catch (const std::invalid_argument& e) {
    BOOST_TEST_INFO("message: " << e.what());
    BOOST_TEST(std::string(e.what()).find(needle) != std::string::npos);
  }
}
}  // namespace

BOOST_AUTO_TEST_SUITE(timestep)

// dt_p = min_i R_i sqrt(rho_i/E_i): two materials, the smaller value wins; walls do not count.
BOOST_AUTO_TEST_CASE(p_wave_closed_form) {
  Scene s;
  s.materials = {Material{2600.0, 1e8, 0.2, 0.5}, Material{7800.0, 2e11, 0.3, 0.4}};
  s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
  ParticleSpec a = sphereSpec(Vec3(0, 0, 1), 0.01, 2600.0), b = sphereSpec(Vec3(1, 0, 1), 0.03, 7800.0);
  b.material = 1;
  s.particles.add(a);
  s.particles.add(b);
  const TimestepEstimate e = s.pWaveTimestep();
  const double da = 0.01 * std::sqrt(2600.0 / 1e8), db = 0.03 * std::sqrt(7800.0 / 2e11);
  BOOST_TEST(close(e.dt, std::min(da, db), 1e-14));
  BOOST_TEST(e.particle == (da < db ? 1u : 2u));
  BOOST_TEST(!e.fromContacts);
  // No contacts: the global estimate falls back to the p-wave value.
  const TimestepEstimate g = s.criticalTimestep();
  BOOST_TEST(g.dt == e.dt);
  BOOST_TEST(!g.fromContacts);
}

// A contact across the boundary of a periodic cell counts with the image of particle 2
// (x2 + H cellDist, also as the arm of its rotational stiffness): the estimate equals that of the
// same pair inside the cell (translation invariance), to round-off of the positions.
BOOST_AUTO_TEST_CASE(periodic_contact_uses_the_image) {
  const auto pairAt = [](double x1, double x2) {
    Scene s;
    s.materials.push_back(Material{2600.0, 1e7, 0.2, 0.5});
    s.setCell(Cell::box(Vec3(1, 1, 1)));
    s.particles.add(sphereSpec(Vec3(x1, 0.5, 0.5), 0.05, 2600.0));
    s.particles.add(sphereSpec(Vec3(x2, 0.5, 0.5), 0.05, 2600.0));
    s.setDt(1e-12);
    s.step();  // the collider finds the pair
    return s.criticalTimestep();
  };
  const TimestepEstimate across = pairAt(0.02, 0.93), inside = pairAt(0.50, 0.59);  // overlap 0.01 both
  BOOST_TEST(across.fromContacts);
  BOOST_TEST(inside.fromContacts);
  BOOST_TEST(close(across.dt, inside.dt, 1e-9));
}

// One sphere on a wall (normal z, overlap present before the first step): K = diag(ks, ks, kn),
// dt = sqrt(2 m/kn) (translation along the normal; the rotation about x, y has
// omega^2 = ks r^2/I < kn/m), which is 1/sqrt 2 of the true limit 2 sqrt(m/kn).
BOOST_AUTO_TEST_CASE(sphere_on_wall) {
  const Material mat{2600.0, 1e6, 0.2, 0.5};
  const double R = 0.01, delta = 1e-4;
  Scene s = sphereWallScene(mat, R, Vec3(0, 0, R - delta), Vec3::Zero(), Vec3::Zero(), 1e-6);
  s.collider.update(s.particles, s.materials, s.contacts);
  // a wall of the sphere's material (laws/cundall.hpp): kn = E R, ks = 0.2 kn
  const double kn = Cundall::normalStiffness(mat, R, mat, 0.0, true), ks = 0.2 * kn, m = s.particles.mass[1];
  const auto K = bodyStiffness(s.particles, s.contacts, s.materials);
  BOOST_TEST(close(K[1].translation(2, 2), kn, 1e-14));
  BOOST_TEST(close(K[1].translation(0, 0), ks, 1e-14));
  BOOST_TEST(std::abs(K[1].translation(0, 2)) <= 1e-14 * kn);
  const double r = R - delta / 2;  // arm to the middle of the overlap zone
  BOOST_TEST(close(K[1].rotation(0, 0), ks * r * r, 1e-12));
  BOOST_TEST(std::abs(K[1].rotation(2, 2)) <= 1e-14 * kn * r * r);
  BOOST_TEST(K[0].translation.isZero(0.0));  // the wall has no mode
  const TimestepEstimate e = s.criticalTimestep();
  BOOST_TEST(e.fromContacts);
  BOOST_TEST(e.particle == 1u);
  BOOST_TEST(!e.rotational);
  BOOST_TEST(close(e.dt, std::sqrt(2.0 * m / kn), 1e-14));
  // coupling -K_c [r]x with r = (0, 0, -r): (0,1) = -ks r, (1,0) = ks r
  BOOST_TEST(close(K[1].coupling(0, 1), -ks * r, 1e-12));
  BOOST_TEST(close(K[1].coupling(1, 0), ks * r, 1e-12));
  BOOST_TEST(std::abs(K[1].coupling(2, 2)) <= 1e-14 * kn * r);
  // Blocking the normal axis leaves the tangential modes, displacement and rotation together (the
  // contact point's shear moves with x + theta x r): omega^2 = ks (1/m + r^2/I), larger than either
  // ks/m or ks r^2/I alone.
  s.particles.blocked[1] = dof::z;
  const double I = s.particles.inertia[1][0];
  const TimestepEstimate b = s.criticalTimestep();
  BOOST_TEST(close(b.dt, std::sqrt(2.0 / (ks * (1.0 / m + r * r / I))), 1e-12));
  // Blocking the rotations too leaves the translation ks/m.
  s.particles.blocked[1] = dof::z | dof::rotation;
  BOOST_TEST(close(s.criticalTimestep().dt, std::sqrt(2.0 * m / ks), 1e-12));
}

// Two equal free spheres pressed together with ks = kn (theory 2, section 8: ks/kn > 2/7, the
// tangential mode governs): the exact limit of the pair is 2/omega_t, omega_t^2 = 2 ks (1/m + r^2/I),
// and the estimate sqrt(2/(ks (1/m + r^2/I))) equals it (the factor 2 is exact for two equal free
// bodies); without the coupling of displacement and rotation it was 1.18 times too large.
BOOST_AUTO_TEST_CASE(two_spheres_tangential_mode) {
  verify::ContactOscillator o;
  o.kind = verify::ContactOscillator::Kind::TwoSpheres;
  o.ksRatio = 1.0;
  Scene s = o.build(1e-6, 0.0);
  s.collider.update(s.particles, s.materials, s.contacts);
  const double m = o.mass(), I = s.particles.inertia[0][0], ks = o.kn(), r = o.R - 0.5 * o.staticOverlap();
  const double exact = 2.0 / std::sqrt(2.0 * ks * (1.0 / m + r * r / I));
  const TimestepEstimate e = s.criticalTimestep();
  BOOST_TEST(e.fromContacts);
  BOOST_TEST(e.rotational);
  BOOST_TEST(close(e.dt, exact, 1e-12));
}

// Two equal free spheres along an oblique line: K = kn n n^T + ks (I - n n^T) has the largest
// eigenvalue kn whatever the frame; dt = sqrt(2 m/kn) = the exact limit 2 sqrt(m*/kn) (theory 2.4).
// The seed's diagonal terms K_ww would give a larger (unsafe) value for this normal.
BOOST_AUTO_TEST_CASE(two_spheres_oblique) {
  verify::ContactOscillator o;
  o.kind = verify::ContactOscillator::Kind::TwoSpheres;
  Scene s = o.build(1e-6, 0.0);
  s.collider.update(s.particles, s.materials, s.contacts);
  const TimestepEstimate e = s.criticalTimestep();
  BOOST_TEST(e.fromContacts);
  BOOST_TEST(close(e.dt, o.dtCritical(), 1e-12));
  const auto K = bodyStiffness(s.particles, s.contacts, s.materials);
  BOOST_TEST(K[0].translation.diagonal().maxCoeff() < 0.6 * o.kn());  // the diagonal misses the coupling
}

// A 1D chain of 6 equal spheres between two walls along x, all contacts closed: the estimate is a
// lower bound of the eigenvalue limit 2/sqrt(lambda_max(M^-1 K)) (theory 2.4: Gershgorin in 1D)
// and close to it (the interior of a uniform chain has lambda -> 4 k/m).
BOOST_AUTO_TEST_CASE(chain_between_walls_lower_bound) {
  const Material mat{2600.0, 1e6, 0.2, 0.5};
  const double R = 0.01, delta = 1e-4;
  const int n = 6;
  Scene s;
  s.materials.push_back(mat);
  s.particles.addWall(Vec3::Zero(), Vec3::UnitX(), 0);
  const double L = 2.0 * R * n - (n + 1) * delta;  // walls and spheres all overlapping by delta
  s.particles.addWall(Vec3(L, 0, 0), -Vec3::UnitX(), 0);
  for (int i = 0; i < n; ++i) s.particles.add(sphereSpec(Vec3(R - delta + i * (2 * R - delta), 0, 0), R, mat.density));
  s.setDt(1e-7);
  s.collider.update(s.particles, s.materials, s.contacts);
  const double kw = Cundall::normalStiffness(mat, R, mat, 0.0, true), kss = Cundall::normalStiffness(mat, R, mat, R, false);
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    K(i, i) = (i == 0 || i == n - 1 ? kw : kss) + (n > 1 ? kss : 0.0);
    if (i > 0) K(i, i - 1) = K(i - 1, i) = -kss;
  }
  const double exact = ref::criticalTimestep(Eigen::VectorXd::Constant(n, s.particles.mass[2]), K);
  const TimestepEstimate e = s.criticalTimestep();
  BOOST_TEST(e.fromContacts);
  BOOST_TEST(e.dt <= exact * (1 + 1e-12));
  BOOST_TEST(e.dt >= 0.6 * exact);
  // One step changes nothing: the estimate then uses the real contacts' stored normals.
  s.step();
  BOOST_TEST(s.contacts.countReal() == static_cast<std::size_t>(n + 1));
  BOOST_TEST(close(s.criticalTimestep().dt, e.dt, 1e-6));
}

// A clump of two equal spheres (centres 3R apart along x) resting on a wall z = 0 with both members:
// the contacts go to the clump body, K_zz = 2 kn on the clump mass 2m, dt = sqrt(2 M/K_zz) =
// sqrt(2 m/kn); rotation about y with arms r = (+-a, 0, -h): K_rot,yy = 2 (kn a^2 + ks h^2).
BOOST_AUTO_TEST_CASE(clump_on_wall) {
  const Material mat{2600.0, 1e6, 0.2, 0.5};
  const double R = 0.01, delta = 1e-4, a = 1.5 * R, h = R - delta / 2;
  Scene s;
  s.materials.push_back(mat);
  s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
  s.particles.add(sphereSpec(Vec3(-a, 0, R - delta), R, mat.density));
  s.particles.add(sphereSpec(Vec3(a, 0, R - delta), R, mat.density));
  const std::size_t b = s.addClump({1, 2});
  s.collider.update(s.particles, s.materials, s.contacts);
  // a wall of the sphere's material (laws/cundall.hpp): kn = E R, ks = 0.2 kn
  const double kn = Cundall::normalStiffness(mat, R, mat, 0.0, true), ks = 0.2 * kn, m = s.particles.mass[1];
  const auto K = bodyStiffness(s.particles, s.contacts, s.materials);
  BOOST_TEST(K[1].translation.isZero(0.0));  // members carry nothing themselves
  BOOST_TEST(close(K[b].translation(2, 2), 2 * kn, 1e-14));
  BOOST_TEST(close(K[b].rotation(1, 1), 2 * (kn * a * a + ks * h * h), 1e-12));
  const TimestepEstimate e = s.criticalTimestep();
  BOOST_TEST(e.particle == b);
  BOOST_TEST(!e.rotational);
  BOOST_TEST(close(e.dt, std::sqrt(2.0 * m / kn), 1e-12));
}

// setDtFromStiffness: dt = safety * estimate at the first step (contacts present before it count);
// with an interval it is re-evaluated.
BOOST_AUTO_TEST_CASE(scene_dt_from_stiffness) {
  verify::ContactOscillator o;
  Scene s = o.build(1.0, o.amplitude());
  const double estimate = std::sqrt(2.0 * o.mass() / o.kn());
  s.setDtFromStiffness(0.5, 10);
  s.step();
  BOOST_TEST(close(s.dt(), 0.5 * estimate, 1e-12));
  BOOST_TEST(s.dtSafety() == 0.5);
  s.run(25);  // re-evaluated at steps 10 and 20: the contact stays closed, same value
  BOOST_TEST(close(s.dt(), 0.5 * estimate, 1e-9));
  // No contact: the p-wave value.
  Scene f = singleSphereScene(Vec3::Zero(), Vec3::Zero(), Vec3(0, 0, -9.81), 1.0);
  f.materials.push_back(Material{});
  f.setDtFromStiffness(0.3);
  f.step();
  BOOST_TEST(close(f.dt(), 0.3 * 0.1 * std::sqrt(Material{}.density / Material{}.young), 1e-14));
}

// setDtFromStiffness in a periodic cell: the periodic collider finds the contacts, and a pair across
// the boundary (particle 2's image x2 + H k) gives the estimate of the same pair inside the cell, to
// round-off of the branch vector (eps |x| / |d| ~ 1e-14); an oblique branch vector so that the
// rotational stiffness (arms from each centre, the image's for particle 2) takes part.
BOOST_AUTO_TEST_CASE(scene_dt_from_stiffness_periodic) {
  Mat3 H;
  H << 1, 0.3, 0, 0, 1, 0, 0, 0, 1;
  const Vec3 d(0.03, 0.08, -0.02);  // |d| = 0.0877 < r1 + r2 = 0.09
  const auto pairScene = [&H](const Vec3& x1, const Vec3& x2) {
    Scene s;
    s.materials.push_back(Material{2600.0, 1e7, 0.2, 0.5});
    s.particles.add(sphereSpec(x1, 0.045, 2600.0));
    s.particles.add(sphereSpec(x2, 0.045, 2600.0));
    s.setCell(Cell(H));
    s.setDtFromStiffness(0.5);
    s.step();
    return s;
  };
  const Vec3 x1(0.6, 0.97, 0.5);
  Scene across = pairScene(x1, x1 + d - H.col(1));  // the image across y is x2 + H (0, 1, 0)
  Scene inside = pairScene(Vec3(0.5, 0.5, 0.5), Vec3(0.5, 0.5, 0.5) + d);
  BOOST_TEST_REQUIRE(across.contacts.size() == 1u);
  BOOST_TEST((across.contacts.get(0).cellDist == Eigen::Vector3i(0, 1, 0)));
  BOOST_TEST(across.criticalTimestep().fromContacts);  // from the contact, not the p-wave fallback
  BOOST_TEST(inside.criticalTimestep().fromContacts);
  BOOST_TEST_INFO("across " << across.dt() << ", inside " << inside.dt());
  BOOST_TEST(close(across.dt(), inside.dt(), 1e-12));
}

BOOST_AUTO_TEST_CASE(bad_input) {
  Scene s;
  for (double bad : {0.0, -0.5, 1.0, 1.5, kNaN}) expectInvalid([&] { s.setDtFromStiffness(bad); }, "safety");
  // A sphere without a valid material has no p-wave estimate.
  s.particles.add(sphereSpec(Vec3::Zero(), 0.1, 1000.0));
  expectInvalid([&] { (void)s.pWaveTimestep(); }, "material");
  s.materials.push_back(Material{1000.0, -1.0, 0.2, 0.5});
  expectInvalid([&] { (void)s.pWaveTimestep(); }, "young");
  // Nothing to estimate from: setDtFromStiffness refuses at the step instead of using dt = inf.
  Scene w;
  w.materials.push_back(Material{});
  w.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
  w.setDtFromStiffness(0.5);
  expectInvalid([&] { w.step(); }, "setDtFromStiffness");
}

BOOST_AUTO_TEST_SUITE_END()
