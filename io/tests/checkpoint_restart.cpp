// Unit: checkpoint/restart. A frictional deposition run N steps straight and a run of N/2 steps,
// saved to a file, restored into a fresh Scene and run N/2 more give the same bits: positions,
// velocities, orientations, angular velocities, the contact list in its order with its history, and
// the energy ledger. Also: the format's checks (magic, version, checksum, truncation) and atomicity
// (a failed save leaves the previous file intact).
#include "io/checkpoint.hpp"
#include "solver/builders.hpp"

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>

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
    const Contact &x = a.items[k], &y = b.items[k];
    if (x.id1 != y.id1 || x.id2 != y.id2 || x.real != y.real) return false;
    for (const auto& [u, v] : {std::pair{&x.u, &y.u}, {&x.phi, &y.phi}, {&x.force, &y.force}, {&x.normal, &y.normal},
                               {&x.point, &y.point}, {&x.torque1, &y.torque1}})
      if (std::memcmp(u->data(), v->data(), sizeof(Vec3)) != 0) return false;
    if (std::memcmp(x.frame.coeffs().data(), y.frame.coeffs().data(), 4 * sizeof(double)) != 0) return false;
  }
  return true;
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

BOOST_AUTO_TEST_CASE(resumed_deposition_is_bit_identical) {
  constexpr std::uint64_t N = 6000;
  Scene straight = depositionScene(frictionalPour());
  straight.run(N);

  std::filesystem::create_directories(kDir);
  const std::string file = (kDir / "half.ckpt").string();
  {
    Scene first = depositionScene(frictionalPour());
    first.run(N / 2);
    saveCheckpoint(first, file);
  }
  Scene resumed = loadCheckpoint(file);
  BOOST_TEST(resumed.stepCount == N / 2);
  resumed.run(N / 2);

  BOOST_TEST(resumed.stepCount == straight.stepCount);
  BOOST_TEST(resumed.time == straight.time);
  BOOST_TEST(straight.contacts.countReal() > 100u);
  BOOST_TEST(straight.energy.frictionDissipated > 0.0);
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
