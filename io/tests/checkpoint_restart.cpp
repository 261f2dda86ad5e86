// Unit: checkpoint/restart. A frictional deposition run N steps straight and a run of N/2 steps,
// saved to a file, restored into a fresh Scene and run N/2 more give the same bits: positions,
// velocities, orientations, angular velocities, the contact list in its order with its history, and
// the energy ledger. The same for a sheared periodic packing (examples/sheared_periodic_packing.json
// at a higher rate: the cell flips, dt is re-evaluated from the global-stiffness estimate, contacts
// cross the periodic boundary), and for a layer falling on a wall floor around a small mesh in a cell
// sheared in the xz plane (walls and facets in a cell, flips keeping the floor's axis). Also: a version 1 file is still
// read and resumes (to round-off: it was written by an earlier build); the format's checks (magic, version, checksum,
// truncation) and atomicity (a failed save leaves the previous file intact). A scene read back skips the same dormant
// contacts as the scene it was saved from (Scene::recoverContactMarks; reference: the marks of the saved scene).
// A scene whose spheres were moved to other slots (Scene::renumber) before the checkpoint resumes
// with its user ids and gives the straight run's bits per user id; user ids that are no permutation,
// or that move a body that must keep its slot, are rejected.
#include "io/checkpoint.hpp"
#include "io/scene_loader.hpp"
#include "shuffled_slots.hpp"
#include "solver/builders.hpp"
#include "solver/mesh_generators.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using namespace dem;
using namespace dem::io;

namespace {

template <class T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

bool sameContacts(const ContactStore& a, const ContactStore& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const Contact &x = a.get(k), &y = b.get(k);
    if (x.id1 != y.id1 || x.id2 != y.id2 || x.real != y.real) return false;
    for (const auto& [u, v] : {std::pair{&x.u, &y.u},
                               {&x.phi, &y.phi},
                               {&x.force, &y.force},
                               {&x.normal, &y.normal},
                               {&x.point, &y.point},
                               {&x.torque1, &y.torque1},
                               {&x.damp, &y.damp}})
      if (std::memcmp(u->data(), v->data(), sizeof(Vec3)) != 0) return false;
    if (std::memcmp(x.frame.coeffs().data(), y.frame.coeffs().data(), 4 * sizeof(double)) != 0) return false;
  }
  return true;
}

// The resumed run holds the straight run's bits: the bodies, the contacts in their order with their
// history, the ledger, and the bytes of the whole state.
void checkStraightRunsBits(const Scene& resumed, const Scene& straight) {
  BOOST_TEST(sameBits(resumed.particles.pos, straight.particles.pos));
  BOOST_TEST(sameBits(resumed.particles.vel, straight.particles.vel));
  BOOST_TEST(sameBits(resumed.particles.angVel, straight.particles.angVel));
  BOOST_TEST(sameBits(resumed.particles.force, straight.particles.force));
  BOOST_TEST(sameContacts(resumed.contacts, straight.contacts));
  BOOST_TEST(std::memcmp(&resumed.energy, &straight.energy, sizeof(EnergyLedger)) == 0);
  BOOST_TEST((checkpointBytes(resumed) == checkpointBytes(straight)));
}

DepositionSpec frictionalPour() {
  DepositionSpec spec;
  spec.n = 200;
  spec.material.frictionAngle = 0.5;
  spec.speed = 0.05;  // a stirred pour: contacts form, slide and break during the run
  return spec;
}

const auto kDir = std::filesystem::temp_directory_path() / "dem-checkpoint-test";

}  // namespace

BOOST_AUTO_TEST_SUITE(checkpoint_restart)

// Both laws: Cundall, and Hertz-Mindlin with dashpots (restitution 0.5: the dashpot forces are part of
// the contacts' history).
BOOST_AUTO_TEST_CASE(resumed_deposition_is_bit_identical) {
  for (const ContactLaw law : {ContactLaw::Cundall, ContactLaw::HertzMindlin}) {
    // (Hertz-Mindlin over a third of the run: the same paths - formation, sliding, separation, the
    // dashpots' history - at a third of the cost under the sanitizers)
    const std::uint64_t N = law == ContactLaw::Cundall ? 6000 : 2000;
    DepositionSpec spec = frictionalPour();
    if (law == ContactLaw::HertzMindlin) spec.material.restitution = 0.5;
    const auto pour = [&] {
      Scene s = depositionScene(spec);
      s.law = law;
      return s;
    };
    Scene straight = pour();
    straight.run(N);

    std::filesystem::create_directories(kDir);
    const std::string file = (kDir / "half.ckpt").string();
    {
      Scene first = pour();
      first.run(N / 2);
      saveCheckpoint(first, file);
    }
    Scene resumed = loadCheckpoint(file);
    BOOST_TEST(resumed.stepCount == N / 2);
    BOOST_TEST((resumed.law == law));
    resumed.run(N / 2);

    BOOST_TEST(resumed.stepCount == straight.stepCount);
    BOOST_TEST(resumed.time == straight.time);
    BOOST_TEST(straight.contacts.countReal() > 100u);
    BOOST_TEST(straight.energy.frictionDissipated > 0.0);
    if (law == ContactLaw::HertzMindlin) BOOST_TEST(straight.energy.viscousDissipated > 0.0);
    BOOST_TEST(sameBits(resumed.particles.pos, straight.particles.pos));
    BOOST_TEST(sameBits(resumed.particles.vel, straight.particles.vel));
    BOOST_TEST(sameBits(resumed.particles.angVel, straight.particles.angVel));
    BOOST_TEST(sameBits(resumed.particles.ori, straight.particles.ori));
    BOOST_TEST(sameBits(resumed.particles.force, straight.particles.force));
    BOOST_TEST(sameContacts(resumed.contacts, straight.contacts));
    BOOST_TEST(resumed.collider.runs() == straight.collider.runs());
    BOOST_TEST(std::memcmp(&resumed.energy, &straight.energy, sizeof(EnergyLedger)) == 0);
    // The bytes of the two final states are the same.
    BOOST_TEST((checkpointBytes(resumed) == checkpointBytes(straight)));
    std::filesystem::remove_all(kDir);
  }
}

// A checkpoint of a step that kept no contacts' results (Scene::keepContactResults, as dem-run's
// copies of the last good state): read back, the scene keeps none either (reading them throws, as
// in the scene saved), its bytes are the saved scene's, and it resumes with the straight run's bits.
BOOST_AUTO_TEST_CASE(resumed_from_a_step_without_results_is_bit_identical) {
  const std::uint64_t N = 2000;
  Scene straight = depositionScene(frictionalPour());
  straight.run(N);
  std::filesystem::create_directories(kDir);
  const std::string file = (kDir / "no-results.ckpt").string();
  std::string savedBytes;
  {
    Scene first = depositionScene(frictionalPour());
    first.run(N / 2 - 1);
    first.keepContactResults(false);
    first.run(1);
    first.keepContactResults(true);  // (a setting for the next steps: the store holds none now)
    BOOST_TEST_REQUIRE(!first.contacts.resultColumns());
    saveCheckpoint(first, file);
    savedBytes = checkpointBytes(first);
  }
  Scene resumed = loadCheckpoint(file);
  BOOST_TEST(!resumed.contacts.resultColumns());
  BOOST_TEST(resumed.contacts.countReal() > 10u);  // (30: contacts with history at the checkpoint)
  BOOST_CHECK_THROW(resumed.contacts.get(0), std::logic_error);
  BOOST_TEST((checkpointBytes(resumed) == savedBytes));
  resumed.run(N / 2);
  BOOST_TEST(resumed.contacts.resultColumns());
  checkStraightRunsBits(resumed, straight);
  std::filesystem::remove_all(kDir);
}

// The spatial order's state goes with the checkpoint: a lattice numbered at random is found out of
// order at the first collider run (step 0) and renumbered at the next step; a checkpoint taken in
// between resumes with the renumbering due, and the resumed run gives the straight run's bits (per
// user id) and renumbers as often.
BOOST_AUTO_TEST_CASE(resumed_between_the_spatial_orders_finding_and_its_renumbering) {
  const auto make = [] {
    Scene s = shuffledLatticeFloor(3);
    s.setSpatialOrder(true);
    return s;
  };
  Scene straight = make();
  straight.run(30);
  BOOST_REQUIRE(straight.renumberings() >= 1u);
  std::filesystem::create_directories(kDir);
  const std::string file = (kDir / "due.ckpt").string();
  {
    Scene first = make();
    first.run(1);
    BOOST_REQUIRE(first.renumberings() == 0u);
    saveCheckpoint(first, file);
  }
  Scene resumed = loadCheckpoint(file);
  resumed.setSpatialOrder(true);  // (a setting of the run, as dem-run takes it from the scene file)
  resumed.run(29);
  BOOST_TEST(resumed.renumberings() == straight.renumberings());
  const Particles &p = resumed.particles, &q = straight.particles;
  BOOST_REQUIRE(p.size() == q.size());
  std::size_t differ = 0;
  for (std::size_t u = 0; u < p.size(); ++u) {
    const std::size_t i = p.slotOf[u], j = q.slotOf[u];
    differ += std::memcmp(p.pos[i].data(), q.pos[j].data(), sizeof(Vec3)) != 0 ||
              std::memcmp(p.vel[i].data(), q.vel[j].data(), sizeof(Vec3)) != 0;
  }
  BOOST_TEST(differ == 0u);
  BOOST_TEST(resumed.energy.total() == straight.energy.total());
  std::filesystem::remove(file);
}

// The spheres renumbered (shuffled among their slots) a quarter into the run, a checkpoint at half
// of it: the checkpoint keeps the slots and the user ids, and the resumed run matches both the
// straight run of the scene never renumbered (per user id, and the ledger; both sum in the order
// of user ids from the first step: Scene::setUserIdSums) and the straight run renumbered in the
// same way (every byte of the final state).
BOOST_AUTO_TEST_CASE(resumed_renumbered_deposition_is_bit_identical) {
  const std::uint64_t N = 2000;
  Scene straight = depositionScene(frictionalPour());
  straight.setUserIdSums(true);
  straight.run(N);
  const auto renumbered = [&](std::uint64_t steps) {
    Scene s = depositionScene(frictionalPour());
    s.setUserIdSums(true);
    s.run(N / 4);
    s.renumber(test::shuffledSlots(s.particles, 11));
    s.run(steps - N / 4);
    return s;
  };
  const Scene movedStraight = renumbered(N);

  std::filesystem::create_directories(kDir);
  const std::string file = (kDir / "renumbered.ckpt").string();
  {
    const Scene first = renumbered(N / 2);
    BOOST_REQUIRE(!first.particles.userOrder);
    saveCheckpoint(first, file);
  }
  Scene resumed = loadCheckpoint(file);
  resumed.setUserIdSums(true);  // (a setting of the run, as dem-run takes it from the scene file)
  BOOST_TEST(!resumed.particles.userOrder);
  BOOST_TEST(resumed.particles.userId == movedStraight.particles.userId);
  resumed.run(N / 2);

  const Particles &p = resumed.particles, &q = straight.particles;
  BOOST_REQUIRE(p.size() == q.size());
  std::size_t differ = 0;
  for (std::size_t u = 0; u < p.size(); ++u) {
    const std::size_t i = p.slotOf[u];
    for (const auto& [a, b] : {std::pair{&p.pos[i], &q.pos[u]},
                               {&p.vel[i], &q.vel[u]},
                               {&p.angVel[i], &q.angVel[u]},
                               {&p.force[i], &q.force[u]}})
      differ += std::memcmp(a->data(), b->data(), sizeof(Vec3)) != 0;
    differ += std::memcmp(p.ori[i].coeffs().data(), q.ori[u].coeffs().data(), 4 * sizeof(double)) != 0;
  }
  BOOST_TEST(differ == 0u);
  BOOST_TEST(straight.contacts.countReal() > 100u);
  BOOST_TEST(resumed.contacts.countReal() == straight.contacts.countReal());
  BOOST_TEST(std::memcmp(&resumed.energy, &straight.energy, sizeof(EnergyLedger)) == 0);
  BOOST_TEST((checkpointBytes(resumed) == checkpointBytes(movedStraight)));
  std::filesystem::remove_all(kDir);
}

BOOST_AUTO_TEST_CASE(bad_user_ids_are_rejected) {
  Scene s = depositionScene(frictionalPour());
  s.run(10);
  const auto rejects = [](const Scene& bad, const std::string& needle) {
    try {
      sceneFromCheckpointBytes(checkpointBytes(bad), "x.ckpt");
      BOOST_ERROR("accepted bad user ids (" << needle << ")");
    } catch (const CheckpointError& e) {
      BOOST_TEST_INFO(e.what());
      BOOST_TEST(std::string(e.what()).find(needle) != std::string::npos);
    }
  };
  const Particles& p = s.particles;
  std::size_t sphere = 0;
  while (!p.movable(sphere)) ++sphere;
  BOOST_REQUIRE(p.isWall(0));
  Scene repeated = s;
  repeated.particles.userId[sphere + 1] = repeated.particles.userId[sphere];
  rejects(repeated, "repeated");
  Scene outOfRange = s;
  outOfRange.particles.userId[sphere] = static_cast<std::uint32_t>(p.size());
  rejects(outOfRange, "out of range");
  Scene wallMoved = s;  // a wall and a sphere swap their user ids
  std::swap(wallMoved.particles.userId[0], wallMoved.particles.userId[sphere]);
  rejects(wallMoved, "only spheres outside clumps move");
}

// The example at 8 times its shear rate and compression rate, so that a short run densifies,
// flips the cell and builds contacts across the periodic boundary.
Scene fastShear() {
  std::ifstream in(std::string(DEM_SOURCE_DIR) + "/examples/sheared_periodic_packing.json");
  std::ostringstream text;
  text << in.rdbuf();
  nlohmann::json d = nlohmann::json::parse(text.str());
  d["cell"]["velGrad"] = {{0, 40, 0}, {0, -20, 0}, {0, 0, 0}};
  return loadSceneText(d.dump(), "sheared_periodic_packing.json").scene;
}

BOOST_AUTO_TEST_CASE(resumed_sheared_periodic_packing_is_bit_identical) {
  constexpr std::uint64_t N = 2000;
  Scene straight = fastShear();
  const Mat3 H0 = straight.cell->H();
  straight.run(N);

  std::filesystem::create_directories(kDir);
  const std::string file = (kDir / "periodic.ckpt").string();
  {
    Scene first = fastShear();
    first.run(N / 2 + 37);  // off the dt re-evaluation interval (200)
    saveCheckpoint(first, file);
  }
  Scene resumed = loadCheckpoint(file);
  BOOST_REQUIRE(resumed.cell.has_value());
  resumed.run(N / 2 - 37);

  // The run exercised what the checkpoint must carry.
  BOOST_TEST((straight.cell->H0() != H0));  // flipped
  BOOST_TEST(straight.contacts.countReal() > 300u);
  std::size_t across = 0;
  for (const Contact& c : straight.contacts.records()) across += c.real && c.cellDist != Eigen::Vector3i::Zero();
  BOOST_TEST(across > 10u);
  BOOST_TEST(straight.energy.frictionDissipated > 0.0);
  BOOST_TEST(straight.energy.cellWork > 0.0);
  BOOST_TEST(straight.dtSafety() == 0.5);

  BOOST_TEST(resumed.stepCount == straight.stepCount);
  BOOST_TEST(resumed.time == straight.time);
  BOOST_TEST(resumed.dt() == straight.dt());
  BOOST_TEST(sameBits(resumed.particles.pos, straight.particles.pos));
  BOOST_TEST(sameBits(resumed.particles.vel, straight.particles.vel));
  BOOST_TEST(sameBits(resumed.particles.angVel, straight.particles.angVel));
  BOOST_TEST(sameContacts(resumed.contacts, straight.contacts));
  for (std::size_t k = 0; k < std::min(resumed.contacts.size(), straight.contacts.size()); ++k)
    BOOST_TEST((resumed.contacts.get(k).cellDist == straight.contacts.get(k).cellDist));
  BOOST_TEST(std::memcmp(resumed.cell->H().data(), straight.cell->H().data(), sizeof(Mat3)) == 0);
  BOOST_TEST(std::memcmp(resumed.stress.data(), straight.stress.data(), sizeof(Mat3)) == 0);
  BOOST_TEST(std::memcmp(&resumed.energy, &straight.energy, sizeof(EnergyLedger)) == 0);
  BOOST_TEST((checkpointBytes(resumed) == checkpointBytes(straight)));
  std::filesystem::remove_all(kDir);
}

// io/tests/data/clump_v1.ckpt: written by checkpoint format version 1 from this scene after 50 steps.
// 48 spheres falling onto a wall floor z = 0 around a small cube of facets, in the cell
// (0.1, 0.1, 0.5) m sheared in the xz plane at 5 /s (flips), started on the affine field.
Scene layerOnFloorInShearedCell() {
  Scene s;
  Material m{2600.0, 1e7, 0.2, 0.5};
  m.restitution = 0.5;
  s.materials = {m};
  s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
  s.particles.addMesh(boxMesh(Vec3(0.03, 0.03, 0.0), Vec3(0.045, 0.045, 0.01), true), 0);
  const double R = 0.008;
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i) {
        ParticleSpec p = sphereSpec(Vec3(0.0125 + 0.025 * i, 0.0125 + 0.025 * j, 0.025 + 0.02 * k), R, m.density);
        p.vel = Vec3(0.05 * (i - 1.5), 0.03 * (j - 1.5), -0.5);
        s.particles.add(p);
      }
  s.gravity = Vec3(0, 0, -9.81);
  s.setDt(0.1 * std::sqrt(sphereMass(R, m.density) / (m.young * R)));
  s.setCell(Cell::box(Vec3(0.1, 0.1, 0.5)));
  Mat3 L = Mat3::Zero();
  L(0, 2) = 5.0;
  s.cell->setVelGrad(L);
  s.cell->flipFlippable = true;
  s.startOnAffineField();
  return s;
}

BOOST_AUTO_TEST_CASE(resumed_layer_on_a_floor_in_a_sheared_cell_is_bit_identical) {
  constexpr std::uint64_t N = 2000;
  Scene straight = layerOnFloorInShearedCell();
  const Mat3 H0 = straight.cell->H();
  std::size_t wallReal = 0, facetReal = 0;
  for (std::uint64_t k = 0; k < N; ++k) {
    straight.step();
    for (std::size_t c = 0; c < straight.contacts.size(); ++c) {
      wallReal += straight.contacts.real(c) && straight.contacts.type(c) == ContactType::SphereWall;
      facetReal += straight.contacts.real(c) && straight.contacts.type(c) == ContactType::SphereFacet;
    }
  }
  std::filesystem::create_directories(kDir);
  const std::string file = (kDir / "floor.ckpt").string();
  {
    Scene first = layerOnFloorInShearedCell();
    first.run(N / 2 + 37);
    saveCheckpoint(first, file);
  }
  Scene resumed = loadCheckpoint(file);
  resumed.run(N / 2 - 37);
  BOOST_TEST((straight.cell->H0() != H0));  // flipped
  BOOST_TEST(wallReal > 0u);
  BOOST_TEST(facetReal > 0u);
  checkStraightRunsBits(resumed, straight);
  std::filesystem::remove_all(kDir);
}

Scene clumpOnFloor() {
  Scene s;
  s.materials.push_back(Material{});
  s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
  const auto a = s.particles.add(sphereSpec(Vec3(0, 0, 0.105), 0.1, 1000)),
             b = s.particles.add(sphereSpec(Vec3(0.15, 0, 0.3), 0.1, 1000));
  s.particles.add(sphereSpec(Vec3(0.5, 0, 0.0995), 0.1, 1000));
  s.addClump({a, b});
  s.gravity = Vec3(0, 0, -9.81);
  s.setDt(1e-4);
  s.setDamping(0.1);
  s.setRotationAlgorithm(RotationAlgorithm::Omelyan);
  return s;
}

// The version 1 file holds the state at step 50 as an earlier build computed it, with its own
// round-off (the contact kernel's arithmetic has changed since), so the resumed run is compared
// with the straight one to a round-off bound, not bit for bit: 50 steps of round-off, eps |x| per
// operation with |x| <= 0.5 m, stay below 1e-13 m (measured: 4e-17 m), while a field the reader
// dropped (the contact history, the clump's members, the leapfrog's mid-step velocities) changes the
// motion at the level of the physics. That the reader restores every stored bit is checked by a
// round trip: the state read from the file, written again as version 2 and read back, gives the same bytes.
BOOST_AUTO_TEST_CASE(read_back_scene_skips_the_same_dormant_contacts) {
  Scene s = depositionScene(frictionalPour());
  std::size_t compared = 0, nontrivial = 0;
  for (int k = 0; k < 40; ++k) {
    s.run(150);
    // (marks are valid while the contact set is as the last partition left it)
    if (s.contacts.activeEnd() == s.contacts.size() && s.collider.runs() > 0) continue;
    const Scene r = sceneFromCheckpointBytes(checkpointBytes(s), "memory");
    BOOST_TEST(r.contacts.activeEnd() == s.contacts.activeEnd());
    ++compared;
    nontrivial += s.contacts.activeEnd() < s.contacts.size();
  }
  BOOST_TEST(compared > 20u);
  BOOST_TEST(nontrivial > 20u);
}

// Particles::angMom in a checkpoint: every body's entry is written whether the scene keeps the array
// or not (a scene of spheres: I w), so the bytes do not depend on it; reading keeps the array only
// where some body is aspherical, with the values written.
BOOST_AUTO_TEST_CASE(angular_momentum_kept_through_restart) {
  const Material sand{2600.0, 1e7, 0.3, 0.4};  // (the checkpoint requires the particles' material)
  Scene s = singleSphereScene(Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), 1e-3);
  s.materials.push_back(sand);
  s.particles.angVel[0] = Vec3(1, 2, 3);
  s.step();
  BOOST_TEST_REQUIRE(s.particles.angMom.empty());
  const Scene spheres = sceneFromCheckpointBytes(checkpointBytes(s), "memory");
  BOOST_TEST(spheres.particles.angMom.empty());
  BOOST_TEST((spheres.particles.angMomOf(0) == s.particles.angMomOf(0)));
  // the same scene stepped with the array kept: the same state, the same bytes
  Scene kept = singleSphereScene(Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), 1e-3);
  kept.materials.push_back(sand);
  kept.particles.angVel[0] = Vec3(1, 2, 3);
  kept.particles.keepAngMom();
  kept.step();
  BOOST_TEST_REQUIRE(kept.particles.angMom.size() == 1u);
  BOOST_TEST((checkpointBytes(kept) == checkpointBytes(s)));

  ParticleSpec top = sphereSpec(Vec3(1, 0, 0), 0.1, 1000.0);
  top.inertia = Vec3(1e-3, 2e-3, 3e-3);
  top.angVel = Vec3(0.5, 0, 0);
  s.particles.add(top);
  const Scene restored = sceneFromCheckpointBytes(checkpointBytes(s), "memory");
  BOOST_TEST_REQUIRE(restored.particles.angMom.size() == 2u);
  BOOST_TEST((restored.particles.angMom == s.particles.angMom));

  // a sphere's L set to another value than I w (as a clump member keeps its own) is kept, and read back
  Scene member = singleSphereScene(Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), 1e-3);
  member.materials.push_back(sand);
  member.particles.setAngMom(0, Vec3(0, 0, 1e-9));
  BOOST_TEST_REQUIRE(member.particles.angMom.size() == 1u);
  const Scene memberRestored = sceneFromCheckpointBytes(checkpointBytes(member), "memory");
  BOOST_TEST_REQUIRE(memberRestored.particles.angMom.size() == 1u);
  BOOST_TEST((memberRestored.particles.angMom[0] == Vec3(0, 0, 1e-9)));
}

// A version 1 file (written before contact laws and wall materials) is read: its contacts with
// history become Cundall contacts with their stored kn, ks, tan phi and no dashpots (those without
// history hold no parameters: the mixing rule's are taken at their next visit, as for any contact
// without history), and a run resumed from it is
// bit-identical to one resumed from its current-version copy. (It is no longer compared with a
// straight run: since walls take their own material, a new sphere-wall contact is half as stiff as
// those the file holds.)
BOOST_AUTO_TEST_CASE(version_1_files_are_read) {
  Scene resumed = loadCheckpoint(std::string(DEM_SOURCE_DIR) + "/io/tests/data/clump_v1.ckpt");
  BOOST_TEST(resumed.stepCount == 50u);
  BOOST_TEST(!resumed.cell.has_value());
  BOOST_TEST((resumed.law == ContactLaw::Cundall));
  std::size_t withParams = 0;
  for (const Contact& c : resumed.contacts.records()) {
    if (unmixed(c.params)) {
      BOOST_TEST(holdsDefaults(c));
      continue;
    }
    ++withParams;
    BOOST_TEST(c.params[0] > 0.0);   // kn
    BOOST_TEST(c.params[3] == 0.0);  // no dashpots
    BOOST_TEST(c.params[4] == 0.0);
  }
  BOOST_TEST(withParams > 0u);
  const std::string asRead = checkpointBytes(resumed);
  Scene copy = sceneFromCheckpointBytes(asRead, "current-version copy");
  BOOST_TEST((checkpointBytes(copy) == asRead));
  resumed.run(50);
  copy.run(50);
  BOOST_TEST(resumed.clumps.list.size() == 1u);
  BOOST_TEST((checkpointBytes(resumed) == checkpointBytes(copy)));
  for (std::size_t i = 0; i < resumed.particles.size(); ++i) BOOST_TEST(resumed.particles.pos[i].allFinite());
}

BOOST_AUTO_TEST_CASE(clump_scene_round_trips) {
  Scene s;
  s.materials.push_back(Material{});
  s.particles.addWall(Vec3::Zero(), Vec3::UnitZ(), 0);
  const auto a = s.particles.add(sphereSpec(Vec3(0, 0, 0.3), 0.1, 1000)),
             b = s.particles.add(sphereSpec(Vec3(0.15, 0, 0.3), 0.1, 1000));
  s.addClump({a, b});
  s.gravity = Vec3(0, 0, -9.81);
  s.setDt(1e-4);
  s.setRotationAlgorithm(RotationAlgorithm::Omelyan);
  s.run(50);
  const Scene r = sceneFromCheckpointBytes(checkpointBytes(s), "mem");
  BOOST_TEST(r.clumps.list.size() == 1u);
  BOOST_TEST((r.rotationAlgorithm() == RotationAlgorithm::Omelyan));
  BOOST_TEST((checkpointBytes(r) == checkpointBytes(s)));
}

BOOST_AUTO_TEST_CASE(corrupt_files_are_rejected) {
  Scene s = depositionScene(frictionalPour());
  s.run(100);
  const std::string good = checkpointBytes(s);
  const auto rejects = [](const std::string& bytes, const std::string& needle) {
    try {
      sceneFromCheckpointBytes(bytes, "x.ckpt");
      BOOST_ERROR("accepted a bad checkpoint (" << needle << ")");
    } catch (const CheckpointError& e) {
      BOOST_TEST_INFO(e.what());
      BOOST_TEST(std::string(e.what()).find(needle) != std::string::npos);
    }
  };
  rejects(good.substr(0, good.size() - 100), "checksum");
  std::string flipped = good;
  flipped[good.size() / 2] ^= 0x10;
  rejects(flipped, "checksum");
  std::string version = good;
  version[8] = 99;
  rejects(version, "version 99");
  rejects("hello", "bad magic");
  rejects("", "bad magic");
  BOOST_CHECK_THROW(loadCheckpoint("/nonexistent/x.ckpt"), CheckpointError);
}

BOOST_AUTO_TEST_CASE(failed_save_keeps_the_previous_file) {
  std::filesystem::create_directories(kDir);
  const std::string file = (kDir / "keep.ckpt").string();
  Scene s = depositionScene(frictionalPour());
  saveCheckpoint(s, file);
  const auto before = std::filesystem::file_size(file);
  // The temporary file cannot be created: a directory is in its place.
  std::filesystem::create_directories(file + ".tmp");
  s.run(10);
  BOOST_CHECK_THROW(saveCheckpoint(s, file), std::runtime_error);
  BOOST_TEST(std::filesystem::file_size(file) == before);
  BOOST_TEST(loadCheckpoint(file).stepCount == 0u);
  std::filesystem::remove_all(kDir);
}

BOOST_AUTO_TEST_SUITE_END()
