// Unit: once the bodies have left the slots of their user ids (Scene::sumOrder() is UserIds), no
// result depends on where they are stored. Scene::renumber moves the movable spheres to other slots
// between steps (as the spatial order does, spatial_order.hpp); two runs renumbered at random at
// different steps (both from the first step) keep every body's state (by user id), every contact's
// force and the whole energy ledger the same bits, with walls, meshes, clumps, a sheared periodic
// cell, both laws, the automatic timestep and any thread count.
#include "solver/builders.hpp"
#include "solver/spatial_order.hpp"
#include "solver/wall_loads.hpp"
#include "solver/unbalanced_force.hpp"
#include "unit/same_bits.hpp"

#include <boost/test/unit_test.hpp>
#include <omp.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>

using namespace dem;
using dem::test::sameValue;

namespace {

// newSlot moving the movable bodies to the movable slots in a random order.
std::vector<std::uint32_t> shuffledSlots(const Particles& p, std::uint64_t seed) {
  std::vector<std::uint32_t> movable;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p.movable(i)) movable.push_back(static_cast<std::uint32_t>(i));
  std::vector<std::uint32_t> target = movable;
  std::mt19937_64 rng(seed);
  std::shuffle(target.begin(), target.end(), rng);
  std::vector<std::uint32_t> newSlot(p.size());
  std::iota(newSlot.begin(), newSlot.end(), std::uint32_t{0});
  for (std::size_t m = 0; m < movable.size(); ++m) newSlot[movable[m]] = target[m];
  return newSlot;
}

// Runs `steps` steps, renumbering the bodies at random before the steps in `at`.
void runRenumbered(Scene& s, std::uint64_t steps, const std::set<std::uint64_t>& at, std::uint64_t seed) {
  for (std::uint64_t n = 0; n < steps; ++n) {
    if (at.count(n)) s.renumber(shuffledSlots(s.particles, seed + n));
    s.step();
  }
}

// Every body (by user id), every real contact (by its bodies' user ids) and the ledger: the same bits.
void expectSameResults(const Scene& a, const Scene& b) {
  const Particles& pa = a.particles;
  const Particles& pb = b.particles;
  BOOST_TEST_REQUIRE(pa.size() == pb.size());
  std::size_t bodies = 0;
  for (std::size_t u = 0; u < pa.size(); ++u) {
    const std::size_t i = pa.slotOf[u], j = pb.slotOf[u];
    bodies += !(sameValue(pa.pos[i], pb.pos[j]) && sameValue(pa.vel[i], pb.vel[j]) &&
                sameValue(pa.angVel[i], pb.angVel[j]) && sameValue(pa.ori[i].coeffs(), pb.ori[j].coeffs()) &&
                sameValue(pa.force[i], pb.force[j]) && sameValue(pa.torque[i], pb.torque[j]));
  }
  BOOST_TEST(bodies == 0u);
  std::size_t contacts = 0, real = 0;
  for (std::size_t k = 0; k < a.contacts.size(); ++k) {
    if (!a.contacts.real(k)) continue;
    ++real;
    const std::int64_t q = b.contacts.find(pb.slotOf[pa.userId[a.contacts.id1(k)]], pb.slotOf[pa.userId[a.contacts.id2(k)]]);
    contacts += !(q >= 0 && b.contacts.real(static_cast<std::size_t>(q)) &&
                  sameValue(a.contacts.vec(col::fx, k), b.contacts.vec(col::fx, static_cast<std::size_t>(q))) &&
                  sameValue(a.contacts.vec(col::ux, k), b.contacts.vec(col::ux, static_cast<std::size_t>(q))));
  }
  BOOST_TEST(real > 0u);
  BOOST_TEST(real == b.contacts.countReal());
  BOOST_TEST(contacts == 0u);
  const EnergyLedger& ea = a.energy;
  const EnergyLedger& eb = b.energy;
  for (const auto& [x, y] : {std::pair{ea.kinetic, eb.kinetic}, {ea.rotational, eb.rotational}, {ea.gravity, eb.gravity},
                             {ea.elastic, eb.elastic}, {ea.frictionDissipated, eb.frictionDissipated},
                             {ea.dampingDissipated, eb.dampingDissipated}, {ea.viscousDissipated, eb.viscousDissipated},
                             {ea.springDissipated, eb.springDissipated}, {ea.boundaryWork, eb.boundaryWork},
                             {ea.cellWork, eb.cellWork}, {ea.total(), eb.total()}})
    BOOST_TEST(sameValue(x, y));
  BOOST_TEST(sameValue(a.stress, b.stress));
  BOOST_TEST(sameValue(a.dt(), b.dt()));
  BOOST_TEST(sameValue(unbalancedForce(pa, a.contacts), unbalancedForce(pb, b.contacts)));
  const std::vector<WallLoad> wa = wallLoads(pa, a.contacts), wb = wallLoads(pb, b.contacts);
  BOOST_TEST_REQUIRE(wa.size() == wb.size());
  for (std::size_t w = 0; w < wa.size(); ++w)
    BOOST_TEST((sameValue(wa[w].force, wb[w].force) && sameValue(wa[w].torque, wb[w].torque)));
}

DepositionSpec stirred(std::size_t n) {
  DepositionSpec spec;
  spec.n = n;
  spec.material.frictionAngle = 0.4;
  spec.damping = 0.2;
  spec.speed = 0.5;  // the spheres collide in the air at once
  return spec;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(storage_order)

// Walls, both laws (Hertz-Mindlin with dashpots), the automatic timestep re-evaluated every 50 steps.
BOOST_AUTO_TEST_CASE(deposition_same_bits_when_the_bodies_move_in_storage) {
  for (const ContactLaw law : {ContactLaw::Cundall, ContactLaw::HertzMindlin}) {
    DepositionSpec spec = stirred(2500);
    if (law == ContactLaw::HertzMindlin) spec.material.restitution = 0.5;
    Scene a = depositionScene(spec), b = depositionScene(spec);
    for (Scene* s : {&a, &b}) {
      s->law = law;
      s->setDtFromStiffness(0.5, 50);
    }
    runRenumbered(a, 300, {0}, 100);
    runRenumbered(b, 300, {0, 1, 77, 150, 151, 260}, 7);
    BOOST_TEST(!b.particles.userOrder);
    expectSameResults(a, b);
  }
}

// One and two threads on a renumbered scene: the same bits as the straight run on one thread.
BOOST_AUTO_TEST_CASE(renumbered_deposition_same_bits_for_1_and_2_threads) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  Scene a = depositionScene(stirred(2500));
  runRenumbered(a, 250, {0}, 100);
  omp_set_num_threads(2);
  Scene b = depositionScene(stirred(2500));
  runRenumbered(b, 250, {0, 3, 120}, 11);
  omp_set_num_threads(saved);
  expectSameResults(a, b);
}

// A mesh box (facet contacts, the facet pass) with clumps of two spheres falling in.
BOOST_AUTO_TEST_CASE(mesh_box_and_clumps_same_bits_when_the_bodies_move_in_storage) {
  DepositionSpec spec = stirred(1200);
  spec.meshBox = true;
  const auto make = [&] {
    Scene s = depositionScene(spec);
    // every fifth pair of spheres a clump (members and clump bodies never move)
    std::vector<std::size_t> spheres;
    for (std::size_t i = 0; i < s.particles.size(); ++i)
      if (!s.particles.isBoundary(i)) spheres.push_back(i);
    for (std::size_t m = 0; m + 1 < spheres.size(); m += 10) s.addClump({spheres[m], spheres[m + 1]});
    return s;
  };
  Scene a = make(), b = make();
  runRenumbered(a, 300, {0}, 100);
  runRenumbered(b, 300, {0, 99, 200}, 5);
  BOOST_TEST(!b.particles.userOrder);
  BOOST_TEST(a.contacts.countReal(ContactType::SphereFacet) > 0u);
  expectSameResults(a, b);
}

// A sheared periodic cell: contacts across the boundary, the contact stress and the cell's work.
BOOST_AUTO_TEST_CASE(sheared_cell_same_bits_when_the_bodies_move_in_storage) {
  PeriodicLatticeSpec spec;
  spec.m = 12;
  spec.radius = 0.085;  // dense: real contacts from the first step
  spec.speed = 0.05;
  spec.damping = 0.1;
  spec.H = 2.0 * Mat3::Identity();
  const auto make = [&] {
    Scene s = periodicLatticeScene(spec);
    Mat3 L = Mat3::Zero();
    L(0, 1) = 0.5;  // simple shear
    s.cell->setVelGrad(L);
    return s;
  };
  Scene a = make(), b = make();
  runRenumbered(a, 200, {0}, 100);
  runRenumbered(b, 200, {0, 50, 51, 170}, 3);
  expectSameResults(a, b);
}

// The spatial order itself: a lattice of spheres numbered at random is renumbered after the first
// collider run (most contacts far apart in storage), after which few are; the run gives the same
// bits as one with the spatial order off whose bodies are moved at random at the same step.
BOOST_AUTO_TEST_CASE(spatial_order_renumbers_a_shuffled_packing_and_changes_no_result) {
  const auto make = [] { return shuffledLatticeFloor(3); };
  Scene a = make(), b = make();
  b.setSpatialOrder(true);
  runRenumbered(a, 60, {1}, 100);
  b.run(60);
  BOOST_TEST(a.renumberings() == 0u);
  BOOST_TEST(b.renumberings() >= 1u);
  BOOST_TEST(farContactShare(b.contacts) < 0.05);
  expectSameResults(a, b);
}

// Errors name bodies by user id, wherever the bodies are stored: the p-wave timestep's invalid
// material after a renumbering names the body the user set it on.
BOOST_AUTO_TEST_CASE(errors_name_user_ids_after_a_renumbering) {
  Scene s = depositionScene(stirred(300));
  s.renumber(shuffledSlots(s.particles, 3));
  const std::uint32_t user = 123;
  const std::uint32_t slot = s.particles.slotOf[user];
  BOOST_TEST_REQUIRE(slot != user);
  s.particles.material[slot] = 99;
  std::string message;
  try {
    s.pWaveTimestep();
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  BOOST_TEST(message.find("particle 123:") != std::string::npos, message);
}

BOOST_AUTO_TEST_SUITE_END()
