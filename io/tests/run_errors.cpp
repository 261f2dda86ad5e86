// Unit: errors after the start of a run (io/runner.hpp): out of memory (std::bad_alloc) and an
// error of the simulation, thrown at step 250 through Scene::externalForces, stop the run with a
// RunError of their kind naming the step and time; the last good state (step 200) is written and
// loads back. A stop request (RunOptions::stop) ends the run after its step with a checkpoint.
#include "io/checkpoint.hpp"
#include "io/runner.hpp"
#include "io/scene_loader.hpp"

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <filesystem>
#include <new>
#include <stdexcept>
#include <vector>

using namespace dem;
using namespace dem::io;

namespace {

LoadedScene fallingSpheres(const std::filesystem::path& dir) {
  const std::string text = R"({
    "materials": [{"name": "m", "density": 1000, "young": 1e7}],
    "walls": [{"point": [0, 0, 0], "normal": [0, 0, 1], "material": "m"}],
    "generators": [{"type": "lattice", "origin": [0, 0, 0.05], "spacing": 0.03, "count": [2, 2, 2],
                    "radius": 0.01, "material": "m"}],
    "engine": {"dt": 1e-5, "steps": 1000, "gravity": [0, 0, -9.81]},
    "outputs": {"progress": false, "csv": {"interval": 10}, "checkpoint": {"interval": 300}}
  })";
  LoadedScene l = loadSceneText(text, "run_errors.json");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  l.run.outputs.directory = dir.string();
  return l;
}

// Throws `error` from the force field at step 250 (time 2.5e-3 s).
template <class Error>
void throwAtStep250(Scene& s, Error error) {
  s.externalForces = [error](Particles&, double time) {
    if (time > 2.495e-3 && time < 2.505e-3) throw error;
  };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(run_errors)

BOOST_AUTO_TEST_CASE(errors_after_the_start_save_the_last_good_state) {
  const auto dir = std::filesystem::temp_directory_path() / "dem-run-errors-test";
  for (const RunError::Kind kind : {RunError::Kind::Memory, RunError::Kind::Solver}) {
    LoadedScene l = fallingSpheres(dir);
    if (kind == RunError::Kind::Memory) throwAtStep250(l.scene, std::bad_alloc());
    else throwAtStep250(l.scene, std::runtime_error("a field failed"));
    try {
      RunOptions options;
      options.lastGoodInterval = 100;
      runScene(l.scene, l.run, options);
      BOOST_FAIL("no RunError");
    } catch (const RunError& e) {
      const std::string what = e.what();
      BOOST_TEST_MESSAGE(what);
      BOOST_TEST((e.kind == kind));
      BOOST_TEST(what.find("at step 250 (t = 0.0025 s)") != std::string::npos);
      BOOST_TEST(what.find(kind == RunError::Kind::Memory ? "out of memory" : "a field failed") != std::string::npos);
      BOOST_TEST(what.find("the last good state (step 200, t = 0.002 s) is in") != std::string::npos);
    }
    BOOST_TEST(loadCheckpoint((dir / kLastGoodFile).string()).stepCount == 200u);
  }
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(a_stop_request_ends_the_run_with_a_checkpoint) {
  const auto dir = std::filesystem::temp_directory_path() / "dem-run-stop-test";
  LoadedScene l = fallingSpheres(dir);
  std::atomic<int> stop{0};
  l.scene.externalForces = [&stop](Particles&, double time) {
    if (time > 4.125e-3) stop = 15;  // requested during step 413
  };
  RunOptions options;
  options.stop = &stop;
  const RunOutcome r = runScene(l.scene, l.run, options);
  BOOST_TEST(r.stopSignal == 15);
  BOOST_TEST(!r.finished);
  // (step 413 kept no contact results: no output was due after it; the run takes one step more,
  // which keeps them for the checkpoint, and stops there)
  BOOST_TEST(l.scene.stepCount == 415u);
  BOOST_TEST(r.stopCheckpoint == (dir / "restart.ckpt").string());
  const Scene saved = loadCheckpoint(r.stopCheckpoint);
  BOOST_TEST(saved.stepCount == 415u);
  std::size_t differ = 0;
  for (std::size_t k = 0; k < saved.contacts.size(); ++k)
    differ += saved.contacts.get(k).force != l.scene.contacts.get(k).force ||
              saved.contacts.get(k).torque1 != l.scene.contacts.get(k).torque1;
  BOOST_TEST(saved.contacts.size() == l.scene.contacts.size());
  BOOST_TEST(differ == 0u);
  std::filesystem::remove_all(dir);
}

// The contacts' results are kept (Scene::keepContactResults) at the steps whose outputs (the CSV
// every 7 steps, the checkpoint every 300) or end read them, and at no other: not at the copies of
// the last good state (every 500: a checkpoint that records that the step kept none); the last step
// keeps them unless the caller reads nothing after the run (RunOptions::contactResultsAfter) and no
// final state or snapshot is written. The scene's own setting is restored after the run.
BOOST_AUTO_TEST_CASE(the_contacts_results_kept_at_the_steps_that_read_them) {
  const auto dir = std::filesystem::temp_directory_path() / "dem-run-results-test";
  for (const bool after : {true, false}) {
    LoadedScene l = fallingSpheres(dir);
    l.run.steps = 1003;
    l.run.outputs.finalState.clear();
    l.run.outputs.csv.interval = 7;
    Particles& p = l.scene.particles;
    for (std::size_t i = 0; i < p.size(); ++i)
      if (!p.isBoundary(i)) p.pos[i].z() -= 0.040001;  // (the lower four spheres 1 um into the wall)
    std::vector<std::uint64_t> kept;
    l.scene.externalForces = [&](Particles&, double) {
      if (l.scene.keepsContactResults()) kept.push_back(l.scene.stepCount + 1);
    };
    RunOptions options;
    options.contactResultsAfter = after;
    const RunOutcome r = runScene(l.scene, l.run, options);
    BOOST_TEST(r.finished);
    std::vector<std::uint64_t> expected;
    for (std::uint64_t n = 1; n <= 1003; ++n)
      if (n % 7 == 0 || n % 300 == 0 || (after && n == 1003)) expected.push_back(n);
    BOOST_TEST(kept == expected, boost::test_tools::per_element());
    BOOST_TEST(l.scene.contacts.resultColumns() == after);
    BOOST_TEST(l.scene.keepsContactResults());
    if (after) {
      std::size_t real = 0;
      for (const Contact& c : l.scene.contacts.records()) real += c.real;
      BOOST_TEST(real > 0u);  // (the lower spheres on the wall)
    } else {
      BOOST_TEST(l.scene.contacts.size() > 0u);
      BOOST_CHECK_THROW(l.scene.contacts.values(), std::logic_error);
    }
  }
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
