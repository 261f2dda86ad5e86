// Unit: the runner's last good state (io/last_good_state.hpp). While a run goes on it is in the
// hidden pending file of the output directory; the file is gone after a run that finishes or stops
// on request; after a runaway, the last-good file holds the state of the last good step, byte for
// byte the checkpoint of an uninterrupted run of that many steps (it restarts bit-identically);
// when the pending file cannot be written the state is kept in memory and saved all the same.
#include "io/checkpoint.hpp"
#include "io/runner.hpp"
#include "io/scene_loader.hpp"

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

using namespace dem;
using namespace dem::io;

namespace {

const auto kGoodDir = std::filesystem::temp_directory_path() / "dem-last-good-test";
const auto kPending = kGoodDir / pendingLastGoodFile(kLastGoodFile);

// 27 spheres dropped onto a floor.
LoadedScene droppedLattice(const char* dt, std::uint64_t steps) {
  const std::string text = std::string(R"({
    "materials": [{"name": "m", "density": 1000, "young": 1e7}],
    "walls": [{"point": [0, 0, 0], "normal": [0, 0, 1], "material": "m"}],
    "generators": [{"type": "lattice", "origin": [0, 0, 0.0095], "spacing": 0.019, "count": [3, 3, 3],
                    "radius": 0.01, "material": "m"}],
    "engine": {"dt": )") + dt +
                           R"(, "steps": )" + std::to_string(steps) + R"(, "gravity": [0, 0, -9.81]},
    "outputs": {"progress": false, "csv": {"interval": 10}}
  })";
  LoadedScene l = loadSceneText(text, "last_good.json");
  std::filesystem::remove_all(kGoodDir);
  std::filesystem::create_directories(kGoodDir);
  l.run.outputs.directory = kGoodDir.string();
  return l;
}

std::string bytesOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(last_good_state)

BOOST_AUTO_TEST_CASE(the_pending_file_exists_during_the_run_only) {
  LoadedScene l = droppedLattice("1e-5", 300);
  bool seen = false;
  l.scene.externalForces = [&seen](Particles&, double) { seen = seen || std::filesystem::exists(kPending); };
  RunOptions options;
  options.lastGoodInterval = 100;
  BOOST_TEST(runScene(l.scene, l.run, options).finished);
  BOOST_TEST(seen);
  BOOST_TEST(!std::filesystem::exists(kPending));
  BOOST_TEST(!std::filesystem::exists(kGoodDir / kLastGoodFile));

  LoadedScene stopped = droppedLattice("1e-5", 300);
  std::atomic<int> stop{15};
  options.stop = &stop;
  BOOST_TEST(runScene(stopped.scene, stopped.run, options).stopSignal == 15);
  BOOST_TEST(!std::filesystem::exists(kPending));
  std::filesystem::remove_all(kGoodDir);
}

// A non-finite force on a sphere (the last body; the first is the floor) at step 26 (time 2.6e-4 s): a runaway after
// the good states of steps 10, 20.
void nanForceAtStep26(Scene& s) {
  s.externalForces = [](Particles& p, double time) {
    if (time > 2.55e-4) p.force.back().x() = std::numeric_limits<double>::quiet_NaN();
  };
}

BOOST_AUTO_TEST_CASE(after_a_runaway_the_last_good_file_is_the_state_of_its_step) {
  LoadedScene l = droppedLattice("1e-5", 1000);
  nanForceAtStep26(l.scene);
  RunOptions options;
  options.lastGoodInterval = 10;
  const RunOutcome r = runScene(l.scene, l.run, options);
  BOOST_REQUIRE(r.runaway.has_value());
  BOOST_TEST_MESSAGE("runaway at step " << r.runaway->step << ", last good step " << r.lastGoodStep);
  BOOST_TEST(r.lastGoodStep == 20u);
  BOOST_TEST(r.lastGoodPath == (kGoodDir / kLastGoodFile).string());
  BOOST_TEST(!std::filesystem::exists(kPending));
  const std::string saved = bytesOf(r.lastGoodPath);
  CheckpointInfo info;
  loadCheckpoint(r.lastGoodPath, &info);
  BOOST_REQUIRE(info.outputs.has_value());
  LoadedScene straight = droppedLattice("1e-5", 1000);
  nanForceAtStep26(straight.scene);  // (the same open system, up to step 20)
  straight.scene.run(r.lastGoodStep);
  BOOST_TEST((saved == checkpointBytes(straight.scene, *info.outputs)));
  std::filesystem::remove_all(kGoodDir);
}

BOOST_AUTO_TEST_CASE(an_unwritable_pending_file_keeps_the_state_in_memory) {
  LoadedScene l = droppedLattice("1e-5", 1000);
  nanForceAtStep26(l.scene);
  std::filesystem::create_directories(kPending / "occupied");  // a directory in the pending file's place
  RunOptions options;
  options.lastGoodInterval = 10;
  const RunOutcome r = runScene(l.scene, l.run, options);
  BOOST_REQUIRE(r.runaway.has_value());
  BOOST_TEST(loadCheckpoint(r.lastGoodPath).stepCount == 20u);
  BOOST_TEST(std::filesystem::exists(kPending / "occupied"));  // (not ours: left alone)
  std::filesystem::remove_all(kGoodDir);
}

BOOST_AUTO_TEST_SUITE_END()
