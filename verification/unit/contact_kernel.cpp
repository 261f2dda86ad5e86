// Unit: the contact kernel (solver/contact_kernel.hpp) is one implementation. The batched loop
// (contactStage: lanes, staged inputs, columns) and the one-contact path (evaluateContact<Law>, T =
// double) give every contact the same bits - history, force, torques, energies - for both laws, with
// dashpots, in a stirred pour where contacts form (the formation path), slide and separate; and the
// laws' forces match their closed forms on a static overlap.
#include "solver/contact_kernel.hpp"
#include "solver/builders.hpp"
#include "solver/contact_loop.hpp"
#include "solver/laws.hpp"
#include "solver/scene.hpp"
#include "solver/triangle.hpp"
#include "unit/same_bits.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <optional>

using namespace dem;

using dem::test::sameContact;

namespace {

// A stirred pour of n spheres with dashpots (e = 0.6) run with `law` to step 4000, into a box of walls
// or of a mesh.
Scene stirredPour(ContactLaw law, std::size_t n = 600, bool meshBox = false) {
  DepositionSpec spec;
  spec.n = n;
  spec.meshBox = meshBox;
  spec.material.frictionAngle = 0.5;
  spec.material.restitution = 0.6;
  spec.material.poisson = 0.3;
  spec.speed = 0.3;
  Scene s = depositionScene(spec);
  s.law = law;
  s.run(4000);
  return s;
}

// The one-contact kernel on a stored contact, a lean one with the parameters of the mixing rule for
// its bodies (the loop's at its visit).
template <class Law>
void evaluateOne(const Scene& s, Contact& one, const PeriodicShift* shift = nullptr) {
  if (unmixed(one.params)) one.params = makeContact(s.particles, s.materials, one.id1, one.id2, s.law).params;
  evaluateContact<Law>(s.particles, one, s.dt(), shift);
}

// The same bits as the loop's contact, which holds no parameters when the loop left it lean.
bool sameAsLoop(Contact one, const Contact& looped) {
  if (unmixed(looped.params) && holdsDefaults(one)) one.params = looped.params;
  return sameContact(one, looped);
}

// Runs the loop on a copy of the contacts and the one-contact kernel on each contact (with the
// scene's cell, if any); counts the contacts whose results differ in any bit, those that formed in
// this stage and the real ones that see their second body across the cell.
template <class Law>
void compareLoopWithOneContact(const Scene& s) {
  std::optional<PeriodicShift> shift;
  if (s.cell) shift = PeriodicShift{s.cell->H(), s.cell->imageVelocity()};
  ContactStore loop;
  for (const Contact& c : s.contacts.records()) loop.add(c);
  Particles p = s.particles;
  ContactScratch scratch;
  contactStage(p, s.materials, loop, s.dt(), scratch, Law::kind, shift ? &*shift : nullptr);
  std::size_t differing = 0, real = 0, formed = 0, across = 0;
  for (std::size_t k = 0; k < loop.size(); ++k) {
    Contact one = s.contacts.get(k);
    const bool wasReal = one.real != 0;
    evaluateOne<Law>(s, one, shift ? &*shift : nullptr);
    if (!sameAsLoop(one, loop.get(k))) ++differing;
    real += one.real;
    formed += one.real && !wasReal;
    across += one.real && !one.cellDist.isZero();
  }
  BOOST_TEST_MESSAGE(Law::name << ": " << loop.size() << " contacts, " << real << " real, " << formed
                               << " formed this step, " << across << " real across the cell");
  BOOST_TEST(real > 100u);
  BOOST_TEST(differing == 0u);
  if (s.cell) BOOST_TEST(across > 20u);
}

// A dense packing in a sheared, tilted periodic cell, run until its contacts are real: whole batches
// of real sphere-sphere contacts (staged as lanes), some of them across the cell with the image's
// shift and velocity.
Scene shearedPacking(ContactLaw law) {
  PeriodicLatticeSpec spec;
  spec.m = 10;
  spec.radius = 0.085;
  spec.spread = 0.1;
  spec.speed = 0.05;
  spec.damping = 0.1;
  spec.H << 1.0, 0.3, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0;
  Scene s = periodicLatticeScene(spec);
  s.law = law;
  Mat3 L = Mat3::Zero();
  L(0, 1) = 0.5;  // simple shear
  s.cell->setVelGrad(L);
  s.run(200);
  return s;
}

// Mesh walls: the loop decides which facet contacts count and moves histories across shared edges
// (facet_contacts.hpp) before the kernel; the same decision made on a copy gives the contacts the
// one-contact kernel starts from. Those that count get the loop's bits; those left out are not real.
// Returns how many contacts were left out.
template <class Law>
std::size_t compareFacetContacts(const Scene& s) {
  ContactStore loop, pre;
  for (const Contact& c : s.contacts.records()) {
    loop.add(c);
    pre.add(c);
  }
  Particles p = s.particles;
  FacetContactScratch decided;
  resolveFacetContacts(p, pre, pre.size(), decided, nullptr);
  ContactScratch scratch;
  contactStage(p, s.materials, loop, s.dt(), scratch, Law::kind);
  std::size_t differing = 0, facetReal = 0, leftOut = 0;
  for (std::size_t k = 0; k < loop.size(); ++k) {
    if (pre.type(k) == ContactType::SphereFacet && decided.leftOut[k]) {
      ++leftOut;
      differing += loop.real(k);
      continue;
    }
    Contact one = pre.get(k);
    evaluateOne<Law>(s, one);
    if (!sameAsLoop(one, loop.get(k))) ++differing;
    facetReal += one.real && one.type == ContactType::SphereFacet;
  }
  BOOST_TEST_MESSAGE(Law::name << ": " << facetReal << " real facet contacts, " << leftOut << " left out");
  BOOST_TEST(facetReal > 20u);
  BOOST_TEST(differing == 0u);
  return leftOut;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(contact_kernel)

BOOST_AUTO_TEST_CASE(facet_contacts_in_the_loop_and_one_contact_give_the_same_bits) {
  std::size_t leftOut = 0;  // (the rule was exercised)
  for (const ContactLaw law : {ContactLaw::Cundall, ContactLaw::HertzMindlin}) {
    const Scene s = stirredPour(law, 400, true);
    withLaw(law, [&](auto l) { leftOut += compareFacetContacts<decltype(l)>(s); });
  }
  BOOST_TEST(leftOut > 0u);
}

BOOST_AUTO_TEST_CASE(loop_and_one_contact_give_the_same_bits) {
  compareLoopWithOneContact<Cundall>(stirredPour(ContactLaw::Cundall));
  compareLoopWithOneContact<HertzMindlin>(stirredPour(ContactLaw::HertzMindlin));
}

BOOST_AUTO_TEST_CASE(loop_and_one_contact_give_the_same_bits_in_a_sheared_cell) {
  compareLoopWithOneContact<Cundall>(shearedPacking(ContactLaw::Cundall));
  compareLoopWithOneContact<HertzMindlin>(shearedPacking(ContactLaw::HertzMindlin));
}

// Formation on lanes: a contact that forms in the loop gets the frame and shear start of the
// one-contact path, in any lane (every contact of the store is made new: not real, no history).
BOOST_AUTO_TEST_CASE(formation_is_the_same_in_every_lane) {
  Scene s = stirredPour(ContactLaw::HertzMindlin);
  for (std::size_t k = 0; k < s.contacts.size(); ++k) {
    Contact c = s.contacts.get(k);
    const Contact fresh = makeContact(s.particles, s.materials, c.id1, c.id2, s.law);
    c.real = 0;
    c.u.setZero();
    c.phi.setZero();
    c.damp.setZero();
    c.params = fresh.params;
    s.contacts.set(k, c);
  }
  compareLoopWithOneContact<HertzMindlin>(s);
}

// Static overlap d of a sphere on a wall of the same material, at rest: Hertz F = K d^(3/2) with
// K = (4/3) E* sqrt(R*), 1/E* = 2 (1 - nu^2)/E, R* = R (Johnson 1985); Cundall F = kn d with
// kn = E R (springs 2 E R in series). Round-off: that of the overlap from the positions, and a few
// ulps of the products.
BOOST_AUTO_TEST_CASE(static_overlap_force_matches_the_closed_forms) {
  Material mat{2600.0, 1e7, 0.3, 0.4};
  mat.poisson = 0.3;
  const double R = 0.01, d = 2e-4;
  for (const ContactLaw law : {ContactLaw::Cundall, ContactLaw::HertzMindlin}) {
    Scene s;
    s.materials.push_back(mat);
    s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
    s.particles.add(sphereSpec(Vec3(0, 0, R - d), R, mat.density));
    Contact c = makeContact(s.particles, s.materials, 0, 1, law);
    withLaw(law, [&](auto l) { evaluateContact<decltype(l)>(s.particles, c, 1e-6); });
    const double eStar = mat.young / (2.0 * (1.0 - mat.poisson * mat.poisson));
    const double expected =
        law == ContactLaw::HertzMindlin ? 4.0 / 3.0 * eStar * std::sqrt(R) * d * std::sqrt(d) : mat.young * R * d;
    BOOST_TEST(c.real == 1);
    const double eps = std::numeric_limits<double>::epsilon();
    // the overlap comes from positions of size R: |delta d| <= eps R, i.e. eps R/d relative (x 3/2 for
    // Hertz), plus a few ulps of the products
    BOOST_TEST(std::abs(c.force[2] - expected) <=
               (1.5 * eps * R / d + 8 * eps) * expected);        // on the sphere (particle 1): +z
    BOOST_TEST(c.force.head<2>().norm() <= 4 * eps * expected);  // at rest: no shear (tau = 0)
    BOOST_TEST(c.id1 == 1u);
  }
}

// A sphere driven at constant velocity straight through a facet (tunnelling): its centre passes
// the facet's plane, where the contact normal reverses exactly in one step (the closest point lies
// inside the face, d along the facet's normal). The kernel must go on with finite values (the half
// turn of the frame, contact_kernel.hpp) and the contact must separate on the far side.
BOOST_AUTO_TEST_CASE(reversed_normal) {
  Scene s;
  s.materials = {Material{2500.0, 1e7, 0.3, 0.5}};
  s.gravity = Vec3::Zero();
  const double R = 0.005;
  s.particles.addMesh({Triangle{{Vec3(-0.1, -0.1, 0), Vec3(0.1, -0.1, 0), Vec3(0, 0.1, 0)}}}, 0, MeshMotion{}, "plate");
  ParticleSpec ball =
      sphereSpec(Vec3(0.01, 0.0, R + 1.3e-4), R, 2500.0);  // (no step ends with the centre in the plane)
  ball.vel = Vec3(0.0, 0.0, -0.5);                         // (straight down: the closest point stays inside the face)
  ball.blocked = dof::all;
  const std::size_t b = s.particles.add(ball);
  s.setDt(1e-5);
  s.setDamping(0.0);
  bool above = false, below = false;
  for (int n = 0; n < 3000; ++n) {
    s.step();
    for (std::size_t k = 0; k < s.contacts.size(); ++k)
      if (s.contacts.real(k)) {
        const Contact c = s.contacts.get(k);
        BOOST_REQUIRE(allFinite(c.force) && allFinite(c.normal) && allFinite(c.frame));
        above = above || c.normal.z() < 0.0;  // (n from the sphere to the facet: down while above)
        below = below || c.normal.z() > 0.0;
      }
    BOOST_REQUIRE(std::isfinite(s.energy.total()));
  }
  BOOST_TEST(above);
  BOOST_TEST(below);
  BOOST_TEST(s.particles.pos[b].z() < -R);  // through, and the contact gone
  BOOST_TEST(s.contacts.countReal() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
